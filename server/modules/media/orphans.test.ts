import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { media, verificationRequests } from '#server/db/schema.ts';
import { newAgent } from '#tests/agent.ts';
import { buildModel } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { sweepMediaLeftovers } from './orphans.ts';
import { loginAs } from './test-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const WEBP = Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1');
const onDisk = (key: string) => path.join(t.app.storage.root, key);
const exists = (key: string) => fs.existsSync(onDisk(key));

/** Writes a file straight to disk, as a process killed mid-upload left it; `ageMs` back-dates it. */
async function plant(key: string, ageMs = 0) {
  await fs.promises.mkdir(path.dirname(onDisk(key)), { recursive: true });
  await fs.promises.writeFile(onDisk(key), WEBP);
  if (ageMs) {
    const then = new Date(Date.now() - ageMs);
    await fs.promises.utimes(onDisk(key), then, then);
  }
}

const HOUR = 60 * 60 * 1000;

async function photoUid(adId: number): Promise<string> {
  const [row] = await t.database.db.select({ uid: media.uid }).from(media).where(eq(media.adId, adId));
  return row!.uid;
}
let n = 0;

describe('sweepMediaLeftovers (start-up sweep of crash leftovers)', () => {
  it('removes photo folders without a media row, partial writes and unreferenced selfies older than the grace period', async () => {
    const m = await buildModel(t.database.db, { name: `Sobrante ${++n}`, photos: 1 });
    const other = await buildModel(t.database.db, { name: `Sobrante ${++n}`, photos: 0 });
    const recordedUid = await photoUid(m.adId);
    const recorded = `ads/${m.adId}/${recordedUid}`;
    const orphan = `ads/${m.adId}/${crypto.randomUUID()}`;
    const partialOnly = `ads/${m.adId}/${crypto.randomUUID()}`;
    const fresh = `ads/${m.adId}/${crypto.randomUUID()}`;
    // The recorded photo's uid under another ad's folder is not that photo.
    const misplaced = `ads/${other.adId}/${recordedUid}`;
    const keptSelfie = `verification/${m.profileId}/${crypto.randomUUID()}.webp`;
    const orphanSelfie = `verification/${m.profileId}/${crypto.randomUUID()}.webp`;
    await t.database.db.insert(verificationRequests).values({
      modelProfileId: m.profileId,
      code: 'ABC123',
      status: 'pending',
      photoKey: keptSelfie,
      expiresAt: new Date(Date.now() + HOUR),
    });

    for (const w of [400, 800, 1600]) await plant(`${recorded}/${w}.webp`, 2 * HOUR);
    await plant(`${recorded}/800.webp.4242.deadbeef.tmp`, 2 * HOUR);
    for (const w of [320, 800]) await plant(`${orphan}/${w}.webp`, 2 * HOUR);
    await plant(`${orphan}/1600.webp.4242.cafebabe.tmp`, 2 * HOUR);
    await plant(`${partialOnly}/320.webp.4242.00c0ffee.tmp`, 2 * HOUR);
    await plant(`${fresh}/320.webp`);
    await plant(`${fresh}/800.webp.4242.12345678.tmp`);
    await plant(`${misplaced}/800.webp`, 2 * HOUR);
    await plant(keptSelfie, 2 * HOUR);
    await plant(orphanSelfie, 2 * HOUR);
    await plant(`demo/women-9/800.webp`, 2 * HOUR);
    await plant(`promo/stray.webp.4242.abcdef01.tmp`, 2 * HOUR);

    const removed = await sweepMediaLeftovers(t.database.db, t.app.storage);

    expect(removed).toMatchObject({ photos: 3, selfies: 1 });
    expect(exists(orphan)).toBe(false);
    expect(exists(partialOnly)).toBe(false);
    expect(exists(misplaced)).toBe(false);
    expect(exists(orphanSelfie)).toBe(false);
    expect(exists(`${recorded}/800.webp.4242.deadbeef.tmp`)).toBe(false);
    expect(exists(`promo/stray.webp.4242.abcdef01.tmp`)).toBe(false);
    // Kept: the recorded photo's variants, the referenced selfie, what is not ours to judge, and everything younger
    // than the grace period (another process may be about to commit its row).
    for (const w of [400, 800, 1600]) expect(exists(`${recorded}/${w}.webp`)).toBe(true);
    expect(exists(keptSelfie)).toBe(true);
    expect(exists('demo/women-9/800.webp')).toBe(true);
    expect(exists(`${fresh}/320.webp`)).toBe(true);
    expect(exists(`${fresh}/800.webp.4242.12345678.tmp`)).toBe(true);

    // Nothing left to do on a second run.
    expect(await sweepMediaLeftovers(t.database.db, t.app.storage)).toEqual({ photos: 0, selfies: 0, partials: 0 });
  });

  it('copes with an empty or missing storage folder', async () => {
    const { createDiskStorage } = await import('#server/plugins/storage.ts');
    const storage = createDiskStorage(':memory:');
    try {
      expect(await sweepMediaLeftovers(t.database.db, storage)).toEqual({ photos: 0, selfies: 0, partials: 0 });
      await fs.promises.rm(storage.root, { recursive: true, force: true });
      expect(await sweepMediaLeftovers(t.database.db, storage)).toEqual({ photos: 0, selfies: 0, partials: 0 });
    } finally {
      await fs.promises.rm(storage.root, { recursive: true, force: true });
    }
  });
});

describe('GET /media/* serves only photos that have a media row', () => {
  it('answers 404 for a complete file without a row, to its owner and to everyone, on a listed ad and an unlisted one', async () => {
    const listed = await buildModel(t.database.db, { name: `Huérfana ${++n}`, photos: 1 });
    const unlisted = await buildModel(t.database.db, { name: `Huérfana ${++n}`, photos: 1, adActive: false });
    const anonymous = await newAgent(t.app);
    for (const m of [listed, unlisted]) {
      const owner = await loginAs(t.app, t.database.db, m.userId);
      const kept = `ads/${m.adId}/${await photoUid(m.adId)}`;
      const orphan = `ads/${m.adId}/${crypto.randomUUID()}`;
      await plant(`${kept}/800.webp`);
      // A width the row does not list is not part of the photo either.
      await plant(`${kept}/1200.webp`);
      await plant(`${orphan}/800.webp`);

      expect((await owner.get(`/media/${kept}/800.webp`)).statusCode).toBe(200);
      expect((await owner.get(`/media/${kept}/1200.webp`)).statusCode).toBe(404);
      const res = await owner.get(`/media/${orphan}/800.webp`);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).not.toBe('image/webp');
      expect((await anonymous.get(`/media/${orphan}/800.webp`)).statusCode).toBe(404);
    }
    // The listed ad's recorded photo is public; the unlisted one's is not.
    expect((await anonymous.get(`/media/ads/${listed.adId}/${await photoUid(listed.adId)}/800.webp`)).statusCode).toBe(200);
  });
});
