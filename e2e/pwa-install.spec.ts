/**
 * Issue 15 points 1, 2 and 8: the install button, the update prompt, and the persisted query cache — what a visitor
 * browsed shows after an offline reload, marked as a saved copy; a page never saved shows the offline state; a signed-in
 * user's private answers are kept in IndexedDB and gone at sign-out.
 *
 * The service worker's own requests obey `setOffline` only with this flag (read by Playwright when it routes them).
 */
process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS = '1';

import { devices, expect, test, type BrowserContext, type Page } from '@playwright/test';
import { presetConsent, submitLogin, tr } from './helpers.ts';

const cards = (page: Page) => page.getByTestId('model-card');

/** The roots of the query keys kept in the persisted cache (src/lib/query-persist-store.ts). */
function persistedRoots(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('vitrina-query-cache');
        open.onerror = () => reject(new Error(String(open.error)));
        open.onupgradeneeded = () => open.result.createObjectStore('kv');
        open.onsuccess = () => {
          const db = open.result;
          const get = db.transaction('kv').objectStore('kv').get('queries');
          get.onsuccess = () => {
            db.close();
            const text = get.result as string | undefined;
            if (!text) return resolve([]);
            const saved = JSON.parse(text) as { clientState: { queries: { queryKey: unknown[] }[] } };
            resolve(saved.clientState.queries.map((q) => String(q.queryKey[0])));
          };
          get.onerror = () => reject(new Error(String(get.error)));
        };
      }),
  );
}

/** Waits until the page is controlled by the service worker (the first visit's worker claims it). */
async function controlled(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller), { timeout: 15_000 }).toBe(true);
}

/** See offline.spec.ts: Chromium forgets the offline emulation for a reloaded document until it is toggled. */
async function offlineAgain(context: BrowserContext) {
  await context.setOffline(false);
  await context.setOffline(true);
}

test.beforeEach(async ({ page }) => {
  await presetConsent(page);
});

test('a new version waits for the visitor: the prompt offers it, warns over unsent input, and reloads under it', async ({ page }) => {
  // The worker's install precaches the whole shell: slow on a loaded machine.
  test.slow();
  await page.goto('/es/login');
  await controlled(page);

  // The next build's worker. Playwright cannot rewrite the script the browser fetches to look for an update, so the
  // new version is the same script under another URL: for the browser, a new worker for the same scope, which
  // installs and waits like a deploy's.
  const prompt = page.getByTestId('update-prompt');
  await expect(prompt).toHaveCount(0);
  await page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js?next-build');
  });
  await expect(prompt).toContainText(tr('es', 'pwa.updateTitle'));
  // It waits: the page is still under the old worker.
  expect(
    await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      return [reg?.waiting?.scriptURL.endsWith('?next-build'), navigator.serviceWorker.controller?.scriptURL.endsWith('/sw.js')];
    }),
  ).toEqual([true, true]);

  // Something typed and not sent: the first click warns instead of reloading over it.
  await page.getByLabel(tr('es', 'auth.fields.email')).fill('typed@example.com');
  await prompt.getByRole('button', { name: tr('es', 'pwa.update'), exact: true }).click();
  await expect(prompt).toContainText(tr('es', 'pwa.unsaved'));
  await expect(page.getByLabel(tr('es', 'auth.fields.email'))).toHaveValue('typed@example.com');

  // The visitor chooses: the new worker takes over and the page reloads under it.
  await page.evaluate(() => sessionStorage.setItem('before-update', '1'));
  const reloaded = page.waitForEvent('framenavigated');
  await prompt.getByRole('button', { name: tr('es', 'pwa.updateAnyway') }).click();
  await reloaded;
  await expect(page.getByLabel(tr('es', 'auth.fields.email'))).toHaveValue('');
  // Under the new worker now (the app then registers its own URL again: one more "new version", not a concern here).
  await expect
    .poll(() =>
      page.evaluate(() => [navigator.serviceWorker.controller?.scriptURL.endsWith('?next-build'), sessionStorage.getItem('before-update')]),
    )
    .toEqual([true, '1']);
});

test('the web app manifest is complete, never cached long, and its images are there', async ({ request }) => {
  const res = await request.get('/manifest.webmanifest');
  expect(res.ok()).toBe(true);
  expect(res.headers()['cache-control']).toBe('no-cache');
  const manifest = (await res.json()) as Record<string, unknown> & {
    icons: { src: string; sizes: string; purpose?: string }[];
    screenshots: { src: string; form_factor: string }[];
  };
  expect(manifest).toMatchObject({ name: 'Vitrina', short_name: 'Vitrina', lang: 'es', start_url: '/', scope: '/', display: 'standalone' });
  expect(manifest.description).toEqual(expect.any(String));
  expect(manifest.theme_color).toBe('#242424');
  expect(manifest.background_color).toBe('#242424');
  expect(manifest.categories).toEqual(expect.arrayContaining(['lifestyle']));
  expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(
    expect.arrayContaining(['192x192 any', '512x512 any', '192x192 maskable', '512x512 maskable']),
  );
  expect(manifest.screenshots.map((s) => s.form_factor).sort()).toEqual(['narrow', 'wide']);
  for (const { src } of [...manifest.icons, ...manifest.screenshots]) expect((await request.get(src)).ok(), src).toBe(true);
});

