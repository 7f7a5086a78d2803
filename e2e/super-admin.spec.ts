/**
 * Super admin (Profile/Admin Create): the demo super admin opens the create-admin form from the dashboard, sends bad
 * input first (mismatched confirmation, a taken e-mail, a too common password: translated errors, nobody created),
 * then creates an admin. The new admin signs in, lands on the admin dashboard and gets the 403 page on the
 * super-admin screens. The client record (Users/Clients Show) lists the client's statements of reasons; the demo data
 * holds no statement for a client (statements go to models and agencies), so the e2e sees its empty state at 360 px
 * and 1280 px; the listing itself is covered by the server and component tests.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { presetConsent, tr } from './helpers.ts';

const PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password-123';
const SUPER = 'superadmin@vitrina.test';
const ADMIN = 'admin@vitrina.test';
const CLIENT = 'client@vitrina.test';
const CLIENT_NAME = 'Cliente Demo';
const es = (key: string, opts?: Record<string, string | number>) => {
  let s = tr('es', key);
  for (const [k, v] of Object.entries(opts ?? {})) s = s.replace(`{{${k}}}`, String(v));
  return s;
};

test.beforeEach(async ({ page }) => {
  await presetConsent(page);
});

async function login(page: Page, email: string, password = PASSWORD) {
  await page.goto('/es/login');
  await expect(page.getByRole('heading', { level: 1, name: es('auth.login.heading') })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.getByLabel(es('auth.fields.email')).fill(email);
  await page.getByRole('textbox', { name: es('auth.fields.password'), exact: true }).fill(password);
  await page.getByRole('button', { name: es('auth.login.submit') }).click();
}

async function axe(page: Page, name: string) {
  // Toasts have a close button without a name (src/lib/overlays-ui.tsx, reported): let them time out first.
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 10_000 });
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations, `${name}: ${JSON.stringify(results.violations.map((v) => [v.id, v.nodes.map((n) => n.target)]))}`).toEqual([]);
}

/** The administrators list, searched by e-mail (the search lives in the URL). */
async function searchAdmins(page: Page, email: string) {
  await page.goto(`/es/super-admin/admins?search=${encodeURIComponent(email)}`);
  await expect(page.getByRole('heading', { level: 1, name: es('admin.admins.heading') })).toBeVisible();
}

test('the super admin creates an admin through the form after bad input is refused; the admin signs in and cannot create admins', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const email = `admin-e2e-${Date.now()}@vitrina.test`;
  const strong = 'una contraseña de administración 42';

  await login(page, SUPER);
  await expect(page).toHaveURL(/\/es\/super-admin\/dashboard$/);
  await page.getByRole('link', { name: es('admin.nav.admins') }).click();
  await expect(page).toHaveURL(/\/es\/super-admin\/admins$/);
  const form = page.getByRole('region', { name: es('admin.admins.create') });
  await expect(form).toBeVisible();
  const name = form.getByRole('textbox', { name: es('admin.admins.name') });
  const mail = form.getByRole('textbox', { name: es('admin.admins.email') });
  const password = form.getByRole('textbox', { name: es('admin.admins.password'), exact: true });
  const confirmation = form.getByRole('textbox', { name: es('admin.admins.passwordConfirmation'), exact: true });
  const submit = form.getByRole('button', { name: es('admin.admins.submit') });

  // 1. The confirmation does not match: refused before anything is sent.
  await name.fill('Admin de Pruebas');
  await mail.fill(email);
  await password.fill(strong);
  await confirmation.fill(`${strong}!`);
  await submit.click();
  await expect(form.getByText(es('validation.password_confirmation'))).toBeVisible();
  // The field says so to a screen reader too, and takes the focus.
  await expect(confirmation).toHaveAttribute('aria-invalid', 'true');
  await expect(confirmation).toHaveAccessibleDescription(es('validation.password_confirmation'));
  await expect(confirmation).toBeFocused();

  // 2. An e-mail already in use: the server refuses it on the e-mail field.
  await mail.fill(ADMIN);
  await confirmation.fill(strong);
  await submit.click();
  await expect(form.getByText(es('validation.email_taken'))).toBeVisible();
  await expect(mail).toBeFocused();

  // 3. A password everybody uses: refused too.
  await mail.fill(email);
  await password.fill('password');
  await confirmation.fill('password');
  await submit.click();
  await expect(form.getByText(es('validation.password_common'))).toBeVisible();
  await expect(page.getByText(es('accountApi.adminCreated'))).toHaveCount(0);

  // Nothing was created.
  await searchAdmins(page, email);
  await expect(page.getByText(es('admin.list.empty'))).toBeVisible();

  // 4. Good input: created, the form empties, the list shows the new admin.
  await page.goto('/es/profile/admin/create');
  await expect(form).toBeVisible();
  await name.fill('Admin de Pruebas');
  await mail.fill(email);
  await password.fill(strong);
  await confirmation.fill(strong);
  await submit.click();
  await expect(page.getByText(es('accountApi.adminCreated'))).toBeVisible();
  await expect(mail).toHaveValue('');
  await page.screenshot({ path: testInfo.outputPath('admins-created-1280.png'), fullPage: true });
  await searchAdmins(page, email);
  await expect(page.getByRole('cell', { name: email })).toBeVisible();
  await expect(page.getByRole('cell', { name: es('account.roles.admin'), exact: true })).toBeVisible();

  // The new admin signs in, sees the admin dashboard, and the super-admin screens answer 403.
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await presetConsent(adminPage);
  await login(adminPage, email, strong);
  await expect(adminPage).toHaveURL(/\/es\/admin\/dashboard$/);
  await expect(adminPage.getByRole('heading', { level: 1, name: es('dashboards.admin.heading') })).toBeVisible();
  await expect(adminPage.getByRole('link', { name: es('admin.nav.admins') })).toHaveCount(0);
  for (const path of ['/es/profile/admin/create', '/es/super-admin/admins']) {
    await adminPage.goto(path);
    await expect(adminPage.getByRole('heading', { level: 1, name: es('auth.guard.forbiddenTitle') })).toBeVisible();
    await expect(adminPage.getByRole('region', { name: es('admin.admins.create') })).toHaveCount(0);
  }
  await adminContext.close();
});

