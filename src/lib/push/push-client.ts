/**
 * Web Push in the page (issue 25): whether this browser can have it, this device's subscription, the user's devices
 * and switches. Asking the browser's permission happens only from a click (never on a first visit); the subscription
 * is made with the server's VAPID key (GET /api/config) and stored per user and device (POST API.pushSubscriptions).
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { publicConfigSchema } from '#contract/config.ts';
import { pushDeviceListSchema, pushPreferencesAnswerSchema, type PushPreferences } from '#contract/push.ts';
import { API } from '#contract/routes.ts';
import { isIosSafari, isStandalone } from '#src/lib/platform.ts';
import { apiGet, apiRequest } from '#src/lib/api-client.ts';
import { PUSH_CACHE } from '../../../sw/push-cache.ts';

export const PUSH_KEY = ['push'] as const;

/** What this device can do: `needs-install` is iOS Safari outside the home-screen app (it has no Web Push there). */
export type PushSupport = 'supported' | 'needs-install' | 'unsupported';

export function pushSupport(): PushSupport {
  if (typeof window === 'undefined') return 'unsupported';
  const capable = 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
  if (capable) return 'supported';
  return isIosSafari() && !isStandalone() ? 'needs-install' : 'unsupported';
}

const vapidKey = async () => publicConfigSchema.parse(await apiGet<unknown>(API.config)).push?.vapid_public_key;

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

const sameKey = (a: ArrayBuffer | null | undefined, b: Uint8Array) => !!a && new Uint8Array(a).join() === b.join();

async function registration(): Promise<ServiceWorkerRegistration> {
  return navigator.serviceWorker.ready;
}

/** This device's subscription, if it has one the server knows of (`on`), and the browser's permission. */
export type DeviceState = { permission: NotificationPermission; on: boolean };

export const deviceStateQueryOptions = () =>
  queryOptions({
    queryKey: [...PUSH_KEY, 'device'],
    queryFn: async (): Promise<DeviceState> => {
      if (pushSupport() !== 'supported') return { permission: 'denied', on: false };
      const sub = await (await registration()).pushManager.getSubscription();
      return { permission: Notification.permission, on: !!sub && Notification.permission === 'granted' };
    },
    staleTime: 30_000,
  });

export const devicesQueryOptions = () =>
  queryOptions({
    queryKey: [...PUSH_KEY, 'devices'],
    queryFn: async () => pushDeviceListSchema.parse(await apiGet<unknown>(API.pushSubscriptions)).data,
  });

export const preferencesQueryOptions = () =>
  queryOptions({
    queryKey: [...PUSH_KEY, 'preferences'],
    queryFn: async () => pushPreferencesAnswerSchema.parse(await apiGet<unknown>(API.pushPreferences)).data,
  });

/** Turns notifications on for this device: permission (from a click), subscription, stored on the server. */
export async function subscribeThisDevice(): Promise<'on' | 'denied'> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  const key = await vapidKey();
  if (!key) throw new Error('push: no VAPID key in the configuration');
  const bytes = keyBytes(key);
  const reg = await registration();
  let sub = await reg.pushManager.getSubscription();
  // Made with another key (the server's keys changed): the push service would refuse our pushes to it.
  if (sub && !sameKey(sub.options.applicationServerKey, bytes)) {
    await sub.unsubscribe().catch(() => undefined);
    sub = null;
  }
  sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes });
  await apiRequest(API.pushSubscriptions, { method: 'POST', body: sub.toJSON() });
  return 'on';
}

/** Turns them off for this device (the server forgets it; the browser drops the subscription). */
export async function unsubscribeThisDevice(): Promise<void> {
  if (pushSupport() !== 'supported') return;
  const sub = await (await registration()).pushManager.getSubscription();
  if (!sub) return;
  await apiRequest(API.pushSubscriptions, { method: 'DELETE', body: { endpoint: sub.endpoint } }).catch(() => undefined);
  await sub.unsubscribe().catch(() => undefined);
}

/**
 * Before signing out: this device's subscription and what pushes prefetched go (the server drops the session's
 * subscription too). Never blocks the sign-out: at most a short wait.
 */
export async function forgetPushOnSignOut(): Promise<void> {
  const work = Promise.allSettled([
    unsubscribeThisDevice(),
    typeof caches === 'undefined' ? Promise.resolve(true) : caches.delete(PUSH_CACHE),
    (navigator as Navigator & { clearAppBadge?: () => Promise<void> }).clearAppBadge?.(),
  ]);
  await Promise.race([work, new Promise((resolve) => setTimeout(resolve, 1500))]);
}

export async function savePreferences(change: Partial<PushPreferences>): Promise<PushPreferences> {
  const res = await apiRequest<{ data: PushPreferences }>(API.pushPreferences, { method: 'PUT', body: change });
  return res.data.data;
}

/** Removes one of the user's devices; removing this one also drops the browser's subscription, so its switch says off. */
export async function removeDevice(device: { id: number; current: boolean }): Promise<void> {
  await apiRequest(API.pushSubscription(device.id), { method: 'DELETE' });
  if (!device.current || pushSupport() !== 'supported') return;
  const sub = await (await registration()).pushManager.getSubscription();
  await sub?.unsubscribe().catch(() => undefined);
}

/** This device's on/off, with a busy flag and the last outcome, for a switch. */
export function useThisDevicePush() {
  const queryClient = useQueryClient();
  const support = pushSupport();
  const state = useQuery({ ...deviceStateQueryOptions(), enabled: support === 'supported' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(false);
  const toggle = useCallback(
    async (on: boolean) => {
      setBusy(true);
      setError(false);
      try {
        if (on) await subscribeThisDevice();
        else await unsubscribeThisDevice();
      } catch {
        setError(true);
      } finally {
        setBusy(false);
        await queryClient.invalidateQueries({ queryKey: PUSH_KEY });
      }
    },
    [queryClient],
  );
  return { support, state: state.data, loading: state.isLoading, busy, error, toggle };
}
