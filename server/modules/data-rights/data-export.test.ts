/**
 * Data export (GDPR arts. 15, 20): a signed-in user asks for an archive, it is built in the background, and its signed
 * link serves the zip to its owner only, until it expires; one build at a time and a few a day.
 */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_EXPORT_JSON, DATA_EXPORTS_PER_DAY, type DataExportState } from '#contract/data-rights.ts';
import { adStatsWeekly, dataExports, favourites, media, photoReviews, savedSearches, savedSearchHits } from '#server/db/schema.ts';
import { weekOf } from '#server/modules/ad-stats/ad-counter.ts';
import { mediaKey } from '#server/modules/media/images.ts';
import { newAgent, signedIn } from '../../../tests/agent.ts';
import { buildModel, findCity } from '../../../tests/factories.ts';
import { createTestApp, type TestApp } from '../../../tests/test-app.ts';

let t: TestApp;
const db = () => t.database.db;
const URL = '/api/user/data-export';

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const settle = () => Promise.all([...t.app.dataExportJobs]);
const state = (body: string) => JSON.parse(body) as DataExportState;

describe('data export', () => {
  it('is for signed-in users only', async () => {
    const anon = await newAgent(t.app);
    expect((await anon.get(URL)).statusCode).toBe(401);
    expect((await anon.post(URL)).statusCode).toBe(401);
  });

  it('builds the archive in the background and serves it to its owner through the signed link', async () => {
    const { agent, user } = await signedIn(t.app, db(), { role: 'model', name: 'Ainhoa Exporttest' });
    const model = await buildModel(db(), { name: 'Ainhoa Modeloexport', userId: user.id, photos: 1 });
    const [photo] = await db().select().from(media).where(eq(media.adId, model.adId));
    for (const w of photo!.variants) await t.app.storage.put(mediaKey(model.adId, photo!.uid, w), Buffer.from(`webp ${w}`));
    // A refused photo kept for a person's review (issue 24 B7) is hers too, while it is kept.
    const heldUid = crypto.randomUUID();
    await t.app.storage.put(`held/${heldUid}/320.webp`, Buffer.from('kept webp'));
    await db()
      .insert(photoReviews)
      .values({
        token: crypto.randomUUID(),
        adId: model.adId,
        uid: heldUid,
        width: 320,
        height: 400,
        variants: [320],
        moderation: {
          provider: 'stub',
          scores: { sexual_activity: 0, sexual_display: 0, erotica: 0.99 },
          checked_at: new Date().toISOString(),
        },
        rule: 'erotica',
        createdBy: user.id,
        expiresAt: new Date(Date.now() + 3600_000),
      });
    // A support chat with a staff reply (which also notifies her).
    const chat = (await agent.post('/api/support/chat/conversations', {})).json<{ data: { id: number } }>().data;
    expect((await agent.post(`/api/support/chat/${chat.id}/messages`, { content: 'Mi pregunta para soporte' })).statusCode).toBe(201);
    const staff = await signedIn(t.app, db(), { role: 'admin' });
    expect((await staff.agent.post(`/api/support/chat/${chat.id}/messages`, { content: 'La respuesta de soporte' })).statusCode).toBe(201);

    // Issue 28: a favourite (and one whose ad is gone), a saved search with daily alerts and the ad it found, and her
    // ad's weekly numbers.
    const liked = await buildModel(db(), { name: 'Favorita Exporttest' });
    const oviedo = await findCity(db(), 'Oviedo');
    await db()
      .insert(favourites)
      .values([
        { userId: user.id, adId: liked.adId },
        { userId: user.id, adId: 2_000_000_000 },
      ]);
    const [search] = await db()
      .insert(savedSearches)
      .values({ userId: user.id, name: 'Rubias en Oviedo', search: 'rubia', cityId: oviedo.id, alerts: 'daily' })
      .returning({ id: savedSearches.id });
    await db().insert(savedSearchHits).values({ searchId: search!.id, adId: liked.adId });
    const week = weekOf(new Date());
    await db().insert(adStatsWeekly).values({ adId: model.adId, week, impressions: 12, opens: 5, calls: 2, messages: 1 });

    expect(state((await agent.get(URL)).body)).toMatchObject({ status: 'none', download_url: null });
    const res = await agent.post(URL);
    expect(res.statusCode, res.body).toBe(202);
    expect(JSON.parse(res.body)).toMatchObject({ data: { status: 'pending', download_url: null } });
    await settle();

    const ready = state((await agent.get(URL)).body);
    expect(ready.status).toBe('ready');
    expect(ready.download_url).toMatch(/^\/data-export\/\d+\/\d+\/[0-9a-f]{64}\.zip$/);
    expect(new Date(ready.expires_at!).getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);

    const download = await agent.get(ready.download_url!);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(download.headers['cache-control']).toBe('private, no-store');
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="vitrina-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    const files = unzipSync(new Uint8Array(download.rawPayload));
    const json = JSON.parse(strFromU8(files[DATA_EXPORT_JSON]!)) as Record<string, unknown> & {
      account: { email: string; id: number };
      sessions: { ip: string }[];
      model_profiles: { display_name: string }[];
      support_conversation: unknown;
      notifications: unknown[];
      refused_photos_kept_for_review: unknown[];
    };
    expect(json.account).toMatchObject({ id: user.id, email: user.email });
    expect(json.favourites).toEqual([
      expect.objectContaining({ ad_id: liked.adId, title: 'Favorita Exporttest en Oviedo' }),
      expect.objectContaining({ ad_id: 2_000_000_000, title: null }),
    ]);
    expect(json.saved_searches).toEqual([
      expect.objectContaining({
        id: search!.id,
        name: 'Rubias en Oviedo',
        search: 'rubia',
        city: 'Oviedo',
        alerts: 'daily',
        paused: false,
        found_ads: [expect.objectContaining({ ad_id: liked.adId, alerted_at: null })],
      }),
    ]);
    expect(json.ad_weekly_numbers).toEqual([{ ad_id: model.adId, week, impressions: 12, opens: 5, calls: 2, messages: 1 }]);
    // The README is in the account's language and points to the privacy policy for the rest of art. 15.
    const readme = strFromU8(files['README.txt']!);
    expect(readme).toContain('vitrina-data.json');
    expect(readme).toMatch(/política de privacidad: https?:\/\/[^/]+\/es\/legal\/privacy-policy/);
    expect(json.account).not.toHaveProperty('passwordHash');
    expect(JSON.stringify(json)).not.toMatch(/argon2|password_?hash|id_?hash|token_?hash/i);
    expect(json.sessions.length).toBeGreaterThan(0);
    expect(json.sessions[0]!.ip).toBe('127.0.0.1');
    expect(JSON.stringify(json.model_profiles)).toContain('Ainhoa Modeloexport');
    expect(json.support_conversation).toMatchObject({
      id: chat.id,
      messages: [
        { seq: 1, from_staff: false, content: 'Mi pregunta para soporte' },
        { seq: 2, from_staff: true, content: 'La respuesta de soporte' },
      ],
    });
    expect(JSON.stringify(json.support_conversation)).not.toContain(String(staff.user.email));
    expect(json.notifications).toEqual([
      expect.objectContaining({ kind: 'support.reply', message: 'Nueva respuesta del equipo de soporte' }),
    ]);
    for (const w of photo!.variants) {
      expect(strFromU8(files[`photos/ad-${model.adId}/${photo!.uid}/${w}.webp`]!)).toBe(`webp ${w}`);
    }
    expect(strFromU8(files[`photos/refused/${heldUid}/320.webp`]!)).toBe('kept webp');
    expect(json.refused_photos_kept_for_review).toEqual([
      expect.objectContaining({ uid: heldUid, rule: 'erotica', files: [`photos/refused/${heldUid}/320.webp`] }),
    ]);
    expect(JSON.stringify(json.refused_photos_kept_for_review)).not.toContain('"token"');

    // Nobody else: another account, a visitor, a forged signature.
    const other = await signedIn(t.app, db());
    expect((await other.agent.get(ready.download_url!)).statusCode).toBe(404);
    expect((await (await newAgent(t.app)).get(ready.download_url!)).statusCode).toBe(404);
    const forged = ready.download_url!.replace(/[0-9a-f](?=\.zip$)/, (c) => (c === '0' ? '1' : '0'));
    expect((await agent.get(forged)).statusCode).toBe(404);
    // The link's expiry is signed: moving it later breaks the signature.
    const later = ready.download_url!.replace(
      /\/(\d+)\/([0-9a-f]{64})\.zip$/,
      (_m, e: string, s: string) => `/${Number(e) + 3600}/${s}.zip`,
    );
    expect((await agent.get(later)).statusCode).toBe(404);

    // Once expired, the link is gone and the state reads as none again.
    await db()
      .update(dataExports)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(dataExports.id, ready.id!));
    expect((await agent.get(ready.download_url!)).statusCode).toBe(410);
    expect(state((await agent.get(URL)).body).status).toBe('none');
  });

  it('one build at a time, and a few a day (429 with Retry-After, nothing recorded)', async () => {
    const { agent, user } = await signedIn(t.app, db());
    await db().insert(dataExports).values({ userId: user.id, status: 'pending' });
    const busy = await agent.post(URL);
    expect(busy.statusCode).toBe(429);
    expect(busy.headers['retry-after']).toBeDefined();
    expect(JSON.parse(busy.body)).toMatchObject({ error: 'too_many_requests' });
    expect(state((await agent.get(URL)).body).status).toBe('pending');

    // A build that died with its process no longer blocks: it reads as failed and may be retried.
    await db()
      .update(dataExports)
      .set({ createdAt: new Date(Date.now() - 60 * 60_000) })
      .where(eq(dataExports.userId, user.id));
    expect(state((await agent.get(URL)).body).status).toBe('failed');
    for (let i = 1; i < DATA_EXPORTS_PER_DAY; i++) {
      const res = await agent.post(URL);
      expect(res.statusCode, res.body).toBe(202);
      await settle();
    }
    const before = await db().select().from(dataExports).where(eq(dataExports.userId, user.id));
    const over = await agent.post(URL);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(3600);
    expect(await db().select().from(dataExports).where(eq(dataExports.userId, user.id))).toHaveLength(before.length);
  });
});
