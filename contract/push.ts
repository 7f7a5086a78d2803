import { z } from 'zod';
import type { NotificationKind } from './notifications.ts';

/**
 * Web Push (issue 25): a signed-in user's devices get what the notification centre stores even while the installed
 * app is closed.
 *
 * - A device subscribes with the browser's `PushSubscription` as it serialises (`toJSON()`), under the server's VAPID
 *   public key (`GET /api/config` → `push.vapid_public_key`). The subscription belongs to the user and to the session
 *   that made it: signing out removes that device's, an erasure or a suspension removes them all.
 * - What is pushed follows the notification centre (contract/notifications.ts): one push per stored notification and
 *   subscribed device, if the user's switch for its category is on and it is still unread when it is sent.
 * - The payload is the Declarative Web Push form (`web_push: 8030`, WebKit's explainer), so Safari 18.4+ shows it even
 *   if the worker's code does not run, plus `vitrina` for our own worker (sw/): where a tap lands, what to prefetch so
 *   that the page opens offline, and the unread count for the app badge.
 * - Encrypted as RFC 8291 (aes128gcm) and signed with VAPID (RFC 8292) by the `web-push` package; `Topic` collapses the
 *   pushes of one conversation at the push service, `Urgency` and `TTL` per category (RFC 8030 §5).
 * - The server only ever sends to the push services' own origins (PUSH_DEFAULT_ORIGINS, plus PUSH_ENDPOINT_ORIGINS):
 *   a subscription naming any other endpoint is refused when it is made and never called (no SSRF).
 */

/** What a user can switch off, each on its own; a kind of notification belongs to exactly one. */
export const PUSH_CATEGORIES = ['support_chat', 'decisions', 'consent', 'saved_searches'] as const;
export type PushCategory = (typeof PUSH_CATEGORIES)[number];

export function pushCategoryOf(kind: NotificationKind): PushCategory {
  if (kind === 'support.reply') return 'support_chat';
  if (kind.startsWith('consent.')) return 'consent';
  if (kind === 'saved_search') return 'saved_searches';
  return 'decisions';
}

/**
 * The push services' origins, as the browsers that have Web Push use them: Chrome/Edge-on-Android (FCM), Firefox
 * (autopush), Safari (Apple), Edge on Windows (WNS: one host per region, hence the wildcard).
 * `*.` matches any subdomain (one or more labels), never the bare domain or another port.
 */
export const PUSH_DEFAULT_ORIGINS = [
  'https://fcm.googleapis.com',
  'https://android.googleapis.com',
  'https://updates.push.services.mozilla.com',
  'https://push.services.mozilla.com',
  'https://web.push.apple.com',
  'https://*.push.apple.com',
  'https://*.notify.windows.com',
] as const;

/** Whether `endpoint` (an absolute URL) is on one of `origins` (entries as in PUSH_DEFAULT_ORIGINS). */
export function endpointAllowed(endpoint: string, origins: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  return origins.some((entry) => {
    const m = /^https:\/\/(\*\.)?([^/:]+)(?::(\d+))?$/.exec(entry.trim().toLowerCase());
    if (!m) return false;
    const [, wildcard, host, port] = m;
    if ((url.port || '443') !== (port ?? '443')) return false;
    const hostname = url.hostname.toLowerCase();
    return wildcard ? hostname.endsWith(`.${host}`) : hostname === host;
  });
}

const base64url = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/);
/** A push service's URL: https, printable ASCII only (what push services hand out; nothing else reaches the database). */
const endpointUrl = z
  .string()
  .max(2048)
  .regex(/^[\x21-\x7e]+$/)
  .pipe(z.url({ protocol: /^https$/ }));

/** POST API.pushSubscriptions: `PushSubscription.toJSON()` as the browser gives it. */
export const pushSubscriptionBodySchema = z.object({
  endpoint: endpointUrl,
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    /** The device's P-256 public key, uncompressed (65 bytes → 87 base64url characters). */
    p256dh: base64url.min(80).max(100),
    /** The 16-byte authentication secret (22 base64url characters). */
    auth: base64url.min(16).max(32),
  }),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBodySchema>;

