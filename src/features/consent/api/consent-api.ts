/** The model's consent pages (no account needed): read the request, answer it, withdraw a given consent. */
import { queryOptions } from '@tanstack/react-query';
import { API } from '#contract/routes.ts';
import type { Answer } from '#contract/answers.ts';
import type { ConsentCodeInput, ConsentDecision, ConsentRequest } from '#contract/publicists.ts';
import { apiGet, apiRequest } from '#src/lib/api-client.ts';

export const consentQueryOptions = (kind: 'give' | 'withdraw', token: string) =>
  queryOptions({
    queryKey: ['consent', kind, token],
    queryFn: ({ signal }) =>
      apiGet<{ data: ConsentRequest }>(kind === 'give' ? API.consentRequest(token) : API.consentWithdraw(token), signal).then(
        (r) => r.data,
      ),
    retry: false,
    staleTime: Infinity,
  });

export type ConsentAnswer = Answer & { data: ConsentRequest };

export const answerConsent = (token: string, decision: ConsentDecision) =>
  apiRequest<ConsentAnswer>(API.consentRequest(token), { method: 'POST', body: { decision } });

export const withdrawConsent = (token: string) => apiRequest<ConsentAnswer>(API.consentWithdraw(token), { method: 'POST' });

/** Contact + code → a one-time token for the request's page (the same page the mailed link opens). */
export const redeemConsentCode = (values: ConsentCodeInput) =>
  apiRequest<{ data: { token: string } }>(API.consentCode, { method: 'POST', body: values });
