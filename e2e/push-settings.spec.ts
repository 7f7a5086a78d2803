/**
 * The subscription UI of Web Push (issue 25): this device turned on from the bell's menu (stored on the server), shown
 * in the profile as this device and removed there; the invitation after a first support message, asked only once.
 */
import { expect, test, type Page } from '@playwright/test';
import { API } from '#contract/routes.ts';
import { startPushService } from '#tests/push-service.ts';
import { signInNewClient, stubPushManager, XHR } from './push-helpers.ts';
import { expectNoAxeViolations, tr } from './helpers.ts';

const es = (key: string) => tr('es', key);

const serverDevices = async (page: Page) =>
  ((await (await page.request.get(API.pushSubscriptions, { headers: XHR })).json()) as { data: { current: boolean }[] }).data;

test('this device turned on from the bell, listed in the profile and removed there; the invitation is asked once', async ({
  browser,
}, testInfo) => {
  test.setTimeout(150_000);
  const service = await startPushService(Number(process.env.E2E_PUSH_PORT) + testInfo.parallelIndex);
  try {
    const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
    await stubPushManager(context, service.subscriber().subscription);
    const page = await context.newPage();
    await signInNewClient(page, 'Berta Avisos', 'push-settings');

    // The bell's menu: the switch for this device, stored on the server.
    await page.getByRole('button', { name: es('bell.open') }).click();
    const bellSwitch = page.getByRole('switch', { name: es('push.thisDevice') });
    await expect(bellSwitch).not.toBeChecked();
    await page.screenshot({ path: test.info().outputPath('p2-bell-360.png') });
    const stored = page.waitForResponse((r) => new URL(r.url()).pathname === API.pushSubscriptions && r.request().method() === 'POST');
    await bellSwitch.click({ force: true });
    expect((await stored).status()).toBe(201);
    await expect(bellSwitch).toBeChecked();
    expect(await serverDevices(page)).toEqual([expect.objectContaining({ current: true })]);
    await expectNoAxeViolations(page, 'bell menu with the push switch');
    await page.keyboard.press('Escape');

    // The profile: listed as this device, removed there (the server forgets it; this device's switch goes off).
    await page.goto('/es/profile');
    const section = page.getByRole('region', { name: es('push.heading') });
    await expect(section.getByTestId('push-device')).toHaveCount(1);
    await expect(section.getByTestId('push-device')).toContainText(es('push.devices.thisComputer'));
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('p2-profile-360.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: test.info().outputPath('p2-profile-1280.png'), fullPage: true });
    await expectNoAxeViolations(page, 'push settings 1280', '[data-testid="push-settings"]');
    await page.setViewportSize({ width: 360, height: 780 });
    await section.getByRole('button', { name: new RegExp(`^${es('push.devices.remove')} `) }).click();
    // Asked first; «Cancelar» keeps it, the confirmation removes it.
    const dialog = page.getByRole('dialog', { name: es('push.devices.removeTitle') });
    await expect(dialog).toBeVisible();
    await page.waitForTimeout(400); // the modal's opening transition
    await page.screenshot({ path: test.info().outputPath('p2-remove-confirm-360.png') });
    await dialog.getByRole('button', { name: es('push.devices.cancel') }).click();
    await expect(dialog).toHaveCount(0);
    expect(await serverDevices(page)).toHaveLength(1);
    await section.getByRole('button', { name: new RegExp(`^${es('push.devices.remove')} `) }).click();
    await expectNoAxeViolations(page, 'remove device dialog', '[role="dialog"]');
    await dialog.getByRole('button', { name: es('push.devices.remove'), exact: true }).click();
    await expect(section.getByTestId('push-devices-empty')).toBeVisible();
    expect(await serverDevices(page)).toEqual([]);
    await expect(page.getByTestId('push-device-switch')).not.toBeChecked();

    // The invitation: after the first support message, answered «Ahora no», never again on this device.
    await page.goto('/es/messenger');
    await expect(page.getByRole('heading', { level: 1, name: es('messenger.user.title') })).toBeVisible();
    await expect(page.getByTestId('push-invitation')).toHaveCount(0);
    await page.getByRole('textbox').last().fill('Hola, una pregunta sobre mi cuenta.');
    await page.keyboard.press('Enter');
    const invitation = page.getByTestId('push-invitation');
    await expect(invitation).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('p2-invitation-360.png') });
    await expectNoAxeViolations(page, 'push invitation', '[data-testid="push-invitation"]');
    await invitation.getByRole('button', { name: es('push.invite.later') }).click();
    await expect(invitation).toHaveCount(0);
    await page.reload();
    await page.getByRole('textbox').last().fill('Otra pregunta.');
    await page.keyboard.press('Enter');
    await expect(page.getByText('Otra pregunta.')).toBeVisible();
    await page.waitForTimeout(1000);
    await expect(page.getByTestId('push-invitation')).toHaveCount(0);
    await context.close();
  } finally {
    await service.stop();
  }
});