/** DELETE API.pushSubscriptions: the endpoint of the subscription this device drops. */
export const pushUnsubscribeBodySchema = z.object({ endpoint: endpointUrl }).strict();

/** One of the user's subscribed devices, as the profile lists it. */
export const pushDeviceSchema = z.object({
  id: z.number().int(),
  /** From the User-Agent when it subscribed, e.g. "Chrome" and "Android"; null when unknown. */
  browser: z.string().nullable(),
  os: z.string().nullable(),
  /** `mobile`, `tablet` or null (a computer). */
  device_type: z.enum(['mobile', 'tablet']).nullable(),
  /** Made by the session asking: "este teléfono". */
  current: z.boolean(),
  created_at: z.string(),
  last_push_at: z.string().nullable(),
});
export type PushDevice = z.infer<typeof pushDeviceSchema>;

export const pushDeviceListSchema = z.object({ data: z.array(pushDeviceSchema) });

/** The user's switches: one per category, and whether a message's text may show on the lock screen. */
export const pushPreferencesSchema = z.object({
  support_chat: z.boolean(),
  decisions: z.boolean(),
  consent: z.boolean(),
  /** New ads for the user's saved searches with instant alerts (issue 28). */
  saved_searches: z.boolean(),
  /** false: "hide previews" — a chat push says a message came, never what it says. */
  previews: z.boolean(),
});
export type PushPreferences = z.infer<typeof pushPreferencesSchema>;
/** PUT API.pushPreferences: any of the switches. */
export const pushPreferencesBodySchema = pushPreferencesSchema.partial().strict();
export const pushPreferencesAnswerSchema = z.object({ data: pushPreferencesSchema });

/** TTL (seconds, RFC 8030 §5.2): a chat push is stale within hours (the e-mail follows); a decision keeps for days. */
export const PUSH_TTL_SECONDS: Record<PushCategory, number> = {
  support_chat: 60 * 60,
  decisions: 4 * 24 * 60 * 60,
  consent: 4 * 24 * 60 * 60,
  // A day: the next alert of the same search comes a day later at the earliest.
  saved_searches: 24 * 60 * 60,
};
export const PUSH_URGENCY: Record<PushCategory, 'high' | 'normal'> = {
  support_chat: 'high',
  decisions: 'normal',
  consent: 'normal',
  saved_searches: 'normal',
};
/** RFC 8030 §5.4 Topic (≤ 32 base64url characters): the pushes of one conversation replace each other. */
export const chatPushTopic = (conversationId: number) => `chat-${conversationId}`;

/**
 * The encrypted payload (≤ 4 KB). `notification` is Declarative Web Push: `navigate` is absolute, `app_badge` the
 * unread count as a decimal string; `mutable` lets our worker show it its own way. `vitrina` is for our worker only.
 */
export const pushPayloadSchema = z.object({
  web_push: z.literal(8030),
  notification: z.object({
    title: z.string(),
    body: z.string(),
    navigate: z.string(),
    lang: z.string(),
    /** Replaces an earlier notification with the same tag (one per conversation, one per notification otherwise). */
    tag: z.string(),
    silent: z.boolean().optional(),
    app_badge: z.string().optional(),
  }),
  mutable: z.literal(true),
  vitrina: z.object({
    notification_id: z.number().int(),
    kind: z.string(),
    category: z.enum(PUSH_CATEGORIES),
    user_id: z.number().int(),
    /** The page the tap opens, language-prefixed and same-origin (e.g. `/es/messenger/5`). */
    path: z.string(),
    /** Same-origin API paths the worker fetches on receipt, so that the page opens without a network. */
    prefetch: z.array(z.string()),
    /** Unread notifications and chat messages: the app badge. */
    unread: z.number().int(),
    conversation_id: z.number().int().optional(),
  }),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
