/**
 * The outbox for edits (issue 15 points 3, 4, 6) as the demo publicist: offline, a model's edit and an ad switched off
 * are stored on the device and shown as pending; they survive a reload offline; back online each is applied exactly
 * once (checked through the API: version +1). An admin's edit made meanwhile brings the side-by-side view; a session
 * that expired while offline asks for a sign-in and then finishes; the sync page lists and discards.
 *
 * Bruno is edited and Celia's ad switched (no other spec edits them; trust-flow only adds models to this publicist).
 * The worker's own requests must go offline too (Background Sync replays from it): PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS
 * is read when the browser starts, so it is set before any test runs.
 */
process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS = '1';

import { request as apiRequest, errors, expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { presetConsent, submitLogin, tr } from './helpers.ts';

const PASSWORD = 'demo-password-123';
const PUBLICIST = 'publicist@vitrina.test';
const es = (key: string, params?: Record<string, string | number>) =>
  Object.entries(params ?? {}).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), tr('es', key));
const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };

interface Model {
  id: number;
  version: number;
  display_name: string;
  ad: { id: number; title: string; description: string; is_active: boolean } | null;
}

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 360, height: 740 } });

test.beforeEach(async ({ page }) => {
  await presetConsent(page);
});

async function signInWithWorker(page: Page) {
  await submitLogin(page, PUBLICIST, PASSWORD);
  await expect(page).toHaveURL(/\/es\/publicist\/dashboard$/);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
}

async function models(request: APIRequestContext): Promise<Model[]> {
  const res = await request.get('/api/publicist/models-under-responsibility?per_page=50&sort=name&direction=asc', { headers: XHR });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: Model[] }).data;
}
async function model(request: APIRequestContext, name: string): Promise<Model> {
  const found = (await models(request)).find((m) => m.display_name === name);
  expect(found, name).toBeDefined();
  return found!;
}

