import { and, eq, inArray } from 'drizzle-orm';
import { clinicIsoDate, clinicMdy, instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import { messageDateTime } from '@pathwell/contracts/message-dates';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppointmentDashboard, CreatedIntake, IntakeView, StaffIntake } from '@pathwell/contracts/intake';
import type { LinkForm, LinkStatusResponse } from '@pathwell/contracts/patient-links';
import {
  activityLogs,
  appointments,
  formResponses,
  instances,
  notifications,
  outboxMessages,
  patientConsents,
  patientLinks,
  patientPhoneNumbers,
  smsOptOuts,
  patients,
  users,
} from '../../db/schema';
import { createTestApp, latestEmailTo, nextIp, signIn, type TestApp, setInstanceSetting } from '../../../test/test-app';

let t: TestApp;
let riverside: string;
let lakeside: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};
const ids = {} as {
  newPatient: string;
  newVisit: string;
  laterVisit: string;
  thirdVisit: string;
  otherPatient: string;
  otherVisit: string;
  otherDoctorPatient: string;
  otherDoctorVisit: string;
  lakesidePatient: string;
  lakesideVisit: string;
  doctor: string;
};
const ZONE = 'America/Chicago';
const WHO = { lastName: 'Ortega', dateOfBirth: '06/15/1968' };
const SIGNATURE = {
  image: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  signedAt: new Date().toISOString(),
};
const PAPERWORK = {
  email: 'ana.ortega@example.test',
  streetAddress1: '12 Elm St',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  preferredLanguage: 'es',
  phones: [{ type: 'MOBILE', number: '(512) 555-0161' }],
  contacts: [{ role: 'emergency', name: 'Luis Ortega', relationship: 'Husband', phone: '(512) 555-0162' }],
  primaryInsurance: { payer: 'Blue Cross', memberId: 'XJ123', relationshipToInsured: 'self' },
  agreementSignature: SIGNATURE,
};

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const who of ['admin', 'doctor', 'staff', 'admin2']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  ids.doctor = doctor!.id;
  const [otherDoctor] = await t.db
    .insert(users)
    .values({
      email: 'other.doctor@example.test',
      firstName: 'Other',
      lastName: 'Doctor',
      passwordHash: 'x',
      role: 3,
      status: 'active',
    })
    .returning({ id: users.id });
  const patient = async (instanceId: string, lastName: string, doctorId: string | null, email: string | null) => {
    const [row] = await t.db
      .insert(patients)
      .values({ instanceId, firstName: 'Ana', lastName, dateOfBirth: '1968-06-15', email, doctorId, preferredLanguage: 'en' })
      .returning({ id: patients.id });
    return row!.id;
  };
  const visit = async (
    instanceId: string,
    patientId: string,
    doctorId: string | null,
    hoursFromNow: number,
    reason: 'new_patient' | 'follow_up' = 'new_patient',
  ) => {
    const [row] = await t.db
      .insert(appointments)
      .values({
        instanceId,
        patientId,
        doctorId,
        reason,
        startsAt: new Date(Date.now() + hoursFromNow * 3_600_000),
      })
      .returning({ id: appointments.id });
    return row!.id;
  };
  ids.newPatient = await patient(riverside, 'Ortega', ids.doctor, 'ana.ortega@example.test');
  await t.db.insert(patientPhoneNumbers).values({
    instanceId: riverside,
    patientId: ids.newPatient,
    phoneType: 7,
    number: '(512) 555-0160',
    digits: '5125550160',
    isPrimary: true,
  });
  ids.newVisit = await visit(riverside, ids.newPatient, ids.doctor, 2);
  ids.laterVisit = await visit(riverside, ids.newPatient, ids.doctor, 24 * 14, 'follow_up');
  ids.thirdVisit = await visit(riverside, ids.newPatient, ids.doctor, 24 * 28);
  ids.otherPatient = await patient(riverside, 'Baker', ids.doctor, null);
  ids.otherVisit = await visit(riverside, ids.otherPatient, ids.doctor, 3);
  ids.otherDoctorPatient = await patient(riverside, 'Stone', otherDoctor!.id, 'stone@example.test');
  ids.otherDoctorVisit = await visit(riverside, ids.otherDoctorPatient, otherDoctor!.id, 4);
  ids.lakesidePatient = await patient(lakeside, 'Lake', null, 'lake@example.test');
  ids.lakesideVisit = await visit(lakeside, ids.lakesidePatient, null, 2);
  await setInstanceSetting(t.db, riverside, 'enableEmail', 'true');
  await setInstanceSetting(t.db, riverside, 'enablePaymentCollection', 'true');
  await setInstanceSetting(t.db, riverside, 'isPharmacyRequired', 'false');
  await setInstanceSetting(t.db, riverside, 'timeZoneId', ZONE);
});
afterAll(async () => {
  await t?.close();
});

type Who = keyof typeof tokens;
const call = (method: 'GET' | 'POST' | 'PUT', url: string, as: Who, payload?: unknown) =>
  t.app.inject({ method, url, headers: tokens[as]!.headers, payload: payload as object | undefined, remoteAddress: nextIp() });
const open = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, accessToken?: string) =>
  t.app.inject({
    method,
    url,
    headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
    payload: payload as object | undefined,
    remoteAddress: nextIp(),
  });

const tokenOf = (url: string) => new URL(url).pathname.split('/')[3]!;

