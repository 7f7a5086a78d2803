import AxeBuilder from '@axe-core/playwright';
import { test } from '@playwright/test';
import { openHome, openLegal } from './helpers.ts';
test('all impacts', async ({ page }) => {
  for (const scheme of ['dark','light']) {
    await page.addInitScript((s) => localStorage.setItem('theme', s), scheme);
    await openHome(page, 'es');
    let r = await new AxeBuilder({ page }).analyze();
    console.log(scheme, 'home', JSON.stringify(r.violations.map(v => [v.id, v.impact, v.nodes.map(n => n.target.join(' '))])));
    await openLegal(page, 'es', 'privacy-policy');
    r = await new AxeBuilder({ page }).analyze();
    console.log(scheme, 'legal', JSON.stringify(r.violations.map(v => [v.id, v.impact, v.nodes.map(n => n.target.join(' '))])));
  }
});
