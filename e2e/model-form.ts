/** Fills the model profile's multi-step form (Profile/Model Create and Update) the way a user does. */
import { expect, type Page } from '@playwright/test';
import { tr } from './helpers.ts';

export interface ModelFormData {
  name: string;
  birthDate: string;
  phone: string;
  whatsapp?: boolean;
  state: string;
  city: string;
  section: string;
  title: string;
  description: string;
}

async function pick(page: Page, label: string, typed: string, option: string) {
  const box = page.getByRole('combobox', { name: new RegExp(`^${label}`) });
  await box.click();
  await box.fill(typed);
  await page.getByRole('option', { name: option, exact: true }).click();
}

export async function fillModelForm(page: Page, d: ModelFormData, submitLabel = tr('es', 'modelProfile.create.submit')) {
  const next = page.getByRole('button', { name: tr('es', 'modelProfile.next') });
  await expect(page.getByRole('heading', { level: 2, name: tr('es', 'modelProfile.steps.personal') })).toBeVisible();
  await page.getByRole('textbox', { name: new RegExp(`^${tr('es', 'modelProfile.fields.display_name')}`) }).fill(d.name);
  await page.getByLabel(new RegExp(`^${tr('es', 'modelProfile.fields.birth_date')}`)).fill(d.birthDate);
  await next.click();
  await expect(page.getByRole('heading', { level: 2, name: tr('es', 'modelProfile.steps.contact') })).toBeVisible();
  await page.getByRole('textbox', { name: new RegExp(`^${tr('es', 'modelProfile.fields.phone')}`) }).fill(d.phone);
  if (d.whatsapp) await page.getByRole('checkbox', { name: tr('es', 'modelProfile.fields.whatsapp') }).check();
  await next.click();
  await expect(page.getByRole('heading', { level: 2, name: tr('es', 'modelProfile.steps.location') })).toBeVisible();
  await pick(page, tr('es', 'modelProfile.fields.country_id'), 'Espa', 'España');
  await pick(page, tr('es', 'modelProfile.fields.state_id'), d.state.slice(0, 4), d.state);
  await pick(page, tr('es', 'modelProfile.fields.city_id'), d.city.slice(0, 3), d.city);
  await next.click();
  await expect(page.getByRole('heading', { level: 2, name: tr('es', 'modelProfile.steps.ad') })).toBeVisible();
  await page.getByText(d.section, { exact: true }).click();
  await page.getByRole('textbox', { name: new RegExp(`^${tr('es', 'modelProfile.fields.title')}`) }).fill(d.title);
  await page.getByRole('textbox', { name: new RegExp(`^${tr('es', 'modelProfile.fields.description')}`) }).fill(d.description);
  await page.getByRole('button', { name: submitLabel }).click();
}