async function createIntake(body: Record<string, unknown>, as: Who = 'staff') {
  const response = await call('POST', '/api/patients/intake', as, body);
  expect(response.statusCode, response.body).toBe(201);
  const created = response.json<CreatedIntake>();
  return { ...created, token: tokenOf(created.url) };
}
async function verified(token: string) {
  const response = await open('POST', `/api/patient-links/${token}/verify`, WHO);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ accessToken: string }>().accessToken;
}
const view = async (token: string, access: string) => {
  const response = await open('GET', `/api/intake/${token}`, undefined, access);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<IntakeView>();
};
const save = (token: string, access: string, slug: string, data: unknown, final: boolean) =>
  open('PUT', `/api/intake/${token}/${slug}`, { final, language: 'es', data }, access);

describe('staff create an intake link', () => {
  it('plans the steps from the settings and the patient, and emails the link in the patient language', async () => {
    const created = await createIntake({
      patientId: ids.newPatient,
      appointmentId: ids.newVisit,
      formCodes: [10],
      amountDueCents: 4500,
      send: ['email'],
      language: 'es',
    });
    // No signed agreement yet: paperwork; PRO with the chosen form; payment with the clinic switch on.
    expect(created.steps).toEqual([1, 2, 4, 5, 6, 7]);
    expect(created.url).toMatch(new RegExp(`/patients/intake/[A-Za-z0-9_-]{43}/${ids.newVisit}$`));
    expect(created.sent).toEqual([{ channel: 'email', status: expect.any(String), reason: null }]);
    const email = await latestEmailTo(t.db, 'ana.ortega@example.test');
    expect(email.subject).toContain('complete su registro');
    expect(email.body).toContain(created.url);
    // The visit's date as a Spanish reader writes it, in the clinic's time zone; never "11/28/2026 05:35 PM".
    const [visit] = await t.db.select().from(appointments).where(eq(appointments.id, ids.newVisit));
    expect(email.body).toContain(messageDateTime(visit!.startsAt, ZONE, 'es'));
    expect(email.body).toMatch(
      /\d{1,2} de (enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre) de \d{4}/,
    );
    expect(email.body).not.toMatch(/\d{2}\/\d{2}\/\d{4}/);
    const [link] = await t.db.select().from(patientLinks).where(eq(patientLinks.id, created.linkId));
    expect(link).toMatchObject({ kind: 'intake', appointmentId: ids.newVisit, language: 'es' });
    expect(link!.tokenHash).not.toContain(created.token);
    const logs = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, created.linkId));
    expect(logs.map((log) => `${log.area}/${log.action}`).sort()).toEqual([
      'Intake Information/Created',
      'Intake Information/Sent',
    ]);
  });

  it('answers 400 with fields for bad input, 404 for another clinic or another doctor, and refuses a send it cannot make', async () => {
    const bad = await call('POST', '/api/patients/intake', 'staff', {
      patientId: 'nope',
      appointmentId: ids.newVisit,
      steps: [9],
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json<{ fields: Record<string, string> }>().fields).sort()).toEqual(['patientId', 'steps.0']);
    const lakesideAsRiverside = await call('POST', '/api/patients/intake', 'staff', {
      patientId: ids.lakesidePatient,
      appointmentId: ids.lakesideVisit,
    });
    expect(lakesideAsRiverside.statusCode).toBe(404);
    const notTheirs = await call('POST', '/api/patients/intake', 'doctor', {
      patientId: ids.otherDoctorPatient,
      appointmentId: ids.otherDoctorVisit,
    });
    expect(notTheirs.statusCode).toBe(404);
    const mismatched = await call('POST', '/api/patients/intake', 'staff', {
      patientId: ids.otherPatient,
      appointmentId: ids.newVisit,
    });
    expect(mismatched.statusCode).toBe(404);
    const noEmail = await call('POST', '/api/patients/intake', 'staff', {
      patientId: ids.otherPatient,
      appointmentId: ids.otherVisit,
      send: ['email'],
    });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json<{ fields: Record<string, string> }>().fields).toEqual({ send: 'patientEmailMissing' });
    const noPhone = await call('POST', '/api/patients/intake', 'staff', {
      patientId: ids.otherPatient,
      appointmentId: ids.otherVisit,
      send: ['sms'],
    });
    expect(noPhone.json<{ fields: Record<string, string> }>().fields).toEqual({ send: 'phoneRequired' });
  });

  it('says why a text was not sent, so the screen can put it in words (issue #24 §5)', async () => {
    const [patient] = await t.db
      .insert(patients)
      .values({ instanceId: riverside, firstName: 'Eva', lastName: 'Soto', dateOfBirth: '1970-01-02', email: null })
      .returning({ id: patients.id });
    await t.db.insert(patientPhoneNumbers).values({
      instanceId: riverside,
      patientId: patient!.id,
      phoneType: 7,
      number: '(512) 555-0190',
      digits: '5125550190',
      isPrimary: true,
    });
    const [visit] = await t.db
      .insert(appointments)
      .values({ instanceId: riverside, patientId: patient!.id, startsAt: new Date(Date.now() + 5 * 86_400_000) })
      .returning({ id: appointments.id });
    // The demo clinic's texts are off (enableSms).
    await setInstanceSetting(t.db, riverside, 'enableSms', 'false');
    const created = await createIntake({ patientId: patient!.id, appointmentId: visit!.id, send: ['sms'] });
    expect(created.sent).toEqual([{ channel: 'sms', status: 'suppressed', reason: 'clinicSmsOff' }]);
  });
});

