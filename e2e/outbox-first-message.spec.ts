/**
 * Issue 24 B9: the outbox never lists one change twice. A user without a support conversation writes her first
 * message offline (the outbox holds two ops: the conversation's opening and the message waiting for its id) and
 * reloads offline: the header says "1 pendiente" and the sync page lists the message once, with one set of attempts
 * and buttons. Back online it arrives once and nothing is left.
 *
 * demo-model-11 is used by no other spec (it has no conversation in the demo data).
 */
import { expect, test, type BrowserContext, type Route } from '@playwright/test';
import { offlineAgain, presetConsent, submitLogin, tr } from './helpers.ts';

process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS ??= '1';

const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password-123';
const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
const es = (key: string, params?: Record<string, string | number>) =>
  Object.entries(params ?? {}).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), tr('es', key));

const refuseApi = (route: Route) => route.abort('internetdisconnected');
const isApi = (url: URL) => url.pathname.startsWith('/api/') || url.pathname.startsWith('/sanctum/');
async function goOffline(context: BrowserContext) {
  await context.setOffline(true);
  await context.route(isApi, refuseApi);
}
async function goOnline(context: BrowserContext) {
  await context.unroute(isApi, refuseApi);
  await context.setOffline(false);
}

test('a first support message written offline is one change, listed once, after an offline reload', async ({ page, context }) => {
  test.setTimeout(120_000);
  await presetConsent(page);
  await submitLogin(page, 'demo-model-11@vitrina.test', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/es\/model\/dashboard$/);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const before = await page.request.get('/api/support/chat/conversations', { headers: XHR });
  expect(((await before.json()) as { data: unknown[] }).data, 'no conversation yet').toHaveLength(0);

  await page.goto('/es/messenger');
  const composer = page.getByRole('textbox', { name: es('messenger.composer.label'), exact: true });
  await expect(composer).toBeVisible();
  // Let the saved copy take the empty conversation list, as a reader staying on the page a moment would.
  await page.waitForTimeout(1500);

  await goOffline(context);
  await composer.fill('Primer mensaje sin conexión');
  await composer.press('Enter');
  await expect(page.getByTestId('chat-pending')).toHaveCount(1);

  await page.reload();
  await offlineAgain(context);
  const indicator = page.getByTestId('sync-indicator');
  await expect(indicator).toHaveAttribute(
    'aria-label',
    es('outbox.indicator.label', { state: `${es('outbox.indicator.offline')} · ${es('outbox.indicator.pending_one', { count: 1 })}` }),
  );
  await page.goto('/es/sync');
  await offlineAgain(context);
  const ops = page.getByTestId('sync-op');
  await expect(ops).toHaveCount(1);
  await expect(ops).toContainText('Primer mensaje sin conexión');
  await expect(ops.getByRole('button', { name: es('outbox.page.discard') })).toHaveCount(1);
  await expect(indicator).toHaveAttribute(
    'aria-label',
    es('outbox.indicator.label', { state: `${es('outbox.indicator.offline')} · ${es('outbox.indicator.pending_one', { count: 1 })}` }),
  );
  await page.screenshot({ path: test.info().outputPath('sync-first-message.png') });

  await goOnline(context);
  await expect(page.getByTestId('sync-empty')).toBeVisible({ timeout: 30_000 });
  const conversations = (await (await page.request.get('/api/support/chat/conversations', { headers: XHR })).json()) as {
    data: { id: number }[];
  };
  expect(conversations.data).toHaveLength(1);
  const messages = (await (await page.request.get(`/api/support/chat/${conversations.data[0]!.id}/messages`, { headers: XHR })).json()) as {
    data: { content: string }[];
  };
  expect(messages.data.map((m) => m.content)).toEqual(['Primer mensaje sin conexión']);
});
