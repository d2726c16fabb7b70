import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessibleAndFitting } from './a11y';
import { DEMO_PASSWORD, patientWithIntake, signIn } from './helpers';

/**
 * Issue #12, decision 0036: the consents signed on their own, "Request portal access" and closing an
 * account from the patient side. Each journey runs the patient's part on a 375 px phone (axe-core with
 * no serious or critical WCAG 2.1 A/AA violation, no sideways scrolling) and the staff part on a desk.
 */

const PHONE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true } as const;

async function tokenOf(request: APIRequestContext, email: string) {
  const response = await request.post('/api/users/authenticate', { data: { email, password: DEMO_PASSWORD } });
  expect(response.status()).toBe(200);
  return (await response.json()) as { token: string; id: string };
}

/** YYYY-MM-DD as typed on the identity check's numeric keypad: MMDDYYYY. */
const keypadDate = (iso: string) => `${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(0, 4)}`;

async function verifyIdentity(patient: Page, lastName: string, isoDateOfBirth: string) {
  await expect(patient.getByRole('heading', { name: 'Confirm who you are' })).toBeVisible();
  await patient.getByLabel('Last name').fill(lastName);
  await patient.getByLabel('Date of birth').fill(keypadDate(isoDateOfBirth));
  await patient.getByRole('button', { name: 'Continue' }).click();
}

