/**
 * Issue 29 point 4 on the server: the ad and photo queues riskiest first (open reports, screening scores) then oldest
 * first; a queue decision on an item a colleague decided meanwhile answers 409 naming who and when; the super
 * admin's review numbers (decided per hour per queue, overturned on appeal per rule).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REVIEW_EVENTS } from '#contract/admin.ts';
import { STAFF_PUSHER_CHANNEL } from '#contract/support-chat.ts';
import { ads, appeals, media, reports } from '#server/db/schema.ts';
import { signedIn, type Agent } from '#tests/agent.ts';
import { buildModel } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';

let t: TestApp;
let ana: Agent;
let bea: Agent;
let superAdmin: Agent;

beforeAll(async () => {
  t = await createTestApp();
  ana = (await signedIn(t.app, t.database.db, { role: 'admin', name: 'Ana Revisora' })).agent;
  bea = (await signedIn(t.app, t.database.db, { role: 'admin', name: 'Bea Revisora' })).agent;
  superAdmin = (await signedIn(t.app, t.database.db, { role: 'super_admin' })).agent;
});
afterAll(async () => {
  await t.close();
});

const scored = (score: number) => ({
  provider: 'local',
  scores: { sexual_activity: 0, sexual_display: score, erotica: 0 },
  checked_at: new Date().toISOString(),
});

describe('queue order: risk, then waiting time', () => {
  it('puts a reported ad and a high-scoring photo first, then the longest waiting', async () => {
    const db = t.database.db;
    const old = await buildModel(db, { name: 'Cola Antigua', adStatus: 'pending', photos: 1 });
    const recent = await buildModel(db, { name: 'Cola Reciente', adStatus: 'pending', photos: 1 });
    const reported = await buildModel(db, { name: 'Cola Denunciada', adStatus: 'pending', photos: 1 });
    const hour = 3_600_000;
    await db
      .update(ads)
      .set({ updatedAt: new Date(Date.now() - 3 * hour) })
      .where(eq(ads.id, old.adId));
    await db
      .update(ads)
      .set({ updatedAt: new Date(Date.now() - 2 * hour) })
      .where(eq(ads.id, recent.adId));
    await db
      .update(ads)
      .set({ updatedAt: new Date(Date.now() - 1 * hour) })
      .where(eq(ads.id, reported.adId));
    await db
      .insert(reports)
      .values({ adId: reported.adId, reason: 'fake', details: 'Fotos de otra persona.', status: 'open', receipt: `R${Date.now() % 1e9}` });

    const res = await ana.get('/api/admin/ads?status=pending&per_page=100');
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json<{ data: { id: number; risk: number; open_reports: number }[] }>().data;
    const ours = rows.filter((r) => [old.adId, recent.adId, reported.adId].includes(r.id));
    expect(ours.map((r) => r.id)).toEqual([reported.adId, old.adId, recent.adId]);
    expect(ours[0]).toMatchObject({ open_reports: 1, risk: 2 });

    // Photos: the high screening score first; equal risk → the one waiting longest.
    await db
      .update(media)
      .set({ moderation: scored(0.1), createdAt: new Date(Date.now() - 5 * hour) })
      .where(eq(media.id, old.mediaIds[0]!));
    await db
      .update(media)
      .set({ moderation: scored(0.1), createdAt: new Date(Date.now() - 4 * hour) })
      .where(eq(media.id, recent.mediaIds[0]!));
    await db
      .update(media)
      .set({ moderation: scored(0.9) })
      .where(eq(media.id, reported.mediaIds[0]!));
    const photos = (await ana.get('/api/admin/photos?per_page=100')).json<{
      data: { media_id: number; risk: number; match_count: number; open_reports: number }[];
    }>().data;
    const ids = [old.mediaIds[0], recent.mediaIds[0], reported.mediaIds[0]];
    const queue = photos.filter((p) => ids.includes(p.media_id));
    expect(queue.map((p) => p.media_id)).toEqual([reported.mediaIds[0], old.mediaIds[0], recent.mediaIds[0]]);
    // The reported ad's photo: 2 (report) + 2 (score ≥ 0.8); no match for a photo never hashed.
    expect(queue[0]).toMatchObject({ risk: 4, open_reports: 1, match_count: 0 });
  });
});

describe('decided meanwhile', () => {
  it('a queue decision on an ad a colleague decided answers 409 with who and when; nothing changes', async () => {
    const db = t.database.db;
    const m = await buildModel(db, { name: 'Decidida Antes', adStatus: 'pending' });
    const first = await bea.post('/api/admin/decisions', { subject_type: 'ad', subject_id: m.adId, action: 'approve', from_queue: true });
    expect(first.statusCode, first.body).toBe(200);
    const second = await ana.post('/api/admin/decisions', {
      subject_type: 'ad',
      subject_id: m.adId,
      action: 'reject',
      reason_codes: ['spam'],
      text: 'Anuncio repetido en la misma ciudad.',
      from_queue: true,
    });
    expect(second.statusCode, second.body).toBe(409);
    const body = second.json<{ message: string; data: { decided_by: { name: string }; decided_at: string; action: string } }>();
    expect(body.data).toMatchObject({ decided_meanwhile: true, decided_by: { name: 'Bea Revisora' }, action: 'approve' });
    expect(Date.now() - Date.parse(body.data.decided_at)).toBeLessThan(60_000);
    expect(body.message).toContain('Bea Revisora');
    const [row] = await db.select({ status: ads.status }).from(ads).where(eq(ads.id, m.adId));
    expect(row!.status).toBe('active');
  });

  it('a photo kept or removed by a colleague answers 409 naming them; outside the queue the old rules stand', async () => {
    const db = t.database.db;
    const m = await buildModel(db, { name: 'Foto Decidida', photos: 2 });
    const [kept, removed] = m.mediaIds as [number, number];
    expect(
      (await bea.post('/api/admin/decisions', { subject_type: 'media', subject_id: kept, action: 'approve', from_queue: true })).statusCode,
    ).toBe(200);
    const again = await ana.post('/api/admin/decisions', { subject_type: 'media', subject_id: kept, action: 'approve', from_queue: true });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ data: { decided_by: { name: string } } }>().data.decided_by.name).toBe('Bea Revisora');

    const removal = {
      subject_type: 'media',
      subject_id: removed,
      action: 'remove',
      reason_codes: ['photo_rules'],
      text: 'La foto incumple las normas.',
    };
    expect((await bea.post('/api/admin/decisions', { ...removal, from_queue: true })).statusCode).toBe(200);
    const late = await ana.post('/api/admin/decisions', { ...removal, from_queue: true });
    expect(late.statusCode).toBe(409);
    expect(late.json<{ data: { action: string } }>().data.action).toBe('remove');
    // Without from_queue (a staff list, not the queue): a gone photo is simply not found.
    expect((await ana.post('/api/admin/decisions', removal)).statusCode).toBe(404);
    expect((await ana.post('/api/admin/decisions', { ...removal, subject_id: 2_000_000_000, from_queue: true })).statusCode).toBe(404);
  });
});

describe('review numbers (super admin)', () => {
  it('counts decisions per hour per queue and overturns per rule; admins may not read them', async () => {
    const db = t.database.db;
    const read = async () => {
      const res = await superAdmin.get('/api/super-admin/review-stats');
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{
        data: {
          hours: { hour: string; decided: Record<string, number>; total: number }[];
          rules: { code: string; decisions: number; appealed: number; overturned: number }[];
        };
      }>().data;
    };
    const before = await read();
    expect(before.hours).toHaveLength(24);
    const m = await buildModel(db, { name: 'Para Contar', adStatus: 'pending' });
    const rejected = await ana.post('/api/admin/decisions', {
      subject_type: 'ad',
      subject_id: m.adId,
      action: 'reject',
      reason_codes: ['incomplete'],
      text: 'Falta la descripción del servicio.',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const statementId = rejected.json<{ data: { statement_id: number } }>().data.statement_id;
    const [appeal] = await db
      .insert(appeals)
      .values({ statementId, userId: m.userId, text: 'La descripción ya está completa.' })
      .returning({ id: appeals.id });
    const reversed = await superAdmin.post(`/api/admin/appeals/${appeal!.id}/decide`, {
      outcome: 'reversed',
      text: 'Tiene razón, está completa.',
    });
    expect(reversed.statusCode, reversed.body).toBe(200);
    const after = await read();
    const last = (s: typeof after) => s.hours.at(-1)!;
    expect(last(after).decided.ad).toBe(last(before).decided.ad! + 1);
    expect(last(after).total).toBe(last(before).total + 1);
    const rule = (s: typeof after) => s.rules.find((r) => r.code === 'incomplete')!;
    expect(rule(after)).toEqual({
      code: 'incomplete',
      decisions: rule(before).decisions + 1,
      appealed: rule(before).appealed + 1,
      overturned: rule(before).overturned + 1,
    });
    expect((await ana.get('/api/super-admin/review-stats')).statusCode).toBe(403);
  });
});

describe('live queues', () => {
  it("announces each decision on the staff channel, so colleagues' open queues refetch at once", async () => {
    const db = t.database.db;
    const m = await buildModel(db, { name: 'Cola En Vivo', adStatus: 'pending', photos: 1 });
    const trigger = vi.spyOn(t.app.broadcaster, 'trigger');
    try {
      const res = await ana.post('/api/admin/decisions', { subject_type: 'ad', subject_id: m.adId, action: 'approve', from_queue: true });
      expect(res.statusCode, res.body).toBe(200);
      expect(trigger).toHaveBeenCalledWith(
        [STAFF_PUSHER_CHANNEL],
        REVIEW_EVENTS.decided,
        { subject_type: 'ad', subject_id: m.adId },
        undefined,
      );
      // A refused decision (decided meanwhile) announces nothing: nothing changed.
      trigger.mockClear();
      const again = await bea.post('/api/admin/decisions', { subject_type: 'ad', subject_id: m.adId, action: 'approve', from_queue: true });
      expect(again.statusCode).toBe(409);
      expect(trigger.mock.calls.filter(([, event]) => event === REVIEW_EVENTS.decided)).toHaveLength(0);
    } finally {
      trigger.mockRestore();
    }
  });
});
