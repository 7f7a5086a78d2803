/**
 * Issue 24 B10: a photo chosen in the profile wizard's photo step without a network is queued like every other photo
 * (the Photos screen's outbox queue), not refused with "You are offline": it survives a reload, the sync page lists
 * it, and it is uploaded once when the network returns. A new model registers, verifies and creates her profile
 * online, then loses the connection on the photo step.
 */
import { expect, test, type BrowserContext, type Route } from '@playwright/test';
import sharp from 'sharp';
import { offlineAgain, presetConsent, tr } from './helpers.ts';
import { linkFromMail } from './mail.ts';
import { fillModelForm } from './model-form.ts';

process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS ??= '1';

const PASSWORD = 'una contraseña larga 42';
const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
const es = (key: string, params?: Record<string, string | number>) =>
  Object.entries(params ?? {}).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), tr('es', key));

const refuseApi = (route: Route) => route.abort('internetdisconnected');
const isApi = (url: URL) => url.pathname.startsWith('/api/') || url.pathname.startsWith('/sanctum/');
async function goOffline(context: BrowserContext) {
  await context.setOffline(true);
  await context.route(isApi, refuseApi);
}
async function goOnline(context: BrowserContext) {
  await context.unroute(isApi, refuseApi);
  await context.setOffline(false);
}

async function photo(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="1200">
    <rect width="100%" height="100%" fill="#5b8c5a"/><circle cx="450" cy="520" r="240" fill="#f4e285"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

test('a photo chosen offline in the profile wizard waits in the outbox, survives a reload and is uploaded once', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  await presetConsent(page);
  const email = `wizard-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
  await page.goto('/es/register');
  await page.getByLabel(tr('es', 'auth.fields.name')).fill('Marta Prueba');
  await page.getByLabel(tr('es', 'auth.fields.email')).fill(email);
  await page.getByRole('textbox', { name: tr('es', 'auth.fields.password'), exact: true }).fill(PASSWORD);
  await page.getByRole('textbox', { name: tr('es', 'auth.fields.passwordConfirmation'), exact: true }).fill(PASSWORD);
  await page.getByRole('radio', { name: tr('es', 'account.roles.model') }).check();
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: tr('es', 'auth.register.submit') }).click();
  await expect(page.getByRole('heading', { name: '¡Cuenta creada! Revisa tu correo.' })).toBeVisible();
  const link = await linkFromMail(email, /http:\/\/localhost:\d+\/es\/verify-email\/\d+\/[a-f0-9]{40}\?expires=\d+&signature=[a-f0-9]{64}/);
  await page.goto(new URL(link).pathname + new URL(link).search);
  const modal = page.getByRole('dialog');
  await modal.getByRole('button', { name: 'Crear perfil' }).click();
  await expect(page).toHaveURL(/\/es\/profile\/model\/create$/);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await fillModelForm(page, {
    name: 'Marta',
    birthDate: '1994-03-10',
    phone: '612 34 56 70',
    state: 'Asturias',
    city: 'Oviedo',
    section: 'Mujeres',
    title: 'Modelo de moda en Oviedo',
    description: 'Sesiones de fotos de moda y catálogo en Asturias, con experiencia en estudio y exteriores.',
  });
  // The photo step of the wizard.
  const dropzone = page.getByTestId('photo-dropzone');
  await expect(dropzone).toBeVisible({ timeout: 30_000 });
  const ad = ((await (await page.request.get('/api/profile/model', { headers: XHR })).json()) as { data: { ad: { id: number } } }).data.ad;

  await goOffline(context);
  await dropzone.locator('input[type="file"]').setInputFiles([{ name: 'primera.jpg', mimeType: 'image/jpeg', buffer: await photo() }]);
  const card = page.getByTestId('photo-card');
  await expect(card).toHaveAttribute('data-stage', 'ready', { timeout: 90_000 });
  await page.getByRole('button', { name: es('photos.uploader.upload_one', { count: 1 }) }).click();
  // Stored on the device and said so — not refused as offline.
  await expect(page.getByText(es('photos.upload.queued_one', { count: 1 }))).toBeVisible();
  await expect(card).toHaveCount(0);

  // A reload, still offline: the sync page lists the photo (it did say "everything has been sent").
  await page.reload();
  await offlineAgain(context);
  await page.goto('/es/sync');
  await offlineAgain(context);
  const ops = page.getByTestId('sync-op');
  await expect(ops).toHaveCount(1);
  await expect(ops).toHaveAttribute('data-kind', 'photo.upload');
  await expect(ops).toContainText('primera.jpg');
  await page.screenshot({ path: test.info().outputPath('sync-wizard-photo.png') });

  await goOnline(context);
  await expect(page.getByTestId('sync-empty')).toBeVisible({ timeout: 60_000 });
  const photos = (await (await page.request.get(`/api/getImagesByAd/${ad.id}`, { headers: XHR })).json()) as { data: unknown[] };
  expect(photos.data, 'uploaded once').toHaveLength(1);
});