describe('the patient runs the intake', () => {
  let token: string;
  let access: string;
  let linkId: string;

  beforeAll(async () => {
    await t.db.delete(notifications);
    const created = await createIntake({
      patientId: ids.newPatient,
      appointmentId: ids.newVisit,
      formCodes: [10],
      amountDueCents: 4500,
    });
    token = created.token;
    linkId = created.linkId;
  });

  it('the link names the visit, not the patient, until identity is confirmed', async () => {
    const status = await open('GET', `/api/patient-links/${token}/status`);
    expect(status.json<LinkStatusResponse>()).toMatchObject({
      status: 'active',
      formTitle: { en: 'Visit check-in', es: 'Registro para su cita' },
      languages: ['en', 'es'],
    });
    expect((await open('GET', `/api/intake/${token}`)).statusCode).toBe(401);
    access = await verified(token);
    const intake = await view(token, access);
    expect(intake.patientFirstName).toBe('Ana');
    expect(intake.steps).toEqual([1, 2, 4, 5, 6, 7].map((step) => ({ step, done: false })));
    expect(intake.forms).toEqual([
      { key: 'pro-10', step: 6, title: expect.objectContaining({ en: expect.stringContaining('PHQ-2') }), done: false },
    ]);
    expect(intake.amountDueCents).toBe(4500);
    expect(intake.agreement?.version).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(intake.previousBodyMap).toBeNull();
  });

  it('a form link route does not open an intake link, nor an intake route a form link', async () => {
    expect((await open('GET', `/api/patient-links/${token}/form`, undefined, access)).statusCode).toBe(404);
    const form = await call('POST', '/api/patient-links', 'staff', { patientId: ids.newPatient, formCode: 10 });
    const formToken = form.json<{ token: string }>().token;
    const formAccess = await verified(formToken);
    expect((await open('GET', `/api/intake/${formToken}`, undefined, formAccess)).statusCode).toBe(404);
    // Another link's access token is not this link's.
    expect((await open('GET', `/api/intake/${token}`, undefined, formAccess)).statusCode).toBe(401);
  });

  it('drafts keep partial answers; a finished step checks what it needs, field by field', async () => {
    const draft = await save(token, access, 'paperwork', { city: 'Austin', phones: [] }, false);
    expect(draft.json()).toEqual({ done: false, completed: false });
    expect((await view(token, access)).saved.paperwork).toEqual({ city: 'Austin', phones: [] });
    const incomplete = await save(token, access, 'paperwork', { city: 'Austin' }, true);
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.json<{ fields: Record<string, string> }>().fields).toMatchObject({
      streetAddress1: 'required',
      phones: 'required',
      'contacts.emergency.name': 'required',
      'primaryInsurance.payer': 'required',
      agreementSignature: 'required',
    });
    // A signature the consent PDF could not draw is refused now, not when staff open the PDF.
    const undrawable = await save(
      token,
      access,
      'paperwork',
      { ...PAPERWORK, agreementSignature: { ...SIGNATURE, image: 'data:image/png;base64,iVBORw0KGgo=' } },
      true,
    );
    expect(undrawable.statusCode).toBe(400);
    expect(undrawable.json<{ fields: Record<string, string> }>().fields).toEqual({ agreementSignature: 'signatureInvalid' });
    const malformed = await save(token, access, 'paperwork', { zip: '7870', email: 'nope' }, false);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json<{ fields: Record<string, string> }>().fields).toMatchObject({
      'data.zip': 'zipInvalid',
      'data.email': 'emailInvalid',
    });
    const outOfRange = await save(token, access, 'vas', { current: 11 }, false);
    expect(outOfRange.statusCode).toBe(400);
    const unknownRegion = await save(token, access, 'bodymap', { regions: { 'third-arm': 4 } }, false);
    expect(unknownRegion.statusCode).toBe(400);
  });

  it('each finished step lands where staff read it, and the last one completes the intake and tells staff', async () => {
    const paperwork = await save(token, access, 'paperwork', PAPERWORK, true);
    expect(paperwork.json(), paperwork.body).toEqual({ done: true, completed: false });
    const [patient] = await t.db.select().from(patients).where(eq(patients.id, ids.newPatient));
    // The record had no address: it is filled. Its language differs from the answer: that waits for staff (decision 0056).
    expect(patient).toMatchObject({ streetAddress1: '12 Elm St', zip: '78701', preferredLanguage: 'en' });
    expect(patient!.agreementSignedDate).not.toBeNull();
    const [consent] = await t.db.select().from(patientConsents).where(eq(patientConsents.linkId, linkId));
    expect(consent).toMatchObject({ kind: 'newPatientAgreement', language: 'es', title: 'Acuerdo para pacientes nuevos' });
    expect(consent!.expiresAt!.getTime() - consent!.signedAt.getTime()).toBeGreaterThan(364 * 86_400_000);

    expect((await save(token, access, 'history', { noKnownAllergies: true }, true)).statusCode).toBe(400);
    const history = { noKnownAllergies: true, medications: [{ name: 'Gabapentin', dose: '300 mg', frequency: 'twice a day' }] };
    expect((await save(token, access, 'history', history, true)).json()).toEqual({ done: true, completed: false });
    expect((await save(token, access, 'vas', { current: 6, average: 5, best: 2 }, true)).statusCode).toBe(400);
    expect((await save(token, access, 'vas', { current: 6, average: 5, best: 2, worst: 9 }, true)).statusCode).toBe(200);
    const [visit] = await t.db.select().from(appointments).where(eq(appointments.id, ids.newVisit));
    expect(visit!.painScore).toBe(6);
    const map = { regions: { 'lower-back': 7, 'left-upper-leg': 4 } };
    expect((await save(token, access, 'bodymap', map, true)).statusCode).toBe(200);
    expect((await save(token, access, 'payment', { method: 'desk' }, true)).json()).toEqual({ done: true, completed: false });
    // A finished step keeps what was sent: a late draft changes nothing.
    await save(token, access, 'bodymap', { regions: {} }, false);
    expect((await view(token, access)).saved.bodymap).toEqual(map);

    const formResponse = await open('GET', `/api/intake/${token}/forms/pro-10`, undefined, access);
    expect(formResponse.statusCode).toBe(200);
    const form = formResponse.json<LinkForm>().form;
    const [first, second] = form.questions.map((question) => question.id);
    const draft = await open(
      'PUT',
      `/api/intake/${token}/forms/pro-10/draft`,
      { answers: { [first!]: 2 }, position: 1, language: 'es' },
      access,
    );
    expect(draft.statusCode).toBe(204);
    expect((await open('GET', `/api/intake/${token}/forms/pro-10`, undefined, access)).json<LinkForm>().draft?.answers).toEqual({
      [first!]: 2,
    });
    const key = crypto.randomUUID();
    const incomplete = await open(
      'POST',
      `/api/intake/${token}/forms/pro-10/submit`,
      { idempotencyKey: key, answers: { [first!]: 2 }, language: 'es' },
      access,
    );
    expect(incomplete.statusCode).toBe(400);
    const submit = () =>
      open(
        'POST',
        `/api/intake/${token}/forms/pro-10/submit`,
        { idempotencyKey: key, answers: { [first!]: 2, [second!]: 1 }, language: 'es' },
        access,
      );
    const submitted = await submit();
    expect(submitted.statusCode, submitted.body).toBe(201);
    const again = await submit();
    expect(again.statusCode).toBe(200);
    expect(again.json<{ responseId: string }>().responseId).toBe(submitted.json<{ responseId: string }>().responseId);
    expect((await open('GET', `/api/intake/${token}/forms/pro-99`, undefined, access)).statusCode).toBe(400);
    expect((await open('GET', `/api/intake/${token}/forms/pro-11`, undefined, access)).statusCode).toBe(404);

    const done = await view(token, access);
    expect(done.completedAt).not.toBeNull();
    expect(done.steps.every((step) => step.done)).toBe(true);
    const [link] = await t.db.select().from(patientLinks).where(eq(patientLinks.id, linkId));
    expect(link!.completedAt).not.toBeNull();
    const bell = await t.db.select().from(notifications).where(eq(notifications.appointmentId, ids.newVisit));
    expect(bell).toHaveLength(1);
    const logs = await t.db
      .select({ area: activityLogs.area })
      .from(activityLogs)
      .where(and(eq(activityLogs.instanceId, riverside), eq(activityLogs.targetId, linkId)));
    expect(new Set(logs.map((log) => log.area))).toEqual(new Set(['Intake Information', 'Checkins', 'Patient Sign-In']));
  });

  it('staff see the whole intake on the patient, with the consent as a PDF; other clinics and other doctors do not', async () => {
    const response = await call('GET', `/api/patients/${ids.newPatient}/intake`, 'doctor');
    expect(response.statusCode, response.body).toBe(200);
    const [intake] = response.json<StaffIntake[]>().filter((entry) => entry.linkId === linkId);
    expect(intake).toMatchObject({
      status: 'completed',
      saved: {
        vas: { current: 6, average: 5, best: 2, worst: 9 },
        bodymap: { regions: { 'lower-back': 7, 'left-upper-leg': 4 } },
      },
      forms: [{ key: 'pro-10', done: true, headlineScore: 3 }],
    });
    expect(intake!.consents).toHaveLength(1);
    const pdf = await call('GET', intake!.consents[0]!.pdfUrl, 'doctor');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await call('GET', `/api/patients/${ids.newPatient}/intake`, 'admin2')).statusCode).toBe(404);
    expect((await call('GET', intake!.consents[0]!.pdfUrl, 'admin2')).statusCode).toBe(404);
    expect((await call('GET', `/api/patients/${ids.otherDoctorPatient}/intake`, 'doctor')).statusCode).toBe(404);
    expect((await call('GET', `/api/patients/${ids.otherDoctorPatient}/intake`, 'staff')).statusCode).toBe(200);
  });

  it('a form stored without a score shows why on the intake card, not an empty score (issue #24 §1, decision 0067)', async () => {
    const [before] = (await call('GET', `/api/patients/${ids.newPatient}/intake`, 'doctor'))
      .json<StaffIntake[]>()
      .filter((entry) => entry.linkId === linkId);
    const responseId = before!.forms[0]!.responseId!;
    const [stored] = await t.db.select().from(formResponses).where(eq(formResponses.id, responseId));
    // The response as migration 0029 leaves one answered on neutral labels: answers kept, no score, the reason.
    await t.db
      .update(formResponses)
      .set({ scores: {}, headlineScore: null, band: null, notScored: 'wordingNotLoaded' })
      .where(eq(formResponses.id, responseId));
    try {
      const [intake] = (await call('GET', `/api/patients/${ids.newPatient}/intake`, 'doctor'))
        .json<StaffIntake[]>()
        .filter((entry) => entry.linkId === linkId);
      expect(intake!.forms).toMatchObject([{ key: 'pro-10', done: true, headlineScore: null, notScored: 'wordingNotLoaded' }]);
    } finally {
      await t.db
        .update(formResponses)
        .set({ scores: stored!.scores, headlineScore: stored!.headlineScore, band: stored!.band, notScored: null })
        .where(eq(formResponses.id, responseId));
    }
  });

  it('a finished intake reads again but takes no new answers', async () => {
    const revisit = await view(token, access);
    expect(revisit.saved.history?.medications?.[0]?.name).toBe('Gabapentin');
    expect((await save(token, access, 'vas', { current: 1, average: 1, best: 1, worst: 1 }, true)).json()).toEqual({
      done: true,
      completed: true,
    });
    const [visit] = await t.db.select().from(appointments).where(eq(appointments.id, ids.newVisit));
    expect(visit!.painScore).toBe(6);
  });

  it('the next visit skips the signed paperwork and shows this body map as the previous one', async () => {
    const next = await createIntake({ patientId: ids.newPatient, appointmentId: ids.laterVisit, formCodes: [] });
    expect(next.steps).toEqual([2, 4, 5, 7]);
    const nextAccess = await verified(next.token);
    expect((await view(next.token, nextAccess)).previousBodyMap).toEqual({ regions: { 'lower-back': 7, 'left-upper-leg': 4 } });
    // A visit booked as a new-patient visit asks for the paperwork again while the clinic says so.
    await setInstanceSetting(t.db, riverside, 'showIntakeFormForNewPatients', 'true');
    expect((await createIntake({ patientId: ids.newPatient, appointmentId: ids.thirdVisit, formCodes: [] })).steps).toEqual([
      1, 2, 4, 5, 7,
    ]);
    await setInstanceSetting(t.db, riverside, 'showIntakeFormForNewPatients', 'false');
    expect((await createIntake({ patientId: ids.newPatient, appointmentId: ids.thirdVisit, formCodes: [] })).steps).toEqual([
      2, 4, 5, 7,
    ]);
    await setInstanceSetting(t.db, riverside, 'enablePaymentCollection', 'false');
    expect((await createIntake({ patientId: ids.newPatient, appointmentId: ids.thirdVisit, formCodes: [] })).steps).toEqual([
      2, 4, 5,
    ]);
    await setInstanceSetting(t.db, riverside, 'enablePaymentCollection', 'true');
  });
});

