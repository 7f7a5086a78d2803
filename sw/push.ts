/// <reference lib="webworker" />
/**
 * Web Push in the worker (issue 25). The payload (contract/push.ts) is Declarative Web Push plus our `vitrina` part:
 * - `push`: shown as a notification (the same tag replaces the earlier one: one per conversation), unless a window of
 *   ours is focused on that very page; the app badge takes the unread count; the answers the page needs are fetched
 *   into PUSH_CACHE so a tap opens it without a network.
 * - `notificationclick`: a window of ours goes to the page (focused when the browser allows), else one is opened.
 * - `pushsubscriptionchange`: subscribed again with the same key and told to the server.
 */
import { pushPayloadSchema, type PushPayload } from '../contract/push.ts';
import { API } from '../contract/routes.ts';
import { PUSH_CACHE, PUSH_CACHE_MAX_ENTRIES, PUSH_CACHE_OWNER, isPushPrefetchPath } from './push-cache.ts';

declare const self: ServiceWorkerGlobalScope;

const XHR_HEADERS = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
const ICON = '/icons/icon-192.png';
const BADGE = ICON;

type Badging = { setAppBadge?: (n?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };

async function setBadge(unread: number): Promise<void> {
  const nav = self.navigator as unknown as Badging;
  try {
    if (unread > 0) await nav.setAppBadge?.(unread);
    else await nav.clearAppBadge?.();
  } catch {
    // Not allowed here (no installed app): the badge is a nicety.
  }
}

/** Keeps the answers a push names, for this user only (another user's are dropped first). */
async function prefetch(payload: PushPayload): Promise<void> {
  const paths = payload.vitrina.prefetch.filter((p) => p.startsWith('/') && !p.startsWith('//') && isPushPrefetchPath(p.split('?')[0]!));
  if (!paths.length) return;
  const owner = String(payload.vitrina.user_id);
  let cache = await caches.open(PUSH_CACHE);
  const stored = await cache.match(PUSH_CACHE_OWNER);
  if (stored && (await stored.text()) !== owner) {
    await caches.delete(PUSH_CACHE);
    cache = await caches.open(PUSH_CACHE);
  }
  await cache.put(PUSH_CACHE_OWNER, new Response(owner));
  await Promise.allSettled(
    paths.map(async (p) => {
      const res = await fetch(p, { headers: XHR_HEADERS, credentials: 'same-origin', cache: 'no-store' });
      if (res.ok) await cache.put(p, res);
    }),
  );
  const keys = (await cache.keys()).filter((r) => new URL(r.url).pathname !== PUSH_CACHE_OWNER);
  for (const old of keys.slice(0, Math.max(0, keys.length - PUSH_CACHE_MAX_ENTRIES))) await cache.delete(old);
}

/** Whether a focused window of ours is showing `path` right now (then the user sees it: no notification). */
async function lookingAt(path: string): Promise<boolean> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  return windows.some((w) => w.focused && w.visibilityState === 'visible' && new URL(w.url).pathname === path);
}

export async function handlePush(data: PushMessageData | null): Promise<void> {
  let payload: PushPayload | null = null;
  try {
    payload = pushPayloadSchema.parse(data?.json());
  } catch {
    payload = null;
  }
  if (!payload) {
    // Browsers count a push that shows nothing against the site: say that something happened.
    await self.registration.showNotification('Vitrina', { icon: ICON, badge: BADGE, data: { path: '/' } });
    return;
  }
  const { notification: n, vitrina: v } = payload;
  await Promise.allSettled([setBadge(v.unread), prefetch(payload)]);
  if (await lookingAt(v.path)) return;
  await self.registration.showNotification(n.title, {
    body: n.body,
    tag: n.tag,
    lang: n.lang,
    icon: ICON,
    badge: BADGE,
    // Never a photo: the lock screen is not the place for a model's picture.
    data: { path: v.path, notification_id: v.notification_id, user_id: v.user_id },
  });
}

export async function handleNotificationClick(notification: Notification): Promise<void> {
  notification.close();
  const raw = (notification.data as { path?: unknown } | null)?.path;
  const path = typeof raw === 'string' && raw.startsWith('/') && !raw.startsWith('//') ? raw : '/';
  const target = new URL(path, self.location.origin).href;
  const windows = (await self.clients.matchAll({ type: 'window', includeUncontrolled: true })) as WindowClient[];
  const win = windows.find((w) => w.focused) ?? windows[0];
  if (win) {
    // navigate() first: focus() needs the click's user activation, which a synthetic event lacks, and the page must
    // be the right one whatever happens to the focus.
    const moved = await win.navigate(target).catch(() => null);
    await (moved ?? win).focus().catch(() => undefined);
    if (moved) return;
  }
  await self.clients.openWindow(target);
}

/** The page asks with the Cookie Store API's XSRF token, as the outbox's replay does. */
async function csrfToken(): Promise<string | undefined> {
  const store = (self as unknown as { cookieStore?: { get(name: string): Promise<{ value: string } | null> } }).cookieStore;
  const cookie = await store?.get('XSRF-TOKEN').catch(() => null);
  return cookie ? decodeURIComponent(cookie.value) : undefined;
}

async function resubscribe(event: Event & { oldSubscription?: PushSubscription | null }): Promise<void> {
  const key = event.oldSubscription?.options.applicationServerKey;
  if (!key) return;
  const subscription = await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const token = await csrfToken();
  await fetch(API.pushSubscriptions, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { ...XHR_HEADERS, 'Content-Type': 'application/json', ...(token ? { 'X-XSRF-TOKEN': token } : {}) },
    body: JSON.stringify(subscription.toJSON()),
  });
}

self.addEventListener('push', (event: PushEvent) => event.waitUntil(handlePush(event.data)));
self.addEventListener('notificationclick', (event: NotificationEvent) => {
  const work = handleNotificationClick(event.notification);
  // An event the browser did not make (the e2e's stand-in for a tap) cannot be extended; the work runs all the same.
  if (event.isTrusted) event.waitUntil(work);
});
self.addEventListener('pushsubscriptionchange', (event: Event) =>
  (event as ExtendableEvent).waitUntil(resubscribe(event as Event & { oldSubscription?: PushSubscription | null }).catch(() => undefined)),
);

/** The page's request for a prefetched answer: the network, and the kept copy only when the network fails. */
export async function networkThenPushCache(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (err) {
    const cache = await caches.open(PUSH_CACHE);
    const kept = await cache.match(new URL(request.url).pathname);
    if (kept) return kept;
    throw err;
  }
}
