import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, signIn } from './helpers';

async function tokenOf(request: APIRequestContext, email: string) {
  const response = await request.post('/api/users/authenticate', { data: { email, password: DEMO_PASSWORD } });
  expect(response.status()).toBe(200);
  return (await response.json()) as { token: string; id: string };
}

/** A PHQ-9 answered earlier through the open API, so that the result page has a change to show. */
async function earlierPhq9(request: APIRequestContext, staffToken: string, patientId: string, answers: Record<string, number>) {
  const created = await request.post('/api/patient-links', {
    headers: { authorization: `Bearer ${staffToken}` },
    data: { patientId, formCode: 11 },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { token } = (await created.json()) as { token: string };
  const verify = await request.post(`/api/patient-links/${token}/verify`, {
    data: { lastName: 'Valdés Ibarra', dateOfBirth: '05/14/1971' },
  });
  expect(verify.status(), await verify.text()).toBe(200);
  const { accessToken } = (await verify.json()) as { accessToken: string };
  const submitted = await request.post(`/api/patient-links/${token}/submit`, {
    headers: { authorization: `Bearer ${accessToken}` },
    data: { idempotencyKey: crypto.randomUUID(), answers, language: 'es' },
  });
  expect(submitted.status(), await submitted.text()).toBe(201);
}

test('a patient answers a PHQ-9 link on a phone in Spanish, changes one answer, submits; the doctor sees total, band and change', async ({
  page,
  browser,
  request,
}) => {
  const staff = await tokenOf(request, 'staff@pathwell.demo');
  const doctor = await tokenOf(request, 'doctor@pathwell.demo');
  const created = await request.post('/api/patients/create', {
    headers: { authorization: `Bearer ${staff.token}` },
    data: {
      firstName: 'Rocío',
      lastName: 'Valdés Ibarra',
      dateOfBirth: '1971-05-14',
      doctorId: doctor.id,
      preferredLanguage: 'es',
      patientPhoneNumbers: [],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const patientId = ((await created.json()) as { id: string }).id;
  // Earlier: 2 on items 1–8, 0 on item 9 = 16, moderately severe.
  await earlierPhq9(request, staff.token, patientId, { q1: 2, q2: 2, q3: 2, q4: 2, q5: 2, q6: 2, q7: 2, q8: 2, q9: 0, q10: 1 });

  // Staff create the link from the patient dashboard and copy it.
  await signIn(page, 'staff@pathwell.demo');
  await page.goto(`/patients/patientdashboard/${patientId}`);
  const panel = page.getByTestId('questionnaire-panel');
  await panel.getByRole('button', { name: 'Send questionnaire' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: 'Outcome form' }).click();
  await page.getByRole('option', { name: 'PHQ-9', exact: true }).click();
  await dialog.getByRole('button', { name: 'Copy link' }).click();
  const url = await dialog.getByTestId('link-url').inputValue();
  expect(url).toMatch(/\/patients\/phq9\/[A-Za-z0-9_-]{43}$/);

  // The patient, on a 375 px wide phone.
  const phone = await browser.newContext({
    viewport: { width: 375, height: 740 },
    locale: 'es-US',
    hasTouch: true,
    isMobile: true,
  });
  const patient = await phone.newPage();
  await patient.goto(url);
  await patient.getByRole('button', { name: 'Español' }).click();
  await patient.getByLabel('Apellido').fill('valdes ibarra');
  await patient.getByLabel('Fecha de nacimiento').fill('05141971');
  await patient.getByRole('button', { name: 'Continuar' }).click();

  const progress = patient.getByTestId('progress');
  await expect(progress).toHaveText('Pregunta 1 de 10');
  // Required: Next without an answer keeps the patient on the question.
  await patient.getByRole('button', { name: 'Siguiente' }).click();
  await expect(progress).toHaveText('Pregunta 1 de 10');
  await expect(patient.getByRole('alert')).toBeVisible();
  const answer = async (optionIndex: number) => {
    await patient.getByRole('radio').nth(optionIndex).check();
    await patient.getByRole('button', { name: 'Siguiente' }).click();
  };
  await answer(1);
  await answer(1);
  await answer(2);
  await expect(progress).toHaveText('Pregunta 4 de 10');
  // Back to question 3 to change its answer.
  await patient.getByRole('button', { name: 'Atrás' }).click();
  await expect(progress).toHaveText('Pregunta 3 de 10');
  await answer(0);
  for (const option of [1, 0, 1, 0, 1, 0]) await answer(option);
  await answer(0); // q10, the unscored difficulty question
  await expect(progress).toHaveText('Revise sus respuestas');
  await patient.screenshot({ path: 'test-results/screenshots/phq9-review-375.png', fullPage: true });
  await patient.getByRole('button', { name: 'Enviar' }).click();
  await expect(patient.getByTestId('thanks')).toContainText('Gracias');
  // q1..q9 = 1,1,0,1,0,1,0,1,0 → total 5, mild.
  const reopened = await phone.newPage();
  await reopened.goto(url);
  await expect(reopened.getByTestId('gone-completed')).toBeVisible();
  await phone.close();

  // The doctor sees the total, the band and the change from last time.
  await page.goto('/signin');
  await page.evaluate(() => window.localStorage.clear());
  await signIn(page, 'doctor@pathwell.demo');
  await page.goto(`/patients/patientdashboard/${patientId}`);
  const responses = page.getByTestId('form-response');
  await expect(responses).toHaveCount(2);
  await responses.first().getByRole('link').first().click();
  await expect(page).toHaveURL(/\/formresponse\/result\//);
  await expect(page.getByTestId('headline-score')).toContainText('5');
  await expect(page.getByTestId('headline-band')).toHaveText('Mild');
  await expect(page.getByTestId('response-change')).toContainText('11 points, better');
  await page.screenshot({ path: 'test-results/screenshots/phq9-result.png', fullPage: true });
});