describe('closed links', () => {
  it('an ended intake answers 410 expired; an unknown token 404', async () => {
    const created = await createIntake({ patientId: ids.otherPatient, appointmentId: ids.otherVisit });
    const access = await verified(created.token).catch(() => '');
    expect(access).toBe('');
    const baker = await open('POST', `/api/patient-links/${created.token}/verify`, {
      lastName: 'Baker',
      dateOfBirth: '06/15/1968',
    });
    const bakerAccess = baker.json<{ accessToken: string }>().accessToken;
    expect((await call('POST', '/api/patients/intakeenddate', 'staff', { linkId: created.linkId })).statusCode).toBe(204);
    const closed = await open('GET', `/api/intake/${created.token}`, undefined, bakerAccess);
    expect(closed.statusCode).toBe(410);
    expect((await open('GET', `/api/intake/${'x'.repeat(43)}`, undefined, bakerAccess)).statusCode).toBe(404);
    expect((await call('POST', '/api/patients/intakeenddate', 'admin2', { linkId: created.linkId })).statusCode).toBe(404);
  });
});

describe('appointment dashboard and bulk notification', () => {
  it("lists a day's appointments with each intake's steps, for the clinic only", async () => {
    const [visit] = await t.db.select().from(appointments).where(eq(appointments.id, ids.newVisit));
    const response = await call('POST', '/api/patients/appointmentdashboardinfo', 'staff', {
      date: clinicMdy(visit!.startsAt, ZONE),
    });
    expect(response.statusCode, response.body).toBe(200);
    const dashboard = response.json<AppointmentDashboard>();
    const row = dashboard.rows.find((entry) => entry.appointmentId === ids.newVisit);
    expect(row?.intake?.linkStatus).toBe('completed');
    expect(row?.intake?.steps.every((step) => step.done)).toBe(true);
    expect(dashboard.rows.some((entry) => entry.appointmentId === ids.lakesideVisit)).toBe(false);
    const today = await call('POST', '/api/patients/appointmentdashboardinfo', 'staff', {});
    expect(today.json<AppointmentDashboard>().date).toBe(clinicMdy(new Date(), ZONE));
    const bad = await call('POST', '/api/patients/appointmentdashboardinfo', 'staff', { date: '13/45/2026' });
    expect(bad.statusCode).toBe(400);
  });

  it('previews who can be reached and why not, sends to the rest under one batch, and reports progress', async () => {
    // Both visits at noon, clinic time, ten days from now: one day, whatever the hour of the run.
    const [year, month, date] = clinicIsoDate(Date.now() + 10 * 86_400_000, ZONE)
      .split('-')
      .map(Number);
    const noon = instantOfClinicTime(year!, month!, date!, ZONE, 12);
    await t.db
      .update(appointments)
      .set({ startsAt: noon })
      .where(inArray(appointments.id, [ids.otherVisit, ids.otherDoctorVisit]));
    const day = clinicMdy(noon, ZONE);
    const preview = await call('POST', '/api/patients/bulkintakenotification/preview', 'staff', { date: day, send: ['email'] });
    expect(preview.statusCode, preview.body).toBe(200);
    const candidates = preview.json<{ candidates: { appointmentId: string; channels: string[]; reason: string | null }[] }>()
      .candidates;
    const stone = candidates.find((candidate) => candidate.appointmentId === ids.otherDoctorVisit);
    const baker = candidates.find((candidate) => candidate.appointmentId === ids.otherVisit);
    {
      expect(stone).toMatchObject({ channels: ['email'], reason: null });
      expect(baker).toMatchObject({ channels: [], reason: 'noContact' });
      const started = await call('POST', '/api/patients/bulkintakenotification', 'staff', { date: day, send: ['email'] });
      expect(started.statusCode, started.body).toBe(201);
      const { batchId, links } = started.json<{ batchId: string; links: number }>();
      expect(links).toBeGreaterThanOrEqual(1);
      const progress = await call('GET', `/api/patients/bulkintakenotification/${batchId}`, 'staff');
      expect(progress.json<{ total: number }>().total).toBe(
        (await t.db.select().from(outboxMessages).where(eq(outboxMessages.batchId, batchId))).length,
      );
      expect((await call('GET', `/api/patients/bulkintakenotification/${batchId}`, 'admin2')).statusCode).toBe(404);
      const repeat = await call('POST', '/api/patients/bulkintakenotification/preview', 'staff', { date: day, send: ['email'] });
      const again = repeat.json<{ candidates: { appointmentId: string; reason: string | null }[] }>().candidates;
      expect(again.find((candidate) => candidate.appointmentId === ids.otherDoctorVisit)?.reason).toBe('alreadySent');
    }
    const bad = await call('POST', '/api/patients/bulkintakenotification/preview', 'staff', { date: 'soon', doctorIds: ['x'] });
    expect(bad.statusCode).toBe(400);
  });
});

