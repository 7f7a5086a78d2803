/**
 * Everything that keeps files, with STORAGE_DRIVER=s3 against a local S3-protocol server (s3rver, started here on
 * loopback): uploads through the real route served back by GET /media/* with the same visibility rules, deletion,
 * verification selfies (private), the data export and erasure, the start-up sweep, demo seeding, and readiness
 * failing when the bucket's server goes away. Nothing may land on the local disk.
 */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadAnswer } from '#contract/media.ts';
import { readyAnswerSchema } from '#contract/system.ts';
import { API } from '#contract/routes.ts';
import { ads, media, verificationRequests } from '#server/db/schema.ts';
import { mediaKey } from '#server/modules/media/images.ts';
import { readBytes, type Storage } from '#server/plugins/storage.ts';
import { newAgent, signedIn } from '#tests/agent.ts';
import { buildModel, CITY } from '#tests/factories.ts';
import { testConfig } from '#server/config.ts';
import { startS3, type S3Server } from '#tests/local-processes.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { sweepMediaLeftovers } from './orphans.ts';
import { jpeg, jpegWithGps } from './test-images.ts';
import { loginAs, multipart, uploadBody } from './test-helpers.ts';

let s3: S3Server;
let t: TestApp;
const db = () => t.database.db;
const OPS_TOKEN = 'ops-token-for-the-readiness-details-0123';

beforeAll(async () => {
  s3 = await startS3();
  // The metrics token: /api/ready names its parts only to operators.
  t = await createTestApp({ storage: s3.storageConfig, metrics: { ...testConfig().metrics, token: OPS_TOKEN } });
});
afterAll(async () => {
  await t?.close();
  await s3?.stop();
});

async function keys(storage: Storage, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of storage.list(prefix)) out.push(entry.key);
  return out.sort();
}

let n = 0;
async function modelWithAd(spec: { userId?: number } = {}) {
  const m = await buildModel(db(), { name: `Modelo S3 ${++n}`, ...spec });
  const agent = await loginAs(t.app, db(), m.userId);
  return { ...m, agent };
}

async function uploadPhoto(agent: Awaited<ReturnType<typeof modelWithAd>>['agent'], adId: number) {
  const body = uploadBody(adId, [{ filename: 'a.jpg', data: await jpeg(900, 600) }]);
  const res = await agent.post('/api/upload/images', body.payload, body.headers);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<UploadAnswer>().data.media[0]!;
}

