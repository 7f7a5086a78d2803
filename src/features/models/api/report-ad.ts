import type { z } from 'zod';
import { API } from '#contract/routes.ts';
import type { Answer } from '#contract/answers.ts';
import type { reportCreateSchema } from '#contract/reports.ts';
import { apiRequest } from '#src/lib/api-client.ts';

/** POST /api/reports — anyone may send it; the answer carries the receipt code. */
export const sendReport = (body: z.input<typeof reportCreateSchema>) =>
  apiRequest<Answer & { data: { receipt: string } }>(API.reports, { method: 'POST', body });
