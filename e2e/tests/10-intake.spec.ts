import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { DEMO_PASSWORD, signIn } from './helpers';

async function tokenOf(request: APIRequestContext, email: string) {
  const response = await request.post('/api/users/authenticate', { data: { email, password: DEMO_PASSWORD } });
  expect(response.status()).toBe(200);
  return (await response.json()) as { token: string; id: string };
}

/** 0 serious or critical violations: what the issue asks of every patient page of the flow. */
async function expectAccessible(page: Page, name: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(
    serious.map(
      (violation) =>
        `${name}: ${violation.id} ${violation.help} ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    ),
  ).toEqual([]);
}

async function noSideScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

test('a new patient checks in on a phone in Spanish: all steps, signature, body map, a closed tab resumed; staff see it', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const doctor = await tokenOf(request, 'doctor@pathwell.demo');
  // Staff register the new patient, book the visit and send the link from one screen.
  await signIn(page, 'staff@pathwell.demo');
  await page.goto('/patients/basicintake');
  await page.getByLabel('First name').fill('Marisol');
  await page.getByLabel('Last name').fill('Quintero');
  await page.getByLabel('Date of birth').fill('02/11/1979');
  await page.getByRole('textbox', { name: 'Email' }).fill('marisol.quintero@example.test');
  await page.getByRole('combobox', { name: 'Preferred language' }).click();
  await page.getByRole('option', { name: 'Español' }).click();
  await page.getByRole('combobox', { name: 'Provider' }).click();
  await page.getByRole('option', { name: 'Daniela Ortiz' }).click();
  // Late evening, years ahead: the demo schedule has no visit there.
  await page.getByRole('textbox', { name: /^Date\s*\*?$/ }).fill('01/07/2030');
  await page.getByLabel('Time').fill('22:00');
  await page.getByRole('checkbox', { name: /PHQ-2/ }).check();
  await page.getByLabel('Amount due').fill('35');
  await expect(page.getByRole('checkbox', { name: 'Send by email' })).toBeChecked();
  await page.screenshot({ path: 'test-results/screenshots/basic-intake-1280.png', fullPage: true });
  await page.getByTestId('basic-intake-submit').click();
  await expect(page.getByTestId('basic-intake-done')).toBeVisible();
  const url = await page.getByTestId('intake-url').inputValue();
  expect(url).toMatch(/\/patients\/intake\/[A-Za-z0-9_-]{43}\/[0-9a-f-]{36}$/);
  const patientId = (await page.getByRole('link', { name: 'Open the patient dashboard' }).getAttribute('href'))!
    .split('/')
    .pop()!;

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
    await patient.getByLabel('Apellido').fill('quintero');
    await patient.getByLabel('Fecha de nacimiento').fill('02111979');
    await patient.getByRole('button', { name: 'Continuar' }).click();
  };
  await openAndVerify();
  const dashboard = patient.getByTestId('intake-dashboard');
  await expect(dashboard).toContainText('Documentos para pacientes nuevos');
  await expectAccessible(patient, 'dashboard');
  await noSideScroll(patient);
  await patient.screenshot({ path: 'test-results/screenshots/intake-dashboard-375.png', fullPage: true });
  await patient.getByRole('button', { name: 'Empezar' }).click();

  // 1. Paperwork with the agreement signed by finger.
  await expect(patient.getByRole('heading', { name: 'Documentos para pacientes nuevos' })).toBeVisible();
  // What the clinic has on file is there to confirm or correct (issue #24 §4): the patient corrects the email.
  await expect(patient.getByTestId('paperwork-on-file')).toContainText('Completamos lo que tenemos');
  const email = patient.getByRole('textbox', { name: 'Correo electrónico' });
  await expect(email).toHaveValue('marisol.quintero@example.test');
  await email.fill('marisol.q@example.test');
  await patient.getByLabel('Teléfono móvil (obligatorio)').fill('(512) 555-0171');
  await patient.getByLabel('Dirección (obligatorio)').fill('401 Congress Ave');
  await patient.getByLabel('Ciudad (obligatorio)').fill('Austin');
  await patient.getByLabel('Estado (obligatorio)').fill('tx');
  await patient.getByLabel('Código postal (obligatorio)').fill('78701');
  await patient.getByLabel('Nombre (obligatorio)').fill('Rafael Quintero');
  await patient.getByLabel('Teléfono (obligatorio)').fill('(512) 555-0172');
  await patient.getByLabel('Compañía de seguro (obligatorio)').fill('Blue Cross');
  // Submitting before everything is there names what is missing, and nothing is lost.
  await patient.getByRole('button', { name: 'Guardar y continuar' }).click();
  await expect(patient.getByRole('alert')).toContainText('Algunas respuestas necesitan atención');
  await patient.getByLabel('Número de miembro (obligatorio)').fill('XJ55512');
  await expectAccessible(patient, 'paperwork');
  await noSideScroll(patient);
  const canvas = patient.getByTestId('signature-canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  await patient.mouse.move(box.x + 20, box.y + box.height / 2);
  await patient.mouse.down();
  for (let step = 1; step <= 10; step++)
    await patient.mouse.move(box.x + 20 + step * 20, box.y + box.height / 2 + (step % 2 ? -15 : 15));
  await patient.mouse.up();
  await patient.screenshot({ path: 'test-results/screenshots/intake-paperwork-375.png', fullPage: true });
  await patient.getByRole('button', { name: 'Guardar y continuar' }).click();

  // 2. Health history; then the tab is closed half way through and opened again.
  await expect(patient.getByRole('heading', { name: 'Historial de salud' })).toBeVisible();
  await patient.getByLabel('No tengo alergias conocidas').check();
  await patient.getByLabel('Nombre del medicamento').fill('Gabapentina');
  await patient.getByRole('button', { name: 'Agregar medicamento' }).click();
  await expect(patient.getByText('Gabapentina')).toBeVisible();
  await expect(patient.getByText('Sus respuestas están guardadas.')).toBeVisible();
  await patient.close();
  patient = await phone.newPage();
  await openAndVerify();
  await expect(patient.getByTestId('intake-dashboard')).toBeVisible();
  await patient.getByRole('button', { name: 'Seguir donde lo dejé' }).click();
  await expect(patient.getByRole('heading', { name: 'Historial de salud' })).toBeVisible();
  await expect(patient.getByText('Gabapentina')).toBeVisible();
  await patient.getByRole('button', { name: 'Guardar y continuar' }).click();

  // 4. Pain scores.
  await expect(patient.getByRole('heading', { name: 'Nivel de dolor' })).toBeVisible();
  // Nothing is chosen until the patient chooses (issue #24 §1): scrolling past records nothing.
  const vas = (question: string) => patient.getByRole('radiogroup', { name: question });
  await expect(vas('Su dolor en este momento').getByRole('radio', { checked: true })).toHaveCount(0);
  await expect(patient.getByText('Aún sin responder')).toHaveCount(4);
  await patient.getByRole('button', { name: 'Guardar y continuar' }).click();
  await expect(patient.getByText('Elija un número de 0 (sin dolor) a 10')).toHaveCount(4);
  await expect(patient.getByRole('heading', { name: 'Nivel de dolor' })).toBeVisible();
  await vas('Su dolor en este momento').getByRole('radio', { name: '7', exact: true }).click();
  await vas('Su dolor promedio en la última semana').getByRole('radio', { name: '6', exact: true }).click();
  await vas('Su dolor en su mejor momento de la última semana').getByRole('radio', { name: '0, sin dolor' }).click();
  // The keyboard too: Tab reaches a question, the arrow keys move through 0–10.
  await vas('Su dolor en su peor momento de la última semana').getByRole('radio', { name: '8', exact: true }).focus();
  await patient.keyboard.press('ArrowRight');
  await expect(
    vas('Su dolor en su peor momento de la última semana').getByRole('radio', { name: '9', exact: true }),
  ).toBeChecked();
  await expect(patient.getByText('Eligió 7 de 10')).toBeVisible();
  await expectAccessible(patient, 'vas');
  await noSideScroll(patient);
  await patient.screenshot({ path: 'test-results/screenshots/intake-vas-375.png', fullPage: true });
  await patient.getByRole('button', { name: 'Guardar y continuar' }).click();

  // 5. Body map: lower back and left leg.
  await expect(patient.getByRole('heading', { name: 'Dónde siente dolor' })).toBeVisible();
  // A tap records nothing: the 1–10 sheet opens along the bottom of the screen, in the thumb's reach.
  await patient.getByRole('button', { name: 'Parte baja de la espalda', exact: true }).click();
  const sheet = patient.getByRole('dialog', { name: '¿Qué tan fuerte es el dolor en: Parte baja de la espalda?' });
  await expect(sheet).toBeVisible();
  const sheetBox = (await sheet.boundingBox())!;
  expect(sheetBox.y + sheetBox.height).toBeLessThanOrEqual(740 + 1);
  expect(sheetBox.y).toBeGreaterThan(740 / 3);
  await expect(patient.getByText('No hay zonas marcadas')).toBeVisible();
  await expectAccessible(patient, 'body map sheet');
  await patient.screenshot({ path: 'test-results/screenshots/intake-bodymap-sheet-375.png' });
  await sheet.getByRole('button', { name: '8', exact: true }).click();
  await expect(sheet).toBeHidden();
  // Tapped and left without a level: not saved.
  await patient.getByRole('button', { name: 'Rodilla derecha', exact: true }).click();
  await patient.getByRole('button', { name: 'Cancelar' }).click();
  await patient.getByRole('button', { name: 'Muslo izquierdo (delante)', exact: true }).click();
  await patient.getByRole('dialog').getByRole('button', { name: '5', exact: true }).click();
  await expectAccessible(patient, 'body map');
  await noSideScroll(patient);
  await patient.screenshot({ path: 'test-results/screenshots/intake-bodymap-375.png', fullPage: true });
  await patient.getByRole('button', { name: 'Guardar y continuar' }).click();

  // 6. The PHQ-2, in the same flow.
  const progress = patient.getByTestId('progress');
  await expect(progress).toHaveText('Pregunta 1 de 2');
  await patient.getByRole('radio').nth(1).check();
  await patient.getByRole('button', { name: 'Siguiente' }).click();
  await patient.getByRole('radio').nth(2).check();
  await patient.getByRole('button', { name: 'Siguiente' }).click();
  await patient.getByRole('button', { name: 'Enviar' }).click();

  // 7. Payment at the desk, then done.
  await expect(
    patient.getByText('Monto a pagar por esta cita: US$35.00').or(patient.getByText('Monto a pagar por esta cita: $35.00')),
  ).toBeVisible();
  await patient.getByRole('button', { name: 'Pagaré en la recepción' }).click();
  await expect(patient.getByTestId('intake-complete')).toContainText('Su registro está completo');
  await expect(patient).toHaveURL(/\/patients\/intakecomplete$/);
  await expectAccessible(patient, 'complete');
  await patient.screenshot({ path: 'test-results/screenshots/intake-complete-375.png', fullPage: true });
  await phone.close();

  // The doctor sees it all on the patient dashboard, with the consent PDF.
  await page.goto('/signin');
  await page.evaluate(() => window.localStorage.clear());
  await signIn(page, 'doctor@pathwell.demo');
  await page.goto(`/patients/patientdashboard/${patientId}`);
  const card = page.getByTestId('patient-intake');
  await expect(card.getByTestId('intake-entry')).toHaveCount(1);
  await expect(card).toContainText('Complete');
  await expect(card.getByTestId('intake-vas')).toContainText('Pain now 7');
  await expect(card).toContainText('Gabapentina');
  await expect(card).toContainText('Lower back: 8 of 10');
  await expect(card).toContainText('score 3');
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/intake-on-patient-dashboard-1280.png', fullPage: true });
  const popup = page.waitForEvent('popup');
  await card.getByRole('button', { name: 'Open PDF' }).click();
  await (await popup).close();

  // The paperwork against the record: the corrected email waits for staff; what the record lacked was filled.
  const changes = card.getByTestId('intake-changes');
  await expect(changes).toContainText('1 answer differs from the record');
  await expect(changes.getByTestId('intake-change-email')).toContainText('marisol.quintero@example.test');
  await expect(changes.getByTestId('intake-change-email')).toContainText('marisol.q@example.test');
  await expect(changes.getByTestId('intake-change-primaryInsurance')).toContainText('Payer: Blue Cross · Member ID: XJ55512');
  await expect(changes.getByTestId('intake-change-emergencyContact')).toContainText('Same as on file');
  await changes.scrollIntoViewIfNeeded();
  await expectAccessible(page, 'intake changes');
  await page.screenshot({ path: 'test-results/screenshots/intake-changes-1280.png', fullPage: true });
  await changes.getByRole('checkbox', { name: 'Accept Email' }).check();
  await changes.getByTestId('intake-accept').click();
  await expect(changes).toContainText('Everything matches the record');
  const record = await page.request.get(`/api/patients/${patientId}`, { headers: { authorization: `Bearer ${doctor.token}` } });
  expect(((await record.json()) as { email: string }).email).toBe('marisol.q@example.test');

  // The intake's medication into the medicines list (and so into MME), mapped by the doctor.
  await expect(page.getByTestId('patient-medicines')).toContainText('No current medicines');
  await card.getByTestId('intake-reconcile').click();
  const dialog = page.getByRole('dialog', { name: 'Medicines and allergies from the intake' });
  await expect(dialog.getByTestId('reconcile-medication')).toContainText('Gabapentina');
  await dialog.getByTestId('reconcile-medicine-select').fill('Gabapentin');
  await page.getByRole('option', { name: 'Gabapentin 300 mg' }).click();
  await dialog.getByLabel('Units per dose').fill('1');
  await dialog.getByLabel('Doses per day').fill('3');
  await dialog.getByTestId('reconcile-save').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('patient-medicines').getByTestId('medicine-row')).toContainText('Gabapentin 300 mg');
  await expect(card.getByTestId('intake-reconciled')).toContainText('1 medicines, 0 allergies');
  const intakes = await page.request.get(`/api/patients/${patientId}/intake`, {
    headers: { authorization: `Bearer ${doctor.token}` },
  });
  const [first] = (await intakes.json()) as {
    saved: { bodymap: { regions: Record<string, number> } };
    consents: { pdfUrl: string }[];
  }[];
  expect(first!.saved.bodymap.regions).toEqual({ 'lower-back': 8, 'left-upper-leg': 5 });
  const pdf = await page.request.get(first!.consents[0]!.pdfUrl, { headers: { authorization: `Bearer ${doctor.token}` } });
  expect(pdf.headers()['content-type']).toBe('application/pdf');
});

test('staff send a day of intake links in bulk, watch the progress, and see each patient on the appointment dashboard', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const admin = await tokenOf(request, 'admin@pathwell.demo');
  const doctor = await tokenOf(request, 'doctor@pathwell.demo');
  const auth = { authorization: `Bearer ${admin.token}` };
  const created = await request.post('/api/patients/create', {
    headers: auth,
    data: {
      firstName: 'Tomás',
      lastName: 'Echeverría',
      dateOfBirth: '1985-09-30',
      doctorId: doctor.id,
      email: 'tomas.echeverria@example.test',
      preferredLanguage: 'es',
      patientPhoneNumbers: [],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const patientId = ((await created.json()) as { id: string }).id;
  // 11 PM clinic time (UTC-6 in January) on a day years ahead, free in the demo schedule; an hour
  // earlier on a retry, whose first attempt still holds the doctor at 11 PM.
  const startsAt = new Date(Date.UTC(2030, 0, 10, 5 - test.info().retry)).toISOString();
  const visit = await request.post('/api/patientappointments', {
    headers: auth,
    data: { patientId, doctorId: doctor.id, startsAt, reason: 'follow_up' },
  });
  expect(visit.status(), await visit.text()).toBe(201);

  await signIn(page, 'admin@pathwell.demo');
  await page.goto('/patients/bulkintakenotification');
  await page.getByTestId('bulk-intake-date').fill('01/09/2030');
  await page.getByTestId('bulk-intake-preview').click();
  await expect(page.getByTestId('bulk-intake-summary')).toContainText('1 of 1 patient will get a link');
  await expect(page.getByRole('table')).toContainText('Tomás Echeverría');
  await page.screenshot({ path: 'test-results/screenshots/bulk-intake-preview-1280.png', fullPage: true });
  await page.getByTestId('bulk-intake-send').click();
  await page.getByTestId('bulk-intake-confirm').click();
  const progress = page.getByTestId('bulk-intake-progress');
  await expect(progress).toBeVisible();
  // The demo has no email server: the message is kept as "stored", so nothing stays waiting.
  await expect(page.getByTestId('bulk-intake-done')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByTestId('bulk-intake-progress-label')).toContainText('1 not sent');
  await page.screenshot({ path: 'test-results/screenshots/bulk-intake-progress-1280.png', fullPage: true });

  await page.goto('/patients/appointmentdashboard');
  await page.getByTestId('appt-dashboard-day').fill('01/09/2030');
  const row = page.getByRole('row', { name: /Tomás Echeverría/ });
  await expect(row).toBeVisible();
  await expect(row.getByLabel('Health history: to do')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/appointment-dashboard-1280.png', fullPage: true });
});

test('a patient checks in at the clinic from the QR code staff show, and the appointment dashboard follows live', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const admin = await tokenOf(request, 'admin@pathwell.demo');
  const doctor = await tokenOf(request, 'doctor@pathwell.demo');
  const auth = { authorization: `Bearer ${admin.token}` };
  const created = await request.post('/api/patients/create', {
    headers: auth,
    data: {
      firstName: 'Inés',
      lastName: 'Villarreal',
      dateOfBirth: '1971-03-22',
      preferredLanguage: 'en',
      patientPhoneNumbers: [],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const patientId = ((await created.json()) as { id: string }).id;
  // Soon, whenever the run is: the first free 5 minutes in the doctor's day. The demo books the doctor's
  // working day back to back (seen in CI at 8:05 in the clinic: nothing free for two hours), so the
  // search runs on through the day (a check-in must be today) until a gap or the evening.
  const visit = await (async () => {
    for (let minutes = 5; ; minutes += 5) {
      const startsAt = new Date(Date.now() + minutes * 60_000);
      startsAt.setSeconds(0, 0);
      const answer = await request.post('/api/patientappointments', {
        headers: auth,
        data: { patientId, doctorId: doctor.id, startsAt: startsAt.toISOString(), durationMinutes: 5, reason: 'follow_up' },
      });
      if (answer.status() !== 409 || minutes >= 14 * 60) return answer;
    }
  })();
  expect(visit.status(), await visit.text()).toBe(201);
  const appointmentId = ((await visit.json()) as { id: string }).id;

  await signIn(page, 'admin@pathwell.demo');
  await page.goto('/patients/appointmentdashboard');
  const row = page.getByRole('row', { name: /Inés Villarreal/ });
  await expect(row.getByTestId('checked-in')).toHaveAttribute('data-checked-in', 'false');
  await row.getByRole('button', { name: 'Show the check-in QR code for Inés Villarreal' }).click();
  const dialog = page.getByRole('dialog', { name: 'Self check-in QR code' });
  await expect(dialog.getByRole('img', { name: 'QR code to check in Inés Villarreal' })).toBeVisible();
  const url = (await dialog.getByTestId('self-checkin-qr-url').textContent())!.trim();
  expect(url).toMatch(new RegExp(`/patients/${patientId}/appointments/${appointmentId}/patient-checkin$`));
  await page.screenshot({ path: 'test-results/screenshots/self-checkin-qr-1280.png' });
  await page.keyboard.press('Escape');

  const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
  const patient = await phone.newPage();
  await patient.goto(url);
  await expect(patient.getByRole('heading', { level: 1, name: 'Check in for your visit' })).toBeVisible();
  await expect(patient.getByText('Riverside Spine & Pain')).toBeVisible();
  await expectAccessible(patient, 'self check-in');
  await noSideScroll(patient);
  // A wrong date of birth is refused and nothing changes.
  await patient.getByLabel('Last name').fill('Villarreal');
  await patient.getByLabel('Date of birth').fill('03231971');
  await patient.getByRole('button', { name: 'Check in' }).click();
  await expect(patient.getByRole('alert')).toBeVisible();
  await patient.getByLabel('Date of birth').fill('03221971');
  await patient.getByRole('button', { name: 'Check in' }).click();
  await expect(patient.getByRole('heading', { name: 'You are checked in' })).toBeVisible();
  await expectAccessible(patient, 'self check-in done');
  await patient.screenshot({ path: 'test-results/screenshots/self-checkin-375.png', fullPage: true });
  await phone.close();

  // The dashboard hears of it without a reload.
  await expect(row.getByTestId('checked-in')).toHaveAttribute('data-checked-in', 'true', { timeout: 10_000 });
});

test("(2) a returning patient's flow skips the paperwork and shows last visit's body map", async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  // Each attempt its own patient, so a retry never finds the first attempt's namesake in the pickers.
  const lastName = test.info().retry === 0 ? 'Olmedo' : `Olmedo${'xyz'[test.info().retry - 1] ?? 'w'}`;
  const admin = await tokenOf(request, 'admin@pathwell.demo');
  const doctor = await tokenOf(request, 'doctor@pathwell.demo');
  const auth = { authorization: `Bearer ${admin.token}` };
  // The demo's patient with an earlier intake never signed the new-patient agreement (the seeded visits
  // are follow-ups), so their next link would ask for the paperwork: this patient did a whole first intake.
  const created = await request.post('/api/patients/create', {
    headers: auth,
    data: {
      firstName: 'Beatriz',
      lastName,
      dateOfBirth: '1968-05-14',
      doctorId: doctor.id,
      email: 'beatriz.olmedo@example.test',
      preferredLanguage: 'en',
      patientPhoneNumbers: [],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const patientId = ((await created.json()) as { id: string }).id;
  // The first visit six weeks ago, late in the evening (free in the demo schedule); an hour later on a
  // retry, whose first attempt already booked the doctor then.
  const firstVisitAt = new Date(Date.now() - 42 * 24 * 3_600_000);
  firstVisitAt.setUTCHours(4 + test.info().retry, 0, 0, 0);
  const firstVisit = await request.post('/api/patientappointments', {
    headers: auth,
    data: { patientId, doctorId: doctor.id, startsAt: firstVisitAt.toISOString(), reason: 'new_patient' },
  });
  expect(firstVisit.status(), await firstVisit.text()).toBe(201);
  const firstIntake = await request.post('/api/patients/intake', {
    headers: auth,
    data: { patientId, appointmentId: ((await firstVisit.json()) as { id: string }).id, formCodes: [], send: [] },
  });
  expect(firstIntake.status(), await firstIntake.text()).toBe(201);
  const first = (await firstIntake.json()) as { url: string; steps: number[] };
  expect(first.steps).toEqual([1, 2, 4, 5, 7]);
  // The patient's answers at that visit, as the phone sends them: paperwork signed, then every step.
  const firstToken = new URL(first.url).pathname.split('/')[3]!;
  const verified = await request.post(`/api/patient-links/${firstToken}/verify`, {
    data: { lastName, dateOfBirth: '05/14/1968' },
  });
  expect(verified.status(), await verified.text()).toBe(200);
  const patientAuth = { authorization: `Bearer ${((await verified.json()) as { accessToken: string }).accessToken}` };
  const signature =
    'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
  const firstAnswers: [string, Record<string, unknown>][] = [
    [
      'paperwork',
      {
        streetAddress1: '88 Barton Springs Rd',
        city: 'Austin',
        state: 'TX',
        zip: '78704',
        phones: [{ type: 'MOBILE', number: '(512) 555-0191' }],
        contacts: [{ role: 'emergency', name: 'Ana Olmedo', phone: '(512) 555-0192' }],
        selfPay: true,
        agreementSignature: { image: signature, signedAt: new Date().toISOString() },
      },
    ],
    ['history', { noKnownAllergies: true, noMedications: true }],
    ['vas', { current: 7, average: 6, best: 4, worst: 9 }],
    ['bodymap', { regions: { neck: 6, 'right-shoulder': 4 } }],
    ['payment', { method: 'desk' }],
  ];
  let completed = false;
  for (const [slug, data] of firstAnswers) {
    const saved = await request.put(`/api/intake/${firstToken}/${slug}`, {
      headers: patientAuth,
      data: { final: true, language: 'en', data },
    });
    expect(saved.status(), `${slug}: ${await saved.text()}`).toBe(200);
    completed = ((await saved.json()) as { completed: boolean }).completed;
  }
  expect(completed).toBe(true);

  // Staff send the follow-up's link from the same screen as for a new patient, picking the patient.
  await signIn(page, 'staff@pathwell.demo');
  await page.goto('/patients/basicintake');
  await page.getByText('Existing patient', { exact: true }).click();
  await page.getByRole('combobox', { name: 'Patient', exact: true }).fill(lastName);
  await page.getByRole('option', { name: new RegExp(`Beatriz ${lastName}\\b`) }).click();
  await page.getByRole('combobox', { name: 'Provider' }).click();
  await page.getByRole('option', { name: 'Daniela Ortiz' }).click();
  // A day of its own for each attempt: the first attempt's visit still holds the doctor's 22:30.
  await page.getByRole('textbox', { name: /^Date\s*\*?$/ }).fill(`01/${14 + test.info().retry}/2030`);
  await page.getByLabel('Time').fill('22:30');
  await page.getByRole('combobox', { name: 'Visit' }).click();
  await page.getByRole('option', { name: 'Follow-up' }).click();
  await page.getByTestId('basic-intake-submit').click();
  const done = page.getByTestId('basic-intake-done');
  await expect(done).toBeVisible();
  await expect(done).toContainText('Steps: Health history, Pain scores, Body map, Payment');
  const url = await page.getByTestId('intake-url').inputValue();

  const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
  const patient = await phone.newPage();
  await patient.goto(url);
  await patient.getByLabel('Last name').fill(lastName.toLowerCase());
  await patient.getByLabel('Date of birth').fill('05141968');
  await patient.getByRole('button', { name: 'Continue' }).click();

  // The step list: no paperwork this time, the agreement signed at the first visit still holds.
  const dashboard = patient.getByTestId('intake-dashboard');
  await expect(dashboard.getByRole('heading', { name: "Hello Beatriz, let's get you checked in" })).toBeVisible();
  const stepNames = dashboard.locator('.pw-step-name');
  await expect(stepNames).toHaveText(['Health history', 'Pain scores', 'Where you feel pain', 'Payment']);
  await expect(dashboard).not.toContainText('New patient paperwork');
  await expectAccessible(patient, 'returning dashboard');
  await noSideScroll(patient);

  // The body map step: today's map starts empty, last visit's is shown below it, read-only.
  await dashboard.getByRole('button', { name: 'Open: Where you feel pain' }).click();
  await expect(patient.getByRole('heading', { name: 'Where you feel pain' })).toBeVisible();
  const lastVisit = patient.getByRole('figure', { name: 'Last visit' });
  await expect(lastVisit).toBeVisible();
  await expect(lastVisit).toContainText('2 areas marked');
  // Each item starts with its colour swatch, which repeats the number for sighted readers only.
  await expect(lastVisit.getByRole('listitem')).toHaveText([/Right shoulder: 4 of 10$/, /Neck: 6 of 10$/]);
  await expect(lastVisit.locator('[data-region="neck"] text')).toHaveText('6');
  await expect(lastVisit.getByRole('button')).toHaveCount(0);
  await expect(patient.getByText('No areas marked')).toBeVisible();
  await patient.getByRole('button', { name: 'Neck', exact: true }).click();
  await patient.getByRole('dialog').getByRole('button', { name: '3', exact: true }).click();
  await patient.getByRole('button', { name: 'Lower back', exact: true }).click();
  await patient.getByRole('dialog').getByRole('button', { name: '5', exact: true }).click();
  await expect(patient.getByRole('button', { name: 'Neck, pain 3 of 10' })).toHaveAttribute('aria-pressed', 'true');
  await expectAccessible(patient, 'body map with last visit');
  await noSideScroll(patient);
  await patient.screenshot({ path: 'test-results/screenshots/intake-bodymap-last-visit-375.png', fullPage: true });
  await patient.screenshot({ path: '/tmp/a11y-intake-bodymap-last-visit-375.png', fullPage: true });
  await patient.getByRole('button', { name: 'Save and continue' }).click();
  await expect(patient.getByRole('heading', { name: 'Payment' })).toBeVisible();
  await patient.getByRole('button', { name: 'All steps' }).click();
  await expect(dashboard.getByRole('listitem').filter({ hasText: 'Where you feel pain' })).toContainText('Done');
  await phone.close();

  // The doctor sees today's map beside the previous visit's on the patient dashboard.
  await page.goto('/signin');
  await page.evaluate(() => window.localStorage.clear());
  await signIn(page, 'doctor@pathwell.demo');
  await page.goto(`/patients/patientdashboard/${patientId}`);
  const card = page.getByTestId('patient-intake');
  const entries = card.getByTestId('intake-entry');
  // The current intake first; the earlier one on demand (issue #24 §4).
  await expect(entries).toHaveCount(1);
  await card.getByRole('button', { name: 'Show 1 earlier intake' }).click();
  await expect(entries).toHaveCount(2);
  const followUp = entries.first();
  await expect(followUp).toContainText('In progress');
  await expect(followUp).toContainText('Body map · 2 areas marked');
  await expect(followUp).toContainText('Previous visit · 2 areas marked');
  await expect(followUp.getByRole('figure', { name: 'Body map' })).toContainText('Neck: 3 of 10');
  await expect(followUp.getByRole('figure', { name: 'Body map' })).toContainText('Lower back: 5 of 10');
  await expect(followUp.getByRole('figure', { name: 'Previous visit' })).toContainText('Neck: 6 of 10');
  await expect(entries.nth(1)).toContainText('Complete');
  await followUp.scrollIntoViewIfNeeded();
  // A picture for people, not a check: in one CI run Chromium's wait for web fonts never ended here and
  // took the whole journey down with it.
  await page
    .screenshot({
      path: 'test-results/screenshots/intake-returning-on-patient-dashboard-1280.png',
      fullPage: true,
      timeout: 15_000,
    })
    .catch(() => undefined);
  await page.screenshot({ path: '/tmp/a11y-intake-returning-patient-dashboard-1280.png', fullPage: true });
});
