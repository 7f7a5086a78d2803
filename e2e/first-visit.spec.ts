/**
 * First visit on a phone (issue 13 point 2): what Lighthouse held against the home and model pages, checked in the
 * browser — no Content-Security-Policy violation (Zod's `new Function` probe, Best Practices 96), the footer does not
 * jump down in sight when the cards arrive (CLS 0.107), the first row's photos are fetched with high priority, and the
 * home is rendered by the server (its largest paint does not wait for the JavaScript).
 */
import { expect, test, type Page } from '@playwright/test';
import { appReady, presetConsent, tr } from './helpers.ts';

/** Records CSP violations from the start of every document. */
async function recordCspViolations(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`));
  });
}
const cspViolations = (page: Page) => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);

test.use({ viewport: { width: 360, height: 740 } });

test('home and a model page: no CSP violation', async ({ page }) => {
  await presetConsent(page);
  await recordCspViolations(page);
  await page.goto('/es');
  await expect(page.getByTestId('model-card').first()).toBeVisible();
  expect(await cspViolations(page)).toEqual([]);
  await page.getByTestId('model-card').first().click();
  await expect(page).toHaveURL(/\/es\/models\/\d+/);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await cspViolations(page)).toEqual([]);
});

test('the footer starts below the fold before the cards arrive, and stays there', async ({ page }) => {
  await presetConsent(page);
  // Hold the home screen's code and the listing back: the shell shows its loader, as on a slow phone.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/home-[^/]*\.js$|\/api\/models(\?|$)/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/es');
  const footer = page.locator('body > #root > footer');
  await expect(footer).toBeAttached();
  const viewportHeight = page.viewportSize()!.height;
  const topWhileLoading = await footer.evaluate((el) => el.getBoundingClientRect().top);
  expect(topWhileLoading).toBeGreaterThanOrEqual(viewportHeight);
  release();
  await expect(page.getByTestId('model-card').first()).toBeVisible();
});

// Every visit here is a first visit: once the service worker is installed it serves its precached plain shell, which
// the client renders itself (what the server rendered is for browsers it does not serve yet).
test.describe(() => {
  test.use({ serviceWorkers: 'block' });

  test('a saved list view replaces the server’s grid once the app has taken over, without a hydration warning', async ({ page }) => {
    await presetConsent(page);
    await page.addInitScript(() => localStorage.setItem('view', 'list'));
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.text().startsWith('hydration')) problems.push(m.text());
    });
    await page.goto('/es');
    await appReady(page, 'es');
    // The list's one-column grid (the server rendered the two-column grid).
    await expect
      .poll(() =>
        page
          .getByTestId('model-card')
          .evaluateAll((cards) => new Set(cards.slice(0, 4).map((c) => Math.round(c.getBoundingClientRect().left))).size),
      )
      .toBe(1);
    expect(problems).toEqual([]);
  });

  test('the home paints before its JavaScript: rendered by the server, then taken over by the app as it is', async ({ page }) => {
    await presetConsent(page);
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.text().startsWith('hydration')) problems.push(m.text());
    });
    // Without any of the app's code: the cards and their photos are in the page the server sent.
    await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
    await page.goto('/es');
    const cards = page.getByTestId('model-card');
    await expect(cards.first()).toBeVisible();
    expect(await cards.count()).toBeGreaterThan(1);
    await expect
      .poll(() =>
        cards
          .first()
          .locator('img')
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      )
      .toBe(true);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    problems.length = 0;

    // With it: the server's elements stay (a mismatch would make React render them again), and the page works.
    await page.unroute(/\/assets\/.*\.js$/);
    await page.goto('/es');
    await cards.first().evaluate((el) => el.setAttribute('data-server-rendered', ''));
    await page.getByRole('searchbox').fill('Lucía');
    await expect(page).toHaveURL(/search=Luc%C3%ADa/);
    await appReady(page, 'es');
    await page.getByRole('searchbox').fill('');
    await expect(page).not.toHaveURL(/search=/);
    await expect(cards.first()).toHaveAttribute('data-server-rendered', '');
    expect(problems).toEqual([]);

    // A model's page likewise: its name and first photo without the app's code, then the gallery works.
    const modelPath = new URL((await cards.first().getAttribute('href'))!, page.url()).pathname;
    await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
    await page.goto(modelPath);
    await expect(page.locator('h1#model-name')).toBeVisible();
    await expect
      .poll(() =>
        page
          .locator('main img')
          .first()
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      )
      .toBe(true);
    await page.unroute(/\/assets\/.*\.js$/);
    problems.length = 0;
    await page.goto(modelPath);
    await page.locator('h1#model-name').evaluate((el) => el.setAttribute('data-server-rendered', ''));
    await appReady(page, 'es');
    await expect(page.getByTestId('back-to-listing')).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expect(page.locator('h1#model-name')).toHaveAttribute('data-server-rendered', '');
    expect(problems).toEqual([]);
  });
});

test('the first row of cards: photos fetched eagerly with high priority, the rest lazily', async ({ page }) => {
  await presetConsent(page);
  await page.goto('/es');
  const images = page.getByTestId('model-card').locator('img');
  await expect(images.first()).toBeVisible();
  await expect(images.first()).toHaveAttribute('fetchpriority', 'high');
  await expect(images.first()).toHaveAttribute('loading', 'eager');
  const count = await images.count();
  if (count > 4) {
    await expect(images.nth(4)).toHaveAttribute('loading', 'lazy');
    await expect(images.nth(4)).not.toHaveAttribute('fetchpriority', 'high');
  }
});

// Mantine's styles are split (src/app/mantine-shell.css render-blocking, the rest in mantine-all.ts): the first visit's
// pages must look right without the rest, and any other screen must wait for it.
test("the home page is styled by the shell's styles alone", async ({ page }) => {
  await presetConsent(page);
  await page.route(/\/assets\/mantine-all-[^/]*\.css$/, (route) => route.abort());
  await page.goto('/es');
  await expect(page.getByTestId('model-card').first()).toBeVisible();
  const search = page.locator('main input').first();
  // Mantine's Input styles: no native look, rounded, the theme's border.
  expect(await search.evaluate((el) => getComputedStyle(el).appearance)).toBe('none');
  expect(await search.evaluate((el) => parseFloat(getComputedStyle(el).borderTopLeftRadius))).toBeGreaterThan(0);
});

test('the rest of Mantine’s styles come some seconds after the first screen, without going to another screen', async ({ page }) => {
  test.setTimeout(45_000);
  await presetConsent(page);
  // main.tsx: 10 s after load, then at an idle moment.
  const rest = page.waitForRequest(/\/assets\/mantine-all-[^/]*\.css$/, { timeout: 25_000 });
  await page.goto('/es');
  await appReady(page, 'es');
  await rest;
});

test('another screen renders only once the rest of Mantine’s styles are in', async ({ page }) => {
  await presetConsent(page);
  // The rest of the styles arrive late: the login screen must not show before them, unstyled.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/mantine-all-[^/]*\.css$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/es/login');
  await page.waitForTimeout(500);
  const remember = page.getByRole('checkbox');
  await expect(remember).toHaveCount(0);
  release();
  await expect(remember).toBeVisible();
  // Mantine's Checkbox: a custom box instead of the native one.
  expect(await remember.evaluate((el) => getComputedStyle(el).appearance)).toBe('none');
});

// The app's code is fetched once a server-rendered page's photos have painted (public/app-start.js): what a visitor
// does in the meantime must not be lost.
test.describe('before the app has taken over a server-rendered page', () => {
  test.use({ serviceWorkers: 'block' });

  /** Holds the app's entry script until released; everything else goes through. */
  async function holdApp(page: Page) {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    return release;
  }

  test('a press on a gallery arrow is made again once the app runs', async ({ page }) => {
    await presetConsent(page);
    await page.goto('/es');
    const href = (await page.getByTestId('model-card').first().getAttribute('href'))!;
    const release = await holdApp(page);
    await page.goto(href);
    const counter = page.getByTestId('gallery-counter');
    await expect(counter).toHaveText(/^1 \/ [2-9]$/);
    await page.getByRole('button', { name: tr('es', 'model.gallery.next') }).click();
    expect(await page.locator('html').getAttribute('data-app')).toBeNull();
    release();
    await expect(counter).toHaveText(/^2 \//);
  });

  test('words typed into the search box are searched for once the app runs', async ({ page }) => {
    await presetConsent(page);
    const release = await holdApp(page);
    await page.goto('/es');
    await page.getByRole('searchbox').fill('Lucía');
    expect(await page.locator('html').getAttribute('data-app')).toBeNull();
    release();
    await expect(page).toHaveURL(/search=Luc%C3%ADa/);
    await expect(page.getByRole('searchbox')).toHaveValue('Lucía');
  });

  test('a card followed opens inside the app, which keeps the home for offline use', async ({ page }) => {
    await presetConsent(page);
    const release = await holdApp(page);
    await page.goto('/es');
    // A mark on this document: it is gone if the browser loads another page.
    await page.evaluate(() => document.documentElement.setAttribute('data-first-document', ''));
    await page.getByTestId('model-card').first().click();
    await expect(page).toHaveURL(/\/es$/);
    release();
    await expect(page).toHaveURL(/\/es\/models\/\d+$/);
    await expect(page.locator('h1#model-name')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-first-document', '');
  });
});
