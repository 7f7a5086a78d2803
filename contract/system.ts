import { z } from 'zod';
import { answerSchema } from './answers.ts';

/**
 * GET /api/health: the process is alive and answering (nothing else is checked: a liveness probe). Anyone may call
 * it, so it says no more than that: which parts or engines the process uses is for operators (GET /api/ready with the
 * metrics token, /metrics).
 */
export const healthSchema = z.object({
  /** `degraded`: alive, but a shared part it uses is away (Redis: limits and caches are per process meanwhile). */
  status: z.enum(['ok', 'degraded']),
});
export type Health = z.infer<typeof healthSchema>;

/** One part checked by GET /api/ready: its state and how long the check took. */
export const readyPartSchema = z.object({
  status: z.enum(['ok', 'failing']),
  ms: z.number(),
  /** `timeout` or `error` when failing; the details are in the server's log, never in the answer. */
  reason: z.enum(['timeout', 'error']).optional(),
});

/**
 * The `data` of GET /api/ready's envelope: ready (200), degraded (200: a part it can do without is away, e.g. Redis,
 * named in `degraded`) or unavailable (503) with the failing parts named. The parts (`failing`, `degraded`, `checks`)
 * are answered only to operators: with `Authorization: Bearer $METRICS_TOKEN`, or on the metrics listener
 * (METRICS_PORT); anyone else, a load balancer included, gets the status code and `status` only.
 */
export const readinessSchema = z.object({
  status: z.enum(['ready', 'degraded', 'unavailable']),
  /** The parts that failed and that the process cannot serve without (database, storage, …), empty when ready. */
  failing: z.array(z.string()).optional(),
  /** The parts that failed but that the process serves without (redis), empty when all answer. */
  degraded: z.array(z.string()).optional(),
  checks: z.record(z.string(), readyPartSchema).optional(),
});
export type Readiness = Required<z.infer<typeof readinessSchema>>;

/** GET /api/ready answers the envelope (SPEC §7) with the readiness as `data`, on 200 and on 503 alike. */
export const readyAnswerSchema = answerSchema.extend({ data: readinessSchema });
