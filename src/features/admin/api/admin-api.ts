/**
 * Staff calls (lists, queues, decisions, appeals, audit) as TanStack Query options. Answers are typed by the schemas
 * the server's routes declare; the moderation list rows below are still the PWA's own until the contract defines them.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { API } from '#contract/routes.ts';
import type {
  adminClientResponseSchema,
  adminCountsSchema,
  AppealDecisionInput,
  appealDecidedSchema,
  AuditEntryView,
  decisionResultSchema,
  DecisionInput,
} from '#contract/admin.ts';
import type { dataOf, successOf } from '#contract/answers.ts';
import type { createAdminSchema, userChangedAnswerSchema } from '#contract/auth.ts';
import type { Image, PaginationMeta } from '#contract/listings.ts';
import type { Status } from '#contract/statuses.ts';
import { apiGet, apiRequest } from '#src/lib/api-client.ts';

export const ADMIN_KEY = ['admin'] as const;

type CountsAnswer = z.infer<ReturnType<typeof dataOf<typeof adminCountsSchema>>>;
type DecisionAnswer = z.infer<ReturnType<typeof successOf<typeof decisionResultSchema>>>;
type AppealAnswer = z.infer<ReturnType<typeof successOf<typeof appealDecidedSchema>>>;

export interface Paged<T> {
  data: T[];
  meta: PaginationMeta;
}

export type Params = Record<string, string | number | undefined>;

function withParams(path: string, params: Params): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

export const adminListOptions = <T>(path: string, params: Params) =>
  queryOptions({
    queryKey: [...ADMIN_KEY, path, params],
    queryFn: ({ signal }) => apiGet<Paged<T>>(withParams(path, params), signal),
    placeholderData: keepPreviousData,
  });

export const adminCountsOptions = () =>
  queryOptions({
    queryKey: [...ADMIN_KEY, 'counts'],
    queryFn: ({ signal }) => apiGet<CountsAnswer>(API.adminCounts, signal).then((r) => r.data),
  });

/** One client record with a page of their statements of reasons (the page lives in the screen's URL). */
export const adminClientOptions = (id: number, page: number) =>
  queryOptions({
    queryKey: [...ADMIN_KEY, 'client', id, page],
    queryFn: ({ signal }) =>
      apiGet<z.infer<typeof adminClientResponseSchema>>(
        withParams(API.adminClient(id), { page: page > 1 ? page : undefined }),
        signal,
      ).then((r) => r.data),
    // Paging through the statements keeps the record on screen; another client never shows the previous one's data.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === id ? previous : undefined),
  });

export const decide = (body: DecisionInput) => apiRequest<DecisionAnswer>(API.adminDecisions, { method: 'POST', body });
export const decideAppeal = (id: number, body: AppealDecisionInput) =>
  apiRequest<AppealAnswer>(API.adminAppealDecide(id), { method: 'POST', body });
export const createAdmin = (body: z.output<typeof createAdminSchema>) =>
  apiRequest<z.infer<typeof userChangedAnswerSchema>>(API.adminCreate, { method: 'POST', body });

export interface UserRef {
  id: number;
  name: string;
  email: string;
}

/** An account with its own status (suspended or not), as the model and publicist lists answer it. */
export type AccountRef = UserRef & { status: Status };

/** An account as the staff lists answer it (the shape lives in the contract, shared with the server). */
export type { AdminUser } from '#contract/admin.ts';

export interface AdminModel {
  id: number;
  display_name: string;
  status: Status;
  consent_status: string;
  contact_email: string | null;
  phone: string | null;
  user: AccountRef | null;
  publicist: { id: number; display_name: string; legal_name: string | null } | null;
  ads: number;
  created_at: string;
}

export interface AdminPublicist {
  id: number;
  display_name: string;
  status: Status;
  legal_name: string | null;
  tax_id: string | null;
  address: string | null;
  phone: string | null;
  email: string | null;
  user: AccountRef;
  models: number;
  created_at: string;
}

export type AdminPhoto = Image & {
  moderation: { provider: string; scores: { sexual_activity: number; sexual_display: number; erotica: number } } | null;
  created_at: string;
};

export interface AdminAd {
  id: number;
  title: string;
  description: string;
  status: Status;
  is_active: boolean;
  is_listed: boolean;
  edited: boolean;
  city: string;
  section: { slug: string; name: string };
  profile: {
    id: number;
    display_name: string;
    status: Status;
    consent_status: string;
    user_id: number | null;
    publicist_id: number | null;
  };
  /** The agency responsible for the model (a publicist's model), else null. */
  publicist: { id: number; display_name: string } | null;
  photos: AdminPhoto[];
  created_at: string;
  updated_at: string;
}

export type RecentPhoto = AdminPhoto & {
  /** Null while the photo waits in the review queue. */
  reviewed_at: string | null;
  ad: { id: number; title: string; status: Status };
  profile: { id: number; display_name: string };
};

export interface AdminVerification {
  id: number;
  code: string;
  status: 'pending' | 'approved' | 'rejected';
  submitted_at: string | null;
  selfie_url: string | null;
  profile: { id: number; display_name: string; status: Status; birth_date: string | null };
  photos: AdminPhoto[];
}

export interface AdminAppeal {
  id: number;
  status: 'pending' | 'upheld' | 'reversed';
  text: string;
  decision_text: string | null;
  created_at: string;
  user: UserRef | null;
  statement: {
    id: number;
    subject_type: string;
    subject_id: number;
    subject_label: string | null;
    decision: string;
    reason_codes: string[];
    ground: string;
    facts: string;
    created_at: string;
  };
}

/** One audit log entry (GET API.superAdminAudit), as the contract declares it. */
export type AuditEntry = AuditEntryView;
