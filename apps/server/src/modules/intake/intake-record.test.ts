import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedIntake } from '@pathwell/contracts/intake';
import type {
  IntakeChange,
  IntakeViewWithRecord,
  PatientAllergy,
  ReconciledIntake,
  StaffIntakeDetail,
} from '@pathwell/contracts/intake-record';
import { cdcMmeFactors, type PatientMedicine } from '@pathwell/contracts/mme';
import {
  activityLogs,
  appointments,
  instances,
  managedItems,
  patientLinks,
  patientAllergies,
  patientPhoneNumbers,
  patients,
  users,
} from '../../db/schema';
import { createTestApp, nextIp, setInstanceSetting, signIn, type TestApp } from '../../../test/test-app';

/** Issue #24 §4: what the patient types on the intake reaches the record through staff, never by itself. */

let t: TestApp;
const tokens: Record<string, { headers: Record<string, string> }> = {};
const ids = {} as { riverside: string; lakeside: string; patient: string; visit: string; later: string; oxycodone: string };
const WHO = { lastName: 'Arroyo', dateOfBirth: '07/14/1969' };
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

beforeAll(async () => {
  t = await createTestApp();
  const clinics = await t.db.select().from(instances);
  ids.riverside = clinics.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  ids.lakeside = clinics.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const who of ['staff', 'doctor', 'admin2']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  await setInstanceSetting(t.db, ids.riverside, 'extendedPatientAskPreferredPronouns', 'true');
  await setInstanceSetting(t.db, ids.riverside, 'extendedPatientAskAssignedSexAtBirth', 'true');
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  const [patient] = await t.db
    .insert(patients)
    .values({
      instanceId: ids.riverside,
      firstName: 'Elena',
      lastName: WHO.lastName,
      dateOfBirth: '1969-07-14',
      email: 'elena.arroyo@example.test',
      streetAddress1: '12 Elm St',
      city: 'Austin',
      state: 'TX',
      zip: '78701',
      doctorId: doctor!.id,
    })
    .returning({ id: patients.id });
  ids.patient = patient!.id;
  await t.db.insert(patientPhoneNumbers).values({
    instanceId: ids.riverside,
    patientId: ids.patient,
    phoneType: 7,
    number: '(512) 555-0101',
    digits: '5125550101',
    isPrimary: true,
  });
  const visit = async (hours: number) => {
    const [row] = await t.db
      .insert(appointments)
      .values({
        instanceId: ids.riverside,
        patientId: ids.patient,
        doctorId: doctor!.id,
        reason: 'new_patient',
        startsAt: new Date(Date.now() + hours * 3_600_000),
      })
      .returning({ id: appointments.id });
    return row!.id;
  };
  ids.visit = await visit(2);
  ids.later = await visit(30);
  const [item] = await t.db
    .insert(managedItems)
    .values({
      instanceId: ids.riverside,
      listType: 'medicines',
      name: 'Intake test oxycodone 10 mg',
      attributes: { strength: 10, unit: 'mg', route: 'oral', isOpioid: true, mmeConversionFactor: cdcMmeFactors.oxycodone },
    })
    .returning({ id: managedItems.id });
  ids.oxycodone = item!.id;
});
afterAll(async () => {
  await t?.close();
});

type Who = keyof typeof tokens;
const staffCall = (method: 'GET' | 'POST', url: string, as: Who, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...tokens[as]!.headers, ...headers }, payload, remoteAddress: nextIp() });
const patientCall = (method: 'GET' | 'PUT' | 'POST', url: string, access?: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: access ? { authorization: `Bearer ${access}` } : {},
    ...(payload ? { payload } : {}),
    remoteAddress: nextIp(),
  });

async function openIntake(appointmentId: string, steps: number[]) {
  const response = await staffCall('POST', '/api/patients/intake', 'staff', { patientId: ids.patient, appointmentId, steps });
  expect(response.statusCode, response.body).toBe(201);
  const created = response.json<CreatedIntake>();
  const token = new URL(created.url).pathname.split('/')[3]!;
  const verify = await patientCall('POST', `/api/patient-links/${token}/verify`, undefined, WHO);
  expect(verify.statusCode, verify.body).toBe(200);
  return { linkId: created.linkId, token, access: verify.json<{ accessToken: string }>().accessToken };
}

