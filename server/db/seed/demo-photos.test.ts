/**
 * Issue 29: the demo's photos do not look like copies of each other to photo matching. The drawings all come from one
 * template (illustrations.ts), which a 64-bit perceptual hash used to see as one picture (71 of 1,770 pairs within
 * the match distance), so the staff queues showed matches for everything in the demo. Seeded as `npm start` seeds
 * them and hashed by the backfill: no demo photo or selfie matches another account's, and no two of the distinct
 * drawings (the catalogue's shared ones included) are within MATCH_DISTANCE of each other.
 */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media, mediaHashes, sections, verificationRequests } from '#server/db/schema.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { readBytes } from '#server/plugins/storage.ts';
import { backfillBatch } from '#server/modules/media/hash-backfill.ts';
import { accountSideOf, findMatches, hashImage, matchCounts, MATCH_DISTANCE } from '#server/modules/media/photo-hashes.ts';
import { hammingDistance } from '#server/modules/media/perceptual-hash.ts';
import { DEMO_CATALOGUE_PROVIDER, VARIANT_WIDTHS } from './illustrations.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demoAds: 30 });
}, 300_000);
afterAll(async () => {
  await t.close();
});

describe('the demo photos', () => {
  it('have no cross-account matches once hashed, and no two distinct drawings match', async () => {
    const db = t.database.db;
    for (let cursor = 0, more = true; more;) ({ cursor, more } = await backfillBatch(t.app, cursor, 200));

    // Every demo photo outside the catalogue's shared set is hashed, and matches no other account's photo or selfie.
    const hashed = await db.selectDistinct({ id: mediaHashes.mediaId }).from(mediaHashes).where(isNotNull(mediaHashes.mediaId));
    const ids = hashed.map((r) => r.id!);
    // The demo model's two, the agency's models', and the review queue's three (Nerea's two, Sara's one).
    expect(ids.length).toBeGreaterThanOrEqual(7);
    const counts = await matchCounts(db, ids);
    expect([...counts].filter(([, n]) => n > 0)).toEqual([]);

    // The waiting selfie is hashed at seeding, as a sent one is, and matches nothing of another account either.
    const selfies = await db
      .select({ profileId: mediaHashes.modelProfileId, hash: mediaHashes.hash, mirror: mediaHashes.mirror })
      .from(mediaHashes)
      .innerJoin(verificationRequests, eq(verificationRequests.id, mediaHashes.verificationId));
    expect(selfies.length).toBe(2);
    const side = await accountSideOf(db, selfies[0]!.profileId);
    expect(
      await findMatches(
        db,
        selfies.flatMap((s) => [BigInt(s.hash), BigInt(s.mirror)]),
        side,
      ),
    ).toEqual([]);

    // The catalogue's shared drawings are the known demo set: never hashed, so never matched.
    const [catalogue] = await db
      .select({
        photos: sql<number>`count(*)::int`,
        hashed: sql<number>`count(${mediaHashes.id})::int`,
      })
      .from(media)
      .leftJoin(mediaHashes, eq(mediaHashes.mediaId, media.id))
      .where(sql`${media.moderation} ->> 'provider' = ${DEMO_CATALOGUE_PROVIDER}`);
    expect(Number(catalogue!.photos)).toBeGreaterThan(0);
    expect(Number(catalogue!.hashed)).toBe(0);

    // The drawings themselves: the catalogue's (three per section) and every hashed demo photo, pairwise, with the
    // keys an upload is looked up by (full, centre, both mirrored) — none within the match distance.
    const drawings: { label: string; stored: bigint[]; keys: bigint[] }[] = [];
    const sectionRows = await db.select({ slug: sections.slug }).from(sections);
    for (const { slug } of sectionRows)
      for (let v = 0; v < 3; v++) {
        const bytes = await readBytes(t.app.storage, `demo/${slug}-${v}/${VARIANT_WIDTHS[0]}.webp`);
        expect(bytes, `${slug}-${v}`).not.toBeNull();
        const h = (await hashImage(bytes!))!;
        drawings.push({ label: `${slug}-${v}`, stored: [h.full, h.centre], keys: h.keys });
      }
    const rows = await db
      .select({ id: mediaHashes.mediaId, hash: mediaHashes.hash, mirror: mediaHashes.mirror })
      .from(mediaHashes)
      .where(and(isNotNull(mediaHashes.mediaId)));
    for (const id of ids) {
      const own = rows.filter((r) => r.id === id);
      drawings.push({
        label: `media ${id}`,
        stored: own.map((r) => BigInt(r.hash)),
        keys: own.flatMap((r) => [BigInt(r.hash), BigInt(r.mirror)]),
      });
    }
    const close: string[] = [];
    for (let i = 0; i < drawings.length; i++)
      for (let j = i + 1; j < drawings.length; j++) {
        const d = Math.min(...drawings[i]!.stored.flatMap((s) => drawings[j]!.keys.map((k) => hammingDistance(s, k))));
        if (d <= MATCH_DISTANCE) close.push(`${drawings[i]!.label} ~ ${drawings[j]!.label}: ${d}`);
      }
    expect(drawings.length).toBeGreaterThan(20);
    expect(close).toEqual([]);
  }, 300_000);
});
