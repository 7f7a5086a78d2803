/**
 * Issue 15 point 8, the publicist's part: the demo publicist, offline, adds a photo to one of her models' ads, makes
 * that photo (not uploaded yet) the cover, and writes to support. Everything waits on the device and says so; a
 * reload while still offline finds it all still pending; when the network returns each write arrives once — even
 * though the first attempt of the upload and of the message each lose their answer (the server got them; the
 * browser saw the connection drop), so the retries must be answered from the server's stored answers.
 * Checked through the API: one more photo, that photo the cover, one message with the text.
 *
 * The demo publicist (publicist@vitrina.test) is used by accounts.spec (sign-in only), trust-flow.spec (creates new
 * models) and outbox-edits.spec (edits Bruno, switches Celia's ad): none touches Aitana's ad or the support chat.
 */
import { expect, test, type BrowserContext, type Page, type Route } from '@playwright/test';
import sharp from 'sharp';
import { offlineAgain, presetConsent, savedQueries, submitLogin, tr } from './helpers.ts';

// The service worker's own requests follow setOffline only with this (Playwright ≥ 1.65 has it on by default).
process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS ??= '1';

const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password-123';
const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
const es = (key: string, params?: Record<string, string | number>) =>
  Object.entries(params ?? {}).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), tr('es', key));

async function api<T>(page: Page, path: string): Promise<T> {
  const res = await page.request.get(path, { headers: XHR });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

/** Refuses every API request as a dropped network would, while `offline` is on. */
const refuseApi = (route: Route) => route.abort('internetdisconnected');
const isApi = (url: URL) => url.pathname.startsWith('/api/') || url.pathname.startsWith('/sanctum/');

/**
 * Offline for the page, its worker and — since Chromium sometimes lets a new document's first requests through the
 * offline emulation (the outbox's start-up replay after a reload would reach the server) — every API request.
 */
async function goOffline(context: BrowserContext) {
  await context.setOffline(true);
  await context.route(isApi, refuseApi);
}
async function goOnline(context: BrowserContext) {
  await context.unroute(isApi, refuseApi);
  await context.setOffline(false);
}

/** Lets the first request to `path` reach the server, then drops its answer as a lost connection would. */
async function loseFirstAnswer(context: BrowserContext, path: string) {
  const seen = { attempts: 0, lost: 0 };
  await context.route(
    (url) => url.pathname === path,
    async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      seen.attempts++;
      if (seen.lost > 0) return route.continue();
      seen.lost++;
      const answer = await route.fetch();
      expect(answer.status(), 'the first attempt reached the server').toBeLessThan(300);
      await route.abort('internetdisconnected');
    },
  );
  return seen;
}

