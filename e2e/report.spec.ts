/**
 * Notices and contact (issue 6 points 5–6): a visitor without an account reports an ad at 360 px (suspected minor),
 * gets a receipt; the demo admin finds the notice first in the queue with the escalation flag, opens it and decides
 * it, and the reporter is mailed the decision. The contact page sends a visitor's message, which staff see and mark
 * read. Screenshots at 360 and 1280 px; axe (serious/critical) on the report form and the queue.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { presetConsent, tr, submitLogin } from './helpers.ts';
import { linkFromMail } from './mail.ts';

const PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password-123';
const ADMIN = 'admin@vitrina.test';
// Not the demo client: accounts.spec resets that account's password. The demo model's password never changes.
const SIGNED_IN_USER = 'model@vitrina.test';
const es = (key: string) => tr('es', key);
/** A field's accessible name: its label, with the required asterisk when there is one. */
const label = (key: string) => new RegExp(`^${es(key).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`);
const unique = (p: string) => `${p}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
/** The forms refuse a send within 2 s of opening (a bot's speed). */
const HUMAN_PAUSE_MS = 2_100;

test.beforeEach(async ({ page }) => {
  await presetConsent(page);
});

async function serious(page: Page, include?: string) {
  // Let toasts go first (their close button is not ours to fix here).
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 10_000 });
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

async function login(page: Page, email: string, dashboard = /\/es\/admin\/dashboard$/) {
  await submitLogin(page, email, PASSWORD);
  await expect(page).toHaveURL(dashboard);
}

/** POST /api/reports from the page, the way the client does it (XHR header, CSRF cookie echoed). */
async function fileReport(page: Page, body: Record<string, unknown>) {
  return page.evaluate(async (json) => {
    const xhr = { 'X-Requested-With': 'XMLHttpRequest' };
    await fetch('/sanctum/csrf-cookie', { headers: xhr, credentials: 'same-origin' });
    const token = decodeURIComponent(/(?:^|; )XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '');
    const res = await fetch('/api/reports', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { ...xhr, 'X-XSRF-TOKEN': token, 'Content-Type': 'application/json' },
      body: JSON.stringify(json),
    });
    return res.status;
  }, body);
}

const fits = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

test('a visitor reports an ad as a suspected minor; the admin finds it first, flagged, and decides it', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const reporter = unique('testigo');
  const details = 'La persona de las fotos parece tener menos de dieciocho años.';

  // A visitor without an account, on a phone.
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto('/es');
  // An older, ordinary notice (spam) on another ad, filed through the API: the urgent one must still come first.
  const otherAd = Number((await page.getByTestId('model-card').nth(1).getAttribute('href'))!.match(/models\/(\d+)$/)![1]);
  expect(await fileReport(page, { ad_id: otherAd, reason: 'spam', details: 'El mismo anuncio aparece repetido con otro nombre.' })).toBe(
    201,
  );
  await page.getByTestId('model-card').first().click();
  await expect(page).toHaveURL(/\/es\/models\/\d+$/);
  const adId = page.url().match(/models\/(\d+)$/)![1]!;
  await expect(page.getByTestId('report-ad')).toBeVisible();
  const modelName = (await page.getByRole('heading', { level: 1 }).innerText()).trim();
  await page.getByTestId('report-ad').click();
  const dialog = page.getByRole('dialog', { name: es('reports.form.title') });
  await expect(dialog).toBeVisible();
  const opened = Date.now();
  await dialog.getByRole('radio', { name: es('reports.reasons.minor_suspected') }).check();
  await dialog.getByRole('textbox', { name: label('reports.form.details') }).fill(details);
  await dialog.getByRole('textbox', { name: label('reports.form.contact') }).fill(reporter);
  await fits(page);
  await page.screenshot({ path: testInfo.outputPath('report-form-360.png') });
  expect(await serious(page, '[role="dialog"]')).toEqual([]);
  await page.waitForTimeout(Math.max(0, HUMAN_PAUSE_MS - (Date.now() - opened)));
  await dialog.getByRole('button', { name: es('reports.form.submit') }).click();
  const receipt = dialog.getByTestId('report-receipt');
  await expect(receipt).toHaveText(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
  const code = (await receipt.innerText()).trim();
  await page.screenshot({ path: testInfo.outputPath('report-receipt-360.png') });
  // The receipt is mailed too, since a contact was left.
  await linkFromMail(reporter, new RegExp(code));

  // The demo admin: the notice is first in the queue, with the reason and the escalation flag.
  const staff = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const admin = await staff.newPage();
  await presetConsent(admin);
  await login(admin, ADMIN);
  await admin
    .getByRole('link', { name: es('admin.nav.reports') })
    .first()
    .click();
  await expect(admin).toHaveURL(/\/es\/admin\/reports$/);
  await expect(admin.getByRole('heading', { level: 1, name: es('notices.queue.title') })).toBeVisible();
  const rows = admin.getByTestId('report-row').locator('visible=true');
  await expect(rows).toHaveCount(2);
  const first = rows.first();
  await expect(first).toContainText(modelName);
  await expect(rows.nth(1).getByTestId('report-reason')).toHaveText(es('reports.reasons.spam'));
  await expect(rows.nth(1).getByTestId('escalate-flag')).toHaveCount(0);
  await expect(first.getByTestId('report-reason')).toHaveText(es('reports.reasons.minor_suspected'));
  await expect(first.getByTestId('escalate-flag')).toHaveText(es('notices.escalate'));
  await admin.screenshot({ path: testInfo.outputPath('reports-queue-1280.png'), fullPage: true });
  expect(await serious(admin)).toEqual([]);

  // Filters live in the URL.
  await admin.getByRole('combobox', { name: es('notices.filters.escalate') }).click();
  await admin.getByRole('option', { name: es('notices.filters.escalateOptions.1') }).click();
  await expect(admin).toHaveURL(/escalate=1/);
  await expect(first.getByTestId('escalate-flag')).toBeVisible();
  await admin.getByRole('combobox', { name: es('notices.filters.reason') }).click();
  await admin.getByRole('option', { name: es('reports.reasons.spam') }).click();
  await expect(admin).toHaveURL(/reason=spam/);
  await expect(admin.getByTestId('empty-state')).toHaveText(es('notices.queue.empty'));
  await admin.goto('/es/admin/reports');

  // Phone layout: cards, nothing wider than the screen.
  await admin.setViewportSize({ width: 360, height: 800 });
  await expect(first.getByTestId('escalate-flag')).toBeVisible();
  await fits(admin);
  await admin.screenshot({ path: testInfo.outputPath('reports-queue-360.png'), fullPage: true });
  expect(await serious(admin)).toEqual([]);
  await admin.setViewportSize({ width: 1280, height: 900 });

  // The notice: snapshot of the ad, links, reporter contact, receipt; then the decision.
  await first.getByTestId('report-open').click();
  await expect(admin).toHaveURL(/\/es\/admin\/reports\/\d+$/);
  await expect(admin.getByTestId('escalate-alert')).toBeVisible();
  await expect(admin.getByTestId('report-receipt-staff')).toHaveText(code);
  await expect(admin.getByRole('link', { name: reporter })).toHaveAttribute('href', `mailto:${reporter}`);
  await expect(admin.getByRole('link', { name: es('notices.report.viewAd') })).toHaveAttribute('href', `/es/models/${adId}`);
  await expect(admin.getByText(details)).toBeVisible();
  await expect(admin.getByRole('link', { name: es('notices.report.reviewAd') })).toHaveAttribute(
    'href',
    /^\/es\/admin\/review\/ads\?status=all&search=/,
  );
  // Sending without an outcome names the missing field.
  await admin.getByRole('button', { name: es('notices.decision.submit') }).click();
  await expect(admin.getByRole('radio', { name: es('notices.decision.actioned') })).toHaveAttribute('aria-invalid', 'true');
  await admin.getByRole('radio', { name: es('notices.decision.actioned') }).check();
  await admin
    .getByRole('textbox', { name: label('notices.decision.text') })
    .fill('Anuncio retirado y caso comunicado a las autoridades competentes.');
  await admin.screenshot({ path: testInfo.outputPath('report-show-1280.png'), fullPage: true });
  await admin.getByRole('button', { name: es('notices.decision.submit') }).click();
  const decided = admin.getByTestId('report-decided');
  await expect(decided).toBeVisible();
  await expect(decided.getByTestId('report-status')).toHaveText(es('reports.outcomes.actioned'));
  await admin.setViewportSize({ width: 360, height: 800 });
  await fits(admin);
  await admin.screenshot({ path: testInfo.outputPath('report-show-360.png'), fullPage: true });
  // The reporter is told the decision.
  await linkFromMail(reporter, /Anuncio retirado y caso comunicado/);
  await staff.close();
});

test('the contact page sends a visitor message; staff see it and mark it read', async ({ page, browser }, testInfo) => {
  test.setTimeout(90_000);
  const subject = `Consulta sobre anuncios ${Date.now()}`;
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto('/es');
  await page
    .getByRole('contentinfo')
    .getByRole('link', { name: es('contact.page.footerLink') })
    .click();
  await expect(page).toHaveURL(/\/es\/contact$/);
  await expect(page.getByRole('heading', { level: 1, name: es('contact.page.heading') })).toBeVisible();
  const opened = Date.now();
  await page.getByRole('textbox', { name: label('contact.page.name') }).fill('Marta Visitante');
  await page.getByRole('textbox', { name: label('contact.page.email') }).fill(unique('marta'));
  await page.getByRole('textbox', { name: label('contact.page.subject') }).fill(subject);
  await page.getByRole('textbox', { name: label('contact.page.message') }).fill('¿Cómo puedo publicar un anuncio como agencia?');
  await fits(page);
  await page.screenshot({ path: testInfo.outputPath('contact-360.png'), fullPage: true });
  expect(await serious(page)).toEqual([]);
  await page.waitForTimeout(Math.max(0, HUMAN_PAUSE_MS - (Date.now() - opened)));
  await page.getByRole('button', { name: es('contact.page.submit') }).click();
  await expect(page.getByTestId('contact-sent')).toContainText(es('contact.page.sentTitle'));
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: testInfo.outputPath('contact-sent-1280.png'), fullPage: true });

  // A signed-in user gets the message to the admins instead: no name or address to type.
  const clientSubject = `Favoritos ${Date.now()}`;
  const signedIn = await browser.newContext({ viewport: { width: 360, height: 800 } });
  const client = await signedIn.newPage();
  await presetConsent(client);
  await login(client, SIGNED_IN_USER, /\/es\/model\/dashboard$/);
  await client.goto('/es/contact');
  await expect(client.getByRole('heading', { level: 2, name: es('contact.page.adminHeading') })).toBeVisible();
  await expect(client.getByRole('textbox', { name: label('contact.page.name') })).toHaveCount(0);
  await client.getByRole('textbox', { name: label('contact.page.subject') }).fill(clientSubject);
  await client.getByRole('textbox', { name: label('contact.page.message') }).fill('¿Puedo guardar anuncios como favoritos?');
  await client.getByRole('button', { name: es('contact.page.adminSubmit') }).click();
  await expect(client.getByTestId('contact-sent')).toContainText(es('contact.page.sentTitle'));
  await fits(client);
  await signedIn.close();

  const staff = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const admin = await staff.newPage();
  await presetConsent(admin);
  await login(admin, ADMIN);
  await admin.goto('/es/admin/messages');
  await expect(admin.getByTestId('contact-message').filter({ hasText: clientSubject })).toContainText(es('notices.messages.kinds.admin'));
  const message = admin.getByRole('article', { name: subject, exact: true });
  await expect(message.getByTestId('message-status')).toHaveText(es('notices.messages.statuses.new'));
  await message.getByRole('button', { name: `${es('notices.messages.markRead')}: ${subject}` }).click();
  await expect(message.getByTestId('message-status')).toHaveText(es('notices.messages.statuses.read'));
  // The toast of the change shows first; the accessibility check runs once it has gone.
  await expect(admin.getByText(es('contact.api.updated'))).toBeVisible();
  await admin.screenshot({ path: testInfo.outputPath('messages-1280.png'), fullPage: true });
  expect(await serious(admin)).toEqual([]);
  await staff.close();
});
