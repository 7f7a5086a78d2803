/** The model's own screens (language-neutral; prefix with withLng). */
export const MODEL_PATHS = {
  index: '/profile/model',
  create: '/profile/model/create',
  edit: '/profile/model/edit',
  verify: '/profile/model/verify',
  /** Media/Photos, route name `profile.photos` (user id parameter). */
  photos: (userId: number) => `/profile/photos/${userId}`,
} as const;