/** A few strokes across the signature box with the mouse. */
async function drawSignature(patient: Page) {
  const canvas = patient.getByTestId('signature-canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  await patient.mouse.move(box.x + 20, box.y + box.height / 2);
  await patient.mouse.down();
  for (let step = 1; step <= 10; step++) {
    await patient.mouse.move(box.x + 20 + step * 22, box.y + box.height / 2 + (step % 2 ? -18 : 18));
  }
  await patient.mouse.up();
}

test('(1) staff send the injection consent; the patient signs it on a phone; the dashboard shows it valid with its PDF', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const staff = await tokenOf(request, 'staff@pathwell.demo');
  const manager = await tokenOf(request, 'manager@pathwell.demo');
  const staffAuth = { authorization: `Bearer ${staff.token}` };
  const managerAuth = { authorization: `Bearer ${manager.token}` };

  // The System Manager turns the injection consent on where the seed has not, and it is put back after.
  const before = await request.get('/api/instancesettings', { headers: managerAuth });
  expect(before.status()).toBe(200);
  const { values: original } = (await before.json()) as { values: Record<string, unknown> };
  const originalFlags = {
    enableShotConsent: original.enableShotConsent === true,
    enableDigitalShotConsent: original.enableDigitalShotConsent === true,
  };
  const desk = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const phone = await browser.newContext(PHONE);
  try {
    const settings = await desk.newPage();
    await signIn(settings, 'manager@pathwell.demo');
    await settings.goto('/admin/instancesettings');
    const save = settings.getByTestId('instance-settings-save');
    // Loaded and unchanged: the switches show what is saved before they are read.
    await expect(save).toBeDisabled();
    await settings.getByTestId('tab-featureFlags').click();
    for (const name of ['Injection consent', 'Digital injection consent']) {
      const toggle = settings.getByRole('switch', { name, exact: true });
      if (!(await toggle.isChecked())) await toggle.check();
      await expect(toggle).toBeChecked();
    }
    if (await save.isEnabled()) {
      await save.click();
      await expect(save).toBeDisabled();
    }
    await expect
      .poll(async () => {
        const saved = await request.get('/api/instancesettings', { headers: managerAuth });
        const { values } = (await saved.json()) as { values: Record<string, unknown> };
        return [values.enableShotConsent, values.enableDigitalShotConsent];
      })
      .toEqual([true, true]);
    await settings.close();

    // A demo patient of Riverside who reads English, has an email address on file and no injection consent yet.
    const list = await request.post('/api/patients/filtered', {
      headers: staffAuth,
      data: {
        patientStatus: 'Active',
        sortBy: 'LastName',
        sortDirection: 'asc',
        paginationFilter: { pageSize: 40, pageNumber: 0 },
      },
    });
    expect(list.status(), await list.text()).toBe(200);
    const { data: rows } = (await list.json()) as { data: { id: string; email: string | null; accountClosed: boolean }[] };
    let demo: { id: string; firstName: string; lastName: string; dateOfBirth: string } | null = null;
    for (const row of rows.filter((candidate) => candidate.email && !candidate.accountClosed)) {
      const view = await request.get(`/api/patients/${row.id}`, { headers: staffAuth });
      const patient = (await view.json()) as {
        id: string;
        firstName: string;
        lastName: string;
        dateOfBirth: string;
        preferredLanguage: string;
      };
      if (patient.preferredLanguage !== 'en') continue;
      // Not one the demo seed gave a consent or a consent link already.
      const consents = await request.get(`/api/patients/${row.id}/consents`, { headers: staffAuth });
      const { latest, pending } = (await consents.json()) as { latest: { kind: string }[]; pending: unknown[] };
      if (latest.some((consent) => consent.kind === 'shotConsent') || pending.length > 0) continue;
      demo = patient;
      break;
    }
    expect(demo, 'a demo patient in English with an email address').not.toBeNull();
    const { id: patientId, firstName, lastName, dateOfBirth } = demo!;

    // Staff send the consent from the patient dashboard's Consents card.
    await signIn(page, 'staff@pathwell.demo');
    await page.goto(`/patients/patientdashboard/${patientId}`);
    const card = page.getByTestId('patient-consents');
    await expect(card.getByRole('heading', { name: 'Consents' })).toBeVisible();
    await expect(card.getByTestId('consent-shotConsent')).toHaveCount(0);
    await card.getByRole('button', { name: 'Send injection consent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send the injection consent' });
    await expect(dialog.getByRole('checkbox', { name: 'Email' })).toBeChecked();
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(dialog.getByTestId('consent-link-created')).toBeVisible();
    const url = await dialog.getByTestId('consent-link-url').inputValue();
    expect(url).toMatch(/\/patients\/digitalconsentform\/[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(card.getByTestId('consent-pending')).toContainText('Waiting for signature: Injection consent');

    // The patient opens the link on a phone, confirms who they are, reads and signs.
    const patient = await phone.newPage();
    await patient.goto(url);
    await verifyIdentity(patient, lastName, dateOfBirth);
    const consent = patient.getByTestId('consent-shotConsent');
    await expect(consent.getByRole('heading', { name: 'Consent for injection' })).toBeVisible();
    await expect(patient.getByText(`Hello ${firstName}`)).toBeVisible();
    await expect(consent).toContainText('My provider has explained the injection');
    await expect(consent.getByRole('button', { name: 'Sign', exact: true })).toBeVisible();
    await patient.screenshot({ path: '/tmp/e2e12-consent-375.png', fullPage: true });
    await expectAccessibleAndFitting(patient, 'digital consent form');
    // Sign before drawing: asked to sign first, and nothing is sent.
    await consent.getByRole('button', { name: 'Sign', exact: true }).click();
    await expect(consent.getByRole('alert')).toHaveText('Please sign in the box before you tap Sign.');
    await expectAccessibleAndFitting(patient, 'digital consent form, not signed yet');
    await drawSignature(patient);
    await patient.screenshot({ path: '/tmp/e2e12-consent-signed-375.png', fullPage: true });
    await consent.getByRole('button', { name: 'Sign', exact: true }).click();
    const done = patient.getByTestId('consent-done');
    await expect(done.getByRole('heading', { name: 'Thank you' })).toBeVisible();
    // Another journey may have renamed the demo clinic (04-administration): only the start of its name is fixed.
    await expect(done).toContainText(/Riverside Spine & Pain.* has your signed consent\./);
    await expect(done.getByRole('listitem')).toHaveText(['Consent for injection']);
    await expectAccessibleAndFitting(patient, 'digital consent form, done');
    await patient.screenshot({ path: '/tmp/e2e12-consent-done-375.png', fullPage: true });

    // Back on the dashboard: the consent is there, valid, and its PDF opens.
    await page.reload();
    const signed = card.getByTestId('consent-shotConsent');
    await expect(signed).toContainText('Injection consent');
    await expect(signed).toContainText('(EN)');
    await expect(signed).toContainText('Valid');
    await expect(card.getByTestId('consent-pending')).toHaveCount(0);
    // At the desk's 1280 px the card sits in the narrow column: the badge and the PDF button stay whole.
    const clipped = await signed.evaluate((row) =>
      Array.from(row.querySelectorAll<HTMLElement>('.mantine-Badge-label, .mantine-Button-label'))
        .filter((label) => label.scrollWidth > label.clientWidth + 1)
        .map((label) => label.textContent),
    );
    expect(clipped, 'labels cut short in the consent row').toEqual([]);
    const pdfResponse = page.waitForResponse((response) =>
      new RegExp(`/api/patients/${patientId}/consents/[^/]+/pdf$`).test(new URL(response.url()).pathname),
    );
    const popup = page.waitForEvent('popup');
    await signed.getByRole('button', { name: 'PDF of the signed Injection consent' }).click();
    const response = await pdfResponse;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/pdf');
    // The page read the body into a blob already: fetch the same file again to look at its bytes.
    const file = await request.get(response.url(), { headers: staffAuth });
    expect(file.headers()['content-type']).toBe('application/pdf');
    expect((await file.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const opened = await popup;
    expect(opened.url()).toMatch(/^blob:/);
    await opened.close();
    await card.screenshot({ path: '/tmp/e2e12-consents-card-1280.png' });
  } finally {
    const restored = await request.put('/api/instancesettings', { headers: managerAuth, data: originalFlags });
    expect(restored.status(), await restored.text()).toBe(200);
    await phone.close();
    await desk.close();
  }
});

test('(2) details that do not match: the patient asks the clinic for access; staff get the bell and handle the request', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const staff = await tokenOf(request, 'staff@pathwell.demo');
  const doctor = await tokenOf(request, 'doctor@pathwell.demo');
  const auth = { authorization: `Bearer ${staff.token}` };
  const created = await request.post('/api/patients/create', {
    headers: auth,
    data: {
      firstName: 'Graciela',
      lastName: 'Montalvo',
      dateOfBirth: '1976-10-03',
      doctorId: doctor.id,
      preferredLanguage: 'en',
      patientPhoneNumbers: [],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const patientId = ((await created.json()) as { id: string }).id;
  const link = await request.post('/api/patient-links', { headers: auth, data: { patientId, formCode: 11 } });
  expect(link.status(), await link.text()).toBe(201);
  const { url } = (await link.json()) as { url: string };

  // Staff are at work on the patient list before anything happens.
  await signIn(page, 'staff@pathwell.demo');
  await page.goto('/patients/list');
  await expect(page.getByTestId('notification-bell')).toBeVisible();

  const phone = await browser.newContext(PHONE);
  try {
    const patient = await phone.newPage();
    await patient.goto(url);
    // Married since: the name on file is the old one.
    await verifyIdentity(patient, 'Delgado', '1976-10-03');
    await expect(patient.getByRole('alert')).toHaveText(
      /^The last name or date of birth does not match our records\s*\d tries? left before a 15-minute pause\.$/,
    );
    await patient.getByRole('button', { name: 'Your details do not match? Ask the clinic for help' }).click();

    await expect(patient.getByRole('heading', { name: 'Ask the clinic for access' })).toBeVisible();
    await patient.screenshot({ path: '/tmp/e2e12-access-request-375.png', fullPage: true });
    await expectAccessibleAndFitting(patient, 'access request form');
    // Nothing typed: the two required fields say so.
    await patient.getByRole('button', { name: 'Send request' }).click();
    await expect(patient.getByLabel('Your full name')).toHaveAttribute('aria-invalid', 'true');
    await expect(patient.getByLabel('Your full name')).toBeFocused();
    await expect(patient.getByLabel('Phone number or email')).toHaveAttribute('aria-invalid', 'true');
    await expectAccessibleAndFitting(patient, 'access request form with errors');
    await patient.getByLabel('Your full name').fill('Graciela Delgado');
    await patient.getByLabel('Date of birth (optional)').fill('10031976');
    await expect(patient.getByLabel('Date of birth (optional)')).toHaveValue('10/03/1976');
    await patient.getByLabel('Phone number or email').fill('(512) 555-0133');
    await patient
      .getByLabel('Anything the clinic should know (optional)')
      .fill('I married last year; my last name was Montalvo.');
    await patient.screenshot({ path: '/tmp/e2e12-access-request-filled-375.png', fullPage: true });
    await patient.getByRole('button', { name: 'Send request' }).click();
    const sent = patient.getByTestId('access-request-sent');
    await expect(sent.getByRole('heading', { name: 'Request sent' })).toBeVisible();
    await expect(sent).toContainText('The clinic has your request and will contact you.');
    await expectAccessibleAndFitting(patient, 'access request sent');
    await patient.screenshot({ path: '/tmp/e2e12-access-request-sent-375.png', fullPage: true });
  } finally {
    await phone.close();
  }

  // The bell has it without a reload; it leads to the dashboard, where the orange card shows what was typed.
  const bell = page.getByTestId('notification-bell');
  await expect(bell).toHaveAttribute('aria-label', /Notifications: \d+ new/);
  await bell.click();
  const item = page
    .getByTestId('notification-item')
    .filter({ hasText: "someone asks for access to Graciela Montalvo's forms; the details they gave did not match." });
  await expect(item).toHaveCount(1);
  await expect(item).toHaveAttribute('data-unseen', 'true');
  await item.click();
  await expect(page).toHaveURL(new RegExp(`/patients/patientdashboard/${patientId}$`));
  const requests = page.getByTestId('access-requests');
  await expect(requests.getByRole('heading', { name: '1 request for access' })).toBeVisible();
  await expect(requests).toContainText('Name given: Graciela Delgado');
  await expect(requests).toContainText('Date of birth given: 10/03/1976');
  await expect(requests).toContainText('Call back on: (512) 555-0133');
  await expect(requests).toContainText('Message: I married last year; my last name was Montalvo.');
  await page.screenshot({ path: '/tmp/e2e12-access-request-card-1280.png', fullPage: true });
  await requests.getByRole('button', { name: 'Mark handled' }).click();
  await expect(page.getByText('Access request marked handled')).toBeVisible();
  await expect(requests).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('patient-consents')).toBeVisible();
  await expect(page.getByTestId('access-requests')).toHaveCount(0);
});

test('(3) a patient closes their account from the intake and the emailed link; staff see it and reopen it', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const staff = await tokenOf(request, 'staff@pathwell.demo');
  const manager = await tokenOf(request, 'manager@pathwell.demo');
  const doctor = await tokenOf(request, 'doctor@pathwell.demo');
  const auth = { authorization: `Bearer ${staff.token}` };
  const managerAuth = { authorization: `Bearer ${manager.token}` };
  const email = 'octavio.serrano@example.test';
  const { patientId, url } = await patientWithIntake(
    request,
    auth,
    { firstName: 'Octavio', lastName: 'Serrano', dateOfBirth: '1964-01-28', doctorId: doctor.id, email },
    // Late evening on a day years ahead, free in the demo schedule.
    '2030-03-19T04:30:00.000Z',
  );

  const phone = await browser.newContext(PHONE);
  let closePath = '';
  try {
    // From the intake's step list, the patient asks to close the account: a link goes to their email.
    const patient = await phone.newPage();
    await patient.goto(url);
    await verifyIdentity(patient, 'Serrano', '1964-01-28');
    const dashboard = patient.getByTestId('intake-dashboard');
    await expect(dashboard).toBeVisible();
    await dashboard.getByRole('button', { name: 'Close my account' }).click();
    const asking = patient.getByTestId('close-account-request');
    await expect(asking.getByRole('heading', { name: 'Close your account' })).toBeVisible();
    await expect(asking).toContainText('Nothing changes until you open it and confirm.');
    await expectAccessibleAndFitting(patient, 'intake, close account asked');
    await asking.getByRole('button', { name: 'Email me the confirmation link' }).click();
    await expect(asking.getByRole('status')).toContainText(/^We sent a confirmation link to \S+@\S+\. It works for 24 hours\.$/);
    await expect(asking.getByRole('status')).not.toContainText(email);
    await asking.scrollIntoViewIfNeeded();
    await patient.screenshot({ path: '/tmp/e2e12-close-account-requested-375.png', fullPage: true });
    await expectAccessibleAndFitting(patient, 'intake, close account link sent');

    // The demo keeps outgoing mail in the outbox, where the System Manager reads it.
    await expect
      .poll(async () => {
        const outbox = await request.get('/api/outbox?pageSize=50', { headers: managerAuth });
        const { data } = (await outbox.json()) as { data: { recipient: string; template: string; body: string }[] };
        const message = data.find((entry) => entry.template === 'close-account' && entry.recipient === email);
        closePath = /\/patients\/closeaccount\/[^\s/]+\/[A-Za-z0-9_-]+/.exec(message?.body ?? '')?.[0] ?? '';
        return closePath;
      })
      .toMatch(new RegExp(`^/patients/closeaccount/${patientId}/[A-Za-z0-9_-]{43}$`));

    const confirm = await phone.newPage();
    await confirm.goto(closePath);
    const ready = confirm.getByTestId('close-account-ready');
    await expect(ready.getByRole('heading', { name: 'Close your patient account?' })).toBeVisible();
    await expect(ready.getByRole('listitem')).toHaveCount(4);
    await expect(confirm.getByText('Riverside Spine & Pain').first()).toBeVisible();
    await confirm.screenshot({ path: '/tmp/e2e12-close-account-375.png', fullPage: true });
    await expectAccessibleAndFitting(confirm, 'close account confirmation');
    await ready.getByRole('button', { name: 'Close my account' }).click();
    const closed = confirm.getByTestId('close-account-closed');
    await expect(closed.getByRole('heading', { name: 'Your account is closed' })).toBeVisible();
    await expect(closed.getByRole('heading', { name: 'Your account is closed' })).toBeFocused();
    await expectAccessibleAndFitting(confirm, 'close account done');
    await confirm.screenshot({ path: '/tmp/e2e12-close-account-closed-375.png', fullPage: true });

    // Opening the link again says the same; the intake link no longer opens.
    await confirm.reload();
    await expect(confirm.getByRole('heading', { name: 'Your account is closed' })).toBeVisible();
    await patient.goto(url);
    await expect(patient.getByRole('heading', { name: 'Confirm who you are' })).toHaveCount(0);
    await expect(patient.getByTestId('intake-dashboard')).toHaveCount(0);
  } finally {
    await phone.close();
  }

  // Staff: the bell says so and leads to the dashboard, which shows the account closed.
  await signIn(page, 'staff@pathwell.demo');
  await page.goto('/patients/list');
  await page.getByTestId('notification-bell').click();
  const item = page.getByTestId('notification-item').filter({ hasText: 'Octavio Serrano closed their patient account.' });
  await expect(item).toHaveCount(1);
  await item.click();
  await expect(page).toHaveURL(new RegExp(`/patients/patientdashboard/${patientId}$`));
  await expect(page.getByText('Account closed', { exact: true })).toBeVisible();
  await page.screenshot({ path: '/tmp/e2e12-dashboard-closed-1280.png' });

  // The list's "Account closed" filter has the patient; the row menu reopens the account.
  await page.goto('/patients/list');
  await page.getByTestId('patients-filters-toggle').click();
  await page.getByTestId('patients-filter-last-name').fill('Serrano');
  await page.getByTestId('patients-filter-status').click();
  await page.getByRole('option', { name: 'Account closed' }).click();
  const row = page.getByTestId('patients-row').filter({ hasText: 'Octavio Serrano' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Account closed');
  // The status reads whole at the desk's 1280 px, not "ACCOUNT …".
  const statusBadge = row.locator('.mantine-Badge-label');
  expect(await statusBadge.evaluate((label) => label.scrollWidth <= label.clientWidth + 1)).toBe(true);
  await page.screenshot({ path: '/tmp/e2e12-patients-closed-1280.png', fullPage: true });
  await row.getByRole('button', { name: 'Actions for Octavio Serrano' }).click();
  await page.getByRole('menuitem', { name: 'Reopen account' }).click();
  await expect(page.getByText("Octavio Serrano's account reopened")).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.getByTestId('patients-filter-status').click();
  await page.getByRole('option', { name: 'Active', exact: true }).click();
  await expect(row).toHaveCount(1);
  await expect(row).not.toContainText('Account closed');
  await expect(row).toContainText('Active');
  const view = await request.get(`/api/patients/${patientId}`, { headers: auth });
  expect(((await view.json()) as { accountClosedAt: string | null }).accountClosedAt).toBeNull();
});
