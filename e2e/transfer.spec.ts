/** What a first visit downloads: compressed assets and answers, and the page's own language only. */
import { expect, test } from '@playwright/test';
import { presetConsent } from './helpers.ts';

test('a Spanish home downloads compressed files and the Spanish translations only', async ({ page }) => {
  await presetConsent(page);
  const languages: string[] = [];
  const encodings = new Map<string, string | undefined>();
  page.on('response', (res) => {
    const url = new URL(res.url());
    // The page's requests, not the service worker's precache (it keeps all four languages for offline use).
    if (res.request().serviceWorker() || res.fromServiceWorker()) return;
    if (url.pathname.startsWith('/api/language/')) languages.push(url.pathname.split('/').pop()!);
    if (/\.(js|css)$/.test(url.pathname) || url.pathname.startsWith('/api/language/') || url.pathname === '/api/models') {
      encodings.set(url.pathname, res.headers()['content-encoding']);
    }
  });
  await page.goto('/es');
  await expect(page.getByTestId('model-card').first()).toBeVisible();
  await page.waitForLoadState('networkidle');

  expect(languages).toEqual(['es']);
  const assets = [...encodings].filter(([p]) => p.startsWith('/assets/'));
  expect(assets.length).toBeGreaterThan(1);
  for (const [p, encoding] of encodings) expect(encoding, p).toBe('br');
});
