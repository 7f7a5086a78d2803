/**
 * Erasure (GDPR art. 17): a model with data in every table and storage prefix deletes the account, and nothing
 * personal remains — no table dump contains their e-mail, name, phone or IP, no file of theirs is left. Every table of
 * the public schema and every storage prefix must be classified below, so one added later fails this test until
 * someone decides what erasure does with it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ads,
  adStatsWeekly,
  auditLog,
  favourites,
  media,
  modelConsents,
  modelProfiles,
  photoReviews,
  savedSearches,
  savedSearchHits,
  users,
  verificationRequests,
} from '#server/db/schema.ts';
import { mediaKey } from '#server/modules/media/images.ts';
import { hashPassword } from '#server/modules/auth/passwords.ts';
import { ERASED, redact } from './erasure.ts';
import { recordAudit } from '#server/modules/audit/audit.ts';
import { newAgent, signedIn, type Agent } from '../../../tests/agent.ts';
import { buildModel, buildPublicist, buildUser } from '../../../tests/factories.ts';
import { createTestApp, type TestApp } from '../../../tests/test-app.ts';

/**
 * What erasure does with each table: `personal` rows of the person are removed or reduced; `kept` rows stay with the
 * person's data reduced (the law keeps them); `none` holds nothing about a person.
 */
const TABLES: Record<string, 'personal' | 'kept' | 'none'> = {
  ads: 'personal',
  appeals: 'kept',
  audit_log: 'kept',
  cities: 'none',
  contact_messages: 'personal',
  countries: 'none',
  data_exports: 'personal',
  idempotency_keys: 'personal',
  media: 'personal',
  model_consents: 'personal',
  model_profiles: 'personal',
  page_views: 'none',
  password_reset_tokens: 'personal',
  publicist_profiles: 'personal',
  publicity_ads: 'none',
  reports: 'kept',
  sections: 'none',
  sessions: 'personal',
  states: 'none',
  statements: 'kept',
  users: 'personal',
  verification_requests: 'personal',
  // Typo-correction vocabulary (migration 0013): words of listed ads' text, kept by triggers on ads, so the words of
  // an erased account's ads leave with them.
  search_words: 'personal',
  // How many ads are listed per city and section (migration 0016): numbers only, no one's data.
  listing_counts: 'none',
  // Issue 14: the person's notifications, support conversation and its messages; jobs name their records (the chat
  // e-mail names the conversation).
  notifications: 'personal',
  support_conversations: 'personal',
  support_messages: 'personal',
  jobs: 'personal',
  // Issue 24 B7: refused photos kept for a person's review (their rows go with the ads, their files with them).
  photo_reviews: 'personal',
  // Issue 25: a user's push devices and switches (removed with the user, and a device with its session).
  push_subscriptions: 'personal',
  push_preferences: 'personal',
  favourites: 'personal',
  saved_searches: 'personal',
  saved_search_hits: 'personal',
  // Counts per ad and week, naming nobody; they go with the ad.
  ad_stats_weekly: 'personal',
  // Issue 29: a photo's or selfie's perceptual hashes go with it; the removed list keeps hashes and a ground, no one's data.
  media_hashes: 'personal',
  removed_media_hashes: 'none',
};

/** Top-level storage prefixes: `ads` photos, `verification` selfies, `exports` archives are personal; the rest are not. */
const PREFIXES: Record<string, 'personal' | 'none'> = {
  ads: 'personal',
  // Refused photos kept for a person's review (modules/photo-reviews).
  held: 'personal',
  verification: 'personal',
  exports: 'personal',
  demo: 'none',
  promo: 'none',
};

const IP = '203.0.113.77';
const PASSWORD = 'a long enough test secret 42';

let t: TestApp;
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function rowsOf(table: string): Promise<string[]> {
  const res: unknown = await db().execute(sql.raw(`SELECT row_to_json(t)::text AS j FROM "${table}" t`));
  return (res as { rows: { j: string }[] }).rows.map((r) => r.j);
}

async function publicTables(): Promise<string[]> {
  const res: unknown = await db().execute(
    sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  return (res as { rows: { table_name: string }[] }).rows.map((r) => r.table_name);
}

function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)));
}

