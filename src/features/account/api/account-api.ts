/** The account calls of the dashboard and profile screens (SPEC §7). */
import type { z } from 'zod';
import type { Answer } from '#contract/answers.ts';
import type {
  modelProfileCreateSchema,
  profileInformationSchema,
  publicistProfileCreateSchema,
  updatePasswordSchema,
} from '#contract/auth.ts';
import { apiRequest } from '#src/lib/api-client.ts';

export const ACCOUNT_API = {
  profileInformation: '/api/user/profile-information',
  password: '/api/user/password',
  deleteAccount: (id: number) => `/api/profile/delete/${id}`,
  createModelProfile: '/api/profile/create',
  createPublicistProfile: '/api/publicist/profile/create',
} as const;

export const updateProfileInformation = (body: z.output<typeof profileInformationSchema>) =>
  apiRequest<Answer>(ACCOUNT_API.profileInformation, { method: 'PUT', body });

export const updatePassword = (body: z.output<typeof updatePasswordSchema>) =>
  apiRequest<Answer>(ACCOUNT_API.password, { method: 'PUT', body });

export const deleteAccount = (id: number) => apiRequest<Answer>(ACCOUNT_API.deleteAccount(id), { method: 'DELETE' });

export const createModelProfile = (body: z.output<typeof modelProfileCreateSchema>) =>
  apiRequest<Answer>(ACCOUNT_API.createModelProfile, { method: 'POST', body });

export const createPublicistProfile = (body: z.output<typeof publicistProfileCreateSchema>) =>
  apiRequest<Answer>(ACCOUNT_API.createPublicistProfile, { method: 'POST', body });
