/**
 * Issue 14, live: a model and an admin in two browsers. The model writes to support; the admin sees the unread count
 * in the header, opens the conversation (the model sees ✓✓ at once), types (the model sees it) and answers (the model
 * reads it without a reload); with the model elsewhere in the app, the next answer raises her unread count and a
 * notification. Then an admin decision: approving a pending model profile reaches the model's open dashboard (status
 * card and notification) without a reload, and the bell lists it. 360 px and desktop screenshots, axe.
 *
 * Staff also start a conversation with a user found by search; and a phone whose socket went quiet (the test drops what
 * the server sends, then closes the socket) gets every message it missed once it reconnects.
 *
 * Accounts no other spec touches: demo-model-3 and demo-model-4 chat (active demo profiles), demo-model-8 waits for
 * approval (server/db/seed/demo-catalogue.ts: i = 7 is `pending`).
 */
import { expect, test, type Browser, type Page, type WebSocketRoute } from '@playwright/test';
import { expectNoAxeViolations, presetConsent, submitLogin, tr } from './helpers.ts';

const PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password-123';
const ADMIN = 'admin@vitrina.test';
const CHATTING_MODEL = 'demo-model-3@vitrina.test';
const PENDING_MODEL = 'demo-model-8@vitrina.test';
const SLEEPING_MODEL = 'demo-model-4@vitrina.test';

const es = (key: string, vars: Record<string, string | number> = {}) =>
  Object.entries(vars).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), tr('es', key));
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function signIn(browser: Browser, email: string, landing: RegExp): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await presetConsent(page);
  await submitLogin(page, email, PASSWORD);
  await expect(page).toHaveURL(landing);
  return page;
}

/** The header's Messenger entry, named with the unread count when there is one. */
const messengerNav = (page: Page) => page.getByTestId('messenger-nav');

async function fits360(page: Page, file: string, testInfo: { outputPath: (f: string) => string }) {
  await page.setViewportSize({ width: 360, height: 780 });
  await page.screenshot({ path: testInfo.outputPath(file), fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a model and an admin chat live: unread counts, read receipts, typing, and a reply that arrives without a reload', async ({
  browser,
}, testInfo) => {
  test.setTimeout(150_000);
  const stamp = `${Date.now()}`.slice(-6);
  const question = `Hola, no veo mi anuncio en la portada (${stamp}). Más en https://vitrina.example/ayuda`;
  const answer = `Hola, ya lo hemos revisado (${stamp}).`;
  const followUp = `¿Puedes comprobarlo ahora? (${stamp})`;

  const model = await signIn(browser, CHATTING_MODEL, /\/es\/model\/dashboard$/);
  await expect(messengerNav(model)).toHaveAccessibleName(es('messenger.nav.open'));
  await messengerNav(model).click();
  await expect(model).toHaveURL(/\/es\/messenger$/);
  await expect(model.getByRole('heading', { level: 1, name: es('messenger.user.title') })).toBeVisible();
  await expect(model.getByTestId('support-status')).toBeVisible();

  const box = model.getByRole('textbox', { name: es('messenger.composer.label') });
  await box.fill(question);
  await expect(model.getByText(es('messenger.composer.counter', { length: question.length, max: 2000 }))).toBeVisible();
  await box.press('Enter');
  const mine = model.getByTestId('chat-message').filter({ hasText: stamp });
  await expect(mine).toHaveCount(1);
  // The link is a link, opened safely; the rest is text.
  await expect(mine.getByRole('link', { name: 'https://vitrina.example/ayuda' })).toHaveAttribute('rel', /noopener/);
  await expect(mine.getByTestId('receipt')).toHaveAccessibleName(es('messenger.thread.sent'));

  // The admin's header counts it; the list shows it unread.
  const admin = await signIn(browser, ADMIN, /\/es\/admin\/dashboard$/);
  await expect(messengerNav(admin)).toHaveAccessibleName(new RegExp(`^${escapeRe(es('messenger.nav.open'))}: \\d+`));
  await messengerNav(admin).click();
  await expect(admin.getByRole('heading', { level: 1, name: es('messenger.staff.title') })).toBeVisible();
  const row = admin.getByTestId('conversation-row').filter({ hasText: stamp });
  await expect(row).toBeVisible();
  await expect(row.getByLabel(/sin leer/)).toBeVisible();
  await admin.screenshot({ path: testInfo.outputPath('staff-index-1280.png'), fullPage: true });
  await fits360(admin, 'staff-index-360.png', testInfo);
  await expectNoAxeViolations(admin, 'staff conversations');
  await row.getByRole('link').first().click();
  await expect(admin).toHaveURL(/\/es\/messenger\/\d+$/);
  await expect(admin.getByTestId('chat-message').filter({ hasText: stamp })).toHaveCount(1);

  // Opened on the admin's screen: the model sees ✓✓ without a reload.
  await expect(mine.getByTestId('receipt')).toHaveAccessibleName(es('messenger.thread.read'));

  // The admin types: the model sees it; then the answer arrives live.
  const adminBox = admin.getByRole('textbox', { name: es('messenger.composer.label') });
  await adminBox.pressSequentially('Hola, ya lo', { delay: 30 });
  await expect(model.getByTestId('typing')).toHaveText(/está escribiendo/);
  await adminBox.fill(answer);
  await admin.getByRole('button', { name: es('messenger.composer.send') }).click();
  await expect(model.getByTestId('chat-message').filter({ hasText: answer })).toHaveCount(1);
  await expect(model.getByTestId('typing')).toHaveText('');
  // The model has it on screen: the admin sees ✓✓.
  await expect(admin.getByTestId('chat-message').filter({ hasText: answer }).getByTestId('receipt')).toHaveAccessibleName(
    es('messenger.thread.read'),
  );
  await admin.screenshot({ path: testInfo.outputPath('staff-conversation-1280.png'), fullPage: true });
  await fits360(admin, 'staff-conversation-360.png', testInfo);
  await expectNoAxeViolations(admin, 'staff conversation');
  await model.screenshot({ path: testInfo.outputPath('user-messenger-1280.png'), fullPage: true });
  await fits360(model, 'user-messenger-360.png', testInfo);
  await expectNoAxeViolations(model, 'user messenger');

  // Elsewhere in the app (the home page, through the header: the socket stays open), the next answer raises her unread
  // count and shows a notification.
  await model.getByRole('link', { name: `${es('app.name')} — ${es('nav.home')}` }).click();
  await expect(model.getByRole('heading', { level: 1, name: es('home.heading') })).toBeVisible();
  await expect(messengerNav(model)).toHaveAccessibleName(es('messenger.nav.open'));
  await adminBox.fill(followUp);
  await adminBox.press('Enter');
  await expect(messengerNav(model)).toHaveAccessibleName(es('messenger.nav.openUnread_one', { count: 1 }));
  await expect(model.locator('.mantine-Notification-root')).toBeVisible();
  await messengerNav(model).click();
  await expect(model.getByTestId('chat-message').filter({ hasText: followUp })).toHaveCount(1);
  await expect(messengerNav(model)).toHaveAccessibleName(es('messenger.nav.open'));

  // By answering, the admin took the conversation: her screen says so without a reload. She resolves it; the list's
  // filters follow.
  await expect(admin.getByRole('button', { name: es('messenger.staff.assignMe') })).toHaveCount(0);
  await admin.getByRole('button', { name: es('messenger.staff.resolve') }).click();
  await expect(admin.getByRole('button', { name: es('messenger.staff.reopen') })).toBeVisible();
  await admin.goto('/es/messenger?filter=resolved');
  await expect(admin.getByTestId('conversation-row').filter({ hasText: stamp })).toBeVisible();
});

