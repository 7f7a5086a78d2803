/**
 * Web Push in Playwright (issue 25): Chromium here cannot reach a real push service, so the browser's PushManager
 * answers with a subscription on the tests' loopback push service (tests/push-service.ts), kept across reloads like
 * a real one.
 */
import { expect, type BrowserContext, type Page } from '@playwright/test';
import type { Subscriber } from '#tests/push-service.ts';
import { presetConsent, submitLogin } from './helpers.ts';

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

export const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
export const PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password-123';

/** A write as the PWA sends it: the XHR header and the CSRF token echoed from its cookie. */
export async function csrfPost(page: Page, url: string, data: unknown) {
  const token = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  return page.request.post(url, { headers: { ...XHR, 'X-XSRF-TOKEN': decodeURIComponent(token) }, data });
}

/** A new client registered through the API and signed in through the form, with the worker in control; its e-mail. */
export async function signInNewClient(page: Page, name: string, tag: string): Promise<string> {
  await presetConsent(page);
  const email = `${tag}-${Date.now()}@example.test`;
  await page.goto('/es');
  await page.request.get('/sanctum/csrf-cookie', { headers: XHR });
  const registered = await csrfPost(page, '/api/register', {
    name,
    email,
    password: PASSWORD,
    password_confirmation: PASSWORD,
    role: 'client',
  });
  expect(registered.status(), await registered.text()).toBe(201);
  await page.context().clearCookies();
  await submitLogin(page, email, PASSWORD);
  await expect(page).not.toHaveURL(/\/login/);
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller), { timeout: 30_000 }).toBe(true);
  return email;
}
