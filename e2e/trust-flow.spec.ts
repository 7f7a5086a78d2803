/**
 * Issue 6, the whole loop across roles: the demo publicist adds two models; the first consents through the mailed
 * link; an admin approves the first (profile and ad: it goes live) and rejects the second's ad with a reason; the
 * publicist finds the statement of reasons in their dashboard and appeals; the appeal reaches the staff queue.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { presetConsent, tr, submitLogin } from './helpers.ts';
import { linkFromMail } from './mail.ts';
import { fillModel } from './publicist-form.ts';

const PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password-123';
const es = (key: string, vars: Record<string, string> = {}) =>
  Object.entries(vars).reduce((s, [k, v]) => s.replace(`{{${k}}}`, v), tr('es', key));

async function signIn(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await presetConsent(page);
  await submitLogin(page, email, PASSWORD);
  await expect(page).toHaveURL(/dashboard$/);
  return page;
}

async function decide(page: Page, action: string, name: string, reason?: { code: string; text: string }) {
  await page.getByRole('button', { name: `${es(`admin.actions.${action}`)}: ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: es('admin.dialog.title', { action: es(`admin.actions.${action}`), name }) });
  await expect(dialog).toBeVisible();
  if (reason) {
    await dialog.getByRole('checkbox', { name: es(`statements.grounds.${reason.code}`) }).check();
    await dialog.getByRole('textbox', { name: new RegExp(es('admin.dialog.text')) }).fill(reason.text);
  }
  await dialog.getByRole('button', { name: es('admin.dialog.confirm', { action: es(`admin.actions.${action}`) }) }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(es(`admin.decided.${action}`)).first()).toBeVisible();
}

test('publicist → model consent → admin approves one and rejects the other → publicist reads the reason and appeals', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const stamp = `${Date.now()}`.slice(-6);
  const first = { name: `Irene ${stamp}`, email: `irene-${stamp}@example.test`, title: `Irene ${stamp}, modelo de moda en Oviedo` };
  const second = { name: `Jara ${stamp}`, email: `jara-${stamp}@example.test`, title: `Jara ${stamp}, modelo de catálogo en Oviedo` };

  // 1. The publicist adds both models in one go.
  const publicist = await signIn(browser, 'publicist@vitrina.test');
  await publicist.goto('/es/publicist/models/create');
  await expect(publicist.getByRole('heading', { level: 1, name: es('publicist.form.createTitle') })).toBeVisible();
  await fillModel(publicist, publicist.getByRole('region', { name: 'Modelo 1' }), first);
  await publicist.getByRole('button', { name: es('publicist.form.addAnother') }).click();
  await fillModel(publicist, publicist.getByRole('region', { name: 'Modelo 2' }), second);
  await publicist.getByRole('button', { name: 'Crear 2 modelos' }).click();
  await expect(publicist).toHaveURL(/\/es\/profile\/publicist$/);

  // 2. The first model agrees through the mailed link (no account needed).
  const link = await linkFromMail(first.email, /http:\/\/localhost:\d+\/es\/consent\/[A-Za-z0-9_-]{43}/);
  const model = await (await browser.newContext()).newPage();
  await presetConsent(model);
  await model.goto(new URL(link).pathname);
  await model.getByRole('button', { name: es('consent.agree'), exact: true }).click();
  await expect(model.getByText(es('consent.given'))).toBeVisible();

  // 3. The admin approves the first model's profile and ad, and rejects the second's ad with a reason.
  const admin = await signIn(browser, 'admin@vitrina.test');
  await admin.goto(`/es/admin/models-under-responsibility?search=${stamp}`);
  await decide(admin, 'approve', first.name);
  await admin.goto('/es/admin/review/ads');
  await expect(admin.getByRole('article', { name: first.title })).toBeVisible();
  await decide(admin, 'approve', first.title);
  await decide(admin, 'reject', second.title, { code: 'incomplete', text: 'Falta una foto de portada que muestre a la modelo.' });

  // Approved + consented: the first model is public; the rejected one is not.
  await model.goto(`/es?search=${encodeURIComponent(first.name)}`);
  await expect(model.getByTestId('model-card').filter({ hasText: first.name })).toBeVisible();
  await model.goto(`/es?search=${encodeURIComponent(second.name)}`);
  await expect(model.getByTestId('model-card').filter({ hasText: second.name })).toHaveCount(0);

  // 4. The publicist reads the statement of reasons in their dashboard and appeals once.
  await publicist.goto('/es/publicist/dashboard');
  const panel = publicist.getByRole('region', { name: es('statements.panel.title') });
  await panel.getByRole('link', { name: `${es('statements.subjects.ad')} «${second.title}»` }).click();
  await expect(publicist.getByRole('heading', { level: 1, name: es('statements.show.heading') })).toBeVisible();
  await expect(publicist.getByText('Falta una foto de portada que muestre a la modelo.')).toBeVisible();
  await expect(publicist.getByText(es('statements.grounds.incomplete')).first()).toBeVisible();
  await publicist.getByRole('textbox', { name: new RegExp(es('statements.appeal.label')) }).fill('Ya hemos subido la foto de portada.');
  await publicist.getByRole('button', { name: es('statements.appeal.submit') }).click();
  await expect(publicist.getByText(es('statements.appealSent'))).toBeVisible();

  // 5. The appeal waits for a person in the staff queue.
  await admin.goto('/es/admin/appeals');
  const appeal = admin.getByRole('article', { name: `${es('statements.subjects.ad')} «${second.title}»` });
  await expect(appeal.getByText('Ya hemos subido la foto de portada.')).toBeVisible();
});
