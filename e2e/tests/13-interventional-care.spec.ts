import { expect, test, type APIRequestContext } from '@playwright/test';
import { expectAccessibleAndFitting } from './a11y';
import { DEMO_PASSWORD, signIn, waitForQuietNetwork } from './helpers';

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
  // Medicines given are the clinic's injectables (issue #24: the list offered oxycodone), with dose,
  // volume and lot; the form shows the line the note will carry.
  await form.getByRole('button', { name: 'Add medicine' }).click();
  const given = form.getByTestId('medicine-given');
  await given.getByRole('combobox', { name: 'Medicine' }).click();
  await expect(page.getByRole('option', { name: /Oxycodone/ })).toHaveCount(0);
  await page.getByRole('option', { name: 'Triamcinolone acetonide 40 mg/mL' }).click();
  await given.getByRole('textbox', { name: /Dose/ }).fill('40');
  await given.getByRole('textbox', { name: 'Volume (mL)' }).fill('1');
  await given.getByRole('textbox', { name: 'Lot' }).fill('TK2291');
  await expect(form.getByTestId('medicines-in-note')).toContainText('Triamcinolone acetonide 40 mg/mL: 40 mg, 1 mL, lot TK2291');
  await expectAccessibleAndFitting(page, 'intervention form');
  await page.screenshot({ path: test.info().outputPath('intervention-form.png'), fullPage: true });
  await form.getByRole('button', { name: 'Save record' }).click();

  // With procedure notes on (the demo clinic), the doctor goes straight on to the generated note,
  // filled from the record, reviews it and signs it; the signed version is read-only.
  await expect(page).toHaveURL(/\/patients\/procedurenoteform\//);
  const body = page.getByRole('textbox', { name: /Note/ });
  await expect(body).toHaveValue(/Lumbar transforaminal epidural steroid injection/);
  await expect(body).toHaveValue(/L4-L5, L5-S1/);
  await expect(body).toHaveValue(/Triamcinolone acetonide 40 mg\/mL: 40 mg, 1 mL, lot TK2291/);
  // The example template leaves sections for the provider; the note is not signed until they are written.
  await expect(page.getByTestId('procedure-note-unfilled')).toContainText('Indication, Description');
  const written = (await body.inputValue()).replaceAll('[to be completed by the provider]', 'Written by the provider.');
  await body.fill(`${written}\nReviewed by the provider.`);
  await expect(page.getByTestId('procedure-note-unfilled')).toHaveCount(0);
  await expectAccessibleAndFitting(page, 'procedure note');
  await page.getByRole('button', { name: 'Sign' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Sign' }).click();
  await expect(page.getByText(/Electronically signed by/).first()).toBeVisible();
  await expect(page.getByRole('textbox', { name: /Note/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Amend' })).toBeVisible();

  // The injection started the clinic's injection pathway (its trigger); the dashboard shows the
  // procedure on the pain chart and the pathway's next questionnaire date.
  await page.goto(`/patients/patientdashboard/${patient.id}`);
  const pathway = page.getByTestId('patient-pathway').filter({ hasText: /epidural/i });
  await expect(pathway).toBeVisible();
  // The baseline questionnaire is the pathway's first step, due on the procedure's day.
  await expect(pathway).toContainText(/Next: Pain Disability Index \(PDI\) on \d\d\/\d\d\/\d{4}/);
  await expect(page.getByTestId('procedures-card').getByTestId('procedure-row').first()).toContainText('L4-L5, L5-S1');
  const chartTable = page.getByTestId('pain-trend-table');
  await expect(chartTable).toContainText('Lumbar transforaminal epidural steroid injection');
  await expectAccessibleAndFitting(page, 'patient dashboard with a procedure');
  // Each visit opens its visit record (actions taken, codes, note, new pain).
  await page.getByTestId('open-visit-record').first().click();
  await expect(page.getByTestId('visit-record-form')).toBeVisible();
  await expect(page.getByTestId('new-pain-form')).toBeVisible();
  await expectAccessibleAndFitting(page, 'visit record');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('visit-record-form')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('patient-dashboard.png'), fullPage: true });

  // The pathway's own page: its steps with their dates.
  await pathway.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/pathwaysresponse\//);
  await expect(page.getByTestId('pathway-enrolment-status')).toContainText('Active');
  await waitForQuietNetwork(page);
  await expectAccessibleAndFitting(page, 'pathway response');
  await page.screenshot({ path: test.info().outputPath('pathway-response.png'), fullPage: true });

  // The staff dashboard lists the pain-pump refills coming due (issue #24), beside the notes to sign.
  await page.goto('/patients/dashboard');
  const refills = page.getByTestId('pump-refills-due');
  await expect(refills.getByRole('heading', { name: /Pump refills coming due/ })).toBeVisible();
  await refills.getByText('90 days', { exact: true }).click();
  await expect(refills.getByText(/No pump refill is due within 90 days|in \d+ days|overdue|due today/).first()).toBeVisible();
  await waitForQuietNetwork(page);
  await expectAccessibleAndFitting(page, 'staff dashboard with pump refills');
});

test('an admin sees the example pathways with their completion rate and opens one in the editor', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, 'admin@pathwell.demo');
  await page.goto('/pathways');
  await expect(page.getByRole('heading', { name: 'Pathways', level: 1 })).toBeVisible();
  const injection = page.getByRole('row').filter({ hasText: 'Lumbar epidural steroid injection' });
  await expect(injection).toBeVisible();
  await expect(injection.getByTestId('pathway-example')).toBeVisible();
  // The demo enrolments have steps done and missed, so the rate is a real share, not "nothing due".
  await expect(injection).toContainText(/\d+% \(\d+ of \d+\)/);
  await waitForQuietNetwork(page);
  await expectAccessibleAndFitting(page, 'pathways');
  await page.getByRole('button', { name: /Edit Lumbar epidural steroid injection/ }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectAccessibleAndFitting(page, 'pathway editor');
  await page.screenshot({ path: test.info().outputPath('pathway-editor.png'), fullPage: true });
});

test('a patient records today’s pain on a phone through the pain-journal link staff sent', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const staff = await tokenOf(request, 'staff@pathwell.demo');
  const headers = { authorization: `Bearer ${staff.token}` };
  const patient = await patientWithoutProcedures(request);
  const sent = await request.post(`/api/patients/${patient.id}/painjournal/send`, { headers, data: { send: [] } });
  expect(sent.status()).toBe(201);
  const { url } = (await sent.json()) as { url: string };

  const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  const page = await phone.newPage();
  await page.goto(new URL(url).pathname);
  await expect(page.getByTestId('pain-journal-form')).toBeVisible();
  await expectAccessibleAndFitting(page, 'pain journal');
  await page.getByRole('radio', { name: '4' }).check();
  await page.getByLabel(/Anything you want the clinic to know/).fill('Better since the injection.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('pain-journal-thanks')).toBeVisible();
  await expect(page.getByTestId('pain-journal-recent')).toContainText('4 out of 10');
  await expectAccessibleAndFitting(page, 'pain journal thanks');
  await phone.close();

  // The entry is on the patient's pain timeline for the dashboard chart.
  const timeline = await request.get(`/api/patients/${patient.id}/paintimeline`, { headers });
  const { journal } = (await timeline.json()) as { journal: { score: number; note: string | null }[] };
  expect(journal).toContainEqual(expect.objectContaining({ score: 4 }));
});