describe('check-in from the link', () => {
  it('is offered on the day of the visit when the clinic allows it, moves the status once, and is refused otherwise', async () => {
    const [year, month, day] = clinicIsoDate(Date.now(), ZONE).split('-').map(Number);
    const [patient] = await t.db
      .insert(patients)
      .values({ instanceId: riverside, firstName: 'Ana', lastName: 'Reyes', dateOfBirth: '1968-06-15', email: null })
      .returning({ id: patients.id });
    // The last minute of the clinic's day: still today, whenever the test runs.
    const [today] = await t.db
      .insert(appointments)
      .values({ instanceId: riverside, patientId: patient!.id, startsAt: instantOfClinicTime(year!, month!, day!, ZONE, 23, 59) })
      .returning({ id: appointments.id });
    const [later] = await t.db
      .insert(appointments)
      .values({ instanceId: riverside, patientId: patient!.id, startsAt: new Date(Date.now() + 3 * 86_400_000) })
      .returning({ id: appointments.id });
    const created = await createIntake({ patientId: patient!.id, appointmentId: today!.id, formCodes: [] });
    const verify = await open('POST', `/api/patient-links/${created.token}/verify`, {
      lastName: 'Reyes',
      dateOfBirth: '06/15/1968',
    });
    const access = verify.json<{ accessToken: string }>().accessToken;

    await setInstanceSetting(t.db, riverside, 'enablePatientSelfCheckin', 'false');
    await setInstanceSetting(t.db, riverside, 'enableHomeCheckin', 'false');
    expect((await view(created.token, access)).checkIn).toEqual({ offered: false, checkedIn: false, fromHome: false });
    expect((await open('POST', `/api/intake/${created.token}/checkin`, undefined, access)).statusCode).toBe(403);

    await setInstanceSetting(t.db, riverside, 'enableHomeCheckin', 'true');
    await setInstanceSetting(t.db, riverside, 'checkinConfirmationPage', 'true');
    expect((await view(created.token, access)).checkIn).toEqual({ offered: true, checkedIn: false, fromHome: true });
    expect((await open('POST', `/api/intake/${created.token}/checkin`)).statusCode).toBe(401);
    const checkedIn = await open('POST', `/api/intake/${created.token}/checkin`, undefined, access);
    expect(checkedIn.json()).toEqual({ checkedIn: true, confirmationPage: true });
    const [row] = await t.db.select().from(appointments).where(eq(appointments.id, today!.id));
    expect(row).toMatchObject({ status: 1 });
    expect(row!.checkedInAt).not.toBeNull();
    expect((await open('POST', `/api/intake/${created.token}/checkin`, undefined, access)).statusCode).toBe(200);
    expect((await view(created.token, access)).checkIn).toEqual({ offered: false, checkedIn: true, fromHome: true });
    const logs = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, today!.id), eq(activityLogs.area, 'Checkins')));
    expect(logs).toHaveLength(1);

    const other = await createIntake({ patientId: patient!.id, appointmentId: later!.id, formCodes: [] });
    const otherVerify = await open('POST', `/api/patient-links/${other.token}/verify`, {
      lastName: 'Reyes',
      dateOfBirth: '06/15/1968',
    });
    const otherAccess = otherVerify.json<{ accessToken: string }>().accessToken;
    const notToday = await open('POST', `/api/intake/${other.token}/checkin`, undefined, otherAccess);
    expect(notToday.statusCode).toBe(409);
    expect(notToday.json<{ messageKey: string }>().messageKey).toBe('checkinNotToday');
  });
});