async function photo(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="1200">
    <rect width="100%" height="100%" fill="#4a6fa5"/><circle cx="450" cy="500" r="260" fill="#f2c14e"/>
    <rect x="200" y="850" width="500" height="200" fill="#2b2d42"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/**
 * The second element of each query key in the persisted query cache (src/lib/query-persist-store.ts), with the
 * number of conversations for the conversation list.
 */
async function savedQueryRoots(page: Page): Promise<string[]> {
  return (await savedQueries(page))
    .filter((q) => q.queryKey[0] === 'support-chat')
    .map((q) =>
      q.queryKey[1] === 'conversations' ? `conversations:${(q.state.data as { data: unknown[] }).data.length}` : String(q.queryKey[1]),
    );
}

interface Image {
  media_id: number;
  is_cover: boolean;
}
interface Message {
  content: string;
  sender_id: number | null;
}

test('a publicist offline: a photo, its cover change and a chat message wait, survive a reload and arrive once', async ({
  page,
  context,
}, testInfo) => {
  test.setTimeout(180_000);
  // A retry meets the demo publicist's conversation with the first attempt's messages in it: each attempt its own texts.
  const HELLO = `Hola, soy Agencia Norte (${testInfo.retry}).`;
  const OFFLINE = `Mensaje escrito sin conexión (${testInfo.retry})`;
  await presetConsent(page);
  await submitLogin(page, 'publicist@vitrina.test', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/es\/publicist\/dashboard$/);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });

  const models = await api<{ data: { display_name: string; ad: { id: number } | null }[] }>(
    page,
    '/api/publicist/models-under-responsibility?per_page=50',
  );
  const adId = models.data.find((m) => m.display_name === 'Aitana')!.ad!.id;
  const photosBefore = (await api<{ data: Image[] }>(page, `/api/getImagesByAd/${adId}`)).data;

  // Online first, as she would: the support chat (her first message opens the conversation) and the ad's photos.
  await page.goto('/es/messenger');
  const composer = page.getByRole('textbox', { name: es('messenger.composer.label'), exact: true });
  await composer.fill(HELLO);
  await composer.press('Enter');
  await expect(page.getByTestId('chat-message').filter({ hasText: HELLO })).toHaveCount(1);
  const conversationId = (await api<{ data: { id: number }[] }>(page, '/api/support/chat/conversations')).data[0]!.id;
  // What a reader does by staying on the page a moment: the saved copy of the screen's answers (written at most once a
  // second) now holds her conversation, so it can open offline.
  await expect.poll(() => savedQueryRoots(page)).toEqual(expect.arrayContaining(['conversations:1', 'thread-copy']));

  await page.goto(`/es/upload/photos?ad=${adId}`);
  const gallery = page.getByRole('list', { name: es('photos.gallery.label') });
  await expect(gallery.getByTestId('gallery-photo')).toHaveCount(photosBefore.length);

  // The connection goes.
  await goOffline(context);
  await page
    .getByTestId('photo-dropzone')
    .locator('input[type="file"]')
    .setInputFiles([{ name: 'estudio.jpg', mimeType: 'image/jpeg', buffer: await photo() }]);
  const card = page.getByTestId('photo-card');
  // Offline the face detector cannot load: the photo is ready with the areas to mark by hand.
  await expect(card).toHaveAttribute('data-stage', 'ready', { timeout: 90_000 });
  await page.getByRole('button', { name: es('photos.uploader.upload_one', { count: 1 }) }).click();
  const queued = gallery.getByTestId('gallery-queued');
  await expect(queued).toHaveCount(1);
  await expect(queued).toContainText(es('photos.pending.waiting'));
  await expect(card).toHaveCount(0);
  // Its thumbnail is on screen from the device.
  await expect.poll(() => queued.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await queued.getByRole('button', { name: es('photos.pending.makeCoverLabel', { n: 1 }) }).click();
  await expect(queued).toContainText(es('photos.pending.willBeCover'));

  await page.goto('/es/messenger');
  await offlineAgain(context);
  await composer.fill(OFFLINE);
  await composer.press('Enter');
  const pendingMessage = page.getByTestId('chat-pending');
  await expect(pendingMessage).toHaveCount(1);
  await expect(pendingMessage).toHaveAttribute('data-waiting', '');
  await expect(pendingMessage).toContainText(es('messenger.thread.waiting'));

  // A reload, still offline: all of it is still there and says so.
  await page.reload();
  await offlineAgain(context);
  await expect(page.getByTestId('chat-message').filter({ hasText: HELLO })).toHaveCount(1);
  await expect(pendingMessage).toHaveCount(1);
  await expect(pendingMessage).toContainText(OFFLINE);
  await expect(pendingMessage).toContainText(es('messenger.thread.waiting'));
  await page.goto(`/es/upload/photos?ad=${adId}`);
  await offlineAgain(context);
  await expect(queued).toHaveCount(1);
  await expect(queued).toContainText(es('photos.pending.waiting'));
  await expect(queued).toContainText(es('photos.pending.willBeCover'));
  await page.screenshot({ path: test.info().outputPath('offline-photos.png'), fullPage: true });

  // The network returns — and drops again in the middle: the first answer to the upload and to the message is lost.
  const upload = await loseFirstAnswer(context, '/api/upload/images');
  const message = await loseFirstAnswer(context, `/api/support/chat/${conversationId}/messages`);
  await goOnline(context);
  await expect(queued).toHaveCount(0, { timeout: 30_000 });
  await expect(gallery.getByTestId('gallery-photo')).toHaveCount(photosBefore.length + 1);
  await expect(gallery.locator('[data-testid="gallery-photo"][data-cover]')).toHaveCount(1);

  // Through the API: exactly one new photo, and it is the cover (its cover change waited for its upload's id).
  await expect
    .poll(async () => {
      const after = (await api<{ data: Image[] }>(page, `/api/getImagesByAd/${adId}`)).data;
      const added = after.filter((p) => !photosBefore.some((b) => b.media_id === p.media_id));
      return { added: added.length, newIsCover: added.length === 1 && after.find((p) => p.is_cover)?.media_id === added[0]!.media_id };
    })
    .toEqual({ added: 1, newIsCover: true });
  expect(upload.lost).toBe(1);
  expect(upload.attempts).toBeGreaterThanOrEqual(2);

  await page.goto('/es/messenger');
  await expect(page.getByTestId('chat-message').filter({ hasText: OFFLINE })).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByTestId('chat-pending')).toHaveCount(0);
  const messages = (await api<{ data: Message[] }>(page, `/api/support/chat/${conversationId}/messages`)).data;
  expect(
    messages.filter((m) => m.content === OFFLINE),
    'exactly one message',
  ).toHaveLength(1);
  expect(messages.map((m) => m.content).filter((c) => c === HELLO || c === OFFLINE)).toEqual([HELLO, OFFLINE]);
  expect(message.lost).toBe(1);
  expect(message.attempts).toBeGreaterThanOrEqual(2);
});
