import { expect, test, type Page } from '@playwright/test';
import { presetConsent, titleOf, tr } from './helpers.ts';
import { linkFromMail } from './mail.ts';
import { fillModelForm } from './model-form.ts';

const PASSWORD = 'una contraseña larga 42';
const uniqueEmail = (p: string) => `${p}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;

test.beforeEach(async ({ page }) => {
  await presetConsent(page);
});

async function login(page: Page, email: string, password: string) {
  await expect(page.getByRole('heading', { level: 1, name: tr('es', 'auth.login.heading') })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.getByLabel(tr('es', 'auth.fields.email')).fill(email);
  await page.getByRole('textbox', { name: tr('es', 'auth.fields.password'), exact: true }).fill(password);
  await page.getByRole('button', { name: tr('es', 'auth.login.submit') }).click();
}

test('register → verification mail → verify → create profile with its ad → model dashboard shows its status', async ({ page }) => {
  const email = uniqueEmail('modelo');
  await page.goto('/es/register');
  await expect(page).toHaveTitle(titleOf(tr('es', 'auth.register.title')));
  await page.getByLabel(tr('es', 'auth.fields.name')).fill('Lucía Prueba');
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
  await expect(modal.getByText('¡Correo verificado!')).toBeVisible();
  await expect(modal.getByText('Tu correo electrónico ha sido verificado.')).toBeVisible();
  await modal.getByRole('button', { name: 'Crear perfil' }).click();

  await expect(page).toHaveURL(/\/es\/profile\/model\/create$/);
  await expect(modal).toBeHidden();
  await fillModelForm(page, {
    name: 'Lucía',
    birthDate: '1995-06-15',
    phone: '612 34 56 78',
    state: 'Asturias',
    city: 'Oviedo',
    section: 'Mujeres',
    title: 'Modelo de moda en Oviedo',
    description: 'Sesiones de fotos en estudio y exteriores, catálogo y pasarela por toda Asturias.',
  });
  await expect(page.getByText('El perfil se ha creado con éxito!')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: tr('es', 'modelProfile.steps.photos') })).toBeVisible();

  // The session goes on (photos come next); the dashboard shows the new profile's status card.
  await page.goto('/es/model/dashboard');
  await expect(page.getByText(tr('es', 'modelProfile.status.title').replace('{{status}}', tr('es', 'statuses.unverified')))).toBeVisible();
  await expect(page.getByRole('link', { name: 'Verificar Ahora' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: tr('es', 'dashboards.model.heading') })).toBeVisible();
  await expect(page).toHaveTitle(titleOf(tr('es', 'dashboards.model.title')));
});

test('forgot password → reset mail → new password → login', async ({ page }) => {
  await page.goto('/es/forgot-password');
  const email = 'client@vitrina.test';
  await page.getByLabel(tr('es', 'auth.fields.email')).fill(email);
  await page.getByRole('button', { name: tr('es', 'auth.forgot.submit') }).click();
  await expect(
    page.getByText(tr('es', 'auth.forgot.sent')).or(page.getByText('Si existe una cuenta con ese correo')).first(),
  ).toBeVisible();

  const link = await linkFromMail(email, /http:\/\/localhost:\d+\/es\/reset-password\/[A-Za-z0-9_-]+\?email=[^\s]+/);
  await page.goto(new URL(link).pathname + new URL(link).search);
  const NEW = 'otra contraseña muy larga';
  await page.getByRole('textbox', { name: tr('es', 'auth.fields.newPassword'), exact: true }).fill(NEW);
  await page.getByRole('textbox', { name: tr('es', 'auth.fields.passwordConfirmation'), exact: true }).fill(NEW);
  await page.getByRole('button', { name: tr('es', 'auth.reset.submit') }).click();

  await expect(page).toHaveURL(/\/es\/login/);
  await login(page, email, NEW);
  await expect(page).toHaveURL(/\/es\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: tr('es', 'dashboards.client.heading') })).toBeVisible();
});

test('a wrong password shows the error under the field and the guard sends visitors to login', async ({ page }) => {
  await page.goto('/es/publicist/dashboard');
  await expect(page).toHaveURL(/\/es\/login\?next=/);
  await login(page, 'publicist@vitrina.test', 'not the password at all');
  await expect(page.getByText('Estas credenciales no coinciden con nuestros registros.')).toBeVisible();
  await login(page, 'publicist@vitrina.test', 'demo-password-123');
  await expect(page).toHaveURL(/\/es\/publicist\/dashboard$/);
});

test('the account screens fit a 360 px phone', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  for (const path of ['/es/register', '/es/login', '/es/forgot-password']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(360);
  }
  await page.goto('/es/register');
  await page.screenshot({ path: 'test-results/screenshots/register-360.png', fullPage: true });
});
