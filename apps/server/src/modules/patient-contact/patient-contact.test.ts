import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageDate } from '@pathwell/contracts/message-dates';
import type { CreatedPatientLink } from '@pathwell/contracts/patient-links';
import { appointments, instances, patients } from '../../db/schema';
import { createTestApp, latestEmailTo, nextIp, setInstanceSetting, signIn, type TestApp } from '../../../test/test-app';

/**
 * Patient contact (issue #25 §1, decision 0069): one clinic name in every message, and dates in
 * messages in the clinic's time zone.
 */
let t: TestApp;
let riverside: string;

const DISPLAY_NAME = 'Riverside Back Care';

async function newPatient(email: string) {
  const [patient] = await t.db
    .insert(patients)
    .values({
      instanceId: riverside,
      firstName: 'Ada',
      lastName: 'Lovelace',
      dateOfBirth: '1970-01-02',
      email,
      preferredLanguage: 'en',
    })
    .returning({ id: patients.id });
  return patient!.id;
}

async function staffPost(url: string, payload: object) {
  const staff = await signIn(t.app, 'staff@pathwell.demo');
  const response = await t.app.inject({ method: 'POST', url, headers: staff.headers, payload, remoteAddress: nextIp() });
  expect(response.statusCode, response.body).toBe(201);
  return response;
}

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  for (const key of ['enableShotConsent', 'enableDigitalShotConsent']) await setInstanceSetting(t.db, riverside, key, 'true');
});
afterAll(async () => {
  await t?.close();
});

describe("the clinic's display name", () => {
  it('names the clinic in form-link and intake emails once the clinic sets it', async () => {
    await setInstanceSetting(t.db, riverside, 'clinicName', DISPLAY_NAME);
    try {
      const patientId = await newPatient('ada.name@example.test');
      await staffPost('/api/patient-links', { patientId, formCode: 11, send: 'email' });
      const formEmail = await latestEmailTo(t.db, 'ada.name@example.test');
      expect(formEmail.subject).toBe(`${DISPLAY_NAME}: a form to complete`);
      expect(formEmail.body).toContain(`${DISPLAY_NAME} asks you to complete the form`);

      const [visit] = await t.db
        .insert(appointments)
        .values({ instanceId: riverside, patientId, startsAt: new Date(Date.now() + 3 * 86_400_000) })
        .returning({ id: appointments.id });
      await staffPost('/api/patients/intake', { patientId, appointmentId: visit!.id, send: ['email'] });
      const intakeEmail = await latestEmailTo(t.db, 'ada.name@example.test');
      expect(intakeEmail.subject).toBe(`${DISPLAY_NAME}: check in before your visit`);
      expect(intakeEmail.body).toContain(`You have an appointment at ${DISPLAY_NAME} on`);
    } finally {
      await setInstanceSetting(t.db, riverside, 'clinicName', 'Riverside Spine & Pain');
    }
  });
});

describe('dates in messages', () => {
  // A zone whose calendar day is not UTC's, whatever the hour the test runs (an hour of margin either
  // way): before 11:00 UTC, UTC-12 is still on the previous day; from 11:00, UTC+14 is on the next.
  const offDayZone = () => (new Date().getUTCHours() < 11 ? 'Etc/GMT+12' : 'Etc/GMT-14');

  it("print a form link's expiry on the clinic's calendar, not UTC's", async () => {
    const zone = offDayZone();
    await setInstanceSetting(t.db, riverside, 'timeZoneId', zone);
    const patientId = await newPatient('ada.form@example.test');
    const created = (
      await staffPost('/api/patient-links', { patientId, formCode: 11, send: 'email', expiresInDays: 7 })
    ).json<CreatedPatientLink>();
    const expiresAt = new Date(created.expiresAt);
    const email = await latestEmailTo(t.db, 'ada.form@example.test');
    expect(email.body).toContain(`valid until ${messageDate(expiresAt, zone, 'en')}`);
    expect(email.body).not.toContain(messageDate(expiresAt, 'UTC', 'en'));
  });

  it("print a consent link's expiry on the clinic's calendar, not UTC's", async () => {
    const zone = offDayZone();
    await setInstanceSetting(t.db, riverside, 'timeZoneId', zone);
    const patientId = await newPatient('ada.consent@example.test');
    const created = (
      await staffPost('/api/patients/consentlinks', { patientId, kinds: ['shotConsent'], send: ['email'], language: 'en' })
    ).json<{ expiresAt: string }>();
    const expiresAt = new Date(created.expiresAt);
    const email = await latestEmailTo(t.db, 'ada.consent@example.test');
    expect(email.body).toContain(`link good until ${messageDate(expiresAt, zone, 'en')}`);
    expect(email.body).not.toContain(messageDate(expiresAt, 'UTC', 'en'));
  });
});