const paperwork = {
  email: 'elena.new@example.test',
  streetAddress1: '80 Río Grande Ave',
  city: 'Austin',
  state: 'TX',
  zip: '78702',
  phones: [{ type: 'MOBILE', number: '(512) 555-0101' }],
  contacts: [{ role: 'emergency', name: 'Tomás Arroyo', relationship: 'Brother', phone: '(512) 555-0199' }],
  primaryInsurance: {
    payer: 'Aetna',
    memberId: 'W123456',
    groupNumber: 'G-77',
    subscriberName: 'Elena Arroyo',
    relationshipToInsured: 'self',
  },
  pharmacy: { name: 'H-E-B Pharmacy', phone: '(512) 555-0150' },
  extended: { pronouns: 'she/her/hers', sexAssignedAtBirth: 'intersex' },
  agreementSignature: { image: PNG, signedAt: new Date().toISOString() },
};
const history = {
  allergies: [{ name: 'Penicillin', reaction: 'Hives' }, { name: 'Latex' }],
  medications: [
    { name: 'Oxycodone', dose: '10 mg', frequency: 'every 6 hours' },
    { name: 'Ibuprofen', dose: '400 mg', frequency: 'as needed' },
  ],
};

async function intakesOf(as: Who = 'staff') {
  const response = await staffCall('GET', `/api/patients/${ids.patient}/intake`, as);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<StaffIntakeDetail[]>();
}
const changeOf = (changes: IntakeChange[], field: string) => changes.find((change) => change.field === field);

