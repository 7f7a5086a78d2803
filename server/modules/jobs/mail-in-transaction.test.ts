/**
 * Every mail is queued inside the transaction of the change that calls for it (mail-job.ts), and every notification is
 * stored there too (notifications.ts storeNotification; broadcast after the commit): rolled back, neither the change
 * nor its mail or notification; committed, the mail is certain to go and the notification is in the bell, even if the
 * process dies right after the commit. Two fault hooks, on the real routes:
 * - `rollBackAfter`: the change's transaction fails after the change ran → the mail job was there inside it, and
 *   afterwards neither the change nor a job is left;
 * - `crashAfterCommit`: the change's transaction commits and then the request dies (what a `kill -9` right after the
 *   commit leaves) → the committed change has its mail queued all the same.
 * And `queueOutsideTx`: queueing anywhere but in a transaction fails (the database gone right after the commit), for
 * the account changes.
 */
import { and, eq, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '#server/db/client.ts';
import {
  ads,
  appeals,
  jobs,
  modelConsents,
  modelProfiles,
  notifications,
  publicistProfiles,
  reports,
  statements,
  users,
} from '#server/db/schema.ts';
import { newAgent, signedIn, type Agent } from '#tests/agent.ts';
import { buildModel, buildPublicist } from '#tests/factories.ts';
import { createTestApp, drainJobs, type TestApp } from '#tests/test-app.ts';
import { loginAs } from '../media/test-helpers.ts';
import { openConsent } from '../publicists/consent.ts';
import type * as MailJob from './mail-job.ts';
import { MAIL_JOB } from './mail-job.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type TxConfig = Parameters<Db['transaction']>[1];

const fault = { queueOutsideTx: false };

vi.mock('#server/modules/jobs/mail-job.ts', async (importOriginal) => {
  const real = await importOriginal<typeof MailJob>();
  return {
    ...real,
    queueMail: async (db: Db, message: Parameters<typeof real.queueMail>[1]) => {
      if (fault.queueOutsideTx && !(db instanceof PgTransaction)) throw new Error('queue unreachable outside a transaction');
      return real.queueMail(db, message);
    },
  };
});

let t: TestApp;
let db: Db;
let admin: Agent;
beforeAll(async () => {
  t = await createTestApp();
  db = t.database.db;
  admin = (await signedIn(t.app, db, { role: 'admin' })).agent;
});
afterEach(() => {
  fault.queueOutsideTx = false;
  vi.restoreAllMocks();
});
afterAll(async () => {
  await t.close();
});

const mailJobsTo = (q: Db, to: string) =>
  q
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.name, MAIL_JOB), sql`${jobs.payload} ->> 'to' = ${to}`));

/** The notifications of kind `kind` stored for `userId`, as `q` (a transaction, or the database) sees them. */
const notesTo = (q: Db, userId: number, kind: string) =>
  q
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.kind, kind)));

/** The mails `to` has received (every queued job run first, as a node's runner would). */
async function mailsTo(to: string, subject?: string) {
  await drainJobs(t.app);
  return t.app.mailer.outbox.filter((m) => m.to === to && (subject === undefined || m.subject === subject));
}

/** The one mail `to` received with `subject`. */
async function onlyMail(to: string, subject?: string) {
  const found = await mailsTo(to, subject);
  expect(found, `mails to ${to}`).toHaveLength(1);
  return found[0]!;
}

/** The next transaction runs its work, then `inspect(tx)`, then fails: nothing of it is committed. */
function rollBackAfter(app: FastifyInstance, inspect: (tx: Db) => Promise<void>) {
  const real = app.db.transaction.bind(app.db);
  vi.spyOn(app.db, 'transaction').mockImplementationOnce(<T>(work: (tx: Tx) => Promise<T>, config?: TxConfig) =>
    real(async (tx) => {
      await work(tx);
      await inspect(tx);
      throw new Error('rolled back on purpose');
    }, config),
  );
}

/** The next transaction commits, then the request dies before doing anything else. */
function crashAfterCommit(app: FastifyInstance) {
  const real = app.db.transaction.bind(app.db);
  vi.spyOn(app.db, 'transaction').mockImplementationOnce(async <T>(work: (tx: Tx) => Promise<T>, config?: TxConfig): Promise<T> => {
    await real(work, config);
    throw new Error('died right after the commit');
  });
}

const emailOf = async (userId: number) => (await db.select({ email: users.email }).from(users).where(eq(users.id, userId)))[0]!.email;

const STATEMENT = 'Declaración de motivos: hemos restringido tu contenido';

