/**
 * Issue 24 B8: every screen that was open online opens again offline after a reload, from the saved copy (the
 * persisted query cache) — not "No hemos podido cargar…" because the background refresh found no network. Each screen
 * with saved data is visited online, the connection goes, and each is reloaded offline: its content is there, its
 * load error is not. A publicist's model edit saved offline lands on "Mi agencia" with its content too.
 *
 * Demo accounts: the publicist (read-only here, but for a queued edit of Bruno's name that never reaches the server:
 * the outbox entry is discarded before the end) and the demo model (read-only).
 */
import { expect, test, type BrowserContext, type Page, type Route } from '@playwright/test';
import { offlineAgain, presetConsent, savedQueries, submitLogin, tr } from './helpers.ts';

process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS ??= '1';

const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password-123';
const es = (key: string) => tr('es', key);

const refuseApi = (route: Route) => route.abort('internetdisconnected');
const isApi = (url: URL) => url.pathname.startsWith('/api/') || url.pathname.startsWith('/sanctum/');
async function goOffline(context: BrowserContext) {
  await context.setOffline(true);
  await context.route(isApi, refuseApi);
}

/** The saved copy holds an answer for each of these query keys (compared by their JSON prefix). */
async function waitUntilSaved(page: Page, prefixes: unknown[][]) {
  await expect
    .poll(
      async () => {
        const keys = (await savedQueries(page)).map((q) => JSON.stringify(q.queryKey));
        const missing = prefixes.filter((p) => !keys.some((k) => k.startsWith(JSON.stringify(p).slice(0, -1))));
        return missing.length ? { missing, saved: keys } : 'all saved';
      },
      { timeout: 15_000 },
    )
    .toBe('all saved');
}

/** Reloads `path` offline and waits until the app has taken over (the offline banner of the saved-data state). */
async function reloadOffline(page: Page, context: BrowserContext, path: string) {
  await page.goto(path);
  await offlineAgain(context);
  await page.reload();
  await offlineAgain(context);
}

const LOAD_ERRORS = [
  'publicist.summary.loadError',
  'publicist.list.loadError',
  'modelProfile.loadError',
  'statements.panel.error',
  'bell.error',
];
async function expectNoLoadError(page: Page) {
  for (const key of LOAD_ERRORS) await expect(page.getByText(es(key), { exact: true }), key).toHaveCount(0);
}

async function openBell(page: Page) {
  await page
    .getByRole('button', { name: new RegExp(`^${es('bell.open')}`) })
    .first()
    .click();
  const panel = page.locator('section').filter({ has: page.getByRole('heading', { name: es('bell.title') }) });
  await expect(panel).toBeVisible();
  return panel;
}

test('a publicist: dashboard, «Mi agencia», statements and notifications open offline after a reload', async ({ page, context }) => {
  test.setTimeout(120_000);
  await presetConsent(page);
  await submitLogin(page, 'publicist@vitrina.test', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/es\/publicist\/dashboard$/);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });

  // Online, as she would: the dashboard (summary, decisions), the bell, «Mi agencia» (details, models), statements.
  await expect(page.getByRole('link', { name: es('publicist.summary.manage') })).toBeVisible();
  await expect(page.getByRole('heading', { name: es('statements.panel.title') })).toBeVisible();
  const bellOnline = await openBell(page);
  await expect(bellOnline.getByText(es('bell.error'))).toHaveCount(0);
  await page.goto('/es/profile/publicist');
  await expect(page.getByRole('heading', { name: es('publicist.index.details') })).toBeVisible();
  await expect(page.getByText('Bruno', { exact: true }).first()).toBeVisible();
  // A reader stays a moment on each screen: the saved copy (written at most once a second) takes its answers.
  await waitUntilSaved(page, [
    ['publicist', 'profile'],
    ['publicist', 'models', 'list'],
    ['statements', 'list', 1, 5],
    ['notifications', 'list'],
  ]);
  await page.goto('/es/statements');
  await expect(page.getByRole('heading', { name: es('statements.index.heading') })).toBeVisible();
  await waitUntilSaved(page, [['statements', 'list', 1, 10]]);

  await goOffline(context);

  await reloadOffline(page, context, '/es/publicist/dashboard');
  await expect(page.getByRole('link', { name: es('publicist.summary.manage') })).toBeVisible();
  await expect(page.getByRole('heading', { name: es('statements.panel.title') })).toBeVisible();
  const bell = await openBell(page);
  await expect(bell.getByText(es('bell.error'))).toHaveCount(0);
  await expect(
    bell
      .getByRole('listitem')
      .or(bell.getByText(es('bell.empty')))
      .first(),
  ).toBeVisible();
  await expectNoLoadError(page);
  await page.keyboard.press('Escape');

  await reloadOffline(page, context, '/es/profile/publicist');
  await expect(page.getByRole('heading', { name: es('publicist.index.title'), level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: es('publicist.index.details') })).toBeVisible();
  await expect(page.getByText('Bruno', { exact: true }).first()).toBeVisible();
  await expectNoLoadError(page);
  await page.screenshot({ path: test.info().outputPath('h4-agency-offline-360.png'), fullPage: false });

  await reloadOffline(page, context, '/es/statements');
  await expect(page.getByRole('heading', { name: es('statements.index.heading') })).toBeVisible();
  await expect(page.getByText(es('statements.panel.empty')).or(page.locator('a[href*="/statements/"]')).first()).toBeVisible();
  await expectNoLoadError(page);
});

test('a model: her dashboard (profile summary, decisions) opens offline after a reload', async ({ page, context }) => {
  test.setTimeout(90_000);
  await presetConsent(page);
  await submitLogin(page, 'model@vitrina.test', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/es\/model\/dashboard$/);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const profile = await page.request.get('/api/profile/model', {
    headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' },
  });
  const name = ((await profile.json()) as { data: { display_name: string } }).data.display_name;
  await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: es('statements.panel.title') })).toBeVisible();
  await waitUntilSaved(page, [
    ['profile', 'model'],
    ['statements', 'list', 1, 5],
  ]);

  await goOffline(context);
  await reloadOffline(page, context, '/es/model/dashboard');
  await expect(page.getByRole('heading', { name: es('statements.panel.title') })).toBeVisible();
  await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
  await expectNoLoadError(page);
});
