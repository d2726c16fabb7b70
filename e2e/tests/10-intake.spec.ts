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
  const staff = await tokenOf(request, 'staff@pathwell.demo');
  const doctor = await tokenOf(request, 'doctor@pathwell.demo');
  const auth = { authorization: `Bearer ${staff.token}` };
  const created = await request.post('/api/patients/create', {
    headers: auth,
    data: {
      firstName: 'Marisol',
      lastName: 'Quintero',
      dateOfBirth: '1979-02-11',
      doctorId: doctor.id,
      email: 'marisol.quintero@example.test',
      preferredLanguage: 'es',
      patientPhoneNumbers: [],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const patientId = ((await created.json()) as { id: string }).id;
  // Late evening in the clinic, when the demo schedule has no visits; the next free half hour wins.
  let visit = null;
  for (let slot = 0; slot < 12 && visit?.status() !== 201; slot++) {
    const startsAt = new Date(Date.UTC(2030, 0, 8, 4, 0) + slot * 30 * 60_000).toISOString();
    visit = await request.post('/api/patientappointments', {
      headers: auth,
      data: { patientId, doctorId: doctor.id, startsAt, reason: 'new_patient' },
    });
  }
  expect(visit!.status(), await visit!.text()).toBe(201);
  const appointmentId = ((await visit!.json()) as { id: string }).id;
  const intake = await request.post('/api/patients/intake', {
    headers: auth,
    data: { patientId, appointmentId, formCodes: [10], amountDueCents: 3500, send: ['email'] },
  });
  expect(intake.status(), await intake.text()).toBe(201);
  const { url } = (await intake.json()) as { url: string };

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
  await patient.getByLabel('Su dolor en este momento').fill('7');
  await patient.getByLabel('Su dolor en su peor momento de la última semana').fill('9');
  await expectAccessible(patient, 'vas');
  await patient.getByRole('button', { name: 'Guardar y continuar' }).click();

  // 5. Body map: lower back and left leg.
  await expect(patient.getByRole('heading', { name: 'Dónde siente dolor' })).toBeVisible();
  await patient.getByRole('button', { name: 'Parte baja de la espalda', exact: true }).click();
  await patient.getByRole('button', { name: '8', exact: true }).click();
  await patient.getByRole('button', { name: 'Muslo izquierdo (delante)', exact: true }).click();
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
  await signIn(page, 'doctor@pathwell.demo');
  const intakes = await page.request.get(`/api/patients/${patientId}/intake`, {
    headers: { authorization: `Bearer ${doctor.token}` },
  });
  expect(intakes.status()).toBe(200);
  const [first] = (await intakes.json()) as {
    status: string;
    saved: { vas: { current: number; worst: number }; bodymap: { regions: Record<string, number> } };
    consents: { pdfUrl: string }[];
    forms: { done: boolean; headlineScore: number | null }[];
  }[];
  expect(first).toMatchObject({
    status: 'completed',
    saved: { vas: { current: 7, worst: 9 }, bodymap: { regions: { 'lower-back': 8, 'left-upper-leg': 5 } } },
    forms: [{ done: true, headlineScore: 3 }],
  });
  const pdf = await page.request.get(first!.consents[0]!.pdfUrl, { headers: { authorization: `Bearer ${doctor.token}` } });
  expect(pdf.headers()['content-type']).toBe('application/pdf');
});
