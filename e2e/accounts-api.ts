/**
 * Accounts made through the API, for specs that need a fresh verified user but do not test the register form (it is
 * tested in accounts.spec.ts): register as the app does (XHR header, CSRF token), then open the mailed verification
 * link, which signs the browser in.
 */
import { expect, type Page } from '@playwright/test';
import { linkFromMail } from './mail.ts';

const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
const VERIFY_LINK = /http:\/\/localhost:\d+\/es\/verify-email\/\d+\/[a-f0-9]{40}\?expires=\d+&signature=[a-f0-9]{64}/;

export async function registerVerified(
  page: Page,
  account: { email: string; name: string; password: string; role: 'model' | 'client' | 'publicist' },
): Promise<void> {
  await page.goto('/es');
  await page.request.get('/sanctum/csrf-cookie', { headers: XHR });
  const token = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await page.request.post('/api/register', {
    headers: { ...XHR, 'X-XSRF-TOKEN': decodeURIComponent(token) },
    data: { ...account, password_confirmation: account.password },
  });
  expect(res.status(), await res.text()).toBe(201);
  const verify = new URL(await linkFromMail(account.email, VERIFY_LINK));
  await page.goto(verify.pathname + verify.search);
  await expect(page.getByRole('dialog')).toBeVisible();
}
