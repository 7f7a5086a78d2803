/**
 * Web Push in Playwright (issue 25): Chromium here cannot reach a real push service, so the browser's PushManager
 * answers with a subscription on the tests' loopback push service (tests/push-service.ts), kept across reloads like
 * a real one.
 */
import type { BrowserContext } from '@playwright/test';
import type { Subscriber } from '#tests/push-service.ts';

export const STUB_SUBSCRIPTION_KEY = 'vitrina-test-push-subscription';

export async function stubPushManager(context: BrowserContext, sub: Subscriber['subscription']) {
  await context.grantPermissions(['notifications']);
  await context.addInitScript(
    ({ s, KEY }) => {
      const bytes = (b64url: string) => {
        const b64 = b64url.replace(/-/g, '+').replace(/_/g, '/');
        return Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0)).buffer;
      };
      const make = (appKey: ArrayBuffer) => ({
        endpoint: s.endpoint,
        expirationTime: null,
        options: { applicationServerKey: appKey, userVisibleOnly: true },
        getKey: (name: 'p256dh' | 'auth') => bytes(s.keys[name]),
        toJSON: () => s,
        unsubscribe: async () => {
          localStorage.removeItem(KEY);
          return true;
        },
      });
      if (typeof PushManager === 'undefined') return;
      PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
        const key = options?.applicationServerKey as Uint8Array;
        localStorage.setItem(KEY, btoa(String.fromCharCode(...new Uint8Array(key))));
        return make(new Uint8Array(key).buffer);
      };
      PushManager.prototype.getSubscription = async function () {
        const saved = localStorage.getItem(KEY);
        return saved ? make(Uint8Array.from(atob(saved), (c) => c.charCodeAt(0)).buffer) : null;
      };
    },
    { s: sub, KEY: STUB_SUBSCRIPTION_KEY },
  );
}
