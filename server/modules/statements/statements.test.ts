import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appeals, auditLog, jobs, media, statements, users } from '#server/db/schema.ts';
import { MAIL_JOB } from '#server/modules/jobs/mail-job.ts';
import { signedIn } from '#tests/agent.ts';
import { buildModel, buildPublicist } from '#tests/factories.ts';
import { createTestApp, drainJobs, type TestApp } from '#tests/test-app.ts';
import { loginAs } from '../media/test-helpers.ts';
import { appealStatement, listUserStatements, readOwnStatement } from './statement-views.ts';
import { describeSubject, issueStatement, sendAppealDecidedMail, type StatementInput } from './statements.ts';

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
    await drainJobs(t.app);
    const mail = [...t.app.mailer.outbox].reverse().find((x) => x.to === u!.email)!;
    expect(mail.subject).toBe('Statement of reasons: we have restricted your content');
    expect(mail.text).toContain('Photos that break the rules');
    expect(mail.text).toContain('automated means');
    expect(mail.text).toContain(`/en/statements/${statement.id}`);
  });

  it("the mail is queued in the caller's transaction: rolled back, neither statement nor mail; committed, both", async () => {
    const db = t.database.db;
    const m = await buildModel(db, { name: 'Later' });
    const [u] = await db.select({ email: users.email }).from(users).where(eq(users.id, m.userId));
    const mailJobs = (q: typeof db) =>
      q
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.name, MAIL_JOB), sql`${jobs.payload} ->> 'to' = ${u!.email}`));
    const input: StatementInput = {
      subjectType: 'model_profile',
      subjectId: m.profileId,
      decision: 'paused',
      reasonCodes: ['other'],
      facts: 'x',
    };
    let seenInside = -1;
    let statementId = 0;
    await expect(
      db.transaction(async (tx) => {
        statementId = (await issueStatement(tx, t.app, input)).statement.id;
        seenInside = (await mailJobs(tx)).length;
        throw new Error('rolled back on purpose');
      }),
    ).rejects.toThrow('rolled back on purpose');
    expect(seenInside).toBe(1);
    expect(await mailJobs(db)).toHaveLength(0);
    expect(await db.select().from(statements).where(eq(statements.id, statementId))).toHaveLength(0);

    const issued = await db.transaction((tx) => issueStatement(tx, t.app, input));
    expect(await mailJobs(db)).toHaveLength(1);
    const mail = await lastMailTo(m.userId);
    expect(mail.text).toContain(`/es/statements/${issued.statement.id}`);
    const [row] = await db.select().from(statements).where(eq(statements.id, issued.statement.id));
    expect(row!.ground).toBe('other');
  });
});

