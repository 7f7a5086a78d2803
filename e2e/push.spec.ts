/**
 * Issue 25: Web Push end to end in Chromium. No real push service is reachable from here, so the browser's
 * PushManager is given a subscription on the tests' own RFC 8030 push service (tests/push-service.ts: loopback HTTPS,
 * real keys; the server trusts its CA through NODE_EXTRA_CA_CERTS, playwright.config.ts). The server's push is
 * received and decrypted there, then handed to the service worker through the DevTools protocol
 * (ServiceWorker.deliverPushMessage), as the push service would deliver it.
 */
process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS = '1';
import { expect, test, type Page } from '@playwright/test';
import { pushPayloadSchema, type PushPayload } from '#contract/push.ts';
import { API } from '#contract/routes.ts';
import { startPushService } from '#tests/push-service.ts';
import { csrfPost, PASSWORD, signInNewClient, STUB_SUBSCRIPTION_KEY, stubPushManager, XHR } from './push-helpers.ts';
import { expectNoAxeViolations, LANGUAGES, presetConsent, submitLogin, tr } from './helpers.ts';

const es = (key: string, vars: Record<string, string | number> = {}) =>
  Object.entries(vars).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), tr('es', key));

/** Hands a push to the page's service worker as the push service would (DevTools protocol). */
async function deliverPush(page: Page, payload: PushPayload) {
  const cdp = await page.context().newCDPSession(page);
  const registrations = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
      const live = e.registrations.find((r) => !r.isDeleted);
      if (live) resolve(live.registrationId);
    }),
  );
  await cdp.send('ServiceWorker.enable');
  const registrationId = await registrations;
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(page.url()).origin, registrationId, data: JSON.stringify(payload) });
  await cdp.detach();
}

const shown = (page: Page) =>
  page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag })),
  );