describe('a finished intake on the day of the visit (issue #24 §5)', () => {
  const linkStatus = async (token: string) =>
    (await open('GET', `/api/patient-links/${token}/status`)).json<LinkStatusResponse>().status;

  it('opens again to check in on the visit day (clinic time), and says "already used" on any other day', async () => {
    const [year, month, day] = clinicIsoDate(Date.now(), ZONE).split('-').map(Number);
    const [patient] = await t.db
      .insert(patients)
      .values({ instanceId: riverside, firstName: 'Rosa', lastName: 'Fernández Peña', dateOfBirth: '1982-02-03', email: null })
      .returning({ id: patients.id });
    // The last minute of the clinic's day: still today, whenever the test runs.
    const [today] = await t.db
      .insert(appointments)
      .values({ instanceId: riverside, patientId: patient!.id, startsAt: instantOfClinicTime(year!, month!, day!, ZONE, 23, 59) })
      .returning({ id: appointments.id });
    const [later] = await t.db
      .insert(appointments)
      .values({ instanceId: riverside, patientId: patient!.id, startsAt: new Date(Date.now() + 3 * 86_400_000) })
      .returning({ id: appointments.id });
    await setInstanceSetting(t.db, riverside, 'enablePatientSelfCheckin', 'true');
    await setInstanceSetting(t.db, riverside, 'enableHomeCheckin', 'false');
    const finished = async (appointmentId: string) => {
      const created = await createIntake({ patientId: patient!.id, appointmentId, formCodes: [] });
      // The paperwork was done at home the day before.
      await t.db.update(patientLinks).set({ completedAt: new Date() }).where(eq(patientLinks.id, created.linkId));
      return created;
    };
    const who = { lastName: 'Fernandez', dateOfBirth: '02/03/1982' };

    const onTheDay = await finished(today!.id);
    expect(await linkStatus(onTheDay.token)).toBe('active');
    const verify = await open('POST', `/api/patient-links/${onTheDay.token}/verify`, who);
    expect(verify.statusCode, verify.body).toBe(200);
    const access = verify.json<{ accessToken: string }>().accessToken;
    const seen = await view(onTheDay.token, access);
    expect(seen.completedAt).not.toBeNull();
    expect(seen.checkIn).toEqual({ offered: true, checkedIn: false, fromHome: false });
    // Still read-only: no new answers.
    expect((await save(onTheDay.token, access, 'vas', { current: 1, average: 1, best: 1, worst: 1 }, true)).statusCode).toBe(410);
    const checkedIn = await open('POST', `/api/intake/${onTheDay.token}/checkin`, undefined, access);
    expect(checkedIn.statusCode, checkedIn.body).toBe(200);
    const [row] = await t.db.select().from(appointments).where(eq(appointments.id, today!.id));
    expect(row!.status).toBe(1);
    // Checked in, the link still opens and says so.
    expect(await linkStatus(onTheDay.token)).toBe('active');

    const anotherDay = await finished(later!.id);
    expect(await linkStatus(anotherDay.token)).toBe('completed');
    const refused = await open('POST', `/api/patient-links/${anotherDay.token}/verify`, who);
    expect(refused.statusCode).toBe(410);

    // A clinic that offers no check-in from the link: "already used", as before.
    await setInstanceSetting(t.db, riverside, 'enablePatientSelfCheckin', 'false');
    const noCheckIn = await finished(today!.id);
    expect(await linkStatus(noCheckIn.token)).toBe('completed');
  });
});

