/**
 * The profile form's location step with its map (issue 16 point 3), on a 360 px phone, for a newly registered model:
 * the map starts at the default position with the provinces; a province marker, then a city marker (by keyboard)
 * fill the three pickers; "use my location" (a granted, emulated position) fills them with the nearest municipality;
 * a refused position leaves them as they were, with a message; a city chosen in the picker becomes the map's chosen
 * marker. axe finds nothing on the step (dark and light); the profile saves with the chosen city.
 */
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations, presetConsent, tr } from './helpers.ts';
import { linkFromMail } from './mail.ts';

const es = (key: string) => tr('es', key);
const PASSWORD = 'una contraseña larga 42';

async function registerVerifiedModel(page: Page): Promise<void> {
  const email = `mapa-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
  await page.goto('/es/register');
  await page.getByLabel(es('auth.fields.name')).fill('Alba Mapa');
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
}

const picker = (page: Page, key: string) => page.getByRole('combobox', { name: new RegExp(`^${es(`modelProfile.fields.${key}`)}`) });

async function expectPicked(page: Page, state: string, city: string) {
  await expect(picker(page, 'country_id')).toHaveValue('España');
  await expect(picker(page, 'state_id')).toHaveValue(state);
  await expect(picker(page, 'city_id')).toHaveValue(city);
}

test('the location step is filled from the map and from "use my location", on a phone', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: { width: 360, height: 780 }, locale: 'es-ES' });
  const page = await context.newPage();
  await presetConsent(page);
  await registerVerifiedModel(page);

  const next = page.getByRole('button', { name: es('modelProfile.next') });
  await page.getByRole('textbox', { name: new RegExp(`^${es('modelProfile.fields.display_name')}`) }).fill('Alba');
  await page.getByLabel(new RegExp(`^${es('modelProfile.fields.birth_date')}`)).fill('1993-05-20');
  await next.click();
  await page.getByRole('textbox', { name: new RegExp(`^${es('modelProfile.fields.phone')}`) }).fill('612 34 56 78');
  await next.click();
  await expect(page.getByRole('heading', { level: 2, name: es('modelProfile.steps.location') })).toBeVisible();

  // The step starts in the phone's country, the map at the default position with the provinces on it.
  const map = page.getByRole('region', { name: es('locationPicker.mapLabel') });
  await expect(map).toBeVisible();
  await expect(picker(page, 'country_id')).toHaveValue('España');
  const asturias = map.getByRole('button', { name: tr('es', 'locationPicker.stateMarker').replace('{{name}}', 'Asturias') });
  await expect(asturias).toBeVisible();
  await map.screenshot({ path: test.info().outputPath('location-map-start-360.png') });

  // The map is reached with the keyboard, from the button before it.
  const locate = page.getByRole('button', { name: es('locationPicker.useMyLocation') });
  await locate.focus();
  await page.keyboard.press('Tab');
  await expect(map).toBeFocused();

  // A province, then a city, chosen on the map with the keyboard (Enter on a focused marker).
  await asturias.focus();
  await page.keyboard.press('Enter');
  await expect(picker(page, 'state_id')).toHaveValue('Asturias');
  const gijon = map.getByRole('button', { name: 'Gijón', exact: true });
  await expect(gijon).toBeAttached();
  await gijon.focus();
  await page.keyboard.press('Enter');
  await expectPicked(page, 'Asturias', 'Gijón');
  await expect(gijon).toHaveAttribute('aria-pressed', 'true');
  // The focus stays on the chosen city's marker (drawn again as chosen).
  await expect(map.getByRole('button', { name: 'Gijón', exact: true })).toBeFocused();

  await expectNoAxeViolations(page, 'location step');
  await page.screenshot({ path: test.info().outputPath('location-step-360.png'), fullPage: true });
  // The light scheme too (dark is the default).
  await page.getByRole('button', { name: es('nav.themeLight') }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  await expectNoAxeViolations(page, 'location step, light');
  await map.screenshot({ path: test.info().outputPath('location-map-light-360.png') });

  // Refused: a message, and the pickers keep what they had.
  await locate.click();
  await expect(page.getByRole('alert').filter({ hasText: es('locationPicker.errors.denied') })).toBeVisible();
  await expectPicked(page, 'Asturias', 'Gijón');

  // Granted: Oviedo's position fills the three pickers with Oviedo.
  await context.grantPermissions(['geolocation']);
  await context.setGeolocation({ latitude: 43.3614, longitude: -5.8494 });
  const asked = page.waitForRequest((r) => r.url().includes('/api/cities/nearest?'));
  await locate.click();
  expect(new URL((await asked).url()).search).toBe('?lat=43.361&lng=-5.849');
  await expectPicked(page, 'Asturias', 'Oviedo');
  await expect(
    page.getByText(tr('es', 'locationPicker.chosen').replace('{{city}}', 'Oviedo').replace('{{state}}', 'Asturias')),
  ).toBeVisible();
  await expect(map.getByRole('button', { name: 'Oviedo', exact: true })).toHaveAttribute('aria-pressed', 'true');

  // Choosing in the pickers moves the map: Avilés is now the chosen marker.
  const city = picker(page, 'city_id');
  await city.click();
  await city.fill('Avil');
  await page.getByRole('option', { name: 'Avilés', exact: true }).click();
  await expect(map.getByRole('button', { name: 'Avilés', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(map.getByRole('button', { name: 'Oviedo', exact: true })).toHaveAttribute('aria-pressed', 'false');

  // What was chosen is what is saved.
  await next.click();
  await expect(page.getByRole('heading', { level: 2, name: es('modelProfile.steps.ad') })).toBeVisible();
  await page.getByText('Mujeres', { exact: true }).click();
  await page.getByRole('textbox', { name: new RegExp(`^${es('modelProfile.fields.title')}`) }).fill('Modelo de moda en Avilés');
  await page
    .getByRole('textbox', { name: new RegExp(`^${es('modelProfile.fields.description')}`) })
    .fill('Sesiones de moda y catálogo en Avilés y alrededores, en estudio y en exteriores.');
  await page.getByRole('button', { name: es('modelProfile.create.submit') }).click();
  await expect(page.getByText(es('notices.profileCreated'))).toBeVisible();
  const saved = await page.evaluate(async () => {
    const res = await fetch('/api/profile/model', { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
    return (await res.json()) as { data: { ad: { city: string; state: string } } };
  });
  expect(saved.data.ad).toMatchObject({ city: 'Avilés', state: 'Asturias' });
  await context.close();
});
