import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statements, users } from '#server/db/schema.ts';
import { buildModel } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { issueStatement } from './statements.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('issueStatement', () => {
  it("stores the statement in the recipient's language and mails it in that language", async () => {
    const db = t.database.db;
    const m = await buildModel(db, { name: 'English Speaker' });
    const [u] = await db.update(users).set({ locale: 'en' }).where(eq(users.id, m.userId)).returning();
    const { statement } = await issueStatement(db, t.app, {
      subjectType: 'ad',
      subjectId: m.adId,
      decision: 'suspended',
      reasonCodes: ['photo_rules'],
      facts: 'Photo of someone else.',
      automated: true,
      automatedDetail: { moderation: { provider: 'stub', scores: { sexual_activity: 0.5 } } },
    });
    expect(statement).toMatchObject({ userId: m.userId, language: 'en', ground: 'photo_rules', automated: true });
    const months = (statement.appealUntil.getTime() - statement.createdAt.getTime()) / (30 * 86_400_000);
    expect(months).toBeGreaterThan(5.9);
    const mail = [...t.app.mailer.outbox].reverse().find((x) => x.to === u!.email)!;
    expect(mail.subject).toBe('Statement of reasons: we have restricted your content');
    expect(mail.text).toContain('Photos that break the rules');
    expect(mail.text).toContain('automated means');
    expect(mail.text).toContain(`/en/statements/${statement.id}`);
  });

  it('mailLater: nothing is sent until send()', async () => {
    const db = t.database.db;
    const m = await buildModel(db, { name: 'Later' });
    const before = t.app.mailer.outbox.length;
    const issued = await db.transaction((tx) =>
      issueStatement(tx, t.app, {
        subjectType: 'model_profile',
        subjectId: m.profileId,
        decision: 'paused',
        reasonCodes: ['other'],
        facts: 'x',
        mailLater: true,
      }),
    );
    expect(t.app.mailer.outbox.length).toBe(before);
    await issued.send();
    expect(t.app.mailer.outbox.length).toBe(before + 1);
    const [row] = await db.select().from(statements).where(eq(statements.id, issued.statement.id));
    expect(row!.ground).toBe('other');
  });
});