test('the install button uses the browser’s install prompt, and goes once the app is installed', async ({ page }) => {
  await page.goto('/es');
  await expect(cards(page).first()).toBeVisible();
  // The browser's event, as Chromium fires it when the app is installable (its prompt() opens the install dialog).
  await page.evaluate(() => {
    const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & Record<string, unknown>;
    event.prompt = () => {
      (window as unknown as { prompted: number }).prompted = ((window as unknown as { prompted?: number }).prompted ?? 0) + 1;
      return Promise.resolve();
    };
    event.userChoice = Promise.resolve({ outcome: 'accepted', platform: 'web' });
    window.dispatchEvent(event);
  });
  const install = page.getByRole('button', { name: tr('es', 'pwa.install') });
  await install.click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { prompted?: number }).prompted)).toBe(1);
  await page.evaluate(() => window.dispatchEvent(new Event('appinstalled')));
  await expect(install).toHaveCount(0);
});

test('on iOS Safari the install button shows the add-to-home-screen steps', async ({ browser }) => {
  const { defaultBrowserType: _webkit, ...iPhone } = devices['iPhone 13'];
  const context = await browser.newContext({ ...iPhone, serviceWorkers: 'block' });
  const page = await context.newPage();
  await presetConsent(page);
  await page.goto('/es');
  await page.getByRole('button', { name: tr('es', 'pwa.install') }).click();
  const dialog = page.getByRole('dialog', { name: tr('es', 'pwa.installTitle') });
  await expect(dialog).toContainText(tr('es', 'pwa.iosStep2'));
  await page.screenshot({ path: test.info().outputPath('ios-install-steps.png') });
  await dialog.getByRole('button', { name: tr('es', 'common.close') }).click();
  await expect(dialog).toHaveCount(0);
  await context.close();
});

test('what a visitor browsed shows after an offline reload from the saved queries, marked as a saved copy', async ({ page, context }) => {
  test.slow();
  await page.goto('/es');
  await controlled(page);
  await page.reload();
  await expect(cards(page).first()).toBeVisible();
  const names = await cards(page).evaluateAll((els) => els.slice(0, 3).map((el) => el.getAttribute('aria-label')));
  const unvisited = await cards(page).nth(1).getAttribute('href');
  await cards(page).first().click();
  await expect(page).toHaveURL(/\/es\/models\/\d+$/);
  const heading = page.locator('h1#model-name');
  await expect(heading).toBeVisible();
  const modelName = await heading.textContent();
  await expect(page.getByTestId('saved-copy')).toHaveCount(0);
  await expect.poll(() => persistedRoots(page)).toEqual(expect.arrayContaining(['models', 'model']));

  // The service worker's copy of the model's answer goes: what shows offline comes from the persisted queries.
  await page.evaluate(async () => {
    const api = location.pathname.replace(/^\/es\/models\//, '/api/models/');
    for (const name of await caches.keys()) await (await caches.open(name)).delete(new URL(api, location.origin).href);
  });

  await context.setOffline(true);
  await page.reload();
  await expect(page.locator('h1#model-name')).toHaveText(modelName!);
  await offlineAgain(context);
  await expect(page.getByTestId('saved-copy')).toContainText(tr('es', 'pwa.savedCopy'));
  await page.screenshot({ path: test.info().outputPath('saved-copy-model.png') });

  await page.goto('/es');
  await offlineAgain(context);
  await expect(cards(page).first()).toBeVisible();
  expect(await cards(page).evaluateAll((els) => els.slice(0, 3).map((el) => el.getAttribute('aria-label')))).toEqual(names);
  await expect(page.getByTestId('saved-copy')).toContainText(tr('es', 'pwa.savedCopy'));

  // A model never opened: the offline state, not an error. (Chromium lets a new document's first requests through
  // the offline emulation at times, see offlineAgain: this model's answers are refused as a dropped network would.)
  const unvisitedId = unvisited!.split('/').pop()!;
  await context.route(new RegExp(`/api/(models|getImagesByAd)/${unvisitedId}$`), (route) => route.abort('internetdisconnected'));
  await page.goto(unvisited!);
  await offlineAgain(context);
  await expect(page.getByTestId('offline-state')).toContainText(tr('es', 'pwa.offlineTitle'));
  await expect(page.getByText(tr('es', 'model.loadError'))).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('offline-state.png') });

  // Back online, the page asks again by itself.
  await context.unrouteAll();
  await context.setOffline(false);
  await expect(page.locator('h1#model-name')).toBeVisible();
  await expect(page.getByTestId('saved-copy')).toHaveCount(0);
});

test('a signed-in user’s private answers are kept in IndexedDB and gone at sign-out', async ({ page }) => {
  await submitLogin(page, 'demo-model-17@vitrina.test', 'demo-password-123');
  await expect(page).toHaveURL(/\/es\/model\/dashboard/);
  await expect.poll(() => persistedRoots(page)).toEqual(expect.arrayContaining(['user', 'profile']));

  await page.getByRole('button', { name: new RegExp(`^${tr('es', 'account.menu.open').replace('{{name}}', '')}`) }).click();
  await page.getByRole('menuitem', { name: tr('es', 'account.menu.logout') }).click();
  await expect(page).toHaveURL(/\/es$/);
  // Public answers (the home's listing, sections, promotions…) may stay; nothing else may.
  const PUBLIC = new Set([
    'models',
    'model',
    'model-images',
    'publicity-ads',
    'sections',
    'city',
    'countries',
    'country',
    'cities',
    'legal',
  ]);
  await expect.poll(async () => (await persistedRoots(page)).filter((root) => !PUBLIC.has(root))).toEqual([]);
});
