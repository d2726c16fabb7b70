import { expect, test, type APIRequestContext } from '@playwright/test';
import { expectAccessibleAndFitting } from './a11y';
import { DEMO_PASSWORD, signIn } from './helpers';

/**
 * Issue #13 (decisions 0038–0042): a doctor records a lumbar transforaminal epidural steroid injection
 * for a demo patient, signs the generated procedure note, enrols the patient in the injection pathway,
 * and the patient dashboard shows the procedure on the pain chart and the pathway's next PRO date.
 */

async function tokenOf(request: APIRequestContext, email: string) {
  const response = await request.post('/api/users/authenticate', { data: { email, password: DEMO_PASSWORD } });
  expect(response.status()).toBe(200);
  return (await response.json()) as { token: string; id: string };
}

/** A demo patient of the doctor with no procedure recorded yet. */
async function patientWithoutProcedures(request: APIRequestContext) {
  const doctor = await tokenOf(request, 'doctor@pathwell.demo');
  const headers = { authorization: `Bearer ${doctor.token}` };
  const page = await request.post('/api/patients/filtered', {
    headers,
    data: { sortBy: 'LastName', sortDirection: 'asc', paginationFilter: { pageSize: 50, pageNumber: 0 } },
  });
  expect(page.status()).toBe(200);
  const { data } = (await page.json()) as { data: { id: string; fullName: string }[] };
  for (const patient of data) {
    const records = (await (await request.get(`/api/patients/${patient.id}/interventions`, { headers })).json()) as unknown[];
    if (records.length === 0) return patient;
  }
  throw new Error('every listed patient already has a procedure');
}

test('a doctor records a lumbar transforaminal injection, signs its note, enrols the patient in the injection pathway', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const patient = await patientWithoutProcedures(request);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, 'doctor@pathwell.demo');
  await page.goto(`/patients/patientdashboard/${patient.id}`);
  const card = page.getByTestId('procedures-card');
  await expect(card).toContainText('No procedures, injections or pump visits recorded yet.');
  await card.getByRole('link', { name: 'Record procedure' }).click();

  // The intervention form: an injection from the clinic's catalogue, where and how.
  await expect(page.getByRole('heading', { name: 'Record a procedure' })).toBeVisible();
  const form = page.getByTestId('intervention-form');
  await form.getByRole('combobox', { name: /^Injection/ }).click();
  await page.getByRole('option', { name: /Lumbar transforaminal epidural steroid injection/ }).click();
  await form.getByRole('combobox', { name: 'Body part' }).click();
  await page.getByRole('option', { name: 'Lumbar spine' }).click();
  await form.getByRole('combobox', { name: 'Side' }).click();
  await page.getByRole('option', { name: 'Left' }).click();
  await form.getByRole('combobox', { name: 'Guidance' }).click();
  await page.getByRole('option', { name: 'Fluoroscopy' }).click();
  await form.getByRole('combobox', { name: /Spinal levels/ }).fill('L4-L5');
  await form.getByRole('combobox', { name: /Spinal levels/ }).press('Enter');
  await form.getByRole('combobox', { name: /Spinal levels/ }).fill('L5-S1');
  await form.getByRole('combobox', { name: /Spinal levels/ }).press('Enter');
  await form.getByRole('textbox', { name: 'Outcome' }).fill('Tolerated well.');
  await expectAccessibleAndFitting(page, 'intervention form');
  await page.screenshot({ path: test.info().outputPath('intervention-form.png'), fullPage: true });
  await form.getByRole('button', { name: 'Save record' }).click();

  // With procedure notes on (the demo clinic), the doctor goes straight on to the generated note.
  await expect(page).toHaveURL(/\/patients\/procedurenoteform\//);
  // PROCEDURE-NOTE STEPS (helper B's screen) follow here.
});
