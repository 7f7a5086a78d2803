/** The staff screens, language-neutral (the router registers them under `/:lng`). */
export const ADMIN_PATHS = {
  models: '/admin/models',
  modelsUnder: '/admin/models-under-responsibility',
  publicists: '/admin/publicists',
  clients: '/admin/clients',
  client: (id: number) => `/admin/clients/${id}`,
  usersWithoutProfile: '/admin/users-without-profile',
  reviewAds: '/admin/review/ads',
  reviewPhotos: '/admin/review/photos',
  reviewVerifications: '/admin/review/verifications',
  reviewPublicists: '/admin/review/publicists',
  appeals: '/admin/appeals',
  // Built by the reports/contact work; linked from the dashboard.
  reports: '/admin/reports',
  messages: '/admin/messages',
  admins: '/super-admin/admins',
  audit: '/super-admin/audit',
} as const;