describe('an admin decision and its statement of reasons', () => {
  const suspend = (adId: number) =>
    admin.post('/api/admin/decisions', {
      subject_type: 'ad',
      subject_id: adId,
      action: 'suspend',
      reason_codes: ['photo_rules'],
      text: 'Fotos de otra persona.',
    });

  it('rolled back: the mail job was in the transaction, and afterwards neither the decision nor the mail is', async () => {
    const m = await buildModel(db, { name: 'Rollback Decision' });
    const email = await emailOf(m.userId);
    let inside = -1;
    let noteInside = -1;
    rollBackAfter(t.app, async (tx) => {
      inside = (await mailJobsTo(tx, email)).length;
      noteInside = (await notesTo(tx, m.userId, 'ad.suspended')).length;
    });
    expect((await suspend(m.adId)).statusCode).toBe(500);
    expect(inside).toBe(1);
    expect(noteInside).toBe(1);
    expect(await notesTo(db, m.userId, 'ad.suspended')).toHaveLength(0);
    expect(await mailJobsTo(db, email)).toHaveLength(0);
    expect(await mailsTo(email)).toHaveLength(0);
    expect((await db.select().from(ads).where(eq(ads.id, m.adId)))[0]!.status).toBe('active');
    expect(await db.select().from(statements).where(eq(statements.userId, m.userId))).toHaveLength(0);
  });

  it('committed, then the process dies: the statement is mailed all the same', async () => {
    const m = await buildModel(db, { name: 'Crash Decision', title: 'Anuncio tras el fallo' });
    const email = await emailOf(m.userId);
    crashAfterCommit(t.app);
    expect((await suspend(m.adId)).statusCode).toBe(500);
    expect((await db.select().from(ads).where(eq(ads.id, m.adId)))[0]!.status).toBe('suspended');
    const [statement] = await db.select().from(statements).where(eq(statements.userId, m.userId));
    const mail = await onlyMail(email, STATEMENT);
    expect(mail.text).toContain(`/es/statements/${statement!.id}`);
    expect(mail.text).toContain('«Anuncio tras el fallo» de Crash Decision');
    expect(await notesTo(db, m.userId, 'ad.suspended')).toHaveLength(1);
  });

  it('a removed photo is named in the mail by its ad (named before the delete, in the same transaction)', async () => {
    const m = await buildModel(db, { name: 'Foto Quitada', title: 'Retratos en Mieres', photos: 2 });
    crashAfterCommit(t.app);
    const res = await admin.post('/api/admin/decisions', {
      subject_type: 'media',
      subject_id: m.mediaIds[0],
      action: 'remove',
      reason_codes: ['photo_rules'],
      text: 'Fotos de otra persona.',
    });
    expect(res.statusCode).toBe(500);
    const mail = await onlyMail(await emailOf(m.userId), STATEMENT);
    expect(mail.text).toContain('sobre una foto del anuncio «Retratos en Mieres» de Foto Quitada.');
  });

  it('an account reinstated, then the process dies: the reinstatement is mailed all the same', async () => {
    const m = await buildModel(db, { name: 'Cuenta Vuelta' });
    const email = await emailOf(m.userId);
    const decide = (action: 'suspend' | 'reinstate') =>
      admin.post('/api/admin/decisions', {
        subject_type: 'user',
        subject_id: m.userId,
        action,
        ...(action === 'suspend' ? { reason_codes: ['spam'] } : {}),
        text: 'Cuenta de anuncios repetidos.',
      });
    expect((await decide('suspend')).statusCode).toBe(200);
    crashAfterCommit(t.app);
    expect((await decide('reinstate')).statusCode).toBe(500);
    expect((await db.select().from(users).where(eq(users.id, m.userId)))[0]!.status).not.toBe('suspended');
    expect(await mailsTo(email, 'Hemos reactivado tu cuenta')).toHaveLength(1);
  });
});

describe('an appeal decided', () => {
  async function appealed(name: string) {
    const m = await buildModel(db, { name });
    const res = await admin.post('/api/admin/decisions', {
      subject_type: 'ad',
      subject_id: m.adId,
      action: 'suspend',
      reason_codes: ['photo_rules'],
      text: 'Fotos de otra persona.',
    });
    const statementId = res.json<{ data: { statement_id: number } }>().data.statement_id;
    const model = await loginAs(t.app, db, m.userId);
    expect((await model.post(`/api/statements/${statementId}/appeal`, { text: 'Las fotos son mías.' })).statusCode).toBe(201);
    const [appeal] = await db.select().from(appeals).where(eq(appeals.statementId, statementId));
    return { m, email: await emailOf(m.userId), appealId: appeal!.id, statementId };
  }
  const decide = (appealId: number) =>
    admin.post(`/api/admin/appeals/${appealId}/decide`, { outcome: 'reversed', text: 'Revisado: correcto.' });

  it('rolled back: the mail job was in the transaction, and afterwards neither the outcome nor the mail is', async () => {
    const { m, email, appealId } = await appealed('Rollback Appeal');
    let inside = -1;
    let noteInside = -1;
    rollBackAfter(t.app, async (tx) => {
      inside = (await mailJobsTo(tx, email)).length;
      noteInside = (await notesTo(tx, m.userId, 'appeal.reversed')).length;
    });
    expect((await decide(appealId)).statusCode).toBe(500);
    expect(inside).toBe(1);
    expect(noteInside).toBe(1);
    expect(await notesTo(db, m.userId, 'appeal.reversed')).toHaveLength(0);
    expect(await mailsTo(email, 'Hemos resuelto tu recurso')).toHaveLength(0);
    expect((await db.select().from(appeals).where(eq(appeals.id, appealId)))[0]!.status).toBe('pending');
    expect((await db.select().from(ads).where(eq(ads.id, m.adId)))[0]!.status).toBe('suspended');
  });

  it('committed, then the process dies: the outcome is mailed all the same', async () => {
    const { m, email, appealId, statementId } = await appealed('Crash Appeal');
    crashAfterCommit(t.app);
    expect((await decide(appealId)).statusCode).toBe(500);
    expect((await db.select().from(appeals).where(eq(appeals.id, appealId)))[0]!.status).toBe('reversed');
    expect((await db.select().from(ads).where(eq(ads.id, m.adId)))[0]!.status).toBe('active');
    const mail = await onlyMail(email, 'Hemos resuelto tu recurso');
    expect(mail.text).toContain(`/es/statements/${statementId}`);
    expect(await notesTo(db, m.userId, 'appeal.reversed')).toHaveLength(1);
  });
});

