/**
 * What the staff routes do, one function per route, testable without HTTP: each takes the database (and storage
 * where photos are listed) and the parsed query, and gives the answer's body (`page()` for the lists).
 */
import { and, eq, ilike, inArray, or } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  adminClientQuerySchema,
  adminListQuerySchema,
  appealQuerySchema,
  photoQuerySchema,
  verificationQuerySchema,
} from '#contract/admin.ts';
import { page } from '../../answers.ts';
import type { Db } from '../../db/client.ts';
import { users, verificationRequests } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { Storage } from '../../plugins/storage.ts';
import { matchCounts, verificationMatches } from '../media/photo-hashes.ts';
import { listUserStatements, subjectLabel, toAppeal } from '../statements/statement-views.ts';
import {
  clientsWhere,
  listAds,
  listAppeals,
  listModels,
  listPhotos,
  listPublicists,
  listUsers,
  listVerifications,
  toAdminUser,
  withoutProfileWhere,
} from './admin.repository.ts';

type ListQuery = z.output<typeof adminListQuerySchema>;
type PageQuery = { page: number; per_page: number };

const limitOf = (q: PageQuery) => ({ limit: q.per_page, offset: (q.page - 1) * q.per_page });
const pageOf = <T>(q: PageQuery, { rows, total }: { rows: T[]; total: number }) => page(rows, { page: q.page, perPage: q.per_page, total });
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export const modelsPage = async (db: Db, q: ListQuery, onlyUnderResponsibility = false) =>
  pageOf(q, await listModels(db, q, limitOf(q), onlyUnderResponsibility));

export const publicistsPage = async (db: Db, q: ListQuery) => pageOf(q, await listPublicists(db, q, limitOf(q)));

/** The ads; `ads` repeats `data` and `count` the total, as the PWA's older screens read them. */
export async function adsPage(db: Db, storage: Storage, q: ListQuery, lang: string) {
  const list = await listAds(db, storage, q, limitOf(q), lang);
  const answer = pageOf(q, list);
  return { data: answer.data, ads: answer.data, count: list.total, meta: answer.meta };
}

export const clientsPage = async (db: Db, q: ListQuery) => pageOf(q, await listUsers(db, clientsWhere(q), limitOf(q)));

export const usersWithoutProfilePage = async (db: Db, q: ListQuery) => pageOf(q, await listUsers(db, withoutProfileWhere(q), limitOf(q)));

/** Staff accounts (super admin only), searched by name or e-mail. */
export async function adminsPage(db: Db, q: ListQuery) {
  const where = and(
    inArray(users.role, ['admin', 'super_admin']),
    q.search ? or(ilike(users.name, `%${escapeLike(q.search)}%`), ilike(users.email, `%${escapeLike(q.search)}%`)) : undefined,
  );
  return pageOf(q, await listUsers(db, where, limitOf(q)));
}

/** The client's record with their statements of reasons (DSA art. 17), so staff see the history before deciding. */
export async function clientRecord(db: Db, id: number, q: z.output<typeof adminClientQuerySchema>) {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.role, 'client')));
  if (!user) throw notFound();
  const list = await listUserStatements(db, user.id, q.page, q.per_page);
  return {
    ...toAdminUser(user),
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
    statements: list.meta.total,
    statement_list: list,
  };
}

export const photosPage = async (db: Db, storage: Storage, q: z.output<typeof photoQuerySchema>) =>
  pageOf(q, await listPhotos(db, storage, q.status, limitOf(q), matchCounts));

/** Verification requests, each selfie with its matches (issue 29): the reviewer sees a reused face beside the request. */
export async function verificationsPage(db: Db, storage: Storage, q: z.output<typeof verificationQuerySchema>) {
  const { rows, total } = await listVerifications(db, storage, q.status ?? 'pending', limitOf(q));
  const matches = await verificationMatches(
    db,
    storage,
    rows.map((r) => r.id),
  );
  return pageOf(q, {
    total,
    rows: rows.map((r) => {
      const found = matches.get(r.id) ?? [];
      return { ...r, match_count: found.length, matches: found };
    }),
  });
}

/**
 * The selfie of a verification request. It lives in private storage (`verification/…`), which /media/* never serves:
 * only this staff route streams it.
 */
export async function verificationSelfie(db: Db, storage: Storage, id: number) {
  const [row] = await db.select({ key: verificationRequests.photoKey }).from(verificationRequests).where(eq(verificationRequests.id, id));
  if (!row?.key) throw notFound();
  const file = await storage.read(row.key);
  if (!file) throw notFound();
  return file;
}

/** Appeals with their user and the statement appealed against (and what it was about, in words). */
export async function appealsPage(db: Db, q: z.output<typeof appealQuerySchema>) {
  const { rows, total } = await listAppeals(db, q.status ?? 'pending', limitOf(q));
  const data = [];
  for (const r of rows) {
    data.push({
      ...toAppeal(r.a),
      user: r.user?.id ? r.user : null,
      statement: {
        id: r.s.id,
        subject_type: r.s.subjectType,
        subject_id: r.s.subjectId,
        subject_label: await subjectLabel(db, r.s.subjectType, r.s.subjectId),
        decision: r.s.decision,
        reason_codes: r.s.reasonCodes,
        ground: r.s.ground,
        facts: r.s.facts,
        created_at: r.s.createdAt.toISOString(),
      },
    });
  }
  return pageOf(q, { rows: data, total });
}
