import { expect, test } from '@playwright/test';
import { signIn, waitForQuietNetwork } from './helpers';

const lastName = 'Quiñones';

test.describe.configure({ mode: 'serial' });

test('staff creates a patient, is warned about a duplicate, and finds the patient with the top-bar search', async ({ page }) => {
  await signIn(page, 'staff@pathwell.demo');
  await page.goto('/patients/list');
  await page.getByTestId('patients-add').click();
  await page.getByTestId('patient-firstName').fill('Ximena');
  await page.getByTestId('patient-lastName').fill(lastName);
  await page.getByTestId('patient-dateOfBirth').fill('04/12/1981');
  await page.getByTestId('patient-email').fill('ximena.quinones@example.com');
  await page.getByTestId('patient-phone-0').fill('(512) 555-0187');
  await page.getByTestId('patient-save').click();
  await expect(page).toHaveURL(/\/patients\/list/);

  await page.goto('/patients/create/new');
  await page.getByTestId('patient-firstName').fill('Ximena B.');
  await page.getByTestId('patient-lastName').fill(lastName);
  await page.getByTestId('patient-dateOfBirth').fill('04/12/1981');
  await page.getByTestId('patient-phone-0').fill('(512) 555-0188');
  await page.getByTestId('patient-save').click();
  await expect(page.getByTestId('patient-duplicates')).toBeVisible();
  await expect(page.getByTestId('patient-duplicate-link').first()).toBeVisible();

  const search = page.getByTestId('patient-search');
  await search.fill('qui');
  const result = page.getByTestId('patient-search-result').filter({ hasText: `Ximena ${lastName}` });
  await expect(result).toBeVisible();
  await expect(result).toContainText('04/12/1981');
  await result.click();
  await expect(page).toHaveURL(/\/patients\/patientdashboard\//);
});

test('a Doctor sees only the patients they treat: the staff-created patient without a doctor or a visit is not found', async ({ page }) => {
  await signIn(page, 'doctor@pathwell.demo');
  // Wait for the debounced search to answer: an empty list before it runs would prove nothing.
  const answered = page.waitForResponse((response) => response.url().includes('/api/patients/search?') && response.ok());
  await page.getByTestId('patient-search').fill('quiñ');
  await answered;
  // The search has answered (its list or its empty state shows); the Doctor's own patients may match
  // "quiñ" (Joaquín), the staff-created Ximena Quiñones, who has no doctor, must not.
  await expect(page.getByTestId('patient-search-empty').or(page.getByTestId('patient-search-result').first())).toBeVisible();
  await expect(page.getByTestId('patient-search-result').filter({ hasText: 'Ximena' })).toHaveCount(0);
  await page.goto('/patients/list');
  await expect(page.getByTestId('patients-row').first()).toBeVisible();
  // Below 1600 px the filters fold away above the list (issue #10 §4).
  await page.getByTestId('patients-filters-toggle').click();
  await page.getByTestId('patients-filter-last-name').fill(lastName);
  await page.getByTestId('patients-filter-apply').click();
  await expect(page.getByTestId('patients-empty')).toBeVisible();
});

test('the patient list and a patient dashboard at 375 px, in Spanish', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signIn(page, 'admin@pathwell.demo');
  await page.getByTestId('language-switcher').click();
  await page.getByTestId('language-option-es').click();
  await page.goto('/patients/list');
  await expect(page.getByTestId('patients-row').first()).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: 'test-results/screenshots/patient-list-375-es.png', fullPage: true });
  await page.getByTestId('patients-row').first().getByRole('link').first().click();
  await expect(page).toHaveURL(/\/patients\/patientdashboard\//);
  await waitForQuietNetwork(page);
  await page.screenshot({ path: 'test-results/screenshots/patient-dashboard-375-es.png', fullPage: true });
});
