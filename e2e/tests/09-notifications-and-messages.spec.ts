import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, signIn } from './helpers';

async function tokenOf(request: APIRequestContext, email: string) {
  const response = await request.post('/api/users/authenticate', { data: { email, password: DEMO_PASSWORD } });
  expect(response.status()).toBe(200);
  return (await response.json()) as { token: string; id: string };
}

test('a patient submits the last form of an appointment and the staff bell shows it within 2 seconds, without a reload', async ({
  browser,
  request,
}) => {
  const staff = await tokenOf(request, 'staff@pathwell.demo');
  const doctor = await tokenOf(request, 'doctor@pathwell.demo');
  const auth = { authorization: `Bearer ${staff.token}` };
  const created = await request.post('/api/patients/create', {
    headers: auth,
    data: { firstName: 'Inés', lastName: 'Campos Ruiz', dateOfBirth: '1980-03-09', doctorId: doctor.id, patientPhoneNumbers: [] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const patientId = ((await created.json()) as { id: string }).id;
  // The first free 5 minutes of the doctor's day from an hour on: the demo books the working day back to
  // back (seen in CI at 9:00 in the clinic).
  const appointment = await (async () => {
    for (let minutes = 60; ; minutes += 5) {
      const startsAt = new Date(Date.now() + minutes * 60_000);
      startsAt.setSeconds(0, 0);
      const answer = await request.post('/api/patientappointments', {
        headers: auth,
        data: { patientId, doctorId: doctor.id, startsAt: startsAt.toISOString(), durationMinutes: 5 },
      });
      if (answer.status() !== 409 || minutes >= 14 * 60) return answer;
    }
  })();
  expect(appointment.status(), await appointment.text()).toBe(201);
  const appointmentId = ((await appointment.json()) as { id: string }).id;
  const link = await request.post('/api/patient-links', { headers: auth, data: { patientId, appointmentId, formCode: 11 } });
  expect(link.status(), await link.text()).toBe(201);
  const { token } = (await link.json()) as { token: string };

  // Staff: signed in on the patient list, the bell showing the demo clinic's current count.
  const staffContext = await browser.newContext();
  const staffPage = await staffContext.newPage();
  await signIn(staffPage, 'staff@pathwell.demo');
  await staffPage.goto('/patients/list');
  const bell = staffPage.getByTestId('notification-bell');
  await expect(bell).toBeVisible();
  const before = Number(
    (await staffPage
      .getByTestId('notification-count')
      .textContent({ timeout: 3000 })
      .catch(() => '0')) || 0,
  );

  // The patient, in a browser of their own, opens the link and answers (through the open link API).
  const patientContext = await browser.newContext();
  const verify = await patientContext.request.post(`/api/patient-links/${token}/verify`, {
    data: { lastName: 'Campos Ruiz', dateOfBirth: '03/09/1980' },
  });
  expect(verify.status(), await verify.text()).toBe(200);
  const { accessToken } = (await verify.json()) as { accessToken: string };
  const submitted = await patientContext.request.post(`/api/patient-links/${token}/submit`, {
    headers: { authorization: `Bearer ${accessToken}` },
    data: {
      idempotencyKey: crypto.randomUUID(),
      language: 'es',
      answers: { q1: 1, q2: 1, q3: 0, q4: 0, q5: 0, q6: 0, q7: 0, q8: 0, q9: 0, q10: 0 },
    },
  });
  expect(submitted.status(), await submitted.text()).toBe(201);

  // Within 2 seconds, with no reload: the count goes up and the popup names the patient.
  await expect(staffPage.getByTestId('notification-count')).toHaveText(String(before + 1), { timeout: 2000 });
  await expect(
    staffPage.getByText(/Inés Campos Ruiz has submitted all forms and are ready for the doctor\./).first(),
  ).toBeVisible({
    timeout: 2000,
  });

  // The bell's list has it bold at the top; clicking it opens the patient's dashboard and marks it seen.
  await bell.click();
  const first = staffPage.getByTestId('notification-item').first();
  await expect(first).toContainText('Inés Campos Ruiz');
  await expect(first).toHaveAttribute('data-unseen', 'true');
  await first.click();
  await expect(staffPage).toHaveURL(new RegExp(`/patients/patientdashboard/${patientId}$`));
  await expect(staffPage.getByTestId('notification-count'))
    .toHaveText(String(before), { timeout: 3000 })
    .catch(async () => {
      // With no other unseen notification the badge disappears instead of showing 0.
      expect(before).toBe(0);
      await expect(staffPage.getByTestId('notification-count')).toHaveCount(0);
    });

  await staffContext.close();
  await patientContext.close();
});

test('staff messages reach the other user without a reload, and the unread badge clears when read', async ({ browser }) => {
  const doctorContext = await browser.newContext();
  const doctorPage = await doctorContext.newPage();
  await signIn(doctorPage, 'doctor@pathwell.demo');
  await doctorPage.goto('/patients/list');
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, 'admin@pathwell.demo');
  await adminPage.goto('/user-messages');
  const countBefore = Number(
    (await doctorPage
      .getByTestId('messages-count')
      .textContent({ timeout: 3000 })
      .catch(() => '0')) || 0,
  );

  // The admin opens the conversation with the doctor (demo data has one) and writes.
  await adminPage.getByText('Daniela Ortiz').first().click();
  const text = `Room 3 is ready for the 2 pm injection (${Date.now()})`;
  await adminPage.getByRole('textbox').last().fill(text);
  await adminPage.keyboard.press('Enter');
  await expect(adminPage.getByText(text)).toBeVisible();

  // The doctor's messages badge goes up without a reload; reading the conversation clears it.
  await expect(doctorPage.getByTestId('messages-count')).toHaveText(String(countBefore + 1), { timeout: 3000 });
  await doctorPage.getByTestId('messages-link').click();
  await doctorPage.getByText('Alex Carter').first().click();
  await expect(doctorPage.getByText(text)).toBeVisible();
  await expect(doctorPage.getByTestId('messages-count')).toHaveCount(0, { timeout: 3000 });

  await doctorContext.close();
  await adminContext.close();
});
