import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { DEMO_PASSWORD, signIn } from './helpers';

/** The demo clinics run at UTC-6: "today" in clinic time as MM/DD/YYYY. */
function clinicToday() {
  const now = new Date(Date.now() - 6 * 3_600_000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(now.getUTCMonth() + 1)}/${pad(now.getUTCDate())}/${now.getUTCFullYear()}`;
}

test('staff schedules an appointment, filters the list to it, checks the patient in and exports CSV', async ({
  page,
  request,
}) => {
  const auth = await request.post('/api/users/authenticate', { data: { email: 'staff@pathwell.demo', password: DEMO_PASSWORD } });
  const { token } = (await auth.json()) as { token: string };
  const created = await request.post('/api/patients/create', {
    headers: { authorization: `Bearer ${token}` },
    data: { firstName: 'Amparo', lastName: 'Zubizarreta', dateOfBirth: '1968-03-09', patientPhoneNumbers: [] },
  });
  expect(created.status(), await created.text()).toBe(201);

  await signIn(page, 'staff@pathwell.demo');
  await page.goto('/patients/appointments');
  await page.getByRole('button', { name: 'Schedule appointment' }).click();
  await page.getByTestId('patient-picker').fill('Zubiz');
  await page.getByRole('option', { name: /Amparo Zubizarreta/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog
    .getByLabel(/^Doctor/)
    .first()
    .click();
  await dialog.getByRole('option', { name: 'Daniela Ortiz' }).click();
  await dialog.getByRole('textbox', { name: /^Date/ }).fill(clinicToday());
  await dialog.getByLabel(/^Time/).fill('23:40');
  await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();

  const row = page.getByTestId('appointment-row').filter({ hasText: 'Amparo Zubizarreta' });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('appointment-status')).toHaveText('Upcoming');

  await page.goto('/patients/staffappointments');
  const scheduled = page.getByTestId('schedule-row').filter({ hasText: 'Amparo Zubizarreta' });
  await scheduled.getByRole('button', { name: 'Check in' }).click();
  await expect(scheduled).toContainText('Checking in');

  await page.goto('/patients/appointments');
  await expect(
    page.getByTestId('appointment-row').filter({ hasText: 'Amparo Zubizarreta' }).getByTestId('appointment-status'),
  ).toHaveText('Checking in');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  const bytes = readFileSync((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.subarray(3).toString('utf8');
  expect(text.split('\r\n')[0]).toContain('Patient');
  expect(text).toContain('Zubizarreta');
  await page.screenshot({ path: 'test-results/screenshots/appointments.png', fullPage: true });
});
