import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaMatchList } from '#contract/media-matches.ts';
import { API } from '#contract/routes.ts';
import { ads, media, mediaHashes, modelProfiles, removedMediaHashes, statements, verificationRequests } from '#server/db/schema.ts';
import type { Agent } from '#tests/agent.ts';
import { buildModel, buildPublicist, buildUser } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { mediaKey } from './images.ts';
import { loginAs, uploadBody } from './test-helpers.ts';
import { backfillBatch } from './hash-backfill.ts';
import { MATCH_DISTANCE, recordSelfieHashes } from './photo-hashes.ts';
import { copyOf, variedPhoto } from './test-photos.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;
let n = 0;
async function model(spec: { userId?: number } = {}) {
  const m = await buildModel(db(), { name: `Hash ${++n}`, ...spec });
  return { ...m, agent: await loginAs(t.app, db(), m.userId) };
}

async function upload(agent: Agent, adId: number, data: Buffer) {
  const body = uploadBody(adId, [{ filename: 'foto.jpg', data }]);
  const res = await agent.post(API.uploadImages, body.payload, body.headers);
  return res;
}

async function flaggedOf(mediaId: number) {
  const rows = await db().select({ flagged: mediaHashes.flagged }).from(mediaHashes).where(eq(mediaHashes.mediaId, mediaId));
  return rows.length ? rows.every((r) => r.flagged) : null;
}

const listed = async (adId: number) => (await db().select({ l: ads.isListed }).from(ads).where(eq(ads.id, adId)))[0]!.l;
/** Staff approve the ad (status active): whether it is listed then depends on its flagged photos only. */
const approveAd = (adId: number) => db().update(ads).set({ status: 'active' }).where(eq(ads.id, adId));