test('an admin approves a pending model profile: the model’s open dashboard changes and a notification arrives without a reload', async ({
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const model = await signIn(browser, PENDING_MODEL, /\/es\/model\/dashboard$/);
  const card = model.locator('[data-status]').first();
  await expect(card).toHaveAttribute('data-status', 'pending');
  const bell = model.getByRole('button', { name: es('bell.open'), exact: true });
  await expect(bell).toBeVisible();

  const admin = await signIn(browser, ADMIN, /\/es\/admin\/dashboard$/);
  await admin.goto(`/es/admin/models?status=all&search=${encodeURIComponent(PENDING_MODEL)}`);
  const approve = admin.getByRole('button', { name: new RegExp(`^${escapeRe(es('admin.actions.approve'))}: `) });
  await expect(approve).toHaveCount(1);
  const name = ((await approve.getAttribute('aria-label')) ?? (await approve.innerText())).replace(`${es('admin.actions.approve')}: `, '');
  await approve.click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByRole('button', { name: es('admin.dialog.confirm', { action: es('admin.actions.approve') }) }).click();
  await expect(dialog).toBeHidden();

  // The model did nothing: the notice shows, the card changes, the bell counts one.
  const message = es('notifications.kinds.model_profile.approved.message', { label: name });
  await expect(model.locator('.mantine-Notification-root').getByText(message)).toBeVisible();
  await expect(card).toHaveAttribute('data-status', 'active');
  const unreadBell = model.getByRole('button', { name: es('bell.openUnread_one', { count: 1 }) });
  await expect(unreadBell).toBeVisible();
  await model.screenshot({ path: testInfo.outputPath('notification-1280.png') });
  await model.setViewportSize({ width: 360, height: 780 });
  await model.screenshot({ path: testInfo.outputPath('notification-360.png') });
  // The notice sits below the header: the header's controls stay usable.
  const noticeTop = await model
    .locator('.mantine-Notification-root')
    .first()
    .evaluate((el) => el.getBoundingClientRect().top);
  expect(noticeTop).toBeGreaterThanOrEqual(56);
  await model.setViewportSize({ width: 1280, height: 900 });

  // The bell lists it; "mark all as read" clears the count.
  await unreadBell.click();
  const panel = model.getByRole('region', { name: es('bell.title') });
  await expect(panel.getByText(message)).toBeVisible();
  await model.setViewportSize({ width: 360, height: 780 });
  await model.screenshot({ path: testInfo.outputPath('bell-360.png') });
  expect(await model.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await model.setViewportSize({ width: 1280, height: 900 });
  await model.screenshot({ path: testInfo.outputPath('bell-1280.png') });
  await expectNoAxeViolations(model, 'bell panel');
  await panel.getByRole('button', { name: es('bell.markAllRead') }).click();
  await expect(model.getByRole('button', { name: es('bell.open'), exact: true })).toBeVisible();
  await model.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(model.getByRole('button', { name: es('bell.open'), exact: true })).toBeFocused();
});

test('staff start a conversation with a user found by search; a phone that slept misses nothing once it reconnects', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const stamp = `${Date.now()}`.slice(-6);
  const hello = `Hola, te escribimos desde soporte (${stamp}).`;
  const missed = [`Primer aviso mientras dormía (${stamp})`, `Segundo aviso mientras dormía (${stamp})`];

  // The model's websocket goes through the test, which can stop passing on what the server sends and then close it.
  const model = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  const sockets: { page: WebSocketRoute; asleep: boolean }[] = [];
  await model.routeWebSocket(/\/app\//, (page) => {
    const server = page.connectToServer();
    const socket = { page, asleep: false };
    sockets.push(socket);
    server.onMessage((message) => {
      if (!socket.asleep) page.send(message);
    });
  });
  await presetConsent(model);
  await submitLogin(model, SLEEPING_MODEL, PASSWORD);
  await expect(model).toHaveURL(/\/es\/model\/dashboard$/);

  const admin = await signIn(browser, ADMIN, /\/es\/admin\/dashboard$/);
  await admin.goto('/es/messenger');
  await admin.getByRole('button', { name: es('messenger.staff.new') }).click();
  const dialog = admin.getByRole('dialog', { name: es('messenger.staff.startTitle') });
  await dialog.getByRole('textbox', { name: es('messenger.staff.userSearch') }).fill(SLEEPING_MODEL);
  // Found by e-mail: the one button names the person and the address (several demo models share a first name).
  const start = dialog.getByRole('button', { name: new RegExp(`${escapeRe(`(${SLEEPING_MODEL})`)}$`) });
  await expect(start).toHaveCount(1);
  await expect(dialog.getByRole('listitem')).toHaveCount(1);
  await start.click();
  await expect(admin).toHaveURL(/\/es\/messenger\/\d+$/);
  const adminBox = admin.getByRole('textbox', { name: es('messenger.composer.label') });
  await adminBox.fill(hello);
  await adminBox.press('Enter');
  await expect(admin.getByTestId('chat-message').filter({ hasText: hello })).toHaveCount(1);

  // The model hears of it in the header, and reads it.
  await expect(messengerNav(model)).toHaveAccessibleName(es('messenger.nav.openUnread_one', { count: 1 }));
  await messengerNav(model).click();
  await expect(model.getByTestId('chat-message').filter({ hasText: hello })).toHaveCount(1);
  await expect(admin.getByTestId('chat-message').filter({ hasText: hello }).getByTestId('receipt')).toHaveAccessibleName(
    es('messenger.thread.read'),
  );

  // Asleep: nothing the server sends reaches the page, while the admin writes twice.
  expect(sockets.length).toBeGreaterThan(0);
  for (const socket of sockets) socket.asleep = true;
  for (const text of missed) {
    await adminBox.fill(text);
    await adminBox.press('Enter');
    await expect(admin.getByTestId('chat-message').filter({ hasText: text })).toHaveCount(1);
  }
  await expect(model.getByTestId('chat-message').filter({ hasText: stamp })).toHaveCount(1);

  // Awake: the dead socket closes (4200: reconnect at once), pusher-js opens another, and the thread catches up.
  const before = sockets.length;
  for (const socket of sockets) await socket.page.close({ code: 4200, reason: 'woke up' });
  await expect.poll(() => sockets.length).toBeGreaterThan(before);
  for (const text of missed) await expect(model.getByTestId('chat-message').filter({ hasText: text })).toHaveCount(1);
  await expect(model.getByTestId('chat-message').filter({ hasText: stamp })).toHaveCount(3);
  // Once on her screen, the admin sees them read.
  await expect(admin.getByTestId('chat-message').filter({ hasText: missed[1]! }).getByTestId('receipt')).toHaveAccessibleName(
    es('messenger.thread.read'),
  );
});
