/**
 * Data rights (GDPR arts. 15, 20): a fresh client account asks for the archive of its data in Profile Edit, the section
 * says it is being prepared and updates by itself, then offers the download with its expiry; the zip holds the JSON
 * with its e-mail. axe on the section in each state, and the screen at 360 px. A fresh account, not the demo client:
 * other specs change the demo client's password.
 */
import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { presetConsent, tr, submitLogin } from './helpers.ts';

const PASSWORD = 'una contraseña larga para exportar 42';
const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
const es = (key: string) => tr('es', key);

test.beforeEach(async ({ page }) => {
  await presetConsent(page);
});

/** Registers a client through the API, as the register form does (an unverified account may sign in). */
async function register(page: Page, email: string) {
  await page.request.get('/sanctum/csrf-cookie', { headers: XHR });
  const token = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await page.request.post('/api/register', {
    headers: { ...XHR, 'X-XSRF-TOKEN': decodeURIComponent(token) },
    data: { name: 'Cliente Exporta', email, password: PASSWORD, password_confirmation: PASSWORD, role: 'client' },
  });
  expect(res.status(), await res.text()).toBe(201);
}

async function login(page: Page, email: string) {
  await submitLogin(page, email, PASSWORD);
  await expect(page).not.toHaveURL(/\/login$/);
}

async function axe(page: Page, name: string) {
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 10_000 });
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations, `${name}: ${JSON.stringify(results.violations.map((v) => [v.id, v.nodes.map((n) => n.target)]))}`).toEqual([]);
}

test('a client asks for their data, waits for it and downloads the zip with their e-mail inside', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const email = `exporta-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
  await page.goto('/es');
  await register(page, email);
  await login(page, email);
  await page.goto('/es/profile');
  const section = page.getByRole('region', { name: es('account.profile.dataExport.heading') });
  await expect(section).toBeVisible();
  const ask = section.getByRole('button', { name: es('account.profile.dataExport.request') });
  await expect(ask).toBeVisible();
  await axe(page, 'profile edit, no archive yet');

  // Keyboard: focus the button and press Enter.
  await ask.focus();
  await page.keyboard.press('Enter');
  const state = section.getByRole('status');
  // Pending, then ready without reloading (the section polls); the live region carries both.
  await expect(state).toHaveAttribute('data-status', /pending|ready/);
  await expect(state).toHaveText(es('account.profile.dataExport.ready'), { timeout: 30_000 });
  const download = section.getByRole('link', { name: /Descargar el archivo \(.+\)/ });
  await expect(download).toBeVisible();
  await expect(section.getByText(/El enlace funciona hasta el/)).toBeVisible();
  await expect(section.getByRole('button', { name: es('account.profile.dataExport.again') })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('data-export-ready-1280.png'), fullPage: true });
  await axe(page, 'profile edit, archive ready');

  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toMatch(/^vitrina-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const zipPath = await file.path();
  const entries = unzipSync(new Uint8Array(fs.readFileSync(zipPath)));
  const json = JSON.parse(strFromU8(entries['vitrina-data.json']!)) as { account: { email: string } };
  expect(json.account.email).toBe(email);

  // The link is the owner's only: signed out, it answers 404.
  const href = await download.getAttribute('href');
  const anon = await page.context().browser()!.newContext();
  const res = await anon.request.get(new URL(href!, page.url()).toString());
  expect(res.status()).toBe(404);
  await anon.close();

  await page.setViewportSize({ width: 360, height: 800 });
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('data-export-ready-360.png'), fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  // Every button label in the section is read whole, none cut off with an ellipsis.
  const cut = await section
    .locator('button, a')
    .evaluateAll((els) =>
      els.flatMap((el) =>
        [...el.querySelectorAll<HTMLElement>('span')].filter((s) => s.scrollWidth > s.clientWidth + 1).map((s) => s.textContent),
      ),
    );
  expect(cut).toEqual([]);
});