test('a client turns notifications on after a first support message; a staff reply reaches the closed chat as one push, shown by the worker, and the tap opens the conversation offline', async ({
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const service = await startPushService(Number(process.env.E2E_PUSH_PORT) + testInfo.parallelIndex);
  try {
    const device = service.subscriber();
    const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
    await stubPushManager(context, device.subscription);
    const page = await context.newPage();
    const email = await signInNewClient(page, 'Clara Avisos', 'push');

    // Never asked on arrival: the invitation comes after the first support message.
    await page.goto('/es/messenger');
    await expect(page.getByRole('heading', { level: 1, name: es('messenger.user.title') })).toBeVisible();
    await expect(page.getByTestId('push-invitation')).toHaveCount(0);
    await page.getByRole('textbox').last().fill('Hola, ¿cómo publico un anuncio?');
    await page.keyboard.press('Enter');
    const invitation = page.getByTestId('push-invitation');
    await expect(invitation).toBeVisible();
    await expect(invitation).toContainText(es('push.invite.text'));
    await page.screenshot({ path: testInfo.outputPath('invitation-360.png') });
    const subscribed = page.waitForResponse((r) => new URL(r.url()).pathname === API.pushSubscriptions && r.request().method() === 'POST');
    await invitation.getByRole('button', { name: es('push.invite.accept') }).click();
    expect((await subscribed).status()).toBe(201);
    await expect(invitation).toHaveCount(0);
    const devices = (await (await page.request.get(API.pushSubscriptions, { headers: XHR })).json()) as { data: { current: boolean }[] };
    expect(devices.data).toEqual([expect.objectContaining({ current: true })]);
    const conversationId = (
      (await (await page.request.get(API.supportConversations, { headers: XHR })).json()) as { data: { id: number }[] }
    ).data[0]!.id;

    // The app is left for another page; staff reply.
    await page.goto('/es/legal/privacy-policy');
    const staffContext = await browser.newContext();
    const staff = await staffContext.newPage();
    await presetConsent(staff);
    await submitLogin(staff, 'admin@vitrina.test', PASSWORD);
    await expect(staff).toHaveURL(/\/es\/admin\/dashboard$/);
    const reply = `Hola Clara: desde «Publicar» (${Date.now() % 100000}).`;
    expect((await csrfPost(staff, API.supportMessages(conversationId), { content: reply })).status()).toBe(201);
    await staffContext.close();

    // Exactly one push, decrypted with the device's key: the reply in Spanish, high urgency, the conversation's topic.
    await service.waitFor(() => device.received.length >= 1, 20_000);
    await page.waitForTimeout(1000);
    expect(device.received).toHaveLength(1);
    const received = device.received[0]!;
    expect(received).toMatchObject({ urgency: 'high', ttl: '3600', topic: `chat-${conversationId}`, vapidValid: true });
    const payload = pushPayloadSchema.parse(received.json);
    expect(payload.notification).toMatchObject({ title: 'Soporte', body: reply, tag: `chat-${conversationId}` });
    expect(payload.vitrina.path).toBe(`/es/messenger/${conversationId}`);

    // The worker shows it; the same push again replaces it (one per conversation); the reply is kept for offline.
    await deliverPush(page, payload);
    await expect.poll(() => shown(page), { timeout: 15_000 }).toEqual([{ title: 'Soporte', body: reply, tag: `chat-${conversationId}` }]);
    await deliverPush(page, payload);
    await page.waitForTimeout(500);
    expect(await shown(page)).toHaveLength(1);
    await expect
      .poll(() =>
        page.evaluate(async (path) => {
          const kept = await (await caches.open('vitrina-push-v1')).match(path);
          return kept ? await kept.text() : '';
        }, API.supportMessages(conversationId)),
      )
      .toContain('desde «Publicar»');

    // The tap, offline: the worker takes the open window to the conversation, which shows the reply it prefetched.
    await context.setOffline(true);
    const [worker] = context.serviceWorkers();
    expect(worker).toBeTruthy();
    await worker!.evaluate(async () => {
      const scope = self as unknown as {
        registration: { getNotifications(): Promise<Notification[]> };
        dispatchEvent(event: Event): boolean;
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      };
      const [n] = await scope.registration.getNotifications();
      scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification: n! }));
    });
    await expect(page).toHaveURL(new RegExp(`/es/messenger/${conversationId}$`), { timeout: 15_000 });
    await expect(page.getByText(reply)).toBeVisible({ timeout: 15_000 });
    await page.screenshot({ path: testInfo.outputPath('tap-offline-360.png') });
    await context.setOffline(false);

    // The profile: this device listed and marked, a category switched off (kept after a reload), four languages.
    await page.goto('/es/profile');
    const section = page.getByRole('region', { name: es('push.heading') });
    await expect(section.getByTestId('push-device')).toHaveCount(1);
    await expect(section.getByTestId('push-device')).toContainText(es('push.devices.thisComputer'));
    await expect(section.getByTestId('push-device-switch')).toBeChecked();
    await section.getByRole('switch', { name: es('push.categories.decisions') }).click({ force: true });
    await expect(section.getByRole('switch', { name: es('push.categories.decisions') })).not.toBeChecked();
    await page.waitForLoadState('networkidle');
    await page.reload();
    await expect(
      page.getByRole('region', { name: es('push.heading') }).getByRole('switch', { name: es('push.categories.decisions') }),
    ).not.toBeChecked();
    await page.getByRole('region', { name: es('push.heading') }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath('profile-360.png'), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expectNoAxeViolations(page, 'push settings 360', '[data-testid="push-settings"]');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: testInfo.outputPath('profile-1280.png'), fullPage: true });
    await expectNoAxeViolations(page, 'push settings 1280', '[data-testid="push-settings"]');
    for (const lng of LANGUAGES.filter((l) => l !== 'es')) {
      await page.goto(`/${lng}/profile`);
      await expect(page.getByRole('region', { name: tr(lng, 'push.heading') })).toBeVisible();
      await expect(page.getByRole('switch', { name: tr(lng, 'push.categories.supportChat') })).toBeVisible();
    }

    // Signing out removes this device's subscription on the server.
    await page.goto('/es/profile');
    const before = service.received.length;
    await page.getByRole('button', { name: /Cuenta de/ }).click();
    await page.getByRole('menuitem', { name: es('account.menu.logout') }).click();
    await expect(page).toHaveURL(/\/es$/);
    expect(await page.evaluate((key) => localStorage.getItem(key), STUB_SUBSCRIPTION_KEY)).toBeNull();
    await submitLogin(page, email, PASSWORD);
    await expect(page).not.toHaveURL(/\/login/);
    expect(((await (await page.request.get(API.pushSubscriptions, { headers: XHR })).json()) as { data: unknown[] }).data).toEqual([]);
    expect(service.received.length).toBe(before);
    await context.close();
  } finally {
    await service.stop();
  }
});
