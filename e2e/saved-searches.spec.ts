/**
 * Saved searches with alerts (issue 28): a client saves the listing's search from the filter bar; staff approve a
 * matching ad; the client's instant search alerts (the bell's `saved_search` notification, whose link opens the
 * listing at the new ad), a paused one does not, a daily one sends the digest whose unsubscribe link works signed out.
 * axe on the dialog and the panel; the dialog in the four languages. The approved ad is the spec's own (a model it
 * registers, in a town no other spec or demo ad uses): the demo's pending ad is rejected by admin.spec earlier in a
 * full run, and a shared ad made this spec depend on the order of the others.
 */
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import type { Notification } from '#contract/notifications.ts';
import type { SavedSearch } from '#contract/saved-searches.ts';
import { appReady, expectNoAxeViolations, LANGUAGES, openHome, presetConsent, tr } from './helpers.ts';
import { registerVerified } from './accounts-api.ts';
import { linkFromMail } from './mail.ts';
import { fillModelForm } from './model-form.ts';

const PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password-123';
const ADMIN = 'admin@vitrina.test';
const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };

async function xsrf(page: Page): Promise<Record<string, string>> {
  await page.request.get('/sanctum/csrf-cookie', { headers: XHR });
  const token = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  return { ...XHR, 'X-XSRF-TOKEN': decodeURIComponent(token) };
}

