/** The model's consent pages (no account needed): read the request, answer it, withdraw a given consent. */
import { queryOptions } from '@tanstack/react-query';
import type { Answer } from '#contract/answers.ts';
import type { ConsentCodeInput, ConsentDecision, ConsentRequest } from '#contract/publicists.ts';
import { apiGet, apiRequest } from '#src/lib/api-client.ts';

export const CONSENT_API = {
  code: '/api/consent/code',
  request: (token: string) => `/api/consent/${encodeURIComponent(token)}`,
  withdraw: (token: string) => `/api/consent/withdraw/${encodeURIComponent(token)}`,
} as const;

export const consentQueryOptions = (kind: 'give' | 'withdraw', token: string) =>
  queryOptions({
    queryKey: ['consent', kind, token],
    queryFn: ({ signal }) =>
      apiGet<{ data: ConsentRequest }>(kind === 'give' ? CONSENT_API.request(token) : CONSENT_API.withdraw(token), signal).then(
        (r) => r.data,
      ),
    retry: false,
    staleTime: Infinity,
  });

export type ConsentAnswer = Answer & { data: ConsentRequest };

export const answerConsent = (token: string, decision: ConsentDecision) =>
  apiRequest<ConsentAnswer>(CONSENT_API.request(token), { method: 'POST', body: { decision } });

export const withdrawConsent = (token: string) => apiRequest<ConsentAnswer>(CONSENT_API.withdraw(token), { method: 'POST' });

/** Contact + code → a one-time token for the request's page (the same page the mailed link opens). */
export const redeemConsentCode = (values: ConsentCodeInput) =>
  apiRequest<{ data: { token: string } }>(CONSENT_API.code, { method: 'POST', body: values });
