import { expect, test, type Page } from '@playwright/test';
import { signIn, signOut } from './helpers';

async function outboxLinkFor(page: Page, recipient: string, pathPart: string) {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('user-menu-outbox').click();
  const message = page.getByTestId('outbox-message').filter({ hasText: recipient }).first();
  await expect(message).toBeVisible();
  const href = await message.getByTestId('outbox-link').first().getAttribute('href');
  expect(href).toContain(pathPart);
  const url = new URL(href!);
  return url.pathname + url.search;
}

test('an admin creates a Staff user, whose welcome link sets the password, and the new user signs in', async ({ page }) => {
  await signIn(page, 'admin@pathwell.demo');
  await page.goto('/users');
  await page.getByTestId('users-add').click();
  await expect(page).toHaveURL(/\/users\/userform/);
  await page.getByTestId('user-first-name').fill('Nora');
  await page.getByTestId('user-last-name').fill('Quinn');
  await page.getByTestId('user-email').fill('nora.quinn@example.com');
  await page.getByTestId('user-role').click();
  await page.getByRole('option', { name: 'Staff', exact: true }).click();
  await page.getByTestId('user-save').click();
  await page.goto('/users');
  await expect(page.getByTestId('users-row').filter({ hasText: 'nora.quinn@example.com' })).toBeVisible();
  await signOut(page);

  await signIn(page, 'manager@pathwell.demo');
  const link = await outboxLinkFor(page, 'nora.quinn@example.com', '/set-password?');
  await signOut(page);
  await page.goto(link);
  await page.getByTestId('set-password-new').fill('Welcome#2026');
  await page.getByTestId('set-password-confirm').fill('Welcome#2026');
  await page.getByTestId('set-password-submit').click();
  await expect(page).toHaveURL(/\/signin/, { timeout: 10_000 });
  await signIn(page, 'nora.quinn@example.com', 'Welcome#2026');
  await expect(page.getByTestId('clinic-name')).toHaveText('Riverside Spine & Pain');
});

test('an admin adds a medicine and a room', async ({ page }) => {
  await signIn(page, 'admin@pathwell.demo');
  for (const [path, name] of [
    ['/admin/medicines', 'Duloxetine 30 mg'],
    ['/admin/rooms', 'Procedure Suite B'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByTestId('managed-list-add')).toBeVisible();
    await page.getByTestId('managed-list-add').click();
    await page.getByTestId('field-name').fill(name);
    await page.getByTestId('managed-item-save').click();
    // The form closes only when the entry is saved (a name already in the list keeps it open).
    await expect(page.getByTestId('managed-item-save')).toBeHidden();
    await expect(page.getByTestId('managed-list-row').filter({ hasText: name })).toBeVisible();
  }
});

test('a System Manager renames the clinic and the page title follows', async ({ page }) => {
  await signIn(page, 'manager@pathwell.demo');
  await page.goto('/admin/instancesettings');
  const name = page.getByTestId('setting-clinicName');
  await expect(name).toBeVisible();
  await name.fill('Riverside Spine & Pain Institute');
  await page.getByTestId('instance-settings-save').click();
  await expect(page).toHaveTitle(/Riverside Spine & Pain Institute/);
  await expect(page.getByTestId('clinic-name')).toHaveText('Riverside Spine & Pain Institute');
  await page.screenshot({ path: 'test-results/screenshots/instance-settings.png', fullPage: true });
});

test('the activity log shows the administration done above', async ({ page }) => {
  await signIn(page, 'admin@pathwell.demo');
  await page.goto('/activitylogs');
  const rows = page.getByTestId('activity-row');
  await expect(rows.first()).toBeVisible();
  await expect(rows.filter({ hasText: 'nora.quinn@example.com' }).first()).toBeVisible();
  await expect(rows.filter({ hasText: 'Duloxetine 30 mg' }).first()).toBeVisible();
  await expect(rows.filter({ hasText: 'Procedure Suite B' }).first()).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/activity-logs.png', fullPage: true });
});