const lastMailTo = async (userId: number) => {
  const [u] = await t.database.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  await drainJobs(t.app);
  return [...t.app.mailer.outbox].reverse().find((m) => m.to === u!.email)!;
};
const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('the mails name what was restricted (DSA art. 17)', () => {
  it("an ad: its title and the model's name, the statement link, and the ground only once", async () => {
    const db = t.database.db;
    const m = await buildModel(db, { name: 'Ana Nombrada', title: 'Fotos de estudio en Gijón' });
    const { statement } = await issueStatement(db, t.app, {
      subjectType: 'ad',
      subjectId: m.adId,
      decision: 'rejected',
      reasonCodes: ['photo_rules'],
      facts: 'Las fotos no son de la persona del anuncio.',
    });
    const mail = await lastMailTo(m.userId);
    expect(mail.text).toContain('Te informamos de una decisión sobre el anuncio «Fotos de estudio en Gijón» de Ana Nombrada.');
    expect(mail.html).toContain('«Fotos de estudio en Gijón» de Ana Nombrada');
    expect(mail.text).toMatch(new RegExp(`Ver la decisión y recurrir: http\\S+/es/statements/${statement.id}$`, 'm'));
    // The ground once; no "reasons" line that only repeats it.
    expect(occurrences(mail.text, 'Fotos que no cumplen las normas')).toBe(1);
    expect(mail.text).not.toContain('Motivos:');
  });

  it('other reason codes are listed once, after the ground, without repeating it', async () => {
    const db = t.database.db;
    const m = await buildModel(db, { name: 'Dos Motivos' });
    await issueStatement(db, t.app, {
      subjectType: 'ad',
      subjectId: m.adId,
      decision: 'suspended',
      reasonCodes: ['photo_rules', 'incomplete', 'photo_rules'],
      facts: 'x',
    });
    const mail = await lastMailTo(m.userId);
    expect(occurrences(mail.text, 'Fotos que no cumplen las normas')).toBe(1);
    expect(mail.text).toMatch(/Norma incumplida: Fotos que no cumplen las normas[^\n]*\nOtros motivos: Datos incompletos/);
  });

  it("a model profile: the model's name; an agency profile: the agency's name", async () => {
    const db = t.database.db;
    const m = await buildModel(db, { name: 'Perfil Nombrado' });
    await issueStatement(db, t.app, {
      subjectType: 'model_profile',
      subjectId: m.profileId,
      decision: 'paused',
      reasonCodes: ['other'],
      facts: 'x',
    });
    expect((await lastMailTo(m.userId)).text).toContain('sobre el perfil de modelo de Perfil Nombrado.');

    const p = await buildPublicist(db, { name: 'Agencia Estrella' });
    await issueStatement(db, t.app, {
      subjectType: 'publicist_profile',
      subjectId: p.publicistId,
      decision: 'suspended',
      reasonCodes: ['incomplete'],
      facts: 'x',
    });
    expect((await lastMailTo(p.userId)).text).toContain('sobre el perfil de agencia «Agencia Estrella».');
  });

  it("a photo removed in the same transaction is named by its ad: named before the delete, and later through the decision's audit entry", async () => {
    const db = t.database.db;
    const m = await buildModel(db, { name: 'Foto Nombrada', title: 'Anuncio con fotos', photos: 2 });
    const photoId = m.mediaIds[0]!;
    const recipient = {
      id: m.userId,
      name: 'Foto Nombrada',
      email: (await db.select().from(users).where(eq(users.id, m.userId)))[0]!.email,
      locale: 'es',
    };
    const issued = await db.transaction(async (tx) => {
      const about = await describeSubject(tx, 'media', photoId);
      await tx.delete(media).where(eq(media.id, photoId));
      const out = await issueStatement(tx, t.app, {
        subjectType: 'media',
        subjectId: photoId,
        decision: 'removed',
        reasonCodes: ['photo_rules'],
        facts: 'x',
        recipient,
        about,
      });
      await tx.insert(auditLog).values({
        action: 'media.remove',
        subjectType: 'media',
        subjectId: photoId,
        before: { ad_id: m.adId },
        after: { removed: true, ad_id: m.adId, statement_id: out.statement.id },
      });
      return out;
    });
    const mail = await lastMailTo(m.userId);
    expect(mail.text).toContain('sobre una foto del anuncio «Anuncio con fotos» de Foto Nombrada.');

    // The appeal decision names it the same way, from the current rows.
    await sendAppealDecidedMail(db, t.app, recipient, issued.statement, 'upheld', 'La foto muestra a otra persona.');
    const appealMail = await lastMailTo(m.userId);
    expect(appealMail.subject).toBe('Hemos resuelto tu recurso');
    expect(appealMail.text).toContain('Hemos revisado tu recurso sobre una foto del anuncio «Anuncio con fotos» de Foto Nombrada.');
    expect(appealMail.text).toContain(`/es/statements/${issued.statement.id}`);
  });

  it('the appeal decision names an ad, in English, and links the statement', async () => {
    const db = t.database.db;
    const m = await buildModel(db, { name: 'Appeal Named', title: 'Studio portraits' });
    const [u] = await db.update(users).set({ locale: 'en' }).where(eq(users.id, m.userId)).returning();
    const { statement, recipient } = await issueStatement(db, t.app, {
      subjectType: 'ad',
      subjectId: m.adId,
      decision: 'rejected',
      reasonCodes: ['incomplete'],
      facts: 'x',
    });
    expect(recipient!.email).toBe(u!.email);
    await sendAppealDecidedMail(db, t.app, recipient!, statement, 'reversed', 'Checked again: fine.');
    const mail = await lastMailTo(m.userId);
    expect(mail.text).toContain('We have reviewed your appeal about the ad “Studio portraits” by Appeal Named.');
    expect(mail.text).toMatch(new RegExp(`See the decision: http\\S+/en/statements/${statement.id}$`, 'm'));
  });
});

