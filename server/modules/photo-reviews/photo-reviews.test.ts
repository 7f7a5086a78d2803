/**
 * Issue 24 B7: a photo the automated check refuses is not a dead end. The refusal names the rule and that it was
 * automated and carries a token; with it the owner asks a person to review the photo (kept unlisted meanwhile); a
 * statement of reasons for the automated decision is issued and the request is its appeal; staff decide from the
 * photo queue, and the model hears the outcome. Refusals are acted out with the test hook (a magenta photo scores
 * erotica 0.99), the only photos the stub provider refuses.
 */
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadAnswer } from '#contract/media.ts';
import type { AdminPhotoReview, RefusalReview } from '#contract/photo-reviews.ts';
import { ads, appeals, media, modelProfiles, notifications, photoReviews, statements } from '#server/db/schema.ts';
import { newAgent, signedIn, type Agent } from '#tests/agent.ts';
import { buildModel, buildPublicist } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { loginAs, uploadBody } from '../media/test-helpers.ts';
import { jpeg } from '../media/test-images.ts';
import { sweepMediaLeftovers } from '../media/orphans.ts';
import { heldKey, sweepExpired } from '../media/refused-photos.ts';

let t: TestApp;
let admin: Agent;

beforeAll(async () => {
  t = await createTestApp({ moderation: { provider: 'stub', timeoutMs: 5000, sightengine: undefined, testRefuseMagenta: true } });
  admin = (await signedIn(t.app, t.database.db, { role: 'admin' })).agent;
});
afterAll(async () => {
  await t.close();
});

const magenta = () =>
  sharp({ create: { width: 600, height: 800, channels: 3, background: '#ff00ff' } })
    .jpeg()
    .toBuffer();

let n = 0;
/** A model with an ad, signed in, whose magenta upload was refused: the refusal's review offer. */
async function refusedUpload() {
  const m = await buildModel(t.database.db, { name: `Revisión ${++n}`, photos: 1 });
  const agent = await loginAs(t.app, t.database.db, m.userId);
  const body = uploadBody(m.adId, [{ filename: 'fiesta.jpg', data: await magenta() }]);
  const res = await agent.post('/api/upload/images', body.payload, body.headers);
  expect(res.statusCode, res.body).toBe(422);
  const refused = res.json<{ data: UploadAnswer['data'] }>().data.refused[0]!;
  return { m, agent, refused, review: refused.review as RefusalReview };
}

const ask = (agent: Agent, token: string, key?: string) =>
  agent.post('/api/photo-reviews', { token }, key ? { 'idempotency-key': key } : undefined);

const rowOf = async (token: string) => (await t.database.db.select().from(photoReviews).where(eq(photoReviews.token, token)))[0]!;

describe('the refusal names its rule, says it was automated, and keeps the photo unlisted for a review', () => {
  it('answers the rule and a token; the re-encoded photo is kept where nobody can fetch it', async () => {
    const { m, refused, review } = await refusedUpload();
    expect(refused).toMatchObject({
      reason: 'unsuitable',
      message: 'La revisión automática ha rechazado la foto: erotismo (contenido sugerente).',
      review: { rule: 'erotica', automated: true },
    });
    const row = await rowOf(review.token);
    expect(row).toMatchObject({ adId: m.adId, status: 'refused', rule: 'erotica', createdBy: m.userId });
    expect(row.moderation.scores.erotica).toBe(0.99);
    // Kept as the pipeline's WebP variants (no metadata), not as the file sent.
    const kept = await t.app.storage.read(heldKey(row.uid, row.variants[0]!));
    expect(kept).not.toBeNull();
    kept!.stream.destroy();
    // Not a photo of the ad: the gallery does not list it, and /media serves nothing of it.
    expect(await t.database.db.select().from(media).where(eq(media.uid, row.uid))).toEqual([]);
    const anon = await t.app.inject({ method: 'GET', url: `/media/held/${row.uid}/${row.variants[0]}.webp` });
    expect(anon.statusCode).toBe(404);
  });

  it('a suitable photo is accepted as before and keeps nothing aside', async () => {
    const m = await buildModel(t.database.db, { name: 'Foto Normal' });
    const agent = await loginAs(t.app, t.database.db, m.userId);
    const body = uploadBody(m.adId, [{ filename: 'paisaje.jpg', data: await jpeg(800, 600) }]);
    const res = await agent.post('/api/upload/images', body.payload, body.headers);
    expect(res.statusCode).toBe(201);
    expect(await t.database.db.select().from(photoReviews).where(eq(photoReviews.adId, m.adId))).toEqual([]);
  });
});

