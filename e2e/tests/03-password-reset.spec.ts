import { expect, test } from '@playwright/test';
import { signIn, signOut } from './helpers';

test('forgot password → link from the outbox → new password → sign in with it', async ({ page }) => {
  await page.goto('/forget-password');
  await page.getByTestId('forget-password-email').fill('admin2@pathwell.demo');
  await page.getByTestId('forget-password-submit').click();
  await expect(page.getByTestId('forget-password-sent')).toBeVisible();

  await signIn(page, 'manager@pathwell.demo');
  await page.getByTestId('user-menu').click();
  await page.getByTestId('user-menu-outbox').click();
  const message = page.getByTestId('outbox-message').filter({ hasText: 'admin2@pathwell.demo' }).first();
  await expect(message).toBeVisible();
  const link = await message.getByTestId('outbox-link').first().getAttribute('href');
  expect(link).toContain('/reset-password?');
  await signOut(page);

  await page.goto(new URL(link!).pathname + new URL(link!).search);
  await page.getByTestId('set-password-new').fill('Renewed#2026');
  await page.getByTestId('set-password-confirm').fill('Renewed#2026');
  await page.getByTestId('set-password-submit').click();
  await expect(page.getByText('Success!')).toBeVisible();
  await expect(page).toHaveURL(/\/signin/, { timeout: 10_000 });

  await signIn(page, 'admin2@pathwell.demo', 'Renewed#2026');
  await expect(page.getByTestId('clinic-name')).toHaveText('Lakeside Pain Center');
});