describe('through the staff routes: a removed photo and its appeal', () => {
  it('the statement and the appeal decision name the ad the photo belonged to and link the statement', async () => {
    const db = t.database.db;
    const admin = (await signedIn(t.app, db, { role: 'admin' })).agent;
    const m = await buildModel(db, { name: 'Modelo Ruta', title: 'Retratos en Avilés', photos: 2 });
    const res = await admin.post('/api/admin/decisions', {
      subject_type: 'media',
      subject_id: m.mediaIds[0],
      action: 'remove',
      reason_codes: ['photo_rules'],
      text: 'La foto muestra a otra persona.',
    });
    expect(res.statusCode, res.body).toBe(200);
    const statementId = res.json<{ data: { statement_id: number } }>().data.statement_id;
    const mail = await lastMailTo(m.userId);
    expect(mail.text).toContain('sobre una foto del anuncio «Retratos en Avilés» de Modelo Ruta.');
    expect(mail.text).toContain(`/es/statements/${statementId}`);
    expect(occurrences(mail.text, 'Fotos que no cumplen las normas')).toBe(1);

    const model = await loginAs(t.app, db, m.userId);
    // The page names it too, though the photo's row is gone.
    const shown = await model.get(`/api/statements/${statementId}`);
    expect(shown.json<{ data: { subject_label: string | null } }>().data.subject_label).toBe('Retratos en Avilés');
    expect((await model.post(`/api/statements/${statementId}/appeal`, { text: 'La foto es mía, tengo el original.' })).statusCode).toBe(
      201,
    );
    const [appeal] = await db.select().from(appeals).where(eq(appeals.statementId, statementId));
    const decided = await admin.post(`/api/admin/appeals/${appeal!.id}/decide`, { outcome: 'reversed', text: 'Puedes volver a subirla.' });
    expect(decided.statusCode, decided.body).toBe(200);
    const appealMail = await lastMailTo(m.userId);
    expect(appealMail.subject).toBe('Hemos resuelto tu recurso');
    expect(appealMail.text).toContain('Hemos revisado tu recurso sobre una foto del anuncio «Retratos en Avilés» de Modelo Ruta.');
    expect(appealMail.text).toContain(`/es/statements/${statementId}`);
  });
});

describe('statement views (without HTTP)', () => {
  it("the recipient reads and appeals their statement once; someone else's is 403, a second appeal 409", async () => {
    const db = t.database.db;
    const m = await buildModel(db, { name: 'Appellant' });
    const other = await buildModel(db, { name: 'Stranger' });
    const { statement } = await issueStatement(db, t.app, {
      subjectType: 'ad',
      subjectId: m.adId,
      decision: 'paused',
      reasonCodes: ['other'],
      facts: 'Paused while we check the photos.',
    });
    expect(await readOwnStatement(db, m.userId, statement.id)).toMatchObject({ id: statement.id, can_appeal: true, appeal: null });
    await expect(readOwnStatement(db, other.userId, statement.id)).rejects.toMatchObject({ status: 403 });
    const appealed = await appealStatement(db, m.userId, statement.id, 'These photos are mine, taken last week.');
    expect(appealed).toMatchObject({ can_appeal: false, appeal: { status: 'pending' } });
    await expect(appealStatement(db, m.userId, statement.id, 'Once more, with feeling please.')).rejects.toMatchObject({ status: 409 });
    const list = await listUserStatements(db, m.userId, 1, 10);
    expect(list.data.map((s) => s.id)).toEqual([statement.id]);
    expect(list.meta).toMatchObject({ total: 1, from: 1, to: 1, last_page: 1 });
  });
});