describe('matches at upload', () => {
  let staff: Agent;
  beforeAll(async () => {
    const admin = await buildUser(db(), { role: 'admin' });
    staff = await loginAs(t.app, db(), admin.id);
  });

  it("flags another account's copy without telling the uploader, and keeps the ad unlisted until staff decide", async () => {
    const photo = await variedPhoto(101);
    const a = await model();
    const first = await upload(a.agent, a.adId, photo);
    expect(first.statusCode).toBe(201);
    const aMedia = first.json<{ data: { media: { media_id: number }[] } }>().data.media[0]!.media_id;
    expect(await flaggedOf(aMedia)).toBe(false);

    const b = await model();
    const second = await upload(b.agent, b.adId, await copyOf(photo, 'mirror'));
    // The same answer as any upload: accepted, no word of the match.
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ type: 'success', message: first.json<{ message: string }>().message });
    expect(second.body).not.toMatch(/match|coincid/i);
    const bMedia = second.json<{ data: { media: { media_id: number }[] } }>().data.media[0]!.media_id;
    expect(await flaggedOf(bMedia)).toBe(true);

    await approveAd(b.adId);
    expect(await listed(b.adId)).toBe(false);
    await approveAd(a.adId);
    expect(await listed(a.adId)).toBe(true);

    // The reviewer sees the match, closest first, with the other side's account, phone and city.
    const res = await staff.get(API.adminMediaMatches(bMedia));
    expect(res.statusCode).toBe(200);
    const { data } = res.json<MediaMatchList>();
    expect(data[0]).toMatchObject({ media_id: aMedia, ad_id: a.adId, user_id: a.userId, removed: false, phone: '+34600000000' });
    expect(data[0]!.distance).toBeLessThanOrEqual(MATCH_DISTANCE);
    expect(data[0]!.city).toBe(a.cityName);
    expect(data[0]!.image_url).toContain(`ads/${a.adId}/`);
    // The original's matches name the copy too.
    const back = (await staff.get(API.adminMediaMatches(aMedia))).json<MediaMatchList>().data;
    expect(back.map((m) => m.media_id)).toEqual([bMedia]);

    // Staff keep the photo: the ad is listed again.
    await db().update(media).set({ reviewedAt: new Date() }).where(eq(media.id, bMedia));
    expect(await listed(b.adId)).toBe(true);
  });

  it('never matches the same account: a model re-uploading her photo, a publicist’s two models', async () => {
    const photo = await variedPhoto(202);
    const a = await model();
    await upload(a.agent, a.adId, photo);
    const again = await upload(a.agent, a.adId, await copyOf(photo, 'half'));
    const againId = again.json<{ data: { media: { media_id: number }[] } }>().data.media[0]!.media_id;
    expect(await flaggedOf(againId)).toBe(false);
    // Her second ad neither.
    const [second] = await db()
      .insert(ads)
      .values({
        modelProfileId: a.profileId,
        title: 'Segundo anuncio',
        description: 'Otra ciudad.',
        sectionId: a.sectionId,
        cityId: a.cityId,
      })
      .returning({ id: ads.id });
    const other = await upload(a.agent, second!.id, await copyOf(photo, 'q50'));
    expect(await flaggedOf(other.json<{ data: { media: { media_id: number }[] } }>().data.media[0]!.media_id)).toBe(false);

    const pub = await buildPublicist(db());
    const m1 = await buildModel(db(), { name: 'Agencia uno' });
    const m2 = await buildModel(db(), { name: 'Agencia dos' });
    for (const m of [m1, m2])
      await db().update(modelProfiles).set({ publicistId: pub.publicistId, userId: null }).where(eq(modelProfiles.id, m.profileId));
    const agency = await loginAs(t.app, db(), pub.userId);
    const p = await variedPhoto(303);
    const r1 = await upload(agency, m1.adId, p);
    const r2 = await upload(agency, m2.adId, await copyOf(p, 'crop5'));
    expect(r1.statusCode).toBe(201);
    expect(r2.statusCode).toBe(201);
    expect(await flaggedOf(r2.json<{ data: { media: { media_id: number }[] } }>().data.media[0]!.media_id)).toBe(false);
    // Another account uploading it is flagged.
    const c = await model();
    const r3 = await upload(c.agent, c.adId, p);
    expect(await flaggedOf(r3.json<{ data: { media: { media_id: number }[] } }>().data.media[0]!.media_id)).toBe(true);
  });

  it('removed stays removed: a photo removed as stolen goes on the list, and a later copy is withheld with an automated statement', async () => {
    const photo = await variedPhoto(404);
    const a = await model();
    const up = await upload(a.agent, a.adId, photo);
    const mediaId = up.json<{ data: { media: { media_id: number }[] } }>().data.media[0]!.media_id;
    const removal = await staff.post(API.adminDecisions, {
      subject_type: 'media',
      subject_id: mediaId,
      action: 'remove',
      reason_codes: ['identity'],
      text: 'Foto de otra persona, denunciada por ella.',
    });
    expect(removal.statusCode).toBe(200);
    const listedHashes = await db().select().from(removedMediaHashes).where(eq(removedMediaHashes.ground, 'identity'));
    expect(listedHashes.length).toBeGreaterThanOrEqual(2);
    // Hashes and ground only: no image, no user, no photo.
    expect(Object.keys(listedHashes[0]!).sort()).toEqual(['c0', 'c1', 'c2', 'c3', 'createdAt', 'ground', 'hash', 'id', 'kind']);

    // The same account uploading it again after removal is caught too (the removed list knows no accounts).
    const b = await model();
    const res = await upload(b.agent, b.adId, await copyOf(photo, 'q50'));
    expect(res.statusCode).toBe(201);
    const bMedia = res.json<{ data: { media: { media_id: number }[] } }>().data.media[0]!.media_id;
    expect(await flaggedOf(bMedia)).toBe(true);
    await approveAd(b.adId);
    expect(await listed(b.adId)).toBe(false);
    const [statement] = await db()
      .select()
      .from(statements)
      .where(and(eq(statements.subjectType, 'media'), eq(statements.subjectId, bMedia)));
    expect(statement).toMatchObject({ automated: true, decision: 'rejected', ground: 'identity', decidedBy: null });
    expect(statement!.automatedDetail).toMatchObject({ hash_match: { list: 'removed' } });
    expect(statement!.facts).toMatch(/automática/);
    const matches = (await staff.get(API.adminMediaMatches(bMedia))).json<MediaMatchList>().data;
    expect(matches).toContainEqual(expect.objectContaining({ removed: true, media_id: null, ground: 'identity' }));
  });

  it('a reversed appeal of a removed-list refusal keeps the photo: reviewed, no longer flagged, the ad listed, and not refused again', async () => {
    const photo = await variedPhoto(405);
    const a = await model();
    const aMedia = (await upload(a.agent, a.adId, photo)).json<{ data: { media: { media_id: number }[] } }>().data.media[0]!.media_id;
    const removal = await staff.post(API.adminDecisions, {
      subject_type: 'media',
      subject_id: aMedia,
      action: 'remove',
      reason_codes: ['identity'],
      text: 'Foto de otra persona.',
    });
    expect(removal.statusCode).toBe(200);
    // The photo's owner uploads it: refused for review by the automated comparison.
    const b = await model();
    const bMedia = (await upload(b.agent, b.adId, await copyOf(photo, 'half'))).json<{ data: { media: { media_id: number }[] } }>().data
      .media[0]!.media_id;
    expect(await flaggedOf(bMedia)).toBe(true);
    await approveAd(b.adId);
    expect(await listed(b.adId)).toBe(false);
    const [statement] = await db()
      .select({ id: statements.id })
      .from(statements)
      .where(and(eq(statements.subjectType, 'media'), eq(statements.subjectId, bMedia)));
    const appeal = await b.agent.post(API.statementAppeal(statement!.id), { text: 'Es mi foto: la subí yo antes que nadie.' });
    expect(appeal.statusCode, appeal.body).toBe(201);
    const appealId = appeal.json<{ data: { appeal: { id: number } } }>().data.appeal.id;
    const decided = await staff.post(API.adminAppealDecide(appealId), { outcome: 'reversed', text: 'Comprobado: la foto es suya.' });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json<{ data: { restored: Record<string, unknown> } }>().data.restored).toMatchObject({ photo: 'accepted' });

    const [row] = await db().select({ reviewedAt: media.reviewedAt }).from(media).where(eq(media.id, bMedia));
    expect(row!.reviewedAt).not.toBeNull();
    expect(await flaggedOf(bMedia)).toBe(false);
    expect(await listed(b.adId)).toBe(true);
    // Off the staff photo queue (reviewed), and the same picture uploaded again by its owner is neither flagged nor
    // refused: the match staff found wrong is gone from the removed list.
    const queue = await staff.get(`${API.adminPhotos}?per_page=100`);
    expect(queue.json<{ data: { id: number }[] }>().data.map((p) => p.id)).not.toContain(bMedia);
    const again = await upload(b.agent, b.adId, await copyOf(photo, 'q50'));
    const againMedia = again.json<{ data: { media: { media_id: number }[] } }>().data.media[0]!.media_id;
    expect(await flaggedOf(againMedia)).toBe(false);
    const refusals = await db()
      .select({ id: statements.id })
      .from(statements)
      .where(and(eq(statements.subjectType, 'media'), eq(statements.subjectId, againMedia)));
    expect(refusals).toHaveLength(0);
  });

  it("shows a selfie's matches in the verification queue: another account's photo and another account's selfie", async () => {
    const photo = await variedPhoto(406);
    const a = await model();
    const aMedia = (await upload(a.agent, a.adId, photo)).json<{ data: { media: { media_id: number }[] } }>().data.media[0]!.media_id;
    const selfie = async (profileId: number, image: Buffer) => {
      const [v] = await db()
        .insert(verificationRequests)
        .values({
          modelProfileId: profileId,
          code: `H${++n}`,
          status: 'pending',
          photoKey: `verification/${profileId}/test.webp`,
          submittedAt: new Date(),
          expiresAt: new Date(Date.now() + 60_000),
        })
        .returning({ id: verificationRequests.id });
      await recordSelfieHashes(t.app, image, v!.id, profileId);
      return v!.id;
    };
    const b = await model();
    const c = await model();
    const bRequest = await selfie(b.profileId, await copyOf(photo, 'q50'));
    const cRequest = await selfie(c.profileId, await copyOf(photo, 'mirror'));
    // The model's own selfie beside her own photos never matches (same account).
    const aRequest = await selfie(a.profileId, await copyOf(photo, 'half'));

    const res = await staff.get(`${API.adminVerifications}?status=pending&per_page=100`);
    expect(res.statusCode, res.body).toBe(200);
    type Row = { id: number; match_count: number; matches: MediaMatchList['data'] };
    const rows = new Map(res.json<{ data: Row[] }>().data.map((r) => [r.id, r]));
    const bRow = rows.get(bRequest)!;
    expect(bRow.matches.map((m) => m.media_id)).toContain(aMedia);
    expect(bRow.matches.find((m) => m.media_id === aMedia)).toMatchObject({ ad_id: a.adId, removed: false });
    expect(bRow.matches.find((m) => m.media_id === aMedia)!.account_name).toBeTruthy();
    expect(bRow.matches.find((m) => m.media_id === aMedia)!.distance).toBeLessThanOrEqual(MATCH_DISTANCE);
    // C's selfie matches A's photo and B's selfie (shown through the staff-only selfie route).
    const cRow = rows.get(cRequest)!;
    expect(cRow.match_count).toBe(cRow.matches.length);
    expect(cRow.matches).toContainEqual(
      expect.objectContaining({ verification_id: bRequest, media_id: null, image_url: API.adminVerificationSelfie(bRequest) }),
    );
    // A's own selfie: her photo is the same account; B's and C's selfies are other accounts.
    const aRow = rows.get(aRequest)!;
    expect(aRow.matches.map((m) => m.media_id)).not.toContain(aMedia);
    expect(aRow.matches.map((m) => m.verification_id)).toEqual(expect.arrayContaining([bRequest, cRequest]));
  });

  it('answers the matches to staff only', async () => {
    const a = await model();
    const res = await a.agent.get(API.adminMediaMatches(1));
    expect(res.statusCode).toBe(403);
    expect((await staff.get(API.adminMediaMatches(2_000_000_000))).statusCode).toBe(404);
    // Not an id: answered like an unknown photo, never a 500.
    expect((await staff.get(API.adminMediaMatches('abc'))).statusCode).toBe(404);
  });
});