/** An admin's session in its own API context: CSRF cookie, login, then a fresh token for the signed-in session. */
async function adminRequest(baseURL: string) {
  const request = await apiRequest.newContext({ baseURL });
  const token = async () => {
    await request.get('/sanctum/csrf-cookie', { headers: XHR });
    const cookie = (await request.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN');
    return decodeURIComponent(cookie!.value);
  };
  const login = await request.post('/api/login', {
    headers: { ...XHR, 'X-XSRF-TOKEN': await token() },
    data: { email: 'admin@vitrina.test', password: PASSWORD },
  });
  expect(login.ok()).toBe(true);
  return { request, token };
}

const row = (page: Page, name: string) => page.getByTestId('publicist-model-row').filter({ has: page.getByRole('heading', { name }) });

/** The ad's switch in a model's row (its track: the input itself is visually hidden under it). */
const flip = (page: Page, name: string) => row(page, name).locator('.mantine-Switch-track').click();

async function openList(page: Page) {
  await page.goto('/es/profile/publicist');
  await expect(row(page, 'Bruno')).toBeVisible();
}

async function editTitleOffline(page: Page, title: string) {
  await row(page, 'Bruno')
    .getByRole('link', { name: es('publicist.list.edit') })
    .click();
  const field = page.getByRole('textbox', { name: new RegExp(`^${es('publicist.form.fields.title')}`) });
  await expect(field).toBeVisible();
  // The form opens on the cached model and its fresh copy arrives after: edit the current version, not a stale one.
  await page.waitForLoadState('networkidle');
  await page.context().setOffline(true);
  await field.fill(title);
  await page.getByRole('button', { name: es('publicist.form.save') }).click();
  await expect(page.getByText(es('outbox.savedPending'))).toBeVisible();
  await expect(page).toHaveURL(/\/es\/profile\/publicist$/);
  await expect(row(page, 'Bruno').getByTestId('model-pending')).toContainText(es('outbox.pendingChanges'));
}

test('offline: an edit and an ad switched off stay pending through a reload, then apply exactly once', async ({
  page,
  context,
}, testInfo) => {
  test.setTimeout(90_000);
  await signInWithWorker(page);
  const bruno = await model(page.request, 'Bruno');
  const celia = await model(page.request, 'Celia');
  expect(celia.ad?.is_active).toBe(true);
  const title = `Bruno, moda masculina (sin conexión ${Date.now() % 100000})`;

  await openList(page);
  await editTitleOffline(page, title);
  // The switch: off, at once on screen, pending.
  const celiaSwitch = row(page, 'Celia').getByRole('switch');
  await flip(page, 'Celia');
  await expect(celiaSwitch).not.toBeChecked();
  await expect(row(page, 'Celia').getByTestId('model-pending')).toBeVisible();
  await expect(page.getByTestId('sync-indicator')).toHaveAttribute('data-state', 'offline');
  await page.screenshot({ path: testInfo.outputPath('outbox-list-pending-360.png'), fullPage: false });

  // The sync page lists both, in order; still there after a reload without network.
  await page.getByTestId('sync-indicator').click();
  await expect(page).toHaveURL(/\/es\/sync$/);
  const ops = page.getByTestId('sync-op');
  await expect(ops).toHaveCount(2);
  await expect(ops.nth(0)).toHaveAttribute('data-kind', 'publicist.model.update');
  await expect(ops.nth(1)).toHaveAttribute('data-kind', 'publicist.model.activate');
  // Chromium may forget the offline emulation for the reloaded document (see offline.spec.ts), but every request
  // still fails, so the session cannot be checked and nothing is sent. Switching it off and on again would let the
  // replay start in between.
  await page.reload();
  await expect(ops).toHaveCount(2);
  await expect(ops.nth(0)).toHaveAttribute('data-status', 'pending');
  await expect(ops.nth(1)).toContainText(es('outbox.kind.adOff'));
  await page.screenshot({ path: testInfo.outputPath('outbox-sync-page-360.png'), fullPage: true });

  // Back online: both sent, once. "Send now", as the reloaded document may have missed the `online` event; if it did
  // not, the replay starts on its own and the button goes with the queue, maybe while it is being clicked (a click
  // then waited for a button that was gone for good).
  await context.setOffline(false);
  const sendNow = page.getByRole('button', { name: es('outbox.page.retryAll') });
  await sendNow.click({ timeout: 5_000 }).catch(async (err: unknown) => {
    if (!(err instanceof errors.TimeoutError) || (await sendNow.count()) > 0) throw err;
  });
  await expect(page.getByTestId('sync-empty')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('sync-indicator')).toHaveCount(0);
  const brunoAfter = await model(page.request, 'Bruno');
  expect(brunoAfter.version).toBe(bruno.version + 1);
  expect(brunoAfter.ad?.title).toBe(title);
  expect((await model(page.request, 'Celia')).ad?.is_active).toBe(false);

  // Switched back on through the API, for the next run on the same data.
  const token = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value;
  const restore = await page.request.put(`/api/publicist/model/activate/${celia.id}/1`, {
    headers: { ...XHR, 'X-XSRF-TOKEN': decodeURIComponent(token) },
  });
  expect(restore.status()).toBe(200);
  expect((await model(page.request, 'Bruno')).version).toBe(bruno.version + 1);
});

test("an admin's edit meanwhile opens the side-by-side view; an expired session asks for sign-in, then finishes; discard", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  await signInWithWorker(page);
  const before = await model(page.request, 'Bruno');
  const mine = `Bruno, mi versión ${Date.now() % 100000}`;

  // Offline edit, queued; meanwhile an admin changes the description (version +1).
  await openList(page);
  await editTitleOffline(page, mine);
  const admin = await adminRequest(baseURL!);
  const theirs = `${before.ad!.description} Editado por la administración.`;
  const current = (await (await admin.request.get(`/api/publicist/model/${before.id}`, { headers: XHR })).json()) as {
    data: Record<string, unknown>;
  };
  const adminEdit = await admin.request.put(`/api/publicist/model/update/${before.id}`, {
    headers: { ...XHR, 'X-XSRF-TOKEN': await admin.token() },
    data: { ...toInput(current.data), description: theirs, version: before.version },
  });
  expect(adminEdit.status(), await adminEdit.text()).toBe(200);

  // Online: the queued edit meets the newer version → conflict, side by side.
  await context.setOffline(false);
  await expect(page.getByTestId('sync-indicator')).toHaveAttribute('data-state', 'attention', { timeout: 20_000 });
  await page.getByTestId('sync-indicator').click();
  const op = page.getByTestId('sync-op');
  await expect(op).toHaveAttribute('data-status', 'conflict');
  await op.getByTestId('sync-op-edit').click();
  const dialog = page.getByTestId('conflict-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('[data-field="title"] [data-testid="conflict-mine"]')).toHaveText(mine);
  await expect(dialog.locator('[data-field="description"] [data-testid="conflict-theirs"]')).toHaveText(theirs);
  await page.screenshot({ path: testInfo.outputPath('outbox-conflict-360.png'), fullPage: false });
  // Merge: my title, their description.
  await dialog
    .getByRole('radiogroup', { name: new RegExp(es('publicist.form.fields.description')) })
    .getByText(es('outbox.merge.theirs'))
    .click();
  await dialog.getByRole('button', { name: es('outbox.merge.apply') }).click();
  await expect(page).toHaveURL(/\/es\/profile\/publicist$/);
  await expect
    .poll(async () => {
      const m = await model(page.request, 'Bruno');
      return [m.version, m.ad?.title, m.ad?.description];
    })
    .toEqual([before.version + 2, mine, theirs]);

  // An expired session while offline: the queue waits, the user signs in, it finishes.
  const again = `${mine} (tras iniciar sesión)`;
  await editTitleOffline(page, again);
  await context.clearCookies({ name: 'vitrina_session' });
  await context.setOffline(false);
  const notice = page.getByTestId('outbox-sign-in');
  await expect(notice).toBeVisible({ timeout: 20_000 });
  await page.screenshot({ path: testInfo.outputPath('outbox-sign-in-360.png'), fullPage: false });
  await notice.getByRole('link', { name: es('outbox.signIn.button') }).click();
  await expect(page).toHaveURL(/\/es\/login\?next=/);
  await page.getByLabel(tr('es', 'auth.fields.email')).fill(PUBLICIST);
  await page.getByRole('textbox', { name: tr('es', 'auth.fields.password'), exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: tr('es', 'auth.login.submit') }).click();
  await expect(page).toHaveURL(/\/es\/profile\/publicist$/);
  await expect.poll(async () => (await model(page.request, 'Bruno')).ad?.title, { timeout: 20_000 }).toBe(again);
  expect((await model(page.request, 'Bruno')).version).toBe(before.version + 3);

  // Signing out with a change queued warns first; "see changes" opens the sync page, where it is discarded and so
  // never sent.
  await context.setOffline(true);
  await flip(page, 'Bruno');
  await expect(row(page, 'Bruno').getByTestId('model-pending')).toBeVisible();
  await page.getByRole('button', { name: /Agencia Norte/ }).click();
  await page.getByRole('menuitem', { name: es('account.menu.logout') }).click();
  const warning = page.getByRole('dialog', { name: es('outbox.signOut.title') });
  await expect(warning).toBeVisible();
  await warning.getByRole('button', { name: es('outbox.signOut.review') }).click();
  await expect(page).toHaveURL(/\/es\/sync$/);
  await expect(page.getByTestId('sync-op')).toHaveCount(1);
  await page
    .getByTestId('sync-op')
    .getByRole('button', { name: es('outbox.page.discard') })
    .click();
  await page.getByTestId('sync-discard-confirm').click();
  await expect(page.getByTestId('sync-empty')).toBeVisible();
  await context.setOffline(false);
  expect((await model(page.request, 'Bruno')).ad?.is_active).toBe(true);
  await admin.request.dispose();
});

/** The update body from a model as the API shows it (the contract's input fields). */
function toInput(m: Record<string, unknown>) {
  const ad = m.ad as Record<string, unknown>;
  return {
    display_name: m.display_name,
    birth_date: m.birth_date,
    contact_email: m.contact_email ?? '',
    phone_country: m.phone ? m.phone_country : '',
    phone: m.phone ?? '',
    whatsapp: m.whatsapp,
    country_id: m.country_id,
    state_id: ad.state_id,
    city_id: ad.city_id,
    section: ad.section,
    title: ad.title,
    description: ad.description,
  };
}
