/**
 * The photo review queue: new photos wait for a person, riskiest screening score first; "keep" (approve) takes a
 * photo out of the queue without touching it, "remove" deletes it with a statement of reasons. The dashboard counts
 * what waits.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, media } from '#server/db/schema.ts';
import { signedIn, type Agent } from '#tests/agent.ts';
import { buildModel } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';

let t: TestApp;
let admin: Agent;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, t.database.db, { role: 'admin' })).agent;
});
afterAll(async () => {
  await t.close();
});

interface QueuePhoto {
  media_id: number;
  reviewed_at: string | null;
  moderation: { scores: { sexual_display: number } } | null;
}
const queue = async (query = '') => {
  const res = await admin.get(`/api/admin/photos${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: QueuePhoto[]; meta: { total: number } }>();
};
const pendingCount = async () => (await admin.get('/api/admin/counts')).json<{ data: { pending_photos: number } }>().data.pending_photos;

describe('photo review queue', () => {
  it('lists unreviewed photos riskiest first; keeping one takes it out; the count follows', async () => {
    const db = t.database.db;
    const m = await buildModel(db, { name: 'Fotos En Cola', photos: 3 });
    const scores = [0.1, 0.9, 0.5];
    for (const [i, id] of m.mediaIds.entries()) {
      await db
        .update(media)
        .set({
          moderation: {
            provider: 'local',
            scores: { sexual_activity: 0, sexual_display: scores[i]!, erotica: 0 },
            checked_at: new Date().toISOString(),
          },
        })
        .where(eq(media.id, id));
    }
    const before = await pendingCount();
    const pending = await queue();
    const ours = pending.data.filter((p) => m.mediaIds.includes(p.media_id));
    expect(ours.map((p) => p.moderation?.scores.sexual_display)).toEqual([0.9, 0.5, 0.1]);
    expect(ours.every((p) => p.reviewed_at === null)).toBe(true);

    const riskiest = m.mediaIds[1]!;
    const kept = await admin.post('/api/admin/decisions', { subject_type: 'media', subject_id: riskiest, action: 'approve' });
    expect(kept.statusCode, kept.body).toBe(200);
    expect((await queue()).data.map((p) => p.media_id)).not.toContain(riskiest);
    expect((await queue('?status=reviewed')).data.map((p) => p.media_id)).toContain(riskiest);
    expect((await queue('?status=all')).data.map((p) => p.media_id)).toEqual(expect.arrayContaining(m.mediaIds));
    expect(await pendingCount()).toBe(before - 1);
    const [row] = await db.select().from(media).where(eq(media.id, riskiest));
    expect(row!.reviewedAt).not.toBeNull();
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, 'media.approve'));
    expect(entry).toMatchObject({ subjectType: 'media', subjectId: riskiest });

    expect((await admin.get('/api/admin/photos?status=bogus')).statusCode).toBe(422);
  });
});
