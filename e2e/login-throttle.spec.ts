/** Sign-in throttling as the visitor sees it: past the limit, the login form says how long to wait. */
import { expect, test, type Page } from '@playwright/test';
import { presetConsent, tr } from './helpers.ts';

test.beforeEach(async ({ page }) => {
  await presetConsent(page);
});

async function submit(page: Page, email: string, password: string): Promise<number> {
  await page.getByLabel(tr('es', 'auth.fields.email')).fill(email);
  await page.getByRole('textbox', { name: tr('es', 'auth.fields.password'), exact: true }).fill(password);
  const answer = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/login');
  await page.getByRole('button', { name: tr('es', 'auth.login.submit') }).click();
  return (await answer).status();
}

test('after five tries in a minute the login form says when to try again', async ({ page }) => {
  const email = `throttled-${Date.now()}@example.test`;
  await page.goto('/es/login');
  await expect(page.getByRole('heading', { level: 1, name: tr('es', 'auth.login.heading') })).toBeVisible();
  await page.waitForLoadState('networkidle');
  for (let i = 0; i < 5; i++) expect(await submit(page, email, `not the password ${i}`)).toBe(422);
  expect(await submit(page, email, 'not the password 5')).toBe(429);
  await expect(page.getByText('Demasiados intentos. Vuelve a intentarlo dentro de 1 minuto.')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('throttled.png') });
});
