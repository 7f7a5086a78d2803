/** API paths, exactly as SPEC §7 names them (both spellings where it lists two). */
export const API = {
  sections: '/api/sections',
  getSections: '/api/getSections',
  countries: '/api/countries',
  country: (id: number | string) => `/api/country/${id}`,
  cities: (stateId: number | string) => `/api/cities/${stateId}`,
  /** The municipality nearest to `?lat=&lng=` (contract/locations.ts nearestCityQuerySchema); never stored or logged. */
  citiesNearest: '/api/cities/nearest',
  language: (lng: string) => `/api/language/${lng}`,
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
  /** Who is signed in, if anyone: 200 `{ data: User | null }`, never 401, so a visitor's page logs no error (GET /api/user keeps its 401). */
  session: '/api/session',
  /** POST asks for an archive of the user's data, GET answers its state (contract/data-rights.ts). */
  dataExport: '/api/user/data-export',
  /** The download: signed, expiring, and only for its owner's session. Ends in .zip so no navigation fallback takes it. */
  dataExportDownload: (id: number | string, expires: number | string, signature: string) =>
    `/data-export/${id}/${expires}/${signature}.zip`,
  /** Notifications (contract/notifications.ts): the bell menu's list, mark one read, mark all read. */
  notifications: '/api/notifications',
  notificationRead: (id: number | string) => `/api/notifications/${id}/read`,
  notificationsReadAll: '/api/notifications/read-all',
  /**
   * Web Push (contract/push.ts): GET the user's devices; POST subscribes this device (`PushSubscription.toJSON()`);
   * DELETE `{ endpoint }` drops this device's subscription.
   */
  pushSubscriptions: '/api/push/subscriptions',
  /** DELETE one of the user's devices from the profile's list. */
  pushSubscription: (id: number | string) => `/api/push/subscriptions/${id}`,
  /** GET / PUT the user's per-category switches and "hide previews". */
  pushPreferences: '/api/push/preferences',
  /** Pusher channel authorization and user authentication (form-encoded, session + CSRF like every write). */
  broadcastingAuth: '/broadcasting/auth',
  broadcastingUserAuth: '/broadcasting/user-auth',
  /** Support chat (SPEC §7, contract/support-chat.ts). GET lists; POST opens one (staff: with `user_id`). */
  supportConversations: '/api/support/chat/conversations',
  supportConversation: (id: number | string) => `/api/support/chat/conversations/${id}`,
  /** GET a page (`before_seq` / `after_seq` cursors); POST `{ content }` (201, envelope with `data: Message`). */
  supportMessages: (conversationId: number | string) => `/api/support/chat/${conversationId}/messages`,
  /** POST `{ seq }`: the reader has seen the other side's messages up to seq. */
  supportRead: (conversationId: number | string) => `/api/support/chat/${conversationId}/read`,
  /** Staff: POST `{ user_id | null }`. */
  supportAssign: (conversationId: number | string) => `/api/support/chat/${conversationId}/assign`,
  supportResolve: (conversationId: number | string) => `/api/support/chat/${conversationId}/resolve`,
  supportReopen: (conversationId: number | string) => `/api/support/chat/${conversationId}/reopen`,
  /** Staff: the user's profile and ads beside the conversation. */
  supportUserPanel: (conversationId: number | string) => `/api/support/chat/${conversationId}/user`,
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
  modelWithAdUpdate: (id: number | string) => `/api/profile/model-with-ad/update/${id}`,
  /** The model's ad on/off switch. */
  modelAdActivate: (adId: number | string, on: boolean) => `/api/profile/model/activate/${adId}/${on ? 1 : 0}`,
  adDelete: (adId: number | string) => `/api/ad/${adId}`,
  /** A publicist's model: GET one, update (with `version`), its ad's on/off switch. */
  publicistModel: (id: number | string) => `/api/publicist/model/${id}`,
  publicistModelUpdate: (id: number | string) => `/api/publicist/model/update/${id}`,
  publicistModelActivate: (id: number | string, on: boolean) => `/api/publicist/model/activate/${id}/${on ? 1 : 0}`,
  /** A person's review of a photo the automated check refused (contract/photo-reviews.ts): POST `{ token }`. */
  photoReviews: '/api/photo-reviews',
  /** Staff: the review requests (GET, `status=requested|decided|all`), a request's photo, the decision (POST). */
  adminPhotoReviews: '/api/admin/photo-reviews',
  adminPhotoReviewImage: (id: number | string) => `/api/admin/photo-reviews/${id}/image`,
  adminPhotoReviewDecision: (id: number | string) => `/api/admin/photo-reviews/${id}/decision`,
} as const;
