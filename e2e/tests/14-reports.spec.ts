import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessibleAndFitting } from './a11y';
import { signIn, waitForQuietNetwork } from './helpers';

/**
 * Issue #14 (decisions 0043–0048): an admin asks the data sandbox how patients' Pain Disability Index (PDI) moved after a lumbar
 * injection in the last year, drills into the patients behind a point and exports them to Excel; a doctor
 * opens the patient spotlight and downloads a patient's one-page PDF. Both pages state how days are counted
 * and how an improvement is signed (issue #24 §1, decision 0060).
 */

const mdy = (date: Date) =>
  `${String(date.getMonth() + 1).padStart(2, '0')}/${String(date.getDate()).padStart(2, '0')}/${date.getFullYear()}`;

async function choose(page: Page, combobox: ReturnType<Page['getByRole']>, option: RegExp) {
  await combobox.click();
  await page.getByRole('option', { name: option }).first().click();
  await page.keyboard.press('Escape');
}

test('an admin charts the PDI after a lumbar injection in the last year, drills into the patients and exports them to Excel', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, 'admin@pathwell.demo');
  await page.goto('/reports/summary');
  await expect(page.getByRole('heading', { name: 'Data sandbox' })).toBeVisible();
  await expect(page.getByText('Choose what to look at')).toBeVisible();
  await expect(page.getByTestId('report-conventions')).toContainText("Days are the clinic's calendar days");

  await choose(page, page.getByRole('combobox', { name: 'Outcome forms' }), /Pain Disability Index/);
  await page.getByTestId('sandbox-anchor').getByText('A procedure').click();
  await choose(
    page,
    page.getByRole('combobox', { name: 'Procedures and injections' }),
    /^Lumbar transforaminal epidural steroid injection/,
  );
  const yearAgo = new Date();
  yearAgo.setFullYear(yearAgo.getFullYear() - 1);
  await page.getByRole('textbox', { name: 'From date' }).fill(mdy(yearAgo));
  await page.getByRole('textbox', { name: 'To date' }).fill(mdy(new Date()));
  await page.getByRole('button', { name: 'Apply' }).click();

  // The chart and, beneath it, the same numbers in a table.
  const table = page.getByRole('table', { name: /mean score by week/ });
  await expect(table).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('img', { name: /Chart of the mean/ }).first()).toBeVisible();
  const baselineRow = table.getByRole('row', { name: /Baseline/ });
  await expect(baselineRow).toBeVisible();
  const baselinePatients = Number((await baselineRow.locator('td, th').nth(1).innerText()).trim());
  expect(baselinePatients).toBeGreaterThan(0);
  await waitForQuietNetwork(page);
  await expectAccessibleAndFitting(page, 'data sandbox with results');
  await page.screenshot({ path: test.info().outputPath('sandbox.png'), fullPage: true });

  // Drill-down: the patients behind the baseline point.
  await baselineRow.getByRole('button', { name: /Patients/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('link').first()).toBeVisible();
  expect(await dialog.getByRole('link').count()).toBe(Math.min(baselinePatients, 15));
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Export the patient rows to Excel.
  await page.getByRole('button', { name: 'Export' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Patients (Excel)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^pathwell-data-sandbox-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const file = readFileSync((await download.path())!);
  expect(file.subarray(0, 2).toString()).toBe('PK');
});

test('a doctor opens the patient spotlight and downloads a patient PDF', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, 'doctor@pathwell.demo');
  await page.goto('/reports/patientsspotlight');
  await expect(page.getByRole('heading', { name: 'Patient spotlight' })).toBeVisible();
  const pdfButton = page.getByRole('button', { name: /^PDF for / }).first();
  await expect(pdfButton).toBeVisible({ timeout: 20_000 });
  // One sign for a change on every report (decision 0060): the column is the improvement, and the page says so.
  await expect(page.getByRole('columnheader', { name: 'Improvement' })).toBeVisible();
  await expect(page.getByTestId('report-conventions')).toContainText('Positive means better, negative means worse');
  await waitForQuietNetwork(page);
  await expectAccessibleAndFitting(page, 'patient spotlight');

  const downloading = page.waitForEvent('download');
  await pdfButton.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const file = readFileSync((await download.path())!);
  expect(file.subarray(0, 5).toString()).toBe('%PDF-');
});