describe('the opt-in page (showOptInToConsentPage)', () => {
  it("records the patient's choice of optional messages, leaving care messages on; 400, 401, 403 and 404 otherwise", async () => {
    const [patient] = await t.db
      .insert(patients)
      .values({
        instanceId: riverside,
        firstName: 'Ana',
        lastName: 'Ortega',
        dateOfBirth: '1968-06-15',
        email: 'ana.optin@example.test',
      })
      .returning({ id: patients.id });
    const [visit] = await t.db
      .insert(appointments)
      .values({ instanceId: riverside, patientId: patient!.id, startsAt: new Date(Date.now() + 5 * 86_400_000) })
      .returning({ id: appointments.id });
    const created = await createIntake({ patientId: patient!.id, appointmentId: visit!.id, formCodes: [] });
    const access = await verified(created.token);
    const url = `/api/intake/${created.token}/contact`;
    const body = { choice: { email: true, text: false }, language: 'es' };

    await setInstanceSetting(t.db, riverside, 'showOptInToConsentPage', 'false');
    expect((await view(created.token, access)).options.contactOptIn).toBe(false);
    expect((await open('PUT', url, body, access)).statusCode).toBe(403);

    await setInstanceSetting(t.db, riverside, 'showOptInToConsentPage', 'true');
    try {
      const before = await view(created.token, access);
      expect(before.options.contactOptIn).toBe(true);
      expect(before.contactChoice).toBeNull();
      expect((await open('PUT', url, body)).statusCode).toBe(401);
      const bad = await open('PUT', url, { choice: { email: 'yes' }, language: 'es' }, access);
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json().fields).sort()).toEqual(['choice.email', 'choice.text']);
      expect((await open('PUT', `/api/intake/${'x'.repeat(43)}/contact`, body, access)).statusCode).toBe(404);

      const saved = await open('PUT', url, body, access);
      expect(saved.statusCode, saved.body).toBe(200);
      const [row] = await t.db.select().from(patients).where(eq(patients.id, patient!.id));
      // Declining optional texts keeps care texts (questionnaires, reminders) on (issue #24 §5).
      expect(row).toMatchObject({ outreachEmail: true, outreachText: false, enableEmail: true, enableText: true });
      const after = await view(created.token, access);
      expect(after.contactChoice).toEqual({ email: true, text: false });
      // The answer is no step of the plan: nothing else moves.
      expect(after.steps).toEqual(before.steps);
      expect(after.ownDone).toEqual([]);
      const logs = await t.db
        .select()
        .from(activityLogs)
        .where(and(eq(activityLogs.targetId, patient!.id), eq(activityLogs.area, 'Intake Information')));
      expect(logs.map((log) => log.description)).toContain('Patient chose optional messages by email: yes, by text: no');
    } finally {
      await setInstanceSetting(t.db, riverside, 'showOptInToConsentPage', 'false');
    }
  });

  it("says when the patient's mobile number replied STOP, so the page can tell them texts stay off until START", async () => {
    const [patient] = await t.db
      .insert(patients)
      .values({ instanceId: riverside, firstName: 'Ana', lastName: 'Ortega', dateOfBirth: '1968-06-15' })
      .returning({ id: patients.id });
    await t.db.insert(patientPhoneNumbers).values({
      instanceId: riverside,
      patientId: patient!.id,
      phoneType: 7,
      number: '(512) 555-0177',
      digits: '5125550177',
      isPrimary: true,
    });
    const [visit] = await t.db
      .insert(appointments)
      .values({ instanceId: riverside, patientId: patient!.id, startsAt: new Date(Date.now() + 5 * 86_400_000) })
      .returning({ id: appointments.id });
    const created = await createIntake({ patientId: patient!.id, appointmentId: visit!.id, formCodes: [] });
    const access = await verified(created.token);
    await setInstanceSetting(t.db, riverside, 'showOptInToConsentPage', 'true');
    try {
      expect((await view(created.token, access)).textStopped).toBe(false);
      await t.db.insert(smsOptOuts).values({ instanceId: riverside, phone: '+15125550177', optedOut: true, keyword: 'STOP' });
      expect((await view(created.token, access)).textStopped).toBe(true);
      await t.db.update(smsOptOuts).set({ optedOut: false, keyword: 'START' }).where(eq(smsOptOuts.phone, '+15125550177'));
      expect((await view(created.token, access)).textStopped).toBe(false);
    } finally {
      await setInstanceSetting(t.db, riverside, 'showOptInToConsentPage', 'false');
    }
  });
});