describe('the backfill of photos stored before hashing', () => {
  it('hashes them in batches, resumes from its cursor and does nothing twice', async () => {
    const m = await buildModel(db(), { name: 'Hash antigua' });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const uid = crypto.randomUUID();
      const data = await sharp(await variedPhoto(500 + i, 320, 400))
        .webp()
        .toBuffer();
      await t.app.storage.put(mediaKey(m.adId, uid, 320), data);
      const [row] = await db()
        .insert(media)
        .values({ adId: m.adId, uid, position: i, isCover: i === 0, width: 320, height: 400, variants: [320] })
        .returning({ id: media.id });
      ids.push(row!.id);
    }
    const before = ids[0]! - 1;
    const first = await backfillBatch(t.app, before, 2);
    expect(first.more).toBe(true);
    // A restart: the next run starts from the stored cursor.
    const second = await backfillBatch(t.app, first.cursor, 2);
    const hashed = await db().select({ id: mediaHashes.mediaId }).from(mediaHashes).where(eq(mediaHashes.kind, 'full'));
    expect(ids.every((id) => hashed.some((h) => h.id === id))).toBe(true);
    expect(second.cursor).toBeGreaterThanOrEqual(ids[2]!);
    // Run again from the start: nothing left to hash, no duplicates.
    const again = await backfillBatch(t.app, before, 50);
    expect(again.hashed).toBe(0);
    const rows = await db().select().from(mediaHashes).where(eq(mediaHashes.mediaId, ids[0]!));
    expect(rows).toHaveLength(2);
  });
});
