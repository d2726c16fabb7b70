import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedIntake } from '@pathwell/contracts/intake';
import type { NotificationList } from '@pathwell/contracts/messaging';
import { activityLogs, appointments, instances, patientLinks, patients } from '../../db/schema';
import { createTestApp, latestEmailTo, nextIp, signIn, type TestApp } from '../../../test/test-app';

/** A patient closes their own account: asked from the intake, confirmed from the email (decision 0036). */
let t: TestApp;
let riverside: string;
let lakeside: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};
const WHO = { lastName: 'Ibarra', dateOfBirth: '02/14/1959' };

const staff = (method: 'GET' | 'POST', url: string, payload?: object, as = 'staff') =>
  t.app.inject({ method, url, headers: tokens[as]!.headers, payload, remoteAddress: nextIp() });
const open = (method: 'GET' | 'POST', url: string, payload?: object, accessToken?: string) =>
  t.app.inject({
    method,
    url,
    payload,
    headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
    remoteAddress: nextIp(),
  });

async function newPatient(instanceId: string, email: string | null, as = 'staff') {
  const [patient] = await t.db
    .insert(patients)
    .values({ instanceId, firstName: 'Rosa', lastName: 'Ibarra', dateOfBirth: '1959-02-14', email, preferredLanguage: 'es' })
    .returning({ id: patients.id });
  const [visit] = await t.db
    .insert(appointments)
    .values({ instanceId, patientId: patient!.id, reason: 'follow_up', startsAt: new Date(Date.now() + 48 * 3_600_000) })
    .returning({ id: appointments.id });
  const created = await staff('POST', '/api/patients/intake', { patientId: patient!.id, appointmentId: visit!.id, send: [] }, as);
  expect(created.statusCode, created.body).toBe(201);
  const token = created.json<CreatedIntake>().url.split('/intake/')[1]!.split('/')[0]!;
  const verified = await open('POST', `/api/patient-links/${token}/verify`, WHO);
  expect(verified.statusCode, verified.body).toBe(200);
  return { patientId: patient!.id, token, access: verified.json<{ accessToken: string }>().accessToken };
}

function closeLinkFrom(body: string) {
  const match = /\/patients\/closeaccount\/([0-9a-f-]{36})\/([A-Za-z0-9_-]{43})/.exec(body);
  if (!match) throw new Error(`no close-account link in ${body}`);
  return { patientId: match[1]!, token: match[2]! };
}

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const who of ['staff', 'admin2']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
});
afterAll(async () => {
  await t?.close();
});

