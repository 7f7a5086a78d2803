import { NAMED_ROUTES } from '#src/lib/paths.ts';

/** The publicist's screens (language-neutral; prefix with withLng). */
export const PUBLICIST_PATHS = {
  dashboard: '/publicist/dashboard',
  /** Profile/Publicist index: trader details and the models under responsibility. */
  index: '/profile/publicist',
  create: '/profile/publicist/create',
  edit: '/profile/publicist/edit',
  modelCreate: '/publicist/models/create',
  modelEdit: (id: number) => `/publicist/models/${id}/edit`,
  /** Media/Photos of a model's ad (named route `upload.photos` with `?ad=`). */
  photos: (adId: number) => NAMED_ROUTES['upload.photos'].path({ ad: adId }),
} as const;
