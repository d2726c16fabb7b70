import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { NotificationList } from '@pathwell/contracts/messaging';
import { audit, expectAccessibleAndFitting, settle, sidewaysScrollers } from './a11y';
import { apiSignIn, signIn } from './helpers';

/**
 * Issue #24 §1 (decision 0058): a PHQ-9 with item 9 above 0. The patient sees crisis resources at once
 * (375 px, Spanish and English, axe clean); the doctor gets an urgent bell item, sees the red flag on the
 * appointment dashboard and the patient dashboard, acknowledges it on the response, and who/when show.
 */
test('a PHQ-9 with item 9 at 1: crisis resources for the patient, an urgent flag for the doctor until acknowledged', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const staff = await apiSignIn(request, 'staff');
  const doctor = await apiSignIn(request, 'doctor');
  const admin = await apiSignIn(request, 'admin');
  // Each attempt its own patient, so a retry never finds the first attempt's namesake.
  // Letters from a random id, not from the clock (a name takes letters only).
  const tag = Array.from(randomUUID().replaceAll('-', '').slice(0, 6), (digit) =>
    String.fromCharCode(97 + parseInt(digit, 16)),
  ).join('');
  const lastName = `Montes Gil${tag}`;
  const created = await request.post('/api/patients/create', {
    headers: staff.headers,
    data: { firstName: 'Valeria', lastName, dateOfBirth: '1984-07-22', doctorId: doctor.id, patientPhoneNumbers: [] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const patientId = ((await created.json()) as { id: string }).id;
  // 10 PM clinic time (UTC-5 in April) on a day years ahead that no other journey books (11 takes
  // 2030-02-12, 12 takes 2030-03-18), one hour later on a retry: fixed, so the journey does not depend on
  // when it runs.
  const startsAt = new Date(Date.UTC(2030, 3, 16, 3 + test.info().retry)).toISOString();
  const visit = await request.post('/api/patientappointments', {
    headers: staff.headers,
    data: { patientId, doctorId: doctor.id, startsAt, reason: 'follow_up' },
  });
  expect(visit.status(), await visit.text()).toBe(201);
  const appointmentId = ((await visit.json()) as { id: string }).id;
  const link = await request.post('/api/patient-links', {
    headers: staff.headers,
    data: { patientId, appointmentId, formCode: 11 },
  });
  expect(link.status(), await link.text()).toBe(201);
  const linkPath = new URL(((await link.json()) as { url: string }).url).pathname;

  // The patient, on a 375 px phone, in Spanish: items 1–8 "Nunca" except one, item 9 "Varios días".
  const phone = await browser.newContext({
    viewport: { width: 375, height: 740 },
    locale: 'es-US',
    hasTouch: true,
    isMobile: true,
  });
  const patient = await phone.newPage();
  await patient.goto(linkPath);
  await patient.getByRole('button', { name: 'Español' }).click();
  await patient.getByLabel('Apellido').fill(lastName);
  await patient.getByLabel('Fecha de nacimiento').fill('07221984');
  await patient.getByRole('button', { name: 'Continuar' }).click();
  const progress = patient.getByTestId('progress');
  await expect(progress).toHaveText('Pregunta 1 de 10');
  for (const option of [1, 0, 0, 0, 0, 0, 0, 0, 1, 0]) {
    await patient.getByRole('radio').nth(option).check();
    await patient.getByRole('button', { name: 'Siguiente' }).click();
  }
  await expect(progress).toHaveText('Revise sus respuestas');
  await patient.getByRole('button', { name: 'Enviar' }).click();

  const crisis = patient.getByTestId('crisis-resources');
  await expect(crisis).toBeVisible();
  await expect(patient.getByRole('heading', { name: 'Hay ayuda disponible ahora mismo' })).toBeFocused();
  await expect(crisis).toContainText('Llame o envíe un mensaje de texto al 988');
  await expect(crisis).toContainText('envíe AYUDA por mensaje de texto al 988');
  await expect(crisis.getByRole('link', { name: 'Llamar al 988' })).toHaveAttribute('href', 'tel:988');
  await expect(crisis.getByRole('link', { name: 'Enviar un mensaje de texto al 988' })).toHaveAttribute('href', 'sms:988');
  await expect(crisis.getByRole('link', { name: 'llame al 911.' })).toHaveAttribute('href', 'tel:911');
  await expect(patient.getByTestId('thanks')).toBeVisible();
  expect(await audit(patient, 'crisis resources (es)')).toEqual([]);
  expect(await sidewaysScrollers(patient)).toEqual([]);
  await patient.screenshot({ path: 'test-results/screenshots/crisis-resources-375-es.png', fullPage: true });
  await patient.getByRole('button', { name: 'English' }).click();
  await expect(crisis.getByRole('link', { name: 'Call 988' })).toHaveAttribute('href', 'tel:988');
  await expect(crisis.getByRole('link', { name: 'Text 988' })).toHaveAttribute('href', 'sms:988');
  await expect(crisis).toContainText('If you are in immediate danger, call 911.');
  expect(await audit(patient, 'crisis resources (en)')).toEqual([]);
  expect(await sidewaysScrollers(patient)).toEqual([]);
  await phone.close();

  // The clinic's Admins are told too; Staff are not.
  const urgentFor = async (headers: Record<string, string>) => {
    const response = await request.get('/api/notifications', { headers });
    expect(response.status()).toBe(200);
    return ((await response.json()) as NotificationList).data.filter(
      (item) => item.patientId === patientId && item.kind === 'criticalFinding',
    );
  };
  expect((await urgentFor(admin.headers)).map((item) => item.urgent)).toEqual([true]);
  expect(await urgentFor(staff.headers)).toEqual([]);

  // The doctor: an urgent bell item, red, naming the patient.
  await signIn(page, 'doctor@pathwell.demo');
  await page.goto('/patients/appointmentdashboard');
  await page.getByTestId('notification-bell').click();
  // Beside the usual "submitted all forms" item for the same visit.
  const items = page.getByTestId('notification-item').filter({ hasText: lastName });
  await expect(items).toHaveCount(2);
  const item = items.and(page.locator('[data-urgent="true"]'));
  await expect(item).toContainText("needs a clinician's review");
  await expect(items.and(page.locator(':not([data-urgent])'))).toContainText('has submitted all forms');
  await page.keyboard.press('Escape');

  // The appointment dashboard's row for the visit is flagged red, linked to the response.
  await page.getByTestId('appt-dashboard-day').fill('04/15/2030');
  const row = page.getByTestId('appt-dashboard-row').filter({ hasText: lastName });
  await expect(row.getByTestId('critical-flag')).toHaveAttribute('data-state', 'open');
  await settle(page);
  await expectAccessibleAndFitting(page, 'appointment dashboard with a flagged row (1280)');
  await row.getByTestId('critical-flag-link').click();

  // The response: the finding first, in red; the doctor acknowledges it and who/when show.
  await expect(page).toHaveURL(/\/formresponse\/result\//);
  const finding = page.getByTestId('critical-finding');
  await expect(finding).toHaveAttribute('data-state', 'open');
  await expect(finding).toContainText('PHQ-9 item 9: thoughts of death or self-harm');
  await expect(page.getByTestId('headline-score')).toContainText('2');
  await settle(page);
  await expectAccessibleAndFitting(page, 'response with an open finding (1280)');
  await finding.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(finding).toHaveAttribute('data-state', 'acknowledged');
  await expect(page.getByTestId('finding-acknowledged')).toHaveText(
    /^Acknowledged by .+ on \d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2} [AP]M\.$/,
  );
  await page.screenshot({ path: 'test-results/screenshots/critical-finding-acknowledged-1280.png', fullPage: true });
  await expectAccessibleAndFitting(page, 'response with an acknowledged finding (1280)');

  // The patient dashboard's result is no longer red, and the bell item no longer urgent.
  await page.goto(`/patients/patientdashboard/${patientId}`);
  await expect(page.getByTestId('form-response').getByTestId('critical-flag')).toHaveAttribute('data-state', 'acknowledged');
  expect((await urgentFor(admin.headers)).map((entry) => entry.urgent)).toEqual([false]);
});
