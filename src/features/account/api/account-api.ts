/** The account calls of the dashboard and profile screens (SPEC §7); answers typed by the schemas the routes declare. */
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { successSchema } from '#contract/answers.ts';
import type {
  modelProfileCreateSchema,
  passwordConfirmedStatusSchema,
  profileInformationSchema,
  publicistProfileCreateSchema,
  updatePasswordSchema,
  userChangedAnswerSchema,
} from '#contract/auth.ts';
import type { DataExportState, dataExportRequestedSchema } from '#contract/data-rights.ts';
import type { profileCreatedAnswerSchema } from '#contract/profiles.ts';
import { API } from '#contract/routes.ts';
import { apiGet, apiRequest } from '#src/lib/api-client.ts';

export const DATA_EXPORT_KEY = ['account', 'data-export'] as const;

type Success = z.infer<typeof successSchema>;
type ProfileCreated = z.infer<typeof profileCreatedAnswerSchema>;

export const updateProfileInformation = (body: z.output<typeof profileInformationSchema>) =>
  apiRequest<z.infer<typeof userChangedAnswerSchema>>(API.userProfileInformation, { method: 'PUT', body });

export const updatePassword = (body: z.output<typeof updatePasswordSchema>) =>
  apiRequest<Success>(API.userPassword, { method: 'PUT', body });

export const deleteAccount = (id: number) => apiRequest<Success>(API.accountDelete(id), { method: 'DELETE' });

export const passwordConfirmedLately = async (): Promise<boolean> =>
  (await apiGet<z.infer<typeof passwordConfirmedStatusSchema>>(API.confirmedPasswordStatus)).confirmed;

export const createModelProfile = (body: z.output<typeof modelProfileCreateSchema>) =>
  apiRequest<ProfileCreated>(API.profileCreate, { method: 'POST', body });

export const createPublicistProfile = (body: z.output<typeof publicistProfileCreateSchema>) =>
  apiRequest<ProfileCreated>(API.publicistProfileCreate, { method: 'POST', body });

/** The user's data export (GDPR arts. 15, 20): its state, polled while it is being built. */
export const dataExportQueryOptions = () =>
  queryOptions({
    queryKey: DATA_EXPORT_KEY,
    queryFn: ({ signal }) => apiGet<DataExportState>(API.dataExport, signal),
    // Poll while the archive is being built; stop once it is ready, failed or absent.
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 2000 : false),
    staleTime: 0,
  });

export const requestDataExport = () => apiRequest<z.infer<typeof dataExportRequestedSchema>>(API.dataExport, { method: 'POST' });
