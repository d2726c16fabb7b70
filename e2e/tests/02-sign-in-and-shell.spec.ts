import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test('a wrong password shows the message of the specification', async ({ page }) => {
  await page.goto('/signin');
  await page.getByTestId('sign-in-email').fill('admin@pathwell.demo');
  await page.getByTestId('sign-in-password').fill('Wrong#Password1');
  await page.getByTestId('sign-in-submit').click();
  await expect(page.getByTestId('sign-in-error')).toHaveText(/Unable to login\. Please check email and password/);
  await expect(page).toHaveURL(/\/signin/);
});

test('the sign-in page at desktop and phone widths', async ({ page }) => {
  await page.goto('/signin');
  await expect(page.getByTestId('sign-in-form')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/sign-in-desktop.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 740 });
  await expect(page.getByTestId('sign-in-submit')).toBeInViewport();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: 'test-results/screenshots/sign-in-375.png', fullPage: true });
});

test('switching to Spanish translates the shell, and the choice is remembered', async ({ page }) => {
  await signIn(page, 'admin@pathwell.demo');
  await expect(page.getByTestId('side-menu').getByRole('button', { name: 'Patients', exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/shell-en.png' });
  await page.getByTestId('language-switcher').click();
  await page.getByTestId('language-option-es').click();
  await expect(page.getByTestId('side-menu').getByRole('button', { name: 'Pacientes', exact: true })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await page.reload();
  await expect(page.getByTestId('side-menu').getByRole('button', { name: 'Pacientes', exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/shell-es.png' });
});

test('an unknown route shows the 404 page, signed in or not', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText(/cannot find|can't find|could not find/i).first()).toBeVisible();
  await signIn(page, 'doctor@pathwell.demo');
  await page.goto('/still/not/a/page');
  await expect(page.getByText(/cannot find|can't find|could not find/i).first()).toBeVisible();
});

test('a parent user switches clinic and the shell follows', async ({ page }) => {
  await signIn(page, 'parent@pathwell.demo');
  await expect(page.getByTestId('clinic-name')).toHaveText('Riverside Spine & Pain');
  await expect(page).toHaveTitle(/Riverside Spine & Pain/);
  await page.getByTestId('clinic-selector').click();
  await page.getByRole('option', { name: 'Lakeside Pain Center' }).click();
  await expect(page.getByTestId('clinic-name')).toHaveText('Lakeside Pain Center');
  await expect(page).toHaveTitle(/Lakeside Pain Center/);
});

test('users who are not parents have no clinic selector, and doctors no doctor selector', async ({ page }) => {
  await signIn(page, 'doctor@pathwell.demo');
  await expect(page.getByTestId('clinic-selector')).toHaveCount(0);
  await expect(page.getByTestId('doctor-selector')).toHaveCount(0);
});