test('staff open a client record with its statements of reasons (empty for the demo client) at 360 px and 1280 px', async ({
  page,
}, testInfo) => {
  await login(page, ADMIN);
  await expect(page).toHaveURL(/\/es\/admin\/dashboard$/);
  await page.goto(`/es/admin/clients?search=${encodeURIComponent(CLIENT)}`);
  await expect(page.getByRole('heading', { level: 1, name: es('admin.clients.heading') })).toBeVisible();
  await page.getByRole('table').getByRole('link', { name: CLIENT_NAME }).click();

  await expect(page).toHaveURL(/\/es\/admin\/clients\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: CLIENT_NAME })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: CLIENT })).toBeVisible();
  const statements = page.getByRole('region', { name: es('admin.client.statementsHeading') });
  await expect(statements).toBeVisible();
  // The demo client has no statement of reasons (see the header): the empty state says so.
  await expect(statements.getByText(es('admin.client.statementsEmpty'))).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('client-1280.png'), fullPage: true });
  await axe(page, 'client record 1280');

  await page.setViewportSize({ width: 360, height: 800 });
  await expect(statements).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('client-360.png'), fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await axe(page, 'client record 360');

  // An id that is no client: the translated not-found message.
  await page.goto('/es/admin/clients/999999');
  await expect(page.getByText(es('admin.client.notFound'))).toBeVisible();
});

test('the super-admin dashboard and the appeals queue fit a 360 px screen in every language (long titles wrap, the filter stacks)', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  await login(page, SUPER);
  await expect(page).toHaveURL(/\/es\/super-admin\/dashboard$/);
  await page.setViewportSize({ width: 360, height: 800 });
  for (const lng of ['es', 'de', 'pt_BR', 'en'] as const) {
    await page.goto(`/${lng}/super-admin/dashboard`);
    await expect(page.locator('[data-count="agency_models_unverified"]')).toContainText(tr(lng, 'admin.counts.agency_models_unverified'));
    await page.screenshot({ path: testInfo.outputPath(`super-dashboard-${lng}-360.png`), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `dashboard ${lng}`).toBeLessThanOrEqual(360);

    await page.goto(`/${lng}/admin/appeals`);
    await expect(page.getByRole('heading', { level: 1, name: tr(lng, 'admin.appeals.heading') })).toBeVisible();
    // Every option of the status filter is on screen, none cut off.
    const filter = page.getByRole('radiogroup', { name: tr(lng, 'admin.filters.status') });
    for (const s of ['pending', 'upheld', 'reversed', 'all']) {
      const label = filter.locator('label', { hasText: tr(lng, `admin.appealFilters.${s}`) });
      const box = await label.boundingBox();
      expect(box, `${lng} ${s}`).not.toBeNull();
      expect(box!.x, `${lng} ${s}`).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, `${lng} ${s}`).toBeLessThanOrEqual(360);
    }
    await page.screenshot({ path: testInfo.outputPath(`appeals-${lng}-360.png`), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `appeals ${lng}`).toBeLessThanOrEqual(360);
  }
  await axe(page, 'appeals 360');

  // An unknown filter value in a shared link is dropped: the list loads unfiltered instead of an error.
  await page.goto('/es/admin/models?status=bogus');
  await expect(page.getByRole('heading', { level: 1, name: es('admin.models.heading') })).toBeVisible();
  await expect(page.getByRole('list', { name: es('admin.models.title') })).toBeVisible();
  await expect(page.getByText(es('admin.list.error'))).toHaveCount(0);
});
