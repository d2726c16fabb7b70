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
  // Two browsers, a tab closed and reopened, then the doctor: a long journey on a busy CI machine.
  test.setTimeout(60_000);
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
  let patient = await phone.newPage();
  const openAndVerify = async () => {
    await patient.goto(url);
    await patient.getByRole('button', { name: 'Español' }).click();
    await patient.getByLabel('Apellido').fill('valdes ibarra');
    await patient.getByLabel('Fecha de nacimiento').fill('05141971');
    await patient.getByRole('button', { name: 'Continuar' }).click();
  };
  await openAndVerify();

  let progress = patient.getByTestId('progress');
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
  // The patient closes the tab; a new one asks who they are again and resumes at question 4.
  await expect(patient.getByTestId('save-state')).toHaveText('Sus respuestas están guardadas.');
  await patient.close();
  patient = await phone.newPage();
  await openAndVerify();
  progress = patient.getByTestId('progress');
  await expect(progress).toHaveText('Pregunta 4 de 10');
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

test('an admin builds a custom form with a conditional question and a signature; a patient completes it on a phone; staff view it', async ({
  page,
  browser,
  request,
}) => {
  const admin = await tokenOf(request, 'admin@pathwell.demo');
  const created = await request.post('/api/patients/create', {
    headers: { authorization: `Bearer ${admin.token}` },
    data: { firstName: 'Tomás', lastName: 'Quintero', dateOfBirth: '1982-11-02', patientPhoneNumbers: [] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const patientId = ((await created.json()) as { id: string }).id;

  await signIn(page, 'admin@pathwell.demo');
  await page.goto('/customforms');
  await page
    .getByRole('link', { name: 'Add new' })
    .or(page.getByRole('button', { name: 'Add new' }))
    .click();
  await expect(page).toHaveURL(/\/customforms\/new$/);
  const choose = async (name: string, option: string) => {
    await page.getByRole('combobox', { name, exact: true }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Knee check-in');
  await choose('Question 1: Question type', 'Multiple choice, one answer');
  await page.getByRole('textbox', { name: 'Question 1: Question text', exact: true }).fill('Did your knee swell this week?');
  await page.getByRole('checkbox', { name: 'Question 1: Required', exact: true }).check();
  const options = page.getByTestId('question-0-option');
  await options.nth(0).getByRole('textbox', { name: 'Option 1: Value', exact: true }).fill('yes');
  await options.nth(0).getByRole('textbox', { name: 'Option 1: Label', exact: true }).fill('Yes');
  await options.nth(1).getByRole('textbox', { name: 'Option 2: Value', exact: true }).fill('no');
  await options.nth(1).getByRole('textbox', { name: 'Option 2: Label', exact: true }).fill('No');

  await page.getByRole('button', { name: 'Add question' }).click();
  await choose('Question 2: Question type', 'Descriptive');
  await page.getByRole('textbox', { name: 'Question 2: Question text', exact: true }).fill('When did it swell?');
  await choose('Question 2: Show only when', '1. Did your knee swell this week?');
  await choose('Question 2: Has the answer', 'Yes');

  await page.getByRole('button', { name: 'Add question' }).click();
  await choose('Question 3: Question type', 'Signature');
  await page.getByRole('textbox', { name: 'Question 3: Question text', exact: true }).fill('Please sign to confirm your answers');
  await page.getByRole('checkbox', { name: 'Question 3: Required', exact: true }).check();
  await page.getByRole('button', { name: 'Save form' }).click();
  await expect(page).toHaveURL(/\/customforms\/[0-9a-f-]{36}$/);
  const customFormId = page.url().split('/').pop()!;

  const link = await request.post('/api/patient-links', {
    headers: { authorization: `Bearer ${admin.token}` },
    data: { patientId, customFormId },
  });
  expect(link.status(), await link.text()).toBe(201);
  const { url } = (await link.json()) as { url: string };
  expect(url).toMatch(/\/customform\/[A-Za-z0-9_-]{43}\/surveryform$/);

  const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
  const patient = await phone.newPage();
  await patient.goto(new URL(url).pathname);
  await patient.getByLabel('Last name').fill('Quintero');
  await patient.getByLabel('Date of birth').fill('11021982');
  await patient.getByRole('button', { name: 'Continue' }).click();
  const progress = patient.getByTestId('progress');
  await expect(progress).toHaveText('Question 1 of 2');
  await patient.getByRole('radio', { name: 'Yes' }).check();
  // The conditional question appears once "Yes" is chosen.
  await expect(progress).toHaveText('Question 1 of 3');
  await patient.getByRole('button', { name: 'Next' }).click();
  await patient.getByRole('textbox').fill('On Tuesday, after a long walk');
  await patient.getByRole('button', { name: 'Next' }).click();
  await expect(progress).toHaveText('Question 3 of 3');
  const canvas = patient.getByTestId('signature-canvas');
  const box = (await canvas.boundingBox())!;
  await patient.mouse.move(box.x + 20, box.y + box.height / 2);
  await patient.mouse.down();
  for (let step = 1; step <= 12; step++) {
    await patient.mouse.move(box.x + 20 + step * 20, box.y + box.height / 2 + (step % 2 ? -15 : 15));
  }
  await patient.mouse.up();
  await patient.screenshot({ path: 'test-results/screenshots/custom-form-signature-375.png', fullPage: true });
  await patient.getByRole('button', { name: 'Next' }).click();
  await expect(progress).toHaveText('Review your answers');
  await patient.getByRole('button', { name: 'Submit' }).click();
  await expect(patient.getByTestId('thanks')).toBeVisible();
  await phone.close();

  const list = await request.get(`/api/patients/${patientId}/formresponses`, {
    headers: { authorization: `Bearer ${admin.token}` },
  });
  expect(list.status()).toBe(200);
  const [response] = ((await list.json()) as { data: { id: string }[] }).data;
  await page.goto(`/customformresponse/view/${response!.id}`);
  const answers = page.getByTestId('response-answer');
  await expect(answers).toHaveCount(3);
  await expect(answers.nth(0)).toContainText('Yes');
  await expect(answers.nth(1)).toContainText('On Tuesday, after a long walk');
  await expect(answers.nth(2).getByRole('img')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/custom-form-response.png', fullPage: true });
});