async function signIn(page: Page, email: string) {
  const res = await page.request.post('/api/login', { headers: await xsrf(page), data: { email, password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
}

async function registerClient(page: Page, email: string) {
  const res = await page.request.post('/api/register', {
    headers: await xsrf(page),
    data: { name: 'Cliente Búsquedas', email, password: PASSWORD, password_confirmation: PASSWORD, role: 'client' },
  });
  expect(res.status(), await res.text()).toBe(201);
  await signIn(page, email);
}

/** Staff's decision through the API, as the review queue sends it. */
async function decide(admin: Page, subjectType: 'ad' | 'model_profile', subjectId: number) {
  const res = await admin.request.post('/api/admin/decisions', {
    headers: await xsrf(admin),
    data: { subject_type: subjectType, subject_id: subjectId, action: 'approve', reason_codes: [], text: '' },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * A model of this spec registers, verifies her address and writes her profile and ad, neither listed yet. Answers their
 * ids. No photo: an ad without one is listed once approved (a card without picture).
 */
async function pendingModel(browser: Browser, name: string, city: string): Promise<{ profileId: number; adId: number }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await presetConsent(page);
  const email = `alerta-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
  await registerVerified(page, { email, name, password: PASSWORD, role: 'model' });
  await page.goto('/es/profile/model/create');
  await fillModelForm(page, {
    name,
    birthDate: '1996-06-06',
    phone: '612 55 44 82',
    state: 'Asturias',
    city,
    section: 'Mujeres',
    title: `${name}, modelo de catálogo en ${city}`,
    description: `Fotografía de moda y catálogo en ${city} y por la costa oriental de Asturias, en estudio y en exteriores.`,
  });
  await expect(page.getByRole('heading', { level: 2, name: tr('es', 'modelProfile.steps.photos') })).toBeVisible();
  const profile = (
    (await (await page.request.get('/api/profile/model', { headers: XHR })).json()) as {
      data: { id: number; status: string; ad: { id: number; status: string } };
    }
  ).data;
  // Her profile waits for her identity check (`unverified`), her ad for review: neither is listed yet.
  expect([profile.status, profile.ad.status]).toEqual(['unverified', 'pending']);
  await context.close();
  return { profileId: profile.id, adId: profile.ad.id };
}

async function cityId(request: APIRequestContext, name: string): Promise<number> {
  const res = await request.get(`/api/cities/search?q=${encodeURIComponent(name)}`, { headers: XHR });
  const city = ((await res.json()) as { data: { id: number; name: string }[] }).data.find((c) => c.name === name);
  expect(city, name).toBeTruthy();
  return city!.id;
}

async function saveByApi(page: Page, body: Record<string, unknown>): Promise<SavedSearch> {
  const res = await page.request.post('/api/saved-searches', { headers: await xsrf(page), data: body });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { data: SavedSearch }).data;
}

test('a saved search alerts when a matching ad is approved; a paused one does not; the digest unsubscribes signed out', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const TOWN = 'Ribadesella';
  const MODEL = 'Covadonga';
  const context = await browser.newContext();
  const page = await context.newPage();
  await presetConsent(page);
  await page.goto('/es');
  const email = `busquedas-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
  await registerClient(page, email);
  const town = await cityId(page.request, TOWN);

  // From the listing: Ribadesella, women.
  await openHome(page, 'es', `?city=${town}&section=women`);
  await page.getByTestId('save-search').click();
  const dialog = page.getByRole('dialog', { name: tr('es', 'savedSearches.dialog.title') });
  const name = dialog.getByRole('textbox', { name: tr('es', 'savedSearches.dialog.name') });
  await expect(name).toHaveValue(`${TOWN} · Mujeres`);
  await expect(dialog.getByRole('radio', { name: tr('es', 'savedSearches.dialog.instant') })).toBeChecked();
  await expectNoAxeViolations(page, 'save search dialog', '[role="dialog"]');
  await dialog.getByRole('button', { name: tr('es', 'savedSearches.dialog.save') }).click();
  await expect(dialog).toBeHidden();

  // A paused one and a daily one by the API, the same filters.
  const paused = await saveByApi(page, { name: 'En pausa', city: town, section: 'women' });
  const pause = await page.request.put(`/api/saved-searches/${paused.id}`, { headers: await xsrf(page), data: { paused: true } });
  expect(pause.status()).toBe(200);
  const daily = await saveByApi(page, { name: 'Resumen Ribadesella', city: town, section: 'women', alerts: 'daily' });

  // The dashboard's panel lists them; axe clean.
  const saved = ((await (await page.request.get('/api/saved-searches', { headers: XHR })).json()) as { data: SavedSearch[] }).data;
  const instant = saved.find((s) => s.name === `${TOWN} · Mujeres`);
  expect(instant?.alerts).toBe('instant');

  // A model writes her ad there; staff approve her profile (no selfie here), then the ad: it is listed at that moment.
  const ad = await pendingModel(browser, MODEL, TOWN);
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto('/es');
  await signIn(admin, ADMIN);
  await decide(admin, 'model_profile', ad.profileId);
  await decide(admin, 'ad', ad.adId);
  await adminContext.close();

  // The alert: one notification naming the new ad, for the instant search only.
  let alerts: Notification[] = [];
  await expect
    .poll(
      async () => {
        const res = await page.request.get('/api/notifications', { headers: XHR });
        alerts = ((await res.json()) as { data: Notification[] }).data.filter((n) => n.kind === 'saved_search');
        return alerts.map((n) => n.data.subject_id).sort();
      },
      { timeout: 30_000 },
    )
    .toEqual([instant!.id, daily.id].sort());
  const alert = alerts.find((n) => n.data.subject_id === instant!.id)!;
  expect(alert.message).toBe(`1 anuncio nuevo en ${TOWN} · Mujeres`);
  expect(alerts.some((n) => n.data.subject_id === paused.id)).toBe(false);

  // In the bell, its link opens the listing with the new ad first.
  await page.goto('/es/dashboard');
  await appReady(page, 'es');
  await page.getByRole('button', { name: new RegExp(tr('es', 'bell.open')) }).click();
  await page
    .getByRole('link', { name: new RegExp(alert.message) })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`new=${ad.adId}`));
  const strip = page.getByTestId('new-ads');
  await expect(strip.getByRole('heading', { name: '1 anuncio nuevo' })).toBeVisible();
  await expect(strip.getByText(MODEL).first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('new-ads-strip.png') });

  // The daily digest's unsubscribe link, signed out, in a fresh browser: a GET changes nothing, the button does.
  const link = await linkFromMail(email, /https?:\/\/[^\s]+\/saved-searches\/unsubscribe\/\d+\/[A-Za-z0-9_-]+/);
  expect(link).toContain(`/unsubscribe/${daily.id}/`);
  const visitor = await browser.newContext();
  const anon = await visitor.newPage();
  await anon.goto(new URL(link).pathname);
  await expect(anon.getByRole('heading', { level: 1, name: tr('es', 'savedSearches.unsubscribe.title') })).toBeVisible();
  let list = ((await (await page.request.get('/api/saved-searches', { headers: XHR })).json()) as { data: SavedSearch[] }).data;
  expect(list.find((s) => s.id === daily.id)?.alerts).toBe('daily');
  await anon.getByTestId('unsubscribe').click();
  await expect(anon.getByRole('status').filter({ hasText: 'Resumen Ribadesella' })).toBeVisible();
  list = ((await (await page.request.get('/api/saved-searches', { headers: XHR })).json()) as { data: SavedSearch[] }).data;
  expect(list.find((s) => s.id === daily.id)?.alerts).toBe('off');
  await visitor.close();
  await context.close();
});

test('the saved searches panel: listed, paused, renamed, deleted; axe clean at 360 px', async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await presetConsent(page);
  await page.goto('/es');
  await registerClient(page, `panel-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`);
  await saveByApi(page, { name: 'Rubias en Oviedo', search: 'rubia', alerts: 'daily' });
  await page.goto('/es/dashboard');
  await appReady(page, 'es');
  const panel = page.getByTestId('saved-searches-panel');
  await expect(panel.getByText('Rubias en Oviedo')).toBeVisible();
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('saved-searches-panel.png'), fullPage: true });
  await expectNoAxeViolations(page, 'saved searches panel', '[data-testid="saved-searches-panel"]');
  await panel.getByRole('button', { name: tr('es', 'savedSearches.panel.pause') }).click();
  await expect(panel.getByText(tr('es', 'savedSearches.panel.paused'))).toBeVisible();
  await panel.getByRole('button', { name: tr('es', 'savedSearches.panel.rename') }).click();
  const box = panel.getByRole('textbox', { name: tr('es', 'savedSearches.panel.renameLabel').replace('{{name}}', 'Rubias en Oviedo') });
  await box.fill('Rubias');
  await panel.getByRole('button', { name: tr('es', 'savedSearches.panel.save') }).click();
  await expect(panel.getByText('Rubias', { exact: true })).toBeVisible();
  await expect
    .poll(async () => ((await (await page.request.get('/api/saved-searches', { headers: XHR })).json()) as { data: SavedSearch[] }).data[0])
    .toMatchObject({ name: 'Rubias', paused: true });
  await panel.getByRole('button', { name: tr('es', 'savedSearches.panel.deleteLabel').replace('{{name}}', 'Rubias') }).click();
  await page
    .getByRole('dialog', { name: tr('es', 'savedSearches.panel.deleteTitle') })
    .getByRole('button', { name: tr('es', 'savedSearches.panel.delete') })
    .click();
  await expect(panel.getByText(tr('es', 'savedSearches.panel.empty'))).toBeVisible();
  await context.close();
});

for (const lng of LANGUAGES) {
  test(`the save dialog in ${lng}: a visitor is asked to sign in, and comes back to the listing`, async ({ page }) => {
    await presetConsent(page);
    await page.setViewportSize({ width: 360, height: 740 });
    await openHome(page, lng, '?section=women');
    await page.screenshot({ path: test.info().outputPath(`home-360-${lng}.png`) });
    await page.getByTestId('save-search').click();
    const dialog = page.getByRole('dialog', { name: tr(lng, 'savedSearches.dialog.title') });
    await expect(dialog.getByText(tr(lng, 'savedSearches.dialog.signInText'))).toBeVisible();
    await expectNoAxeViolations(page, `save dialog (${lng})`, '[role="dialog"]');
    const signIn = dialog.getByRole('link', { name: tr(lng, 'savedSearches.dialog.signIn') });
    await expect(signIn).toHaveAttribute('href', `/${lng}/login?next=${encodeURIComponent(`/${lng}?section=women`)}`);
  });
}