describe('STORAGE_DRIVER=s3', () => {
  it('is the bucket, not the disk', () => {
    expect(t.app.storage.driver).toBe('s3');
    expect(t.app.storage.root).toBe(`s3://${s3.bucket}`);
  });

  it('stores an upload in the bucket and serves it through GET /media/*: to its owner while unlisted, to a stranger never', async () => {
    const { adId, agent } = await modelWithAd();
    const photo = await uploadPhoto(agent, adId);
    const stored = await keys(t.app.storage, `ads/${adId}/${photo.uid}`);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored).toContain(photo.url.replace('/media/', ''));

    // An upload sends the ad to review: not listed, so private.
    const [ad] = await db().select().from(ads).where(eq(ads.id, adId));
    expect(ad!.isListed).toBe(false);
    const stranger = await newAgent(t.app);
    const hidden = await stranger.get(photo.url);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.body).not.toContain('RIFF');
    const other = await modelWithAd();
    expect((await other.agent.get(photo.url)).statusCode).toBe(404);

    const own = await agent.get(photo.url);
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/webp');
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(own.rawPayload.equals((await readBytes(t.app.storage, photo.url.replace('/media/', '')))!)).toBe(true);
    expect(Number(own.headers['content-length'])).toBe(own.rawPayload.length);

    // Approved (the trigger lists it again): everyone.
    await db().update(ads).set({ status: 'active' }).where(eq(ads.id, adId));
    // As staff's decision would: the catalogue changed, so every node forgets what it knew of the ad.
    await t.app.catalogue.changed();
    const open = await (await newAgent(t.app)).get(photo.url);
    expect(open.statusCode).toBe(200);
    expect(open.headers['cache-control']).toBe('public, max-age=300');
    expect(open.rawPayload.equals(own.rawPayload)).toBe(true);
  });

  it('deleting a photo removes its objects', async () => {
    const { adId, agent } = await modelWithAd();
    const first = await uploadPhoto(agent, adId);
    const second = await uploadPhoto(agent, adId);
    expect((await agent.post('/api/media/delete', { media_id: first.media_id })).statusCode).toBe(200);
    expect(await keys(t.app.storage, `ads/${adId}/${first.uid}`)).toEqual([]);
    expect((await keys(t.app.storage, `ads/${adId}/${second.uid}`)).length).toBeGreaterThan(0);
    expect((await agent.get(first.url)).statusCode).toBe(404);
  });

  it('keeps a verification selfie in the bucket and never serves it', async () => {
    const { agent, user } = await signedIn(t.app, db(), { role: 'model' });
    const built = await buildModel(db(), { name: 'Selfie S3', city: CITY.oviedo, userId: user.id, profileStatus: 'unverified' });
    const { code } = (await agent.post('/api/profile/model/verification/code')).json<{ data: { code: string } }>().data;
    const { payload, headers } = multipart([
      { name: 'code', value: code },
      { name: 'photo', filename: 'selfie.jpg', contentType: 'image/jpeg', data: await jpegWithGps() },
    ]);
    expect((await agent.request({ method: 'POST', url: '/api/profile/model/verification', payload, headers })).statusCode).toBe(201);
    const [request] = await db().select().from(verificationRequests).where(eq(verificationRequests.modelProfileId, built.profileId));
    const selfie = await readBytes(t.app.storage, request!.photoKey!);
    expect(selfie?.subarray(8, 12).toString()).toBe('WEBP');
    expect((await agent.get(`/media/${request!.photoKey}`)).statusCode).toBe(404);
    expect((await (await newAgent(t.app)).get(`/media/${request!.photoKey}`)).statusCode).toBe(404);
  });

  it("puts the photos read from the bucket in the data export, and erasure empties the account's prefixes", async () => {
    const { agent, user } = await signedIn(t.app, db(), { role: 'model', name: 'Export S3' });
    const model = await buildModel(db(), { name: 'Modelo Export S3', userId: user.id });
    const photo = await uploadPhoto(agent, model.adId);
    const original = (await readBytes(t.app.storage, photo.url.replace('/media/', '')))!;

    expect((await agent.post('/api/user/data-export')).statusCode).toBe(202);
    await Promise.all([...t.app.dataExportJobs]);
    const ready = JSON.parse((await agent.get('/api/user/data-export')).body) as { status: string; download_url: string };
    expect(ready.status).toBe('ready');
    expect((await keys(t.app.storage, 'exports')).length).toBeGreaterThan(0);
    const download = await agent.get(ready.download_url);
    expect(download.statusCode).toBe(200);
    const files = unzipSync(new Uint8Array(download.rawPayload));
    const inZip = Object.entries(files).filter(([name]) => name.endsWith('.webp'));
    expect(inZip.some(([, data]) => Buffer.from(data).equals(original))).toBe(true);

    const staff = await signedIn(t.app, db(), { role: 'admin' });
    expect((await staff.agent.delete(`/api/profile/delete/${user.id}`)).statusCode).toBe(200);
    expect(await keys(t.app.storage, `ads/${model.adId}`)).toEqual([]);
    const [row] = await db().select().from(media).where(eq(media.adId, model.adId));
    expect(row).toBeUndefined();
  });

  it('the start-up sweep removes objects no row points to and keeps recorded ones', async () => {
    const { adId, agent } = await modelWithAd();
    const kept = await uploadPhoto(agent, adId);
    const orphan = `ads/${adId}/${crypto.randomUUID()}`;
    await t.app.storage.put(`${orphan}/320.webp`, Buffer.from('left by a crash'));
    const orphanSelfie = `verification/${adId}/${crypto.randomUUID()}.webp`;
    await t.app.storage.put(orphanSelfie, Buffer.from('selfie without its request'));
    // A readiness probe whose process died between its write and its removal.
    await t.app.storage.put('.ready/12345-0123456789ab', Buffer.from('ready'));
    // A bucket's objects cannot be back-dated: the cutoff is moved instead.
    const result = await sweepMediaLeftovers(db(), t.app.storage, { olderThan: new Date(Date.now() + 60_000) });
    expect(result.photos).toBeGreaterThanOrEqual(1);
    expect(result.selfies).toBeGreaterThanOrEqual(1);
    expect(result.partials).toBe(1);
    expect(await keys(t.app.storage, '.ready')).toEqual([]);
    expect(await keys(t.app.storage, orphan)).toEqual([]);
    expect(await t.app.storage.read(orphanSelfie)).toBeNull();
    expect((await keys(t.app.storage, `ads/${adId}/${kept.uid}`)).length).toBeGreaterThan(0);
    // Young leftovers wait: another node may be between its write and its commit.
    const young = `ads/${adId}/${crypto.randomUUID()}`;
    await t.app.storage.put(`${young}/320.webp`, Buffer.from('still being recorded'));
    await sweepMediaLeftovers(db(), t.app.storage);
    expect(await keys(t.app.storage, young)).toEqual([`${young}/320.webp`]);
  });

  it('seeds the demo photos into the bucket, served like any other', async () => {
    const seeded = await createTestApp({ storage: s3.storageConfig, demoAds: 2 });
    try {
      const [row] = await seeded.database.db
        .select()
        .from(media)
        .innerJoin(ads, eq(ads.id, media.adId))
        .where(eq(ads.isListed, true))
        .limit(1);
      expect(row).toBeDefined();
      const key = mediaKey(row!.media.adId, row!.media.uid, row!.media.variants[0]!);
      expect(await readBytes(seeded.app.storage, key)).not.toBeNull();
      const res = await (await newAgent(seeded.app)).get(`/media/${key}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
    } finally {
      await seeded.close();
    }
  }, 120_000);

  // Last: it stops the S3 server.
  it('readiness checks the bucket: 200 while it answers, 503 naming storage once its server is gone', async () => {
    const ok = await t.app.inject({ method: 'GET', url: API.ready, headers: { authorization: `Bearer ${OPS_TOKEN}` } });
    expect(ok.statusCode).toBe(200);
    expect(readyAnswerSchema.parse(ok.json()).data.checks!.storage!.status).toBe('ok');
    expect(await keys(t.app.storage, '.ready')).toEqual([]);

    await s3.stop();
    const down = await t.app.inject({ method: 'GET', url: API.ready, headers: { authorization: `Bearer ${OPS_TOKEN}` } });
    expect(down.statusCode).toBe(503);
    const body = readyAnswerSchema.parse(down.json());
    expect(body.data).toMatchObject({ status: 'unavailable', failing: ['storage'] });
  });
});
