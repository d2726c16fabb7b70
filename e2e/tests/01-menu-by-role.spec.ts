import { expect, test } from '@playwright/test';
import { menuTitlesEn, type MenuTitle } from '@pathwell/contracts/menu';
import type { Role } from '@pathwell/contracts/roles';
import { expectedTopLevel, signIn, signOut, topLevelEntry } from './helpers';

const demoUsers: { email: string; role: Role; isParent: boolean }[] = [
  { email: 'manager@pathwell.demo', role: 'SystemManager', isParent: false },
  { email: 'admin@pathwell.demo', role: 'Admin', isParent: false },
  { email: 'doctor@pathwell.demo', role: 'Doctor', isParent: false },
  { email: 'staff@pathwell.demo', role: 'Staff', isParent: false },
  { email: 'approver@pathwell.demo', role: 'Admin', isParent: false },
  { email: 'admin2@pathwell.demo', role: 'Admin', isParent: false },
  { email: 'parent@pathwell.demo', role: 'Admin', isParent: true },
];

const english = (titleKey: string) => menuTitlesEn[titleKey.replace(/^menu\./, '') as MenuTitle];

for (const user of demoUsers) {
  test(`${user.email} signs in and sees exactly the menu of a ${user.role}${user.isParent ? ' parent user' : ''}`, async ({
    page,
  }) => {
    await signIn(page, user.email);
    const { shown, hidden } = expectedTopLevel(user.role, user.isParent);
    expect(shown.length).toBeGreaterThan(0);
    for (const item of shown) await expect(topLevelEntry(page, item, english(item.titleKey))).toBeVisible();
    for (const item of hidden) await expect(topLevelEntry(page, item, english(item.titleKey))).toHaveCount(0);
    await signOut(page);
  });
}

test('a Staff user opening the instance settings page sees the unauthorized page', async ({ page }) => {
  await signIn(page, 'staff@pathwell.demo');
  await page.goto('/admin/instancesettings');
  await expect(page.getByText('Looks like you are not authorized to access this page.')).toBeVisible();
});

test('an unauthenticated visit goes to sign-in and returns to the first path afterwards', async ({ page }) => {
  await page.goto('/my-account');
  await expect(page).toHaveURL(/\/signin/);
  await page.getByTestId('sign-in-email').fill('admin@pathwell.demo');
  await page.getByTestId('sign-in-password').fill('Pathwell#2026');
  await page.getByTestId('sign-in-submit').click();
  await expect(page).toHaveURL(/\/my-account$/);
});
