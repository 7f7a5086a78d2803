/**
 * The super admin's review numbers (issue 29 point 4): how many items staff decide per hour, per queue (the audit
 * log's decision entries of the last 24 hours), and per rule how many decisions were overturned on appeal (statements
 * citing the reason code, their appeals reversed). Read-only aggregates: no names, no content.
 */
import { sql } from 'drizzle-orm';
import { DECISION_ACTIONS, OVERTURN_WINDOW_DAYS, REVIEW_STAT_QUEUES, type ReviewStats, type ReviewStatQueue } from '#contract/admin.ts';
import { REASON_CODES } from '#contract/statements.ts';
import type { Db } from '../../db/client.ts';

const HOURS = 24;
const HOUR_MS = 3_600_000;

/** Rows of a raw query (PGlite and node-postgres both answer `{ rows }`). */
async function rowsOf<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as { rows: T[] }).rows;
}

const emptyQueues = (): Record<ReviewStatQueue, number> => {
  const out = {} as Record<ReviewStatQueue, number>;
  for (const q of REVIEW_STAT_QUEUES) out[q] = 0;
  return out;
};

export async function reviewStats(db: Db, now = new Date()): Promise<ReviewStats> {
  const lastHour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const since = new Date(lastHour - (HOURS - 1) * HOUR_MS);
  // Decisions only (`{subject}.{action}` of a staff decision), not the other staff changes the log also keeps.
  const actions = REVIEW_STAT_QUEUES.flatMap((q) => DECISION_ACTIONS.map((a) => `${q}.${a}`));
  const decided = await rowsOf<{ hour: string | Date; queue: string; n: number }>(
    db,
    sql`
    select date_trunc('hour', created_at) as hour, subject_type as queue, count(*)::int as n
      from audit_log
     where created_at >= ${since.toISOString()}::timestamptz
       and action = any(${`{${actions.join(',')}}`}::text[])
     group by 1, 2`,
  );
  const hours = Array.from({ length: HOURS }, (_, i) => ({
    hour: new Date(since.getTime() + i * HOUR_MS).toISOString(),
    decided: emptyQueues(),
    total: 0,
  }));
  for (const r of decided) {
    const at = new Date(r.hour).getTime();
    const slot = hours[Math.round((at - since.getTime()) / HOUR_MS)];
    if (!slot || !(REVIEW_STAT_QUEUES as readonly string[]).includes(r.queue)) continue;
    slot.decided[r.queue as ReviewStatQueue] += Number(r.n);
    slot.total += Number(r.n);
  }

  const windowStart = new Date(now.getTime() - OVERTURN_WINDOW_DAYS * 24 * HOUR_MS);
  const perRule = await rowsOf<{ code: string; decisions: number; appealed: number; overturned: number }>(
    db,
    sql`
    select code, count(*)::int as decisions,
           count(a.id)::int as appealed,
           count(a.id) filter (where a.status = 'reversed')::int as overturned
      from statements s
      cross join lateral jsonb_array_elements_text(s.reason_codes) as code
      left join appeals a on a.statement_id = s.id
     where s.created_at >= ${windowStart.toISOString()}::timestamptz
     group by code`,
  );
  const byCode = new Map(perRule.map((r) => [r.code, r]));
  const rules = REASON_CODES.map((code) => {
    const r = byCode.get(code);
    return { code, decisions: Number(r?.decisions ?? 0), appealed: Number(r?.appealed ?? 0), overturned: Number(r?.overturned ?? 0) };
  });
  return { hours, rules };
}
