import { NAMED_ROUTES } from '#src/lib/paths.ts';

/** The model's own screens (language-neutral; prefix with withLng). */
export const MODEL_PATHS = {
  index: '/profile/model',
  create: '/profile/model/create',
  edit: '/profile/model/edit',
  verify: '/profile/model/verify',
  /** Media/Photos, route name `profile.photos` (user id parameter). */
  photos: (userId: number, adId?: number) => NAMED_ROUTES['profile.photos'].path({ userId }) + (adId ? `?ad=${adId}` : ''),
} as const;
