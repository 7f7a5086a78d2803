import type { z } from 'zod';
import type { Answer } from '#contract/answers.ts';
import type { reportCreateSchema } from '#contract/reports.ts';
import { apiRequest } from '#src/lib/api-client.ts';

export const REPORTS_API = { create: '/api/reports' } as const;

/** POST /api/reports — anyone may send it; the answer carries the receipt code. */
export const sendReport = (body: z.input<typeof reportCreateSchema>) =>
  apiRequest<Answer & { data: { receipt: string } }>(REPORTS_API.create, { method: 'POST', body });
