/**
 * The model's consent pages (no account needed): read the request, answer it, withdraw a given consent. Answers are
 * typed by the schemas the server's consent routes declare.
 */
import { queryOptions } from '@tanstack/react-query';
import { API } from '#contract/routes.ts';
import type { z } from 'zod';
import type {
  consentAnswerSchema,
  consentCodeAnswerSchema,
  ConsentCodeInput,
  ConsentDecision,
  consentRequestSchema,
} from '#contract/publicists.ts';
import { apiGet, apiRequest } from '#src/lib/api-client.ts';

export const consentQueryOptions = (kind: 'give' | 'withdraw', token: string) =>
  queryOptions({
    queryKey: ['consent', kind, token],
    queryFn: ({ signal }) =>
      apiGet<z.infer<typeof consentRequestSchema>>(kind === 'give' ? API.consentRequest(token) : API.consentWithdraw(token), signal).then(
        (r) => r.data,
      ),
    retry: false,
    staleTime: Infinity,
  });

export type ConsentAnswer = z.infer<typeof consentAnswerSchema>;

export const answerConsent = (token: string, decision: ConsentDecision) =>
  apiRequest<ConsentAnswer>(API.consentRequest(token), { method: 'POST', body: { decision } });

export const withdrawConsent = (token: string) => apiRequest<ConsentAnswer>(API.consentWithdraw(token), { method: 'POST' });

/** Contact + code → a one-time token for the request's page (the same page the mailed link opens). */
export const redeemConsentCode = (values: ConsentCodeInput) =>
  apiRequest<z.infer<typeof consentCodeAnswerSchema>>(API.consentCode, { method: 'POST', body: values });