describe('the paperwork against the record', () => {
  let intake: Awaited<ReturnType<typeof openIntake>>;

  beforeAll(async () => {
    intake = await openIntake(ids.visit, [1, 2]);
  });

  it('shows the patient what is on file, only past the identity check', async () => {
    expect((await patientCall('GET', `/api/intake/${intake.token}`)).statusCode).toBe(401);
    const view = await patientCall('GET', `/api/intake/${intake.token}`, intake.access);
    expect(view.statusCode, view.body).toBe(200);
    const { onFile } = view.json<IntakeViewWithRecord>();
    expect(onFile).toMatchObject({
      email: 'elena.arroyo@example.test',
      streetAddress1: '12 Elm St',
      city: 'Austin',
      state: 'TX',
      zip: '78701',
      phones: [{ type: 'MOBILE', number: '(512) 555-0101' }],
    });
    expect(onFile?.primaryInsurance).toBeUndefined();
  });

  it('finishing the paperwork replaces nothing on file and fills only what the record lacks', async () => {
    const saved = await patientCall('PUT', `/api/intake/${intake.token}/paperwork`, intake.access, {
      final: true,
      language: 'en',
      data: paperwork,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const [row] = await t.db.select().from(patients).where(eq(patients.id, ids.patient));
    // Before issue #24 the answer overwrote these.
    expect(row).toMatchObject({ email: 'elena.arroyo@example.test', streetAddress1: '12 Elm St', zip: '78701' });
    expect(row!.agreementSignedDate).not.toBeNull();
    // The record had no insurance, pharmacy or emergency contact: those are filled.
    expect(row!.coverage).toMatchObject({
      primaryInsurance: { payer: 'Aetna', memberId: 'W123456' },
      pharmacy: { name: 'H-E-B Pharmacy' },
    });
    const phones = await t.db.select().from(patientPhoneNumbers).where(eq(patientPhoneNumbers.patientId, ids.patient));
    expect(phones.find((phone) => phone.phoneType === 3)).toMatchObject({ contactName: 'Tomás Arroyo', relation: 'Brother' });
    expect(row!.extended).toEqual({});
  });

  it('staff see each answered field as on file against the answer, on the dashboard card', async () => {
    const [latest] = await intakesOf();
    expect(latest!.linkId).toBe(intake.linkId);
    expect(changeOf(latest!.changes, 'email')).toEqual({
      field: 'email',
      onFile: { email: 'elena.arroyo@example.test' },
      answer: { email: 'elena.new@example.test' },
      differs: true,
      blocked: null,
    });
    expect(changeOf(latest!.changes, 'address')).toMatchObject({ differs: true, onFile: { streetAddress1: '12 Elm St' } });
    expect(changeOf(latest!.changes, 'mobilePhone')).toMatchObject({ differs: false });
    expect(changeOf(latest!.changes, 'primaryInsurance')).toMatchObject({
      differs: false,
      answer: {
        payer: 'Aetna',
        memberId: 'W123456',
        groupNumber: 'G-77',
        subscriberName: 'Elena Arroyo',
        relationshipToInsured: 'self',
      },
    });
    expect(changeOf(latest!.changes, 'emergencyContact')).toMatchObject({
      differs: false,
      answer: { name: 'Tomás Arroyo', relationship: 'Brother', phone: '(512) 555-0199' },
    });
    expect(changeOf(latest!.changes, 'pronouns')).toMatchObject({
      differs: true,
      blocked: null,
      answer: { value: 'she/her/hers' },
    });
    expect(changeOf(latest!.changes, 'sexAssignedAtBirth')).toMatchObject({ blocked: 'notCoded' });
  });

  it('accepts the ticked fields into the record, audited, and leaves the rest', async () => {
    const url = `/api/patients/${ids.patient}/intake/${intake.linkId}/accept`;
    const accepted = await staffCall('POST', url, 'doctor', { fields: ['email', 'pronouns'] });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const changes = accepted.json<IntakeChange[]>();
    expect(changeOf(changes, 'email')).toMatchObject({ differs: false });
    expect(changeOf(changes, 'address')).toMatchObject({ differs: true });
    const [row] = await t.db.select().from(patients).where(eq(patients.id, ids.patient));
    expect(row).toMatchObject({ email: 'elena.new@example.test', streetAddress1: '12 Elm St' });
    expect(row!.extended).toEqual({ preferredPronouns: 2 });
    const logs = await t.db
      .select({ description: activityLogs.description })
      .from(activityLogs)
      .where(
        and(eq(activityLogs.targetId, ids.patient), eq(activityLogs.area, 'Patient Profile'), eq(activityLogs.action, 'Updated')),
      );
    expect(logs.some((log) => log.description?.includes('email, pronouns'))).toBe(true);
  });

  it('refuses bad input with field errors, another clinic with 404, the all-clinics view with 403', async () => {
    const url = `/api/patients/${ids.patient}/intake/${intake.linkId}/accept`;
    const empty = await staffCall('POST', url, 'staff', { fields: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toHaveProperty('fields');
    const unknown = await staffCall('POST', url, 'staff', { fields: ['ssn'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields).toHaveProperty(['fields.0']);
    const blocked = await staffCall('POST', url, 'staff', { fields: ['email', 'sexAssignedAtBirth'] });
    expect(blocked.statusCode).toBe(400);
    expect(blocked.json().fields).toEqual({ 'fields.1': 'invalid' });
    expect(
      (await staffCall('POST', `/api/patients/${ids.patient}/intake/nope/accept`, 'staff', { fields: ['email'] })).statusCode,
    ).toBe(400);
    expect((await staffCall('POST', url, 'admin2', { fields: ['email'] })).statusCode).toBe(404);
    const strangerLink = `/api/patients/${ids.patient}/intake/${crypto.randomUUID()}/accept`;
    expect((await staffCall('POST', strangerLink, 'staff', { fields: ['email'] })).statusCode).toBe(404);
    expect((await staffCall('POST', url, 'staff', { fields: ['email'] }, { clinicid: 'all' })).statusCode).toBe(403);
    expect((await patientCall('POST', url, undefined, { fields: ['email'] })).statusCode).toBe(401);
  });
});

describe("the intake's medications and allergies into the record", () => {
  let intake: Awaited<ReturnType<typeof openIntake>>;

  beforeAll(async () => {
    intake = await openIntake(ids.later, [2]);
    const saved = await patientCall('PUT', `/api/intake/${intake.token}/history`, intake.access, {
      final: true,
      language: 'es',
      data: history,
    });
    expect(saved.statusCode, saved.body).toBe(200);
  });

  it('maps a medication to the medicines list (so it counts in MME) and records the ticked allergies, in one step', async () => {
    const before = await staffCall('GET', `/api/patients/${ids.patient}/medicines`, 'staff');
    expect(before.json<PatientMedicine[]>()).toEqual([]);
    const url = `/api/patients/${ids.patient}/intake/${intake.linkId}/reconcile`;
    const done = await staffCall('POST', url, 'staff', {
      medicines: [{ index: 0, medicineId: ids.oxycodone, unitsPerDose: 1, dosesPerDay: 4 }],
      allergies: [0, 1],
    });
    expect(done.statusCode, done.body).toBe(200);
    const result = done.json<ReconciledIntake>();
    expect(result.medicines).toHaveLength(1);
    // 10 mg × 4 a day × 1.5 (CDC factor for oxycodone) = 60 MME/day.
    expect(result.medicines[0]!.dailyMme).toBe(60);
    const medicines = (await staffCall('GET', `/api/patients/${ids.patient}/medicines`, 'staff')).json<PatientMedicine[]>();
    expect(medicines.map((row) => row.name)).toEqual(['Intake test oxycodone 10 mg']);
    const allergies = await staffCall('GET', `/api/patients/${ids.patient}/allergies`, 'doctor');
    expect(allergies.statusCode).toBe(200);
    expect(allergies.json<PatientAllergy[]>().map((row) => [row.name, row.reaction, row.linkId])).toEqual([
      ['Latex', null, intake.linkId],
      ['Penicillin', 'Hives', intake.linkId],
    ]);
    const card = (await intakesOf()).find((entry) => entry.linkId === intake.linkId)!;
    expect(card.reconciled).toMatchObject({ medicines: 1, allergies: 2 });
    expect(card.reconciled!.byName).toBeTruthy();
  });

  it('refuses an index the intake does not have, a medicine of another list, another clinic and the all-clinics view', async () => {
    const url = `/api/patients/${ids.patient}/intake/${intake.linkId}/reconcile`;
    const wrongIndex = await staffCall('POST', url, 'staff', {
      medicines: [{ index: 5, medicineId: ids.oxycodone, unitsPerDose: 1, dosesPerDay: 4 }],
      allergies: [7],
    });
    expect(wrongIndex.statusCode).toBe(400);
    expect(wrongIndex.json().fields).toEqual({ 'medicines.0.index': 'invalid', 'allergies.0': 'invalid' });
    const wrongMedicine = await staffCall('POST', url, 'staff', {
      medicines: [{ index: 1, medicineId: crypto.randomUUID(), unitsPerDose: 1, dosesPerDay: 1 }],
      allergies: [],
    });
    expect(wrongMedicine.statusCode).toBe(400);
    expect(wrongMedicine.json().fields).toEqual({ 'medicines.0.medicineId': 'invalid' });
    const nothing = await staffCall('POST', url, 'staff', { medicines: [], allergies: [] });
    expect(nothing.statusCode).toBe(400);
    const badShape = await staffCall('POST', url, 'staff', { medicines: [{ index: 'x' }], allergies: 'all' });
    expect(badShape.statusCode).toBe(400);
    expect(Object.keys(badShape.json().fields ?? {})).not.toHaveLength(0);
    // The medicines list is unchanged by the refused calls.
    expect((await staffCall('GET', `/api/patients/${ids.patient}/medicines`, 'staff')).json<PatientMedicine[]>()).toHaveLength(1);
    const body = { medicines: [], allergies: [0] };
    expect((await staffCall('POST', url, 'admin2', body)).statusCode).toBe(404);
    expect((await staffCall('GET', `/api/patients/${ids.patient}/allergies`, 'admin2')).statusCode).toBe(404);
    expect((await staffCall('POST', url, 'staff', body, { clinicid: 'all' })).statusCode).toBe(403);
    expect(
      (await staffCall('GET', `/api/patients/${ids.patient}/allergies`, 'staff', undefined, { clinicid: 'all' })).statusCode,
    ).toBe(403);
    // The paperwork step of this link was never asked: nothing to accept.
    const accept = await staffCall('POST', `/api/patients/${ids.patient}/intake/${intake.linkId}/accept`, 'staff', {
      fields: ['email'],
    });
    expect(accept.statusCode).toBe(404);
  });
});

describe('taking an allergy off the record', () => {
  const allergiesOf = async (as: Who = 'staff') =>
    (await staffCall('GET', `/api/patients/${ids.patient}/allergies`, as)).json<PatientAllergy[]>();
  const removeUrl = (allergyId: string, patientId = ids.patient) => `/api/patients/${patientId}/allergies/${allergyId}/remove`;

  it('removes a recorded allergy, audited, and keeps the row with the time it was removed', async () => {
    const latex = (await allergiesOf()).find((row) => row.name === 'Latex')!;
    const removed = await staffCall('POST', removeUrl(latex.id), 'doctor');
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json<PatientAllergy>()).toMatchObject({ id: latex.id, name: 'Latex' });
    expect((await allergiesOf()).map((row) => row.name)).toEqual(['Penicillin']);
    const [kept] = await t.db.select().from(patientAllergies).where(eq(patientAllergies.id, latex.id));
    expect(kept!.removedAt).toBeInstanceOf(Date);
    const logged = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, ids.patient), eq(activityLogs.action, 'Deleted')));
    expect(logged.map((row) => row.description)).toContain('Allergy removed: Latex');
    // Removing it again finds nothing to remove.
    expect((await staffCall('POST', removeUrl(latex.id), 'staff')).statusCode).toBe(404);
  });

  it('refuses a malformed id with field errors, another clinic and an unknown allergy with 404, the all-clinics view with 403', async () => {
    const penicillin = (await allergiesOf()).find((row) => row.name === 'Penicillin')!;
    const malformed = await staffCall('POST', removeUrl('not-an-id'), 'staff');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().fields).toHaveProperty('allergyId');
    const badPatient = await staffCall('POST', removeUrl(penicillin.id, 'nope'), 'staff');
    expect(badPatient.statusCode).toBe(400);
    expect(badPatient.json().fields).toHaveProperty('id');
    expect((await staffCall('POST', removeUrl(penicillin.id), 'admin2')).statusCode).toBe(404);
    expect((await staffCall('POST', removeUrl(crypto.randomUUID()), 'staff')).statusCode).toBe(404);
    // An allergy named under another patient of the same clinic is not this patient's.
    const [other] = await t.db
      .insert(patients)
      .values({ instanceId: ids.riverside, firstName: 'Otto', lastName: 'Other', dateOfBirth: '1970-01-01' })
      .returning({ id: patients.id });
    expect((await staffCall('POST', removeUrl(penicillin.id, other!.id), 'staff')).statusCode).toBe(404);
    expect((await staffCall('POST', removeUrl(penicillin.id), 'staff', undefined, { clinicid: 'all' })).statusCode).toBe(403);
    expect((await patientCall('POST', removeUrl(penicillin.id))).statusCode).toBe(401);
    expect((await allergiesOf()).map((row) => row.name)).toEqual(['Penicillin']);
  });
});

describe('the intake card', () => {
  it("says a link the patient's own account closure ended was closed with the account, not replaced", async () => {
    const replaced = await openIntake(ids.later, [4]);
    const open = await openIntake(ids.later, [4]);
    const closedAt = new Date();
    await t.db.update(patients).set({ accountClosedAt: closedAt }).where(eq(patients.id, ids.patient));
    await t.db.update(patientLinks).set({ revokedAt: closedAt }).where(eq(patientLinks.id, open.linkId));
    const intakes = await intakesOf();
    expect(intakes.find((entry) => entry.linkId === open.linkId)!.status).toBe('accountClosed');
    // The earlier link of the same visit was replaced by a new one: it still says so.
    expect(intakes.find((entry) => entry.linkId === replaced.linkId)!.status).toBe('revoked');
    await t.db.update(patients).set({ accountClosedAt: null }).where(eq(patients.id, ids.patient));
  });
});
