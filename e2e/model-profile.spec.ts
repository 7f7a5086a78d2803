/**
 * Profile/Model Create on a 360 px phone, start to end: a new model registers, verifies, goes through the five
 * steps (one reload in the middle: the draft survives), adds two photos with a pixelation area, uploads them and
 * sees the pending state. Then Profile/Model Update meets a stale version and shows what changed.
 */
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { presetConsent, tr } from './helpers.ts';
import { linkFromMail } from './mail.ts';
import { fillModelForm } from './model-form.ts';

const es = (key: string) => tr('es', key);
const PASSWORD = 'una contraseña larga 42';

async function registerVerifiedModel(page: Page): Promise<string> {
  const email = `perfil-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
  await page.goto('/es/register');
  await page.getByLabel(es('auth.fields.name')).fill('Noelia Prueba');
  await page.getByLabel(es('auth.fields.email')).fill(email);
  await page.getByRole('textbox', { name: es('auth.fields.password'), exact: true }).fill(PASSWORD);
  await page.getByRole('textbox', { name: es('auth.fields.passwordConfirmation'), exact: true }).fill(PASSWORD);
  await page.getByRole('radio', { name: es('account.roles.model') }).check();
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: es('auth.register.submit') }).click();
  const link = await linkFromMail(email, /http:\/\/localhost:\d+\/es\/verify-email\/\d+\/[a-f0-9]{40}\?expires=\d+&signature=[a-f0-9]{64}/);
  await page.goto(new URL(link).pathname + new URL(link).search);
  await page
    .getByRole('dialog')
    .getByRole('button', { name: es('notices.createProfile') })
    .click();
  await expect(page).toHaveURL(/\/es\/profile\/model\/create$/);
  return email;
}

/** A landscape-like picture (sky, hills, a sun): plainly suitable for the moderation model. */
async function photo(hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1250">
    <rect width="100%" height="100%" fill="hsl(${hue},60%,75%)"/>
    <circle cx="760" cy="260" r="120" fill="#ffd84d"/>
    <path d="M0 900 Q 250 700 500 880 T 1000 860 V 1250 H 0 Z" fill="hsl(${hue + 90},45%,40%)"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

const DATA = {
  name: 'Noelia',
  birthDate: '1994-02-11',
  phone: '612 98 76 54',
  whatsapp: true,
  state: 'Asturias',
  city: 'Gijón',
  section: 'Mujeres',
  title: 'Modelo de catálogo en Gijón',
  description: 'Fotografía de moda, catálogo y publicidad. Estudio propio en Gijón y exteriores por Asturias.',
};

test('a new model creates the profile with two photos through the whole form on a phone, and sees it pending', async ({ page }) => {
  test.setTimeout(180_000);
  await presetConsent(page);
  await page.setViewportSize({ width: 360, height: 780 });
  await registerVerifiedModel(page);

  // The first step is checked before moving on, in Spanish.
  await page.getByRole('button', { name: es('modelProfile.next') }).click();
  await expect(page.getByText(es('validation.required')).first()).toBeVisible();
  // An under-age birth date is refused on the spot.
  const year = new Date().getFullYear();
  await page.getByLabel(new RegExp(`^${es('modelProfile.fields.birth_date')}`)).fill(`${year - 17}-01-01`);
  await page.getByRole('button', { name: es('modelProfile.next') }).click();
  await expect(page.getByText(es('profiles.validation.adult'), { exact: true })).toBeVisible();

  // A reload keeps what was typed.
  await page.getByRole('textbox', { name: new RegExp(`^${es('modelProfile.fields.display_name')}`) }).fill('Noelia');
  await page.waitForTimeout(400);
  await page.reload();
  await expect(page.getByText(es('modelProfile.draftRestored'))).toBeVisible();
  await expect(page.getByRole('textbox', { name: new RegExp(`^${es('modelProfile.fields.display_name')}`) })).toHaveValue('Noelia');

  await fillModelForm(page, DATA);
  await expect(page.getByText(es('notices.profileCreated'))).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: es('modelProfile.steps.photos') })).toBeVisible();

  await page
    .getByTestId('photo-dropzone')
    .locator('input[type="file"]')
    .setInputFiles([
      { name: 'uno.jpg', mimeType: 'image/jpeg', buffer: await photo(200) },
      { name: 'dos.jpg', mimeType: 'image/jpeg', buffer: await photo(20) },
    ]);
  const cards = page.getByTestId('photo-card');
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toHaveAttribute('data-stage', 'ready', { timeout: 90_000 });
  await expect(cards.nth(1)).toHaveAttribute('data-stage', 'ready', { timeout: 90_000 });
  // A pixelation area drawn by hand shows on the photo before anything is sent.
  await cards
    .nth(0)
    .getByRole('button', { name: es('photos.editor.add') })
    .click();
  await expect(cards.nth(0).getByTestId('pixelation-area').first()).toBeVisible();

  await page.getByRole('button', { name: /^Subir 2 fotos$/ }).click();
  await expect(page.getByText(es('notices.adPendingReview'))).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: es('modelProfile.create.finish') }).click();

  await expect(page).toHaveURL(/\/es\/profile\/model$/);
  await expect(page.getByText(es('modelProfile.ad.status.pending'), { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: es('modelProfile.ad.photos').replace('{{count}}', '2') })).toBeVisible();
  await expect(page.getByText(es('modelProfile.ad.notListed'))).toBeVisible();
});

test('editing from a stale copy shows what changed and keeps the user’s text', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await presetConsent(page);
  await registerVerifiedModel(page);
  await fillModelForm(page, DATA);
  await expect(page.getByRole('heading', { level: 2, name: es('modelProfile.steps.photos') })).toBeVisible();

  // Two tabs open the editor on the same version.
  await page.goto('/es/profile/model/edit');
  const other = await context.newPage();
  await other.goto('/es/profile/model/edit');
  const nameBox = (p: Page) => p.getByRole('textbox', { name: new RegExp(`^${es('modelProfile.fields.display_name')}`) });
  await expect(nameBox(other)).toHaveValue('Noelia');
  await expect(nameBox(page)).toHaveValue('Noelia');

  // The other tab saves first.
  await nameBox(other).fill('Noelia G.');
  for (let i = 0; i < 3; i++) await other.getByRole('button', { name: es('modelProfile.next') }).click();
  await other.getByRole('button', { name: es('modelProfile.edit.submit') }).click();
  await expect(other).toHaveURL(/\/es\/profile\/model$/);

  // This tab, still on the old version, changes the title and saves.
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: es('modelProfile.next') }).click();
  await page.getByRole('textbox', { name: new RegExp(`^${es('modelProfile.fields.title')}`) }).fill('Modelo de pasarela en Gijón');
  await page.getByRole('button', { name: es('modelProfile.edit.submit') }).click();
  const dialog = page.getByRole('dialog', { name: es('modelProfile.conflict.title') });
  await expect(dialog).toBeVisible();
  const nameRow = dialog.getByRole('row', { name: new RegExp(es('modelProfile.fields.display_name')) });
  await expect(nameRow).toContainText('Noelia G.');
  await expect(dialog.getByRole('row', { name: new RegExp(es('modelProfile.fields.title')) })).toContainText('Modelo de pasarela en Gijón');

  // Taking the saved version keeps nothing of ours silently: the form now shows the saved name, and our title is
  // replaced only because we chose so. Here we keep ours instead.
  await dialog.getByRole('button', { name: es('modelProfile.conflict.keepMine') }).click();
  await expect(page).toHaveURL(/\/es\/profile\/model$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Modelo de pasarela en Gijón' })).toBeVisible();
  await context.close();
});
