/**
 * The client's dashboard (issue 28, point 4): favourites, saved searches, notifications and recent views in one place,
 * at 360 px and on a desktop, axe clean and translated in the four languages (no key left showing, headings in the
 * page's language, nothing wider than a phone).
 */
import { expect, test, type Page } from '@playwright/test';
import { appReady, expectNoAxeViolations, LANGUAGES, presetConsent, submitLogin, tr, type Lng } from './helpers.ts';
import { linkFromMail } from './mail.ts';

const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password-123';

/** Text that looks like an i18n key of this screens (`clientDashboard.intro`): a translation went missing. */
const RAW_KEY = /\b(clientDashboard|favourites|savedSearches|recentViews|notifications|dashboards)\.[a-z]\w*/;

async function openDashboard(page: Page, lng: Lng) {
  await page.goto(`/${lng}/dashboard`);
  await appReady(page, lng);
  await expect(page.getByRole('heading', { level: 1, name: tr(lng, 'dashboards.client.heading') })).toBeVisible();
  const board = page.getByTestId('client-dashboard');
  await expect(board.getByText(tr(lng, 'clientDashboard.intro'))).toBeVisible();
  const notifications = board.getByTestId('notifications-panel');
  await expect(
    notifications.getByRole('heading', { level: 2, name: new RegExp(`^${tr(lng, 'clientDashboard.notifications.title')}`) }),
  ).toBeVisible();
  // Loaded: its list or its empty state, never the skeleton or the error.
  await expect(notifications.locator('.mantine-Skeleton-root')).toHaveCount(0);
  await expect(notifications.getByText(tr(lng, 'clientDashboard.notifications.error'))).toHaveCount(0);
  return board;
}

/** A client of its own, verified and signed in: the demo client's password is changed by accounts.spec.ts on the same server. */
async function signInNewClient(page: Page) {
  const email = `dashboard-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
  await page.request.get('/sanctum/csrf-cookie', { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
  const token = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const registered = await page.request.post('/api/register', {
    headers: { 'X-Requested-With': 'XMLHttpRequest', 'X-XSRF-TOKEN': decodeURIComponent(token) },
    data: { name: 'Cliente Panel', email, password: DEMO_PASSWORD, password_confirmation: DEMO_PASSWORD, role: 'client' },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const link = new URL(
    await linkFromMail(email, /http:\/\/localhost:\d+\/es\/verify-email\/\d+\/[a-f0-9]{40}\?expires=\d+&signature=[a-f0-9]{64}/),
  );
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('dialog').getByText('¡Correo verificado!')).toBeVisible();
  await page.context().clearCookies();
  await presetConsent(page);
  await submitLogin(page, email, DEMO_PASSWORD);
}

test('the client dashboard at 360 px and on a desktop, in every language, axe clean', async ({ page }) => {
  test.setTimeout(120_000);
  await presetConsent(page);
  await signInNewClient(page);
  await expect(page).toHaveURL(/\/es\/dashboard/);

  for (const lng of LANGUAGES) {
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: width === 360 ? 800 : 900 });
      const board = await openDashboard(page, lng);
      // Every panel has its heading (level 2) and the page reads in one language.
      const headings = await board.getByRole('heading', { level: 2 }).allInnerTexts();
      expect(headings.length, `${lng} ${width}`).toBeGreaterThanOrEqual(1);
      expect(await page.locator('main').innerText(), `${lng} ${width}: a key is showing`).not.toMatch(RAW_KEY);
      if (width === 360) {
        // The dashboard's body (the shared header is not this screen's).
        const box = await board.boundingBox();
        expect(box!.x + box!.width, `${lng}: wider than the phone`).toBeLessThanOrEqual(360);
        expect(await board.evaluate((el) => el.scrollWidth - el.clientWidth), `${lng}: a panel overflows`).toBeLessThanOrEqual(0);
      }
      await expectNoAxeViolations(page, `client dashboard ${lng} ${width}`);
      if (lng === 'es' || lng === 'de') {
        await page.screenshot({ path: test.info().outputPath(`client-dashboard-${lng}-${width}.png`), fullPage: true });
      }
    }
  }
});

test('on a phone the panels come in the order a returning client wants them: favourites and searches first', async ({ page }) => {
  await presetConsent(page);
  await signInNewClient(page);
  await expect(page).toHaveURL(/\/es\/dashboard/);
  await page.setViewportSize({ width: 360, height: 800 });
  const board = await openDashboard(page, 'es');
  const notifications = board.getByTestId('notifications-panel');
  // Statements (every role's) come after this panels.
  const all = board.locator('section[aria-labelledby]');
  const order = await all.evaluateAll((sections) =>
    sections.map((s) => s.getAttribute('data-testid') ?? s.querySelector('h2')?.textContent ?? ''),
  );
  const at = order.indexOf('notifications-panel');
  expect(at, order.join(' | ')).toBeGreaterThanOrEqual(0);
  expect(order.at(-1), order.join(' | ')).toBe(tr('es', 'statements.panel.title'));
  await expect(notifications).toBeVisible();
});