describe("a report's decision", () => {
  it('committed, then the process dies: the reporter is told all the same', async () => {
    const m = await buildModel(db, { name: 'Denunciada' });
    const contact = `reporter-${Date.now()}@example.test`;
    const [report] = await db
      .insert(reports)
      .values({ adId: m.adId, reason: 'other', details: 'detalles', contact, receipt: `R${Date.now()}`.slice(0, 16), ipHash: 'x' })
      .returning();
    crashAfterCommit(t.app);
    const res = await admin.post(`/api/admin/reports/${report!.id}/decide`, { outcome: 'dismissed', text: 'No incumple las normas.' });
    expect(res.statusCode).toBe(500);
    expect((await db.select().from(reports).where(eq(reports.id, report!.id)))[0]!.status).toBe('dismissed');
    const mail = await onlyMail(contact);
    expect(mail.text).toContain('No incumple las normas.');
  });
});

describe("a model's consent", () => {
  it('agreed, then the process dies: the withdrawal link is mailed all the same', async () => {
    const p = await buildPublicist(db, { name: 'Agencia Tras Fallo' });
    const m = await buildModel(db, { name: 'Modelo Consiente' });
    const contact = `consent-${Date.now()}@example.test`;
    const [model] = await db.update(modelProfiles).set({ contactEmail: contact }).where(eq(modelProfiles.id, m.profileId)).returning();
    const [publicist] = await db.select().from(publicistProfiles).where(eq(publicistProfiles.id, p.publicistId));
    const issued = (await openConsent(db, model!, publicist!))!;
    crashAfterCommit(t.app);
    const visitor = await newAgent(t.app);
    expect((await visitor.post(`/api/consent/${issued.token}`, { decision: 'agree' })).statusCode).toBe(500);
    expect((await db.select().from(modelConsents).where(eq(modelConsents.id, issued.id)))[0]!.status).toBe('given');
    const mail = await onlyMail(contact, 'Has aceptado que Agencia Tras Fallo te anuncie');
    expect(mail.text).toMatch(/\/es\/consent\/withdraw\/[A-Za-z0-9_-]{43}/);
    // The agency's notification too.
    expect(await notesTo(db, p.userId, 'consent.given')).toHaveLength(1);
  });
});

describe('account changes', () => {
  const NEW_PASSWORD = 'another long enough secret 99';

  it('password changed: rolled back, neither the new password nor the mail; the mail job was in the transaction', async () => {
    const { agent, user } = await signedIn(t.app, db);
    const [before] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id));
    let inside = -1;
    rollBackAfter(t.app, async (tx) => {
      inside = (await mailJobsTo(tx, user.email)).length;
    });
    const res = await agent.put('/api/user/password', {
      current_password: 'a long enough test secret 42',
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(500);
    expect(inside).toBe(1);
    expect((await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id)))[0]!.hash).toBe(before!.hash);
    expect(await mailsTo(user.email, 'Tu contraseña ha cambiado')).toHaveLength(0);
  });

  it('password changed while queueing outside a transaction fails: the change carries its mail', async () => {
    const { agent, user } = await signedIn(t.app, db);
    fault.queueOutsideTx = true;
    const res = await agent.put('/api/user/password', {
      current_password: 'a long enough test secret 42',
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await mailsTo(user.email, 'Tu contraseña ha cambiado')).toHaveLength(1);
  });

  it('e-mail address changed while queueing outside a transaction fails: the new address gets its verification link', async () => {
    const { agent } = await signedIn(t.app, db);
    const email = `changed-${Date.now()}@example.test`;
    fault.queueOutsideTx = true;
    const res = await agent.put('/api/user/profile-information', { name: 'Cambia Correo', email });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await onlyMail(email, 'Verifica tu correo electrónico');
    expect(mail.text).toMatch(/verify-email/);
  });
});