describe('pain answers nobody gave (issue #24 §1)', () => {
  let token: string;
  let access: string;
  let visitId: string;

  beforeAll(async () => {
    const [row] = await t.db
      .insert(appointments)
      .values({
        instanceId: riverside,
        patientId: ids.newPatient,
        doctorId: ids.doctor,
        reason: 'follow_up',
        startsAt: new Date(Date.now() + 24 * 40 * 3_600_000),
      })
      .returning({ id: appointments.id });
    visitId = row!.id;
    const created = await createIntake({ patientId: ids.newPatient, appointmentId: visitId, steps: [4, 5], formCodes: [] });
    token = created.token;
    access = await verified(token);
  });

  it('a pain score nobody gave is refused, not stored as 0; an empty body map needs an explicit "no pain anywhere"', async () => {
    // Issue #24 §1: a patient who scrolled past the sliders recorded "no pain" four times.
    const missing = await save(token, access, 'vas', { current: 0 }, true);
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ fields: Record<string, string> }>().fields).toEqual({
      average: 'painScoreRequired',
      best: 'painScoreRequired',
      worst: 'painScoreRequired',
    });
    const notANumber = await save(token, access, 'vas', { current: null, average: 1, best: 0, worst: 2 }, true);
    expect(notANumber.json<{ fields: Record<string, string> }>().fields).toEqual({ 'data.current': 'numberInvalid' });
    const [visit] = await t.db.select().from(appointments).where(eq(appointments.id, visitId));
    expect(visit!.painScore).toBeNull();
    // 0 is a real answer when the patient chose it.
    expect((await save(token, access, 'vas', { current: 0, average: 0, best: 0, worst: 0 }, true)).statusCode).toBe(200);

    const empty = await save(token, access, 'bodymap', { regions: {} }, true);
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ fields: Record<string, string> }>().fields).toEqual({ regions: 'bodyMapEmpty' });
    const contradictory = await save(token, access, 'bodymap', { regions: { neck: 3 }, noPain: true }, true);
    expect(contradictory.json<{ fields: Record<string, string> }>().fields).toEqual({ noPain: 'bodyMapNoPainWithAreas' });
    const noLevel = await save(token, access, 'bodymap', { regions: { neck: null } }, true);
    expect(noLevel.statusCode).toBe(400);
    expect(await save(token, access, 'bodymap', { regions: {}, noPain: true }, true)).toMatchObject({ statusCode: 200 });
    expect((await view(token, access)).saved.bodymap).toEqual({ regions: {}, noPain: true });
  });
});

describe('forms whose licensed wording is not loaded (issue #24 §1, decision 0061)', () => {
  it('an intake cannot plan NDI for a clinic without its wording: 400 on the form', async () => {
    const refused = await call('POST', '/api/patients/intake', 'staff', {
      patientId: ids.newPatient,
      appointmentId: ids.thirdVisit,
      formCodes: [10, 3],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      messageKey: 'formWordingNotLoaded',
      fields: { 'formCodes.1': 'formWordingNotLoaded' },
    });
  });

  it("from the visit's default assignment, a form without wording is left out instead of refusing the intake", async () => {
    await setInstanceSetting(t.db, riverside, 'applicableForms', '3,10');
    const created = await createIntake({ patientId: ids.newPatient, appointmentId: ids.thirdVisit, steps: [6] });
    const [link] = await t.db.select().from(patientLinks).where(eq(patientLinks.id, created.linkId));
    expect(link!.intakePlan!.formCodes).toEqual([10]);
  });
});

describe('an intake planned with a form whose wording the clinic has not loaded', () => {
  it('does not ask the patient for it and can still be completed', async () => {
    const [visit] = await t.db
      .insert(appointments)
      .values({
        instanceId: riverside,
        patientId: ids.newPatient,
        doctorId: ids.doctor,
        reason: 'follow_up',
        startsAt: new Date(Date.now() + 24 * 50 * 3_600_000),
      })
      .returning({ id: appointments.id });
    const created = await createIntake({ patientId: ids.newPatient, appointmentId: visit!.id, steps: [4, 6], formCodes: [10] });
    // As a plan stored before the rule: NDI (not loaded for Riverside) beside PHQ-2, and NDI alone.
    await t.db
      .update(patientLinks)
      .set({ intakePlan: { steps: [4, 6], formCodes: [3], historyFormIds: [], checkInFormIds: [] } })
      .where(eq(patientLinks.id, created.linkId));
    const access = await verified(created.token);
    const intake = await view(created.token, access);
    expect(intake.forms).toEqual([]);
    expect(intake.steps).toEqual([{ step: 4, done: false }]);
    expect((await open('GET', `/api/intake/${created.token}/forms/pro-3`, undefined, access)).statusCode).toBe(404);
    const finished = await save(created.token, access, 'vas', { current: 2, average: 3, best: 1, worst: 5 }, true);
    expect(finished.json()).toEqual({ done: true, completed: true });
  });
});