/** Signs in from a distinctive IP, so the IP stored with the session can be looked for afterwards. */
async function loginFrom(agent: Agent, email: string) {
  const res = await agent.request({ method: 'POST', url: '/api/login', payload: { email, password: PASSWORD }, remoteAddress: IP });
  expect(res.statusCode, res.body).toBe(200);
}

describe('account erasure', () => {
  it('every table and storage prefix is classified', async () => {
    for (const table of await publicTables()) expect(TABLES, `table ${table} is not classified`).toHaveProperty(table);
    const prefixes = fs.readdirSync(t.app.storage.root);
    for (const p of prefixes) expect(PREFIXES, `storage prefix ${p}/ is not classified`).toHaveProperty(p);
  });

  it('deleting one’s account leaves no personal row or file behind', async () => {
    const email = `erase-me-${Date.now()}@vitrina.test`;
    const name = 'Zuriñe Erasmotest';
    const displayName = 'Zuriñe Modelotest';
    const phone = '+34611223344';
    const user = await buildUser(db(), { email, name, role: 'model' });
    await db()
      .update(users)
      .set({ passwordHash: await hashPassword(PASSWORD) })
      .where(eq(users.id, user.id));
    const model = await buildModel(db(), { name: displayName, userId: user.id, photos: 2, title: `${displayName} en Oviedo` });
    await db().update(modelProfiles).set({ phone }).where(eq(modelProfiles.id, model.profileId));
    // A second ad that stays listed (the first is suspended below), so derived indexes hold her words too.
    await db().insert(ads).values({
      modelProfileId: model.profileId,
      title: 'Segundo anuncio de Modelotest',
      description: 'Sesiones en exteriores.',
      sectionId: model.sectionId,
      cityId: model.cityId,
      status: 'active',
    });

    // Photo files for each stored variant, and a verification selfie in private storage.
    const photoKeys: string[] = [];
    for (const m of await db().select().from(media).where(eq(media.adId, model.adId))) {
      for (const w of m.variants) {
        const key = mediaKey(model.adId, m.uid, w);
        await t.app.storage.put(key, Buffer.from(`photo of ${displayName}`));
        photoKeys.push(key);
      }
    }
    const selfieKey = `verification/${model.profileId}/selfie-test.webp`;
    await t.app.storage.put(selfieKey, Buffer.from('selfie'));
    // A refused photo of theirs kept for a person's review (issue 24 B7).
    const heldUid = crypto.randomUUID();
    const heldKey = `held/${heldUid}/320.webp`;
    await t.app.storage.put(heldKey, Buffer.from(`refused photo of ${displayName}`));
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
    await db()
      .insert(verificationRequests)
      .values({
        modelProfileId: model.profileId,
        code: 'AB12CD',
        status: 'pending',
        photoKey: selfieKey,
        expiresAt: new Date(Date.now() + 3600_000),
      });

    const agent = await newAgent(t.app);
    // A password reset asked for (a reset token), then the sign-in.
    const forgot = await agent.request({ method: 'POST', url: '/api/forgot-password', payload: { email }, remoteAddress: IP });
    expect(forgot.statusCode, forgot.body).toBeLessThan(300);
    await loginFrom(agent, email);

    // A notice about someone else's ad, with their address as the contact.
    const other = await buildModel(db(), { name: 'Otra Modelo' });
    const report = await agent.request({
      method: 'POST',
      url: '/api/reports',
      payload: {
        ad_id: other.adId,
        reason: 'spam',
        details: 'Un anuncio repetido muchas veces.',
        contact: email,
        opened_at: Date.now() - 10_000,
      },
      remoteAddress: IP,
    });
    expect(report.statusCode, report.body).toBe(201);
    // A message to the admins (name and address from the account), sent with an Idempotency-Key: a recorded request.
    const message = await agent.request({
      method: 'POST',
      url: '/api/contact/sendMessageToAdmin',
      payload: { subject: 'Una consulta', message: `Hola, soy ${name}, mi teléfono es ${phone}.` },
      headers: { 'idempotency-key': 'erasure-test-key-1' },
      remoteAddress: IP,
    });
    expect(message.statusCode, message.body).toBe(201);
    const info = await agent.request({
      method: 'PUT',
      url: '/api/user/profile-information',
      payload: { name, email },
      headers: { 'idempotency-key': 'erasure-test-key-2' },
      remoteAddress: IP,
    });
    expect(info.statusCode, info.body).toBe(200);

    // Staff suspend their ad (statement of reasons + audit entry naming them), they appeal; someone reports their ad.
    const staff = await signedIn(t.app, db(), { role: 'admin' });
    const decision = await staff.agent.post('/api/admin/decisions', {
      subject_type: 'ad',
      subject_id: model.adId,
      action: 'suspend',
      reason_codes: ['spam'],
      text: `El anuncio de ${displayName} (${phone}) se repite.`,
    });
    expect(decision.statusCode, decision.body).toBe(200);
    await recordAudit(db(), {
      actor: { id: staff.user.id, role: 'admin', email: staff.user.email },
      action: 'model_profile.update',
      subjectType: 'model_profile',
      subjectId: model.profileId,
      before: { display_name: 'Nombre anterior', phone: '+34600000001' },
      after: { display_name: displayName, phone },
    });
    // A support chat: their message with their phone, a staff reply (a notification and the pending e-mail job).
    const chat = (await agent.post('/api/support/chat/conversations', {})).json<{ data: { id: number } }>().data;
    const said = await agent.post(`/api/support/chat/${chat.id}/messages`, { content: `Soy ${name}, mi teléfono es ${phone}.` });
    expect(said.statusCode, said.body).toBe(201);
    expect((await staff.agent.post(`/api/support/chat/${chat.id}/messages`, { content: `Hola ${name}` })).statusCode).toBe(201);
    expect((await rowsOf('jobs')).some((r) => r.includes(`chat-email:${chat.id}`))).toBe(true);

    const statementsList = await agent.get('/api/statements');
    const statementId = (JSON.parse(statementsList.body) as { data: { id: number }[] }).data[0]!.id;
    const appeal = await agent.post(`/api/statements/${statementId}/appeal`, {
      text: `Soy ${name} y el anuncio es mío, escribidme a ${email}.`,
    });
    expect(appeal.statusCode, appeal.body).toBe(201);

    // An export, built and stored.
    const exportRes = await agent.post('/api/user/data-export');
    expect(exportRes.statusCode, exportRes.body).toBe(202);
    await Promise.all([...t.app.dataExportJobs]);
    const state = JSON.parse((await agent.get('/api/user/data-export')).body) as { status: string };
    expect(state.status).toBe('ready');

    // Issue 28: she saved someone else's ad, saved a search (named with her surname) that found it, and her ad has its
    // weekly numbers.
    await db().insert(favourites).values({ userId: user.id, adId: other.adId });
    const [search] = await db()
      .insert(savedSearches)
      .values({ userId: user.id, name: 'Lo que busca Erasmotest', search: 'estudio', alerts: 'daily' })
      .returning({ id: savedSearches.id });
    await db().insert(savedSearchHits).values({ searchId: search!.id, adId: other.adId });
    await db().insert(adStatsWeekly).values({ adId: model.adId, week: '2026-11-23', impressions: 9, opens: 3, calls: 1, messages: 1 });
    expect(await db().select().from(savedSearchHits).where(eq(savedSearchHits.searchId, search!.id))).toHaveLength(1);
    expect(await db().select().from(adStatsWeekly).where(eq(adStatsWeekly.adId, model.adId))).toHaveLength(1);

    const identifiers = [email, name, displayName, phone, IP];
    const dumpBefore = (await Promise.all((await publicTables()).map(rowsOf))).flat().join('\n');
    // The set-up really put their data in place (else the check below would prove nothing).
    for (const s of identifiers) expect(dumpBefore, s).toContain(s);
    if ((await publicTables()).includes('search_words')) {
      expect((await rowsOf('search_words')).some((r) => r.includes('modelotest'))).toBe(true);
    }
    for (const table of [
      'contact_messages',
      'reports',
      'idempotency_keys',
      'sessions',
      'password_reset_tokens',
      'statements',
      'appeals',
      'audit_log',
      'data_exports',
      'support_conversations',
      'support_messages',
      'notifications',
      'favourites',
      'saved_searches',
    ]) {
      expect(
        (await rowsOf(table)).some(
          (r) => identifiers.some((s) => r.includes(s)) || r.includes(`"user_id":${user.id}`) || r.includes(`user:${user.id}`),
        ),
        table,
      ).toBe(true);
    }
    const storedBefore = filesUnder(t.app.storage.root);
    expect(storedBefore.filter((f) => f.startsWith(`exports/${user.id}/`))).toHaveLength(1);
    for (const k of [...photoKeys, selfieKey, heldKey]) expect(storedBefore).toContain(k);

    // Deleting one's own account needs a fresh password confirmation.
    expect((await agent.post('/api/user/confirm-password', { password: PASSWORD })).statusCode).toBe(201);
    const res = await agent.delete(`/api/profile/delete/${user.id}`);
    expect(res.statusCode, res.body).toBe(200);

    // Whole names, and each surname alone (as a word index would keep it).
    const gone = [...identifiers, 'Erasmotest', 'Modelotest'];
    for (const table of await publicTables()) {
      const rows = await rowsOf(table);
      for (const s of gone) {
        const hit = rows.find((r) => r.toLowerCase().includes(s.toLowerCase()));
        expect(hit, `${table} still holds ${s}`).toBeUndefined();
      }
    }
    // No personal table keeps a row linked to the account, its profile or its ad (reset tokens, sessions, photos…).
    const linked = new RegExp(
      `"user_id":${user.id}(?!\\d)|user:${user.id}(?!\\d)|"model_profile_id":${model.profileId}(?!\\d)|"ad_id":${model.adId}(?!\\d)`,
    );
    for (const table of await publicTables()) {
      if (TABLES[table] !== 'personal') continue;
      expect(
        (await rowsOf(table)).find((r) => linked.test(r)),
        `${table} keeps a row of the account`,
      ).toBeUndefined();
    }
    expect((await rowsOf('jobs')).some((r) => r.includes(`chat-email:${chat.id}`))).toBe(false);
    // Her favourites and saved searches went with the account, the search's found ads with it (cascade), her ad's
    // numbers with the ad; the ad she saved and its own numbers are someone else's and stay.
    expect(await db().select().from(favourites).where(eq(favourites.userId, user.id))).toEqual([]);
    expect(await db().select().from(savedSearches).where(eq(savedSearches.userId, user.id))).toEqual([]);
    expect(await db().select().from(savedSearchHits).where(eq(savedSearchHits.searchId, search!.id))).toEqual([]);
    expect(await db().select().from(adStatsWeekly).where(eq(adStatsWeekly.adId, model.adId))).toEqual([]);
    expect(await db().select({ id: ads.id }).from(ads).where(eq(ads.id, other.adId))).toHaveLength(1);
    // Nothing can point back to the account but the numbers the law keeps: statements and appeals, the audit log.
    expect(await db().select().from(users).where(eq(users.id, user.id))).toEqual([]);
    const left = filesUnder(t.app.storage.root);
    for (const k of [...photoKeys, selfieKey, heldKey]) expect(left).not.toContain(k);
    expect(
      left.filter(
        (f) =>
          f.startsWith(`exports/${user.id}/`) || f.startsWith(`ads/${model.adId}/`) || f.startsWith(`verification/${model.profileId}/`),
      ),
    ).toEqual([]);

    // What the law keeps is still there, reduced: the statement (user id as a number), the appeal and the audit trail.
    const [kept] = (await rowsOf('statements')).filter((r) => r.includes(`"id":${statementId},`));
    expect(kept).toContain(`"user_id":${user.id}`);
    const trail = await db().select().from(auditLog).where(eq(auditLog.subjectId, model.adId));
    expect(trail.map((e) => e.action)).toContain('ad.suspend');
    // The other model, the staff member and the other notice are untouched.
    expect((await rowsOf('users')).some((r) => r.includes(staff.user.email))).toBe(true);
  });

  it('staff deleting an account erases it the same way, and the audit entry does not name the person', async () => {
    const staff = await signedIn(t.app, db(), { role: 'admin' });
    const victimEmail = `victim-${Date.now()}@vitrina.test`;
    const victim = await buildUser(db(), { email: victimEmail, name: 'Persona Borradatest' });
    const res = await staff.agent.delete(`/api/profile/delete/${victim.id}`);
    expect(res.statusCode, res.body).toBe(200);
    for (const table of await publicTables()) {
      const rows = await rowsOf(table);
      expect(
        rows.find((r) => r.includes(victimEmail) || r.includes('Persona Borradatest')),
        table,
      ).toBeUndefined();
    }
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.subjectId, victim.id));
    expect(entry).toMatchObject({ action: 'user.delete', before: { role: 'client', status: 'active' } });
  });

  it("a publicist's erasure takes the agency's models with it: their contacts, ads and photo files", async () => {
    const email = `agencia-erase-${Date.now()}@vitrina.test`;
    const user = await buildUser(db(), { email, name: 'Agencia Borradatest', role: 'publicist' });
    await db()
      .update(users)
      .set({ passwordHash: await hashPassword(PASSWORD) })
      .where(eq(users.id, user.id));
    const { publicistId } = await buildPublicist(db(), { userId: user.id, name: 'Agencia Erasmus Test' });
    const contact = `modelo-gestionada-${Date.now()}@example.test`;
    const managed = await buildModel(db(), { name: 'Modelo Gestionadatest', photos: 1 });
    // Hand the factory's model to the agency, as a model without an account of her own.
    await db()
      .update(modelProfiles)
      .set({ publicistId, contactEmail: contact, consentStatus: 'given' })
      .where(eq(modelProfiles.id, managed.profileId));
    await db()
      .insert(modelConsents)
      .values({
        modelProfileId: managed.profileId,
        publicistId,
        contact,
        tokenHash: 'f'.repeat(64),
        status: 'given',
        expiresAt: new Date(),
      });
    const [photo] = await db().select().from(media).where(eq(media.adId, managed.adId));
    const key = mediaKey(managed.adId, photo!.uid, photo!.variants[0]!);
    await t.app.storage.put(key, Buffer.from('webp'));

    const agent = await newAgent(t.app);
    await loginFrom(agent, email);
    expect((await agent.post('/api/user/confirm-password', { password: PASSWORD })).statusCode).toBe(201);
    const res = await agent.delete(`/api/profile/delete/${user.id}`);
    expect(res.statusCode, res.body).toBe(200);

    for (const table of await publicTables()) {
      const rows = await rowsOf(table);
      for (const s of [email, contact, 'Agencia Erasmus Test', 'Agencia Borradatest']) {
        expect(
          rows.find((r) => r.includes(s)),
          `${table} still holds ${s}`,
        ).toBeUndefined();
      }
    }
    expect(filesUnder(t.app.storage.root).filter((f) => f.startsWith(`ads/${managed.adId}/`))).toEqual([]);
  });

  it('redaction replaces whole identifiers (case-blind) and, about their own records, every personal field', () => {
    const doc = { note: 'Ana escribió a ANA@x.test desde 10.0.0.1; Mariana y 10.0.0.12 no son ella', name: 'Otra', n: 3 };
    expect(redact(doc, ['ana@x.test', 'Ana', '10.0.0.1'], false)).toEqual({
      note: `${ERASED} escribió a ${ERASED} desde ${ERASED}; Mariana y 10.0.0.12 no son ella`,
      name: 'Otra',
      n: 3,
    });
    expect(redact({ after: { display_name: 'Otra', phone: '+34600000000', status: 'active' } }, [], true)).toEqual({
      after: { display_name: ERASED, phone: ERASED, status: 'active' },
    });
  });

  it('the audit log stays append-only outside an erasure', async () => {
    await recordAudit(db(), { actor: null, action: 'user.update', subjectType: 'user', subjectId: 1, before: { email: 'x@y.test' } });
    const refused = await db()
      .execute(sql`UPDATE audit_log SET actor_email = NULL`)
      .then(
        () => 'updated',
        (err: Error) => String(err.message ?? err) + String((err as { cause?: Error }).cause?.message ?? ''),
      );
    expect(refused).toMatch(/append-only/);
  });
});
