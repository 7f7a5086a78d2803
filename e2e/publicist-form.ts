/** Filling the publicist's "new model" form (one block per model), shared by the publicist and trust-flow specs. */
import type { Locator, Page } from '@playwright/test';
import { tr } from './helpers.ts';

/** A required field's accessible name: its label, maybe followed by the asterisk. */
export const label = (key: string) => new RegExp(`^${tr('es', key)}\\s*\\*?$`);

async function pick(page: Page, scope: Locator, key: string, typed: string, option: string) {
  const box = scope.getByRole('combobox', { name: label(key) });
  await box.click();
  await box.fill(typed);
  await page.getByRole('option', { name: option, exact: true }).click();
}

export async function fillModel(page: Page, scope: Locator, d: { name: string; email: string; title: string }) {
  await scope.getByRole('textbox', { name: label('publicist.form.fields.display_name') }).fill(d.name);
  await scope.getByLabel(label('publicist.form.fields.birth_date')).fill('1996-05-20');
  await scope.getByRole('textbox', { name: label('publicist.form.fields.contact_email') }).fill(d.email);
  await pick(page, scope, 'publicist.form.fields.country_id', 'Espa', 'España');
  await pick(page, scope, 'publicist.form.fields.state_id', 'Astu', 'Asturias');
  await pick(page, scope, 'publicist.form.fields.city_id', 'Ovi', 'Oviedo');
  await scope.getByText('Mujeres', { exact: true }).click();
  await scope.getByRole('textbox', { name: label('publicist.form.fields.title') }).fill(d.title);
  await scope
    .getByRole('textbox', { name: label('publicist.form.fields.description') })
    .fill('Sesiones de fotos en estudio y exteriores, catálogo y pasarela por toda Asturias.');
}