describe('closing an account from the patient side', () => {
  it('emails a confirmation link; confirming closes the account, stops messages, closes links and tells staff', async () => {
    const { patientId, token, access } = await newPatient(riverside, 'rosa.ibarra@example.test');
    const other = await staff('POST', '/api/patient-links', { patientId, formCode: 11 });
    expect(other.statusCode).toBe(201);

    const asked = await open('POST', `/api/intake/${token}/close-account`, { language: 'es' }, access);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toEqual({ sentTo: 'r***@example.test', expiresInHours: 24 });
    const email = await latestEmailTo(t.db, 'rosa.ibarra@example.test');
    expect(email.subject).toBe('Riverside Spine & Pain: confirme el cierre de su cuenta');
    const link = closeLinkFrom(email.body);
    expect(link.patientId).toBe(patientId);
    // Asking alone changes nothing.
    const [untouched] = await t.db.select().from(patients).where(eq(patients.id, patientId));
    expect(untouched!.accountClosedAt).toBeNull();

    const state = await open('GET', `/api/patients/closeaccount/${link.patientId}/${link.token}`);
    expect(state.statusCode, state.body).toBe(200);
    expect(state.json()).toEqual({ clinicName: 'Riverside Spine & Pain', state: 'ready', language: 'es' });

    const bell = (await staff('GET', '/api/notifications')).json<NotificationList>().unseen;
    const confirmed = await open('POST', '/api/patients/closeaccountconfirmation', link);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ state: 'closed' });

    const [closed] = await t.db.select().from(patients).where(eq(patients.id, patientId));
    expect(closed).toMatchObject({ enableEmail: false, enableText: false });
    expect(closed!.accountClosedAt).not.toBeNull();
    const links = await t.db.select().from(patientLinks).where(eq(patientLinks.patientId, patientId));
    expect(links.every((row) => row.revokedAt !== null || row.completedAt !== null)).toBe(true);
    expect((await open('GET', `/api/intake/${token}`, undefined, access)).statusCode).toBe(410);
    const after = (await staff('GET', '/api/notifications')).json<NotificationList>();
    expect(after.unseen).toBe(bell + 1);
    expect(after.data[0]).toMatchObject({ kind: 'accountClosed', patientId });
    expect((await latestEmailTo(t.db, 'rosa.ibarra@example.test')).subject).toBe(
      'Riverside Spine & Pain: su cuenta está cerrada',
    );
    const logs = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, patientId), eq(activityLogs.area, 'Patient Profile')));
    expect(logs.map((log) => log.description)).toContain('Patient closed their account from the emailed confirmation link');

    // Confirming again, or opening the page again, just says it is closed.
    expect((await open('POST', '/api/patients/closeaccountconfirmation', link)).json()).toMatchObject({ state: 'closed' });
    expect((await open('GET', `/api/patients/closeaccount/${link.patientId}/${link.token}`)).json()).toMatchObject({
      state: 'closed',
    });
    expect((await staff('GET', `/api/patients/${patientId}`)).json().accountClosedAt).not.toBeNull();
    // Nothing more is sent to a closed account: no intake, no questionnaire link.
    const [later] = await t.db
      .insert(appointments)
      .values({ instanceId: riverside, patientId, reason: 'follow_up', startsAt: new Date(Date.now() + 96 * 3_600_000) })
      .returning({ id: appointments.id });
    const intakeRefused = await staff('POST', '/api/patients/intake', { patientId, appointmentId: later!.id, send: [] });
    expect(intakeRefused.statusCode).toBe(409);
    expect(intakeRefused.json()).toMatchObject({ messageKey: 'accountClosed' });
    expect((await staff('POST', '/api/patient-links', { patientId, formCode: 11 })).statusCode).toBe(409);
  });

  it('needs the identity check first, and an email on file', async () => {
    const { token, access } = await newPatient(riverside, null);
    expect((await open('POST', `/api/intake/${token}/close-account`, { language: 'en' })).statusCode).toBe(401);
    const noEmail = await open('POST', `/api/intake/${token}/close-account`, { language: 'en' }, access);
    expect(noEmail.statusCode).toBe(409);
    expect(noEmail.json()).toMatchObject({ messageKey: 'noEmailOnFile' });
    const bad = await open('POST', `/api/intake/${token}/close-account`, { language: 'fr' }, access);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ fields: { language: expect.any(String) } });
  });

  it('sends at most three confirmations a day', async () => {
    const { token, access } = await newPatient(riverside, 'rosa.limit@example.test');
    for (let n = 0; n < 3; n++) {
      expect((await open('POST', `/api/intake/${token}/close-account`, { language: 'en' }, access)).statusCode).toBe(200);
    }
    const fourth = await open('POST', `/api/intake/${token}/close-account`, { language: 'en' }, access);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({ messageKey: 'closeAccountTooMany' });
  });

  it("refuses another patient's id, an expired link, an unknown token, and a close link used as an identity link", async () => {
    const { patientId, token, access } = await newPatient(riverside, 'rosa.other@example.test');
    await open('POST', `/api/intake/${token}/close-account`, { language: 'en' }, access);
    const link = closeLinkFrom((await latestEmailTo(t.db, 'rosa.other@example.test')).body);
    const someoneElse = await newPatient(riverside, 'rosa.else@example.test');
    expect((await open('GET', `/api/patients/closeaccount/${someoneElse.patientId}/${link.token}`)).statusCode).toBe(404);
    expect(
      (await open('POST', '/api/patients/closeaccountconfirmation', { patientId: someoneElse.patientId, token: link.token }))
        .statusCode,
    ).toBe(404);
    expect((await open('GET', `/api/patients/closeaccount/${patientId}/${'A'.repeat(43)}`)).statusCode).toBe(404);
    // The confirmation link opens nothing else.
    expect((await open('GET', `/api/patient-links/${link.token}/status`)).statusCode).toBe(404);
    expect((await open('POST', `/api/patient-links/${link.token}/verify`, WHO)).statusCode).toBe(404);

    await t.db
      .update(patientLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(patientLinks.kind, 'closeAccount'));
    expect((await open('GET', `/api/patients/closeaccount/${link.patientId}/${link.token}`)).json()).toMatchObject({
      state: 'expired',
    });
    expect((await open('POST', '/api/patients/closeaccountconfirmation', link)).json()).toMatchObject({ state: 'expired' });
    const [still] = await t.db.select().from(patients).where(eq(patients.id, patientId));
    expect(still!.accountClosedAt).toBeNull();
  });

  it("keeps each clinic's links to itself", async () => {
    const lake = await newPatient(lakeside, 'rosa.lake@example.test', 'admin2');
    await open('POST', `/api/intake/${lake.token}/close-account`, { language: 'en' }, lake.access);
    const link = closeLinkFrom((await latestEmailTo(t.db, 'rosa.lake@example.test')).body);
    const riversidePatient = await newPatient(riverside, null);
    expect(
      (await open('POST', '/api/patients/closeaccountconfirmation', { patientId: riversidePatient.patientId, token: link.token }))
        .statusCode,
    ).toBe(404);
    expect((await open('POST', '/api/patients/closeaccountconfirmation', link)).json()).toMatchObject({ state: 'closed' });
  });
});
