/**
 * Every HTTP path of the product, defined once (SPEC §7 spellings, both where it lists two). The server registers
 * its routes with these (a parametrised path is built with the Fastify pattern, e.g. `API.statement(':id')`), the
 * client calls them and the service worker matches them; a lint rule (eslint.config.js) refuses an `'/api/…'`
 * literal anywhere else. Grouped by area, as docs/ARCHITECTURE.md's area table names them.
 */

/**
 * One path segment: a Fastify pattern (`:id`) stays as it is, so the same builder gives the route's registration
 * and the client's URL, and so does an outbox placeholder (`{after}`, replaced with the id an earlier queued write
 * answers when the outbox replays); any other value is encoded (a consent token, a model id typed into the address bar).
 */
export const seg = (value: number | string): string =>
  typeof value === 'string' && /^(:[a-z][a-zA-Z]*|\{[a-z]+\})$/.test(value) ? value : encodeURIComponent(String(value));
/** The on/off switch's last segment: 1 or 0, or the route's `:value` pattern. */
const onOff = (on: boolean | string): string => (typeof on === 'boolean' ? (on ? '1' : '0') : seg(on));
type Id = number | string;

export const API = {
  sections: '/api/sections',
  getSections: '/api/getSections',
  countries: '/api/countries',
  country: (id: Id) => `/api/country/${seg(id)}`,
  cities: (stateId: Id) => `/api/cities/${seg(stateId)}`,
  /** The municipality nearest to `?lat=&lng=` (contract/locations.ts nearestCityQuerySchema); never stored or logged. */
  citiesNearest: '/api/cities/nearest',
  language: (lng: string) => `/api/language/${seg(lng)}`,
  /** The listing's matches per city, for the map view (contract/listings.ts modelsMapSchema). */
  modelsMap: '/api/models/map',
  pageView: '/api/analytics/pageview',
  config: '/api/config',
  health: '/api/health',
  /** Readiness for load balancers: 200, or 503 naming the failing parts (contract/system.ts). */
  ready: '/api/ready',
  /** The OpenAPI 3.1 document of every route, generated from the contract's schemas. */
  openapi: '/api/openapi.json',
  /** The interactive API reference (HTML, served from our origin). */
  docs: '/api/docs',
  docsIndex: '/api/docs/',
  docsScript: '/api/docs/js/scalar.js',
  /** Who is signed in, if anyone: 200 `{ data: User | null }`, never 401, so a visitor's page logs no error (GET /api/user keeps its 401). */
  session: '/api/session',
  /** POST asks for an archive of the user's data, GET answers its state (contract/data-rights.ts). */
  dataExport: '/api/user/data-export',
  /** The download: signed, expiring, and only for its owner's session. Ends in .zip so no navigation fallback takes it. */
  dataExportDownload: (id: number | string, expires: number | string, signature: string) =>
    `/data-export/${seg(id)}/${expires}/${signature}.zip`,
  /** Notifications (contract/notifications.ts): the bell menu's list, mark one read, mark all read. */
  notifications: '/api/notifications',
  notificationRead: (id: Id) => `/api/notifications/${seg(id)}/read`,
  notificationsReadAll: '/api/notifications/read-all',
  /**
   * Web Push (contract/push.ts): GET the user's devices; POST subscribes this device (`PushSubscription.toJSON()`);
   * DELETE `{ endpoint }` drops this device's subscription.
   */
  pushSubscriptions: '/api/push/subscriptions',
  /** DELETE one of the user's devices from the profile's list. */
  pushSubscription: (id: Id) => `/api/push/subscriptions/${seg(id)}`,
  /** GET / PUT the user's per-category switches and "hide previews". */
  pushPreferences: '/api/push/preferences',
  /** Pusher channel authorization and user authentication (form-encoded, session + CSRF like every write). */
  broadcastingAuth: '/broadcasting/auth',
  broadcastingUserAuth: '/broadcasting/user-auth',
  /** Support chat (SPEC §7, contract/support-chat.ts). GET lists; POST opens one (staff: with `user_id`). */
  supportConversations: '/api/support/chat/conversations',
  supportConversation: (id: Id) => `/api/support/chat/conversations/${seg(id)}`,
  /** GET a page (`before_seq` / `after_seq` cursors); POST `{ content }` (201, envelope with `data: Message`). */
  supportMessages: (conversationId: Id) => `/api/support/chat/${seg(conversationId)}/messages`,
  /** POST `{ seq }`: the reader has seen the other side's messages up to seq. */
  supportRead: (conversationId: Id) => `/api/support/chat/${seg(conversationId)}/read`,
  /** Staff: POST `{ user_id | null }`. */
  supportAssign: (conversationId: Id) => `/api/support/chat/${seg(conversationId)}/assign`,
  supportResolve: (conversationId: Id) => `/api/support/chat/${seg(conversationId)}/resolve`,
  supportReopen: (conversationId: Id) => `/api/support/chat/${seg(conversationId)}/reopen`,
  /** Staff: the user's profile and ads beside the conversation. */
  supportUserPanel: (conversationId: Id) => `/api/support/chat/${seg(conversationId)}/user`,
  /** Staff: search users to start a conversation with. */
  supportUsers: '/api/support/chat/users',
  /** Staff: who can be assigned, and who is online. */
  supportStaff: '/api/support/chat/staff',
  /** Anyone signed in: is support online now, or the usual reply time. */
  supportStatus: '/api/support/chat/status',
  /** Unread messages for the navigation badge: `{ unread }`. */
  supportUnread: '/api/support/chat/unread',
  /** The signed-in model's profile with its ad (GET), create, update with the `version` it was based on (409 when stale). */
  modelProfile: '/api/profile/model',
  modelWithAdCreate: '/api/profile/model-with-ad/create',
  modelWithAdUpdate: (id: Id) => `/api/profile/model-with-ad/update/${seg(id)}`,
  /** The model's ad on/off switch. */
  modelAdActivate: (adId: Id, on: boolean | string) => `/api/profile/model/activate/${seg(adId)}/${onOff(on)}`,
  adDelete: (adId: Id) => `/api/ad/${seg(adId)}`,
  /** A publicist's model: GET one, update (with `version`), its ad's on/off switch. */
  publicistModel: (id: Id) => `/api/publicist/model/${seg(id)}`,
  publicistModelUpdate: (id: Id) => `/api/publicist/model/update/${seg(id)}`,
  publicistModelActivate: (id: number | string, on: boolean | string) => `/api/publicist/model/activate/${seg(id)}/${onOff(on)}`,
  /** A person's review of a photo the automated check refused (contract/photo-reviews.ts): POST `{ token }`. */
  photoReviews: '/api/photo-reviews',
  /** Staff: the review requests (GET, `status=requested|decided|all`), a request's photo, the decision (POST). */
  adminPhotoReviews: '/api/admin/photo-reviews',
  adminPhotoReviewImage: (id: Id) => `/api/admin/photo-reviews/${seg(id)}/image`,
  adminPhotoReviewDecision: (id: Id) => `/api/admin/photo-reviews/${seg(id)}/decision`,

  // Favourites, saved searches and advertisers' numbers (issue 28; contract/favourites.ts, saved-searches.ts, ad-stats.ts).
  /** GET the signed-in user's favourites with each ad's state. */
  favourites: '/api/favourites',
  /** PUT saves, DELETE forgets (both idempotent). */
  favourite: (adId: Id) => `/api/favourites/${seg(adId)}`,
  /** POST the device's favourites into the signed-in account (after sign-in or registration). */
  favouritesMerge: '/api/favourites/merge',
  /** Public: the state (and card while available) of ads named by `?ids=`, for a visitor's device favourites and recent views. */
  favouriteStates: '/api/favourites/states',
  /** GET lists the user's saved searches, POST saves one. */
  savedSearches: '/api/saved-searches',
  /** PUT renames, changes alerts, pauses; DELETE removes. */
  savedSearch: (id: Id) => `/api/saved-searches/${seg(id)}`,
  /** The daily e-mail's one-click unsubscribe (signed, no session). */
  savedSearchUnsubscribe: '/api/saved-searches/unsubscribe',
  /** The digest's `List-Unsubscribe` URL (RFC 8058 one-click POST from the mail client: form body, no session, no CSRF). */
  savedSearchOneClick: '/api/saved-searches/unsubscribe/one-click',
  /** The signed-in model's or publicist's numbers per ad and week. */
  adStats: '/api/ad-stats',
  /** POST a tap on a model page's call or WhatsApp button (first-party, sent only after cookie consent). */
  adContactTap: '/api/analytics/contact-tap',

  // Accounts (auth module; SPEC §7 spellings).
  register: '/api/register',
  userCreate: '/api/user/create',
  publicistCreate: '/api/publicist/create',
  login: '/api/login',
  logout: '/api/logout',
  user: '/api/user',
  verifyEmail: '/api/verify-email',
  sendVerification: '/api/verification/send',
  forgotPassword: '/api/forgot-password',
  resetPassword: '/api/reset-password',
  confirmPassword: '/api/user/confirm-password',
  /** `{ confirmed }`: whether this session confirmed its password lately (deletion needs it, else 423). */
  confirmedPasswordStatus: '/api/user/confirmed-password-status',
  userPassword: '/api/user/password',
  userProfileInformation: '/api/user/profile-information',
  /** Deletes the signed-in account (the id must be the user's own). */
  accountDelete: (id: Id) => `/api/profile/delete/${seg(id)}`,
  /** Laravel Sanctum's cookie endpoint: sets the XSRF-TOKEN cookie. */
  csrfCookie: '/sanctum/csrf-cookie',

  // Listings and models (listings module).
  models: '/api/models',
  model: (id: Id) => `/api/models/${seg(id)}`,
  publicityAds: '/api/fetchAllPublicityAds',
  imagesByAd: (adId: Id) => `/api/getImagesByAd/${seg(adId)}`,
  coverImage: (adId: Id) => `/api/getCoverImage/${seg(adId)}`,
  citiesSearch: '/api/cities/search',
  city: (id: Id) => `/api/city/${seg(id)}`,
  checkForbiddenWords: '/api/check-forbidden-words',

  // Profiles (profiles, model-profiles and publicists modules).
  profileCreate: '/api/profile/create',
  modelCreate: '/api/model/create',
  adCreate: '/api/ad/create',
  modelVerification: '/api/profile/model/verification',
  modelVerificationCode: '/api/profile/model/verification/code',
  publicistProfile: '/api/profile/publicist',
  publicistProfileCreate: '/api/publicist/profile/create',
  publicistProfileUpdate: (id: Id) => `/api/publicist/profile/update/${seg(id)}`,
  publicistModels: '/api/publicist/models-under-responsibility',
  publicistModelsLegacy: '/api/publicist/modelsUnderResponsibility',
  publicistModelsOf: (id: Id) => `/api/publicist/models/${seg(id)}`,
  publicistModelsCreate: '/api/publicist/models-under-responsibility/create',
  publicistModelCreate: '/api/publicist/model/create',
  publicistModelUnderResponsibilityCreate: '/api/publicist/model-under-responsibility/create',
  publicistModelAd: (id: Id) => `/api/publicist/model/${seg(id)}/ad`,
  publicistModelConsentResend: (id: Id) => `/api/publicist/model/${seg(id)}/consent/resend`,

  // Consent (publicists module): the model's answer to a publicist's request, by its token.
  consentCode: '/api/consent/code',
  consentRequest: (token: string) => `/api/consent/${seg(token)}`,
  consentWithdraw: (token: string) => `/api/consent/withdraw/${seg(token)}`,

  // Media (media module).
  uploadImages: '/api/upload/images',
  mediaDelete: '/api/media/delete',
  changeCover: (mediaId: Id) => `/api/change-cover-picture/${seg(mediaId)}`,

  // Reports, contact, statements (reports, contact, statements modules).
  reports: '/api/reports',
  contact: '/api/contact',
  contactToAdmin: '/api/contact/sendMessageToAdmin',
  statements: '/api/statements',
  statement: (id: Id) => `/api/statements/${seg(id)}`,
  statementAppeal: (id: Id) => `/api/statements/${seg(id)}/appeal`,

  // Staff (admin, reports, contact modules).
  adminCounts: '/api/admin/counts',
  adminModels: '/api/admin/models',
  adminModelsUnderResponsibility: '/api/admin/models-under-responsibility',
  adminPublicists: '/api/admin/publicists',
  adminAds: '/api/admin/ads',
  adminClients: '/api/admin/clients',
  adminClient: (id: Id) => `/api/admin/clients/${seg(id)}`,
  adminUsersWithoutProfile: '/api/admin/users-without-profile',
  adminPhotos: '/api/admin/photos',
  adminVerifications: '/api/admin/verifications',
  adminVerificationSelfie: (id: Id) => `/api/admin/verifications/${seg(id)}/selfie`,
  /** Staff: the photos a photo's perceptual hash matches (contract/media-matches.ts, issue 29), the closest first. */
  adminMediaMatches: (mediaId: Id) => `/api/admin/media/${seg(mediaId)}/matches`,
  adminDecisions: '/api/admin/decisions',
  adminAppeals: '/api/admin/appeals',
  adminAppealDecide: (id: Id) => `/api/admin/appeals/${seg(id)}/decide`,
  adminCreate: '/api/admin/create',
  adminReports: '/api/admin/reports',
  adminReport: (id: Id) => `/api/admin/reports/${seg(id)}`,
  adminReportDecide: (id: Id) => `/api/admin/reports/${seg(id)}/decide`,
  adminContactMessages: '/api/admin/contact-messages',
  adminContactMessage: (id: Id) => `/api/admin/contact-messages/${seg(id)}`,
  superAdminAdmins: '/api/super-admin/admins',
  superAdminAudit: '/api/super-admin/audit',
  /** Review throughput (decided per hour, last 24 h, per queue) and decisions overturned on appeal per rule (issue 29). */
  superAdminReviewStats: '/api/super-admin/review-stats',

  // Outside /api.
  dataExportDownloadPattern: '/data-export/:id/:expires/:file',
  metrics: '/metrics',
} as const;

/** Prefixes of the product's HTTP API (guards, the worker's routing). */
export const API_PREFIX = '/api/';
export const BROADCASTING_PREFIX = '/broadcasting/';
export const SANCTUM_PREFIX = '/sanctum/';
/** Staff-only areas: every answer under them is private and never stored by a cache. */
export const STAFF_PREFIXES = ['/api/admin/', '/api/super-admin/'] as const;

/**
 * A matcher for a path built with a Fastify pattern (`API.statement(':id')`), for the service worker's routing: `:id`
 * matches digits, any other parameter one segment.
 */
export function pathMatcher(pattern: string): RegExp {
  const escaped = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/:id\b/g, '\\d+').replace(/:[a-zA-Z]+/g, '[^/]+')}$`);
}