describe('asking for a review', () => {
  it('only the photo’s model or their agency may ask; staff, other models and visitors may not', async () => {
    const { review } = await refusedUpload();
    const other = await buildModel(t.database.db, { name: 'Otra Modelo' });
    const otherAgent = await loginAs(t.app, t.database.db, other.userId);
    expect((await ask(otherAgent, review.token)).statusCode).toBe(403);
    const staffAsk = await ask(admin, review.token);
    expect(staffAsk.statusCode).toBe(403);
    expect(staffAsk.json()).toMatchObject({ message: 'Solo la modelo o su agencia pueden pedir la revisión de sus fotos.' });
    const anon = await ask(await newAgent(t.app), review.token);
    expect(anon.statusCode).toBe(401);
    expect((await rowOf(review.token)).status).toBe('refused');
  });

  it('refuses a malformed or unknown token with a clear message and changes nothing', async () => {
    const { agent } = await refusedUpload();
    const bad = await agent.post('/api/photo-reviews', { token: 'not-a-token' });
    expect(bad.statusCode).toBe(422);
    expect((await agent.post('/api/photo-reviews', { token: 'x', extra: 1 })).statusCode).toBe(422);
    const unknown = await ask(agent, '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'not_found', message: expect.stringContaining('24 horas') as string });
  });

  it('stores a statement of the automated decision with the request as its appeal; a replay or a second ask adds nothing', async () => {
    const { m, agent, review } = await refusedUpload();
    const first = await ask(agent, review.token, 'review-key-0001');
    expect(first.statusCode, first.body).toBe(201);
    const data = first.json<{ data: { status: string; statement_id: number } }>().data;
    expect(data).toMatchObject({ status: 'requested', rule: 'erotica', ad_id: m.adId });

    const replay = await ask(agent, review.token, 'review-key-0001');
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(first.body);
    const again = await ask(agent, review.token, 'review-key-0002');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      message: 'Ya habías pedido la revisión de esta foto.',
      data: { statement_id: data.statement_id },
    });

    const row = await rowOf(review.token);
    const issued = await t.database.db
      .select()
      .from(statements)
      .where(and(eq(statements.subjectType, 'photo_review'), eq(statements.subjectId, row.id)));
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({ userId: m.userId, decision: 'rejected', ground: 'photo_rules', automated: true, decidedBy: null });
    expect(issued[0]!.automatedDetail).toMatchObject({ moderation: { rule: 'erotica', scores: { erotica: 0.99 } } });
    // What the model reads: the automated decision, identified as such, and their request pending.
    const shown = await agent.get(`/api/statements/${data.statement_id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({
      data: { subject_type: 'photo_review', automated: true, appeal: { status: 'pending' } },
    });
    expect(shown.json<{ data: { facts: string } }>().data.facts).toContain('99 %');
  });

  it('the publicist responsible for the model may ask', async () => {
    const { m, review } = await refusedUpload();
    const agency = await buildPublicist(t.database.db, { name: 'Agencia Revisora' });
    await t.database.db.update(modelProfiles).set({ publicistId: agency.publicistId }).where(eq(modelProfiles.id, m.profileId));
    const publicist = await loginAs(t.app, t.database.db, agency.userId);
    const res = await ask(publicist, review.token);
    expect(res.statusCode, res.body).toBe(201);
  });

  it('a refusal nobody contests is removed after its time, files and all; asking then says it is gone', async () => {
    const { agent, review } = await refusedUpload();
    const row = await rowOf(review.token);
    await t.database.db
      .update(photoReviews)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(photoReviews.id, row.id));
    expect((await ask(agent, review.token)).statusCode).toBe(404);
    expect(await sweepExpired(t.app)).toBeGreaterThanOrEqual(1);
    expect(await t.database.db.select().from(photoReviews).where(eq(photoReviews.id, row.id))).toEqual([]);
    expect(await t.app.storage.read(heldKey(row.uid, row.variants[0]!))).toBeNull();
  });
});

describe('kept photos never outlive their purpose', () => {
  it('the start-up sweep removes kept files whose ad is gone, and leaves those waiting for a review', async () => {
    const gone = await refusedUpload();
    const waiting = await refusedUpload();
    await ask(waiting.agent, waiting.review.token);
    const goneRow = await rowOf(gone.review.token);
    const waitingRow = await rowOf(waiting.review.token);
    // Deleting the ad (or the account with it) takes the row; the files are the sweep's.
    await t.database.db.delete(ads).where(eq(ads.id, gone.m.adId));
    await sweepMediaLeftovers(t.database.db, t.app.storage, { olderThan: new Date(Date.now() + 60_000) });
    expect(await t.app.storage.read(heldKey(goneRow.uid, goneRow.variants[0]!))).toBeNull();
    const kept = await t.app.storage.read(heldKey(waitingRow.uid, waitingRow.variants[0]!));
    expect(kept).not.toBeNull();
    kept!.stream.destroy();
  });
});

describe('staff decide from the photo queue', () => {
  const queue = async (agent: Agent, status = 'requested') => agent.get(`/api/admin/photo-reviews?status=${status}`);

  it('lists the request with its scores, thresholds and rule, shows the kept photo to staff only', async () => {
    const { agent, review } = await refusedUpload();
    const pending = async () => (await admin.get('/api/admin/counts')).json<{ data: { pending_photos: number } }>().data.pending_photos;
    const before = await pending();
    await ask(agent, review.token);
    // The dashboard's photo count includes it.
    expect(await pending()).toBe(before + 1);
    const row = await rowOf(review.token);
    const res = await queue(admin);
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json<{ data: AdminPhotoReview[] }>().data.find((r) => r.id === row.id);
    expect(item).toMatchObject({
      status: 'requested',
      rule: 'erotica',
      provider: 'stub',
      scores: { erotica: 0.99 },
      thresholds: { sexual_activity: 0.1, sexual_display: 0.1, erotica: 0.4 },
      image_url: `/api/admin/photo-reviews/${row.id}/image`,
    });
    expect((await queue(agent)).statusCode).toBe(403);
    expect((await admin.get('/api/admin/photo-reviews?status=bogus')).statusCode).toBe(422);
    const image = await admin.get(`/api/admin/photo-reviews/${row.id}/image`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect(image.headers['cache-control']).toBe('private, no-store');
    expect((await agent.get(`/api/admin/photo-reviews/${row.id}/image`)).statusCode).toBe(403);
  });

  it('approve: the photo joins the ad like any other, listed, and the model reads the outcome', async () => {
    const { m, agent, review } = await refusedUpload();
    const asked = (await ask(agent, review.token)).json<{ data: { statement_id: number } }>().data;
    const row = await rowOf(review.token);
    expect((await agent.post(`/api/admin/photo-reviews/${row.id}/decision`, { action: 'approve', text: 'Foto normal.' })).statusCode).toBe(
      403,
    );
    expect((await admin.post(`/api/admin/photo-reviews/${row.id}/decision`, { action: 'approve', text: 'corto' })).statusCode).toBe(422);
    const res = await admin.post(`/api/admin/photo-reviews/${row.id}/decision`, {
      action: 'approve',
      text: 'Es una foto normal de una fiesta: la aprobamos.',
    });
    expect(res.statusCode, res.body).toBe(200);
    const decided = res.json<{ data: { status: string; media_id: number } }>().data;
    expect(decided.status).toBe('approved');

    const [photo] = await t.database.db.select().from(media).where(eq(media.id, decided.media_id));
    expect(photo).toMatchObject({ adId: m.adId, uid: row.uid, reviewedAt: expect.any(Date) as Date });
    const [ad] = await t.database.db.select().from(ads).where(eq(ads.id, m.adId));
    expect(ad!.status).toBe('active');
    const gallery = await t.app.inject({
      method: 'GET',
      url: `/api/getImagesByAd/${m.adId}`,
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(gallery.json<{ data: { uid: string }[] }>().data.map((p) => p.uid)).toContain(row.uid);
    // Listed like a normal photo: anyone gets its file.
    expect(ad!.isListed).toBe(true);
    const file = await t.app.inject({ method: 'GET', url: `/media/ads/${m.adId}/${row.uid}/${row.variants[0]}.webp` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['cache-control']).toContain('public');
    // The kept copy is gone once the photo is the ad's.
    expect(await t.app.storage.read(heldKey(row.uid, row.variants[0]!))).toBeNull();

    const statement = (await agent.get(`/api/statements/${asked.statement_id}`)).json<{
      data: { appeal: { status: string; decision_text: string } };
    }>();
    expect(statement.data.appeal).toMatchObject({ status: 'reversed', decision_text: 'Es una foto normal de una fiesta: la aprobamos.' });
    const notes = await t.database.db.select().from(notifications).where(eq(notifications.userId, m.userId));
    expect(notes.find((x) => x.kind === 'photo_review.approved')).toMatchObject({
      type: 'success',
      message: expect.stringContaining('Foto aprobada') as string,
      data: { link: `/statements/${asked.statement_id}` },
    });

    const twice = await admin.post(`/api/admin/photo-reviews/${row.id}/decision`, { action: 'reject', text: 'Otra decisión distinta.' });
    expect(twice.statusCode).toBe(409);
  });

  it('reject: the photo stays refused, its kept copy is removed, the appeal is upheld', async () => {
    const { m, agent, review } = await refusedUpload();
    await ask(agent, review.token);
    const row = await rowOf(review.token);
    const res = await admin.post(`/api/admin/photo-reviews/${row.id}/decision`, {
      action: 'reject',
      text: 'La foto muestra desnudez explícita.',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await rowOf(review.token)).status).toBe('rejected');
    expect(await t.database.db.select().from(media).where(eq(media.uid, row.uid))).toEqual([]);
    expect(await t.app.storage.read(heldKey(row.uid, row.variants[0]!))).toBeNull();
    const [appeal] = await t.database.db.select().from(appeals).where(eq(appeals.statementId, row.statementId!));
    expect(appeal!.status).toBe('upheld');
    const notes = await t.database.db.select().from(notifications).where(eq(notifications.userId, m.userId));
    expect(notes.map((x) => x.kind)).toContain('photo_review.rejected');
    expect((await queue(admin, 'decided')).json<{ data: { id: number }[] }>().data.map((r) => r.id)).toContain(row.id);
  });

  it('a request decided from the appeals queue settles the photo the same way', async () => {
    const { agent, review } = await refusedUpload();
    await ask(agent, review.token);
    const row = await rowOf(review.token);
    const [appeal] = await t.database.db.select().from(appeals).where(eq(appeals.statementId, row.statementId!));
    const res = await admin.post(`/api/admin/appeals/${appeal!.id}/decide`, { outcome: 'reversed', text: 'Revisada: se aprueba la foto.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await rowOf(review.token)).toMatchObject({ status: 'approved', mediaId: expect.any(Number) as number });
  });
});
