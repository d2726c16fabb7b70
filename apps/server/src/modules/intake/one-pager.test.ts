import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedIntake, OnePager } from '@pathwell/contracts/intake';
import type { LinkForm } from '@pathwell/contracts/patient-links';
import {
  activityLogs,
  appointments,
  customForms,
  formResponses,
  instances,
  managedItems,
  patientConsents,
  patientLinks,
  patients,
  users,
} from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp, setInstanceSetting } from '../../../test/test-app';

let t: TestApp;
let riverside: string;
let lakeside: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};
const ids = {} as {
  doctor: string;
  patient: string;
  earlierVisit: string;
  visit: string;
  femaleGender: string;
  bareVisit: string;
  draftVisit: string;
  historyForm: string;
  otherDoctorVisit: string;
  lakesideVisit: string;
};
const ZONE = 'America/Chicago';
const SIGNATURE = {
  image: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  signedAt: new Date().toISOString(),
};
const PAPERWORK = {
  streetAddress1: '40 Oak Ave',
  city: 'Austin',
  state: 'TX',
  zip: '78702',
  phones: [{ type: 'MOBILE', number: '(512) 555-0171' }],
  contacts: [{ role: 'emergency', name: 'Rosa Quintero', relationship: 'Sister', phone: '(512) 555-0172' }],
  selfPay: true,
  agreementSignature: SIGNATURE,
};
// Visits at fixed clinic times: the age on the visit day is known (the patient turns 55 the day after).
const EARLIER_START = instantOfClinicTime(2025, 1, 15, ZONE, 10, 0);
const VISIT_START = instantOfClinicTime(2025, 3, 20, ZONE, 9, 30);
const OLD_AGREEMENT_SIGNED = new Date('2023-02-01T16:00:00.000Z');
const OLD_AGREEMENT_EXPIRED = new Date('2024-02-01T16:00:00.000Z');

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const who of ['doctor', 'staff', 'admin2']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  ids.doctor = doctor!.id;
  const [female] = await t.db
    .select({ id: managedItems.id })
    .from(managedItems)
    .where(
      and(
        eq(managedItems.instanceId, riverside),
        eq(managedItems.listType, 'customfield:gender'),
        eq(managedItems.name, 'Female'),
      ),
    );
  ids.femaleGender = female!.id;
  const [otherDoctor] = await t.db
    .insert(users)
    .values({
      email: 'second.doctor@example.test',
      firstName: 'Second',
      lastName: 'Doctor',
      passwordHash: 'x',
      role: 3,
      status: 'active',
    })
    .returning({ id: users.id });
  const patient = async (instanceId: string, lastName: string, doctorId: string | null, genderId: string | null = null) => {
    const [row] = await t.db
      .insert(patients)
      .values({ instanceId, firstName: 'Marta', middleName: 'Elena', lastName, dateOfBirth: '1970-03-21', doctorId, genderId })
      .returning({ id: patients.id });
    return row!.id;
  };
  const visit = async (instanceId: string, patientId: string, doctorId: string | null, startsAt: Date) => {
    const [row] = await t.db
      .insert(appointments)
      .values({ instanceId, patientId, doctorId, startsAt, reason: 'follow_up' })
      .returning({ id: appointments.id });
    return row!.id;
  };
  ids.patient = await patient(riverside, 'Quintero', ids.doctor, ids.femaleGender);
  ids.earlierVisit = await visit(riverside, ids.patient, ids.doctor, EARLIER_START);
  ids.visit = await visit(riverside, ids.patient, ids.doctor, VISIT_START);
  const bare = await patient(riverside, 'Bare', ids.doctor);
  ids.bareVisit = await visit(riverside, bare, ids.doctor, VISIT_START);
  const drafty = await patient(riverside, 'Draft', ids.doctor);
  ids.draftVisit = await visit(riverside, drafty, ids.doctor, VISIT_START);
  const [form] = await t.db.insert(customForms).values({ instanceId: riverside, title: 'Spine history' }).returning();
  ids.historyForm = form!.id;
  const colleagues = await patient(riverside, 'Stone', otherDoctor!.id);
  ids.otherDoctorVisit = await visit(riverside, colleagues, otherDoctor!.id, VISIT_START);
  const lake = await patient(lakeside, 'Lake', null);
  ids.lakesideVisit = await visit(lakeside, lake, null, VISIT_START);
  await setInstanceSetting(t.db, riverside, 'timeZoneId', ZONE);
  await setInstanceSetting(t.db, riverside, 'consentExpiration', '365');
});
afterAll(async () => {
  await t?.close();
});

type Who = keyof typeof tokens;
const call = (method: 'GET' | 'POST', url: string, as: Who, payload?: unknown) =>
  t.app.inject({ method, url, headers: tokens[as]!.headers, payload: payload as object | undefined, remoteAddress: nextIp() });
const open = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, accessToken?: string) =>
  t.app.inject({
    method,
    url,
    headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
    payload: payload as object | undefined,
    remoteAddress: nextIp(),
  });
const onePagerOf = (appointmentId: string, as: Who) =>
  call('GET', `/api/patientappointments/one-pager?appointmentId=${appointmentId}`, as);

/** An intake link for the visit, opened by the patient (identity checked). */
async function openIntake(body: Record<string, unknown>, lastName = 'Quintero') {
  const response = await call('POST', '/api/patients/intake', 'staff', body);
  expect(response.statusCode, response.body).toBe(201);
  const created = response.json<CreatedIntake>();
  const token = new URL(created.url).pathname.split('/')[3]!;
  const verify = await open('POST', `/api/patient-links/${token}/verify`, { lastName, dateOfBirth: '03/21/1970' });
  expect(verify.statusCode, verify.body).toBe(200);
  return { token, access: verify.json<{ accessToken: string }>().accessToken, linkId: created.linkId };
}

async function finish(token: string, access: string, slug: string, data: unknown) {
  const response = await open('PUT', `/api/intake/${token}/${slug}`, { final: true, language: 'en', data }, access);
  expect(response.statusCode, response.body).toBe(200);
}

/** PHQ-9 with every item answered `code` (total 9 × code); the difficulty question is left out. */
async function answerPhq9(token: string, access: string, code: number) {
  const form = (await open('GET', `/api/intake/${token}/forms/pro-11`, undefined, access)).json<LinkForm>().form;
  const answers = Object.fromEntries(
    form.questions.filter((question) => question.id !== 'q10').map((question) => [question.id, code]),
  );
  const submitted = await open(
    'POST',
    `/api/intake/${token}/forms/pro-11/submit`,
    { idempotencyKey: crypto.randomUUID(), answers, language: 'en' },
    access,
  );
  expect(submitted.statusCode, submitted.body).toBe(201);
  return submitted.json<{ responseId: string }>().responseId;
}

describe('the one-pager of an appointment', () => {
  let earlierResponse: string;
  let currentResponse: string;
  let linkId: string;

  beforeAll(async () => {
    const earlier = await openIntake({
      patientId: ids.patient,
      appointmentId: ids.earlierVisit,
      steps: [4, 5, 6],
      formCodes: [11],
    });
    await finish(earlier.token, earlier.access, 'vas', { current: 7, average: 6, best: 3, worst: 9 });
    await finish(earlier.token, earlier.access, 'bodymap', {
      regions: { 'lower-back': 8, 'right-buttock': 6, 'right-upper-leg-back': 5, 'right-lower-leg-back': 4 },
    });
    earlierResponse = await answerPhq9(earlier.token, earlier.access, 2);

    const current = await openIntake({
      patientId: ids.patient,
      appointmentId: ids.visit,
      steps: [1, 2, 4, 5, 6],
      formCodes: [11],
    });
    linkId = current.linkId;
    await finish(current.token, current.access, 'paperwork', PAPERWORK);
    await finish(current.token, current.access, 'history', {
      allergies: [{ name: 'Penicillin', reaction: 'Hives' }],
      medications: [{ name: 'Gabapentin', dose: '300 mg', frequency: 'twice a day' }, { name: 'Ibuprofen' }],
    });
    await finish(current.token, current.access, 'vas', { current: 4, average: 4, best: 2, worst: 6 });
    await finish(current.token, current.access, 'bodymap', { regions: { 'right-buttock': 3, 'lower-back': 5 } });
    currentResponse = await answerPhq9(current.token, current.access, 1);

    // An agreement signed years ago that has lapsed stays on the record, flagged.
    await t.db.insert(patientConsents).values({
      instanceId: riverside,
      patientId: ids.patient,
      kind: 'newPatientAgreement',
      title: 'New patient agreement',
      documentText: 'Earlier text',
      documentVersion: 'sha256:0000000000000000',
      language: 'en',
      signatureImage: SIGNATURE.image,
      signedAt: OLD_AGREEMENT_SIGNED,
      expiresAt: OLD_AGREEMENT_EXPIRED,
    });
    await t.db
      .update(appointments)
      .set({ status: 1, checkedInAt: new Date(VISIT_START.getTime() - 15 * 60_000) })
      .where(eq(appointments.id, ids.visit));
  });

  it('sums up the visit, the pain against the last visit, the body map, the scores with their change, history and consents', async () => {
    const response = await onePagerOf(ids.visit, 'doctor');
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json<OnePager>();
    const [consent] = await t.db
      .select()
      .from(patientConsents)
      .where(and(eq(patientConsents.linkId, linkId), eq(patientConsents.kind, 'newPatientAgreement')));
    expect(page).toEqual({
      patient: { id: ids.patient, name: 'Marta Elena Quintero', dateOfBirth: '1970-03-21', age: 54, sex: 'Female' },
      appointment: {
        id: ids.visit,
        startsAt: VISIT_START.toISOString(),
        startsAtText: '03/20/2025 09:30 AM',
        reason: 'follow_up',
        typeName: null,
        roomName: null,
        doctorName: expect.any(String),
        status: 1,
        checkedInAt: new Date(VISIT_START.getTime() - 15 * 60_000).toISOString(),
      },
      intake: {
        linkId,
        status: 'completed',
        steps: [1, 2, 4, 5, 6].map((step) => ({ step, done: true })),
        stepsDone: 5,
        stepsPlanned: 5,
        completedAt: expect.any(String),
      },
      pain: {
        current: { current: 4, average: 4, best: 2, worst: 6 },
        previous: {
          appointmentId: ids.earlierVisit,
          startsAt: EARLIER_START.toISOString(),
          scores: { current: 7, average: 6, best: 3, worst: 9 },
        },
        change: { current: -3, average: -2, best: -1, worst: -3 },
      },
      bodyMap: {
        current: {
          regions: [
            { id: 'lower-back', level: 5 },
            { id: 'right-buttock', level: 3 },
          ],
          count: 2,
        },
        previous: { appointmentId: ids.earlierVisit, startsAt: EARLIER_START.toISOString(), count: 4 },
      },
      pros: [
        {
          responseId: currentResponse,
          formCode: 11,
          title: { en: 'Patient Health Questionnaire-9 (PHQ-9)', es: 'Cuestionario sobre la salud del paciente-9 (PHQ-9)' },
          submittedAt: expect.any(String),
          score: 9,
          maximum: 27,
          band: 1,
          bandLabel: { en: 'Mild', es: 'Leve' },
          // PHQ-9: lower is better, and the reference gives no minimal important difference.
          previous: {
            responseId: earlierResponse,
            submittedAt: expect.any(String),
            score: 18,
            change: -9,
            better: true,
            meetsMcid: null,
          },
        },
      ],
      allergies: { noneKnown: false, items: [{ name: 'Penicillin', reaction: 'Hives' }] },
      medications: {
        none: false,
        items: [
          { name: 'Gabapentin', dose: '300 mg', frequency: 'twice a day' },
          { name: 'Ibuprofen', dose: null, frequency: null },
        ],
      },
      historyForms: [],
      consents: [
        {
          id: consent!.id,
          kind: 'newPatientAgreement',
          title: consent!.title,
          language: 'en',
          version: consent!.documentVersion,
          signedAt: consent!.signedAt.toISOString(),
          expiresAt: consent!.expiresAt!.toISOString(),
          expired: false,
          pdfUrl: `/api/patients/${ids.patient}/consents/${consent!.id}/pdf`,
        },
        expect.objectContaining({
          signedAt: OLD_AGREEMENT_SIGNED.toISOString(),
          expiresAt: OLD_AGREEMENT_EXPIRED.toISOString(),
          expired: true,
        }),
      ],
    });
    const [doctorRow] = await t.db.select().from(users).where(eq(users.id, ids.doctor));
    expect(page.appointment.doctorName).toBe(`${doctorRow!.firstName} ${doctorRow!.lastName}`);
  });

  it('an ODI answered without its wording shows no score, band or change, and says why (issue #24 §1, decision 0067)', async () => {
    // A scored ODI at the earlier visit, then one on neutral labels at this visit, stored as migration 0029
    // leaves it: before the fix the page showed it as a score with a comparison.
    const base = { instanceId: riverside, patientId: ids.patient, formCode: 2, version: 'ODI 2.1a', language: 'en' as const };
    const inserted = await t.db
      .insert(formResponses)
      .values([
        {
          ...base,
          appointmentId: ids.earlierVisit,
          answers: { s1: 2 },
          scores: { odiPercent: 40 },
          headlineScore: 40,
          band: 2,
          idempotencyKey: crypto.randomUUID(),
          submittedAt: EARLIER_START,
        },
        {
          ...base,
          appointmentId: ids.visit,
          answers: { s1: 3 },
          scores: {},
          headlineScore: null,
          band: null,
          notScored: 'wordingNotLoaded' as const,
          idempotencyKey: crypto.randomUUID(),
          submittedAt: VISIT_START,
        },
      ])
      .returning({ id: formResponses.id });
    try {
      const page = (await onePagerOf(ids.visit, 'doctor')).json<OnePager>();
      const odi = page.pros.find((pro) => pro.formCode === 2);
      expect(odi).toMatchObject({ score: null, band: null, bandLabel: null, notScored: 'wordingNotLoaded', previous: null });
      expect(page.pros.find((pro) => pro.formCode === 11)!.notScored).toBeUndefined();
    } finally {
      await t.db.delete(formResponses).where(inArray(formResponses.id, inserted.map((row) => row.id)));
    }
  });

  it('writes a Viewed entry for intake information on each reading', async () => {
    const before = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, ids.visit), eq(activityLogs.area, 'Intake Information')));
    expect((await onePagerOf(ids.visit, 'staff')).statusCode).toBe(200);
    const after = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, ids.visit), eq(activityLogs.area, 'Intake Information')));
    expect(after.length - before.length).toBe(1);
    expect(after.find((entry) => !before.some((earlier) => earlier.id === entry.id))).toMatchObject({
      action: 'Viewed',
      targetType: 'appointment',
      actorUserId: tokens.staff!.id,
    });
  });

  it('leaves out what the patient has not finished: no intake, a draft, an unanswered history form', async () => {
    const bare = (await onePagerOf(ids.bareVisit, 'doctor')).json<OnePager>();
    expect(bare).toMatchObject({
      intake: null,
      pain: { current: null, previous: null, change: null },
      bodyMap: { current: null, previous: null },
      pros: [],
      allergies: null,
      medications: null,
      historyForms: [],
      consents: [],
    });
    expect(bare.patient.sex).toBeNull();
    expect(bare.appointment.checkedInAt).toBeNull();

    const draft = await openIntake(
      {
        patientId: await visitPatient(ids.draftVisit),
        appointmentId: ids.draftVisit,
        steps: [2, 4, 5],
        historyFormIds: [ids.historyForm],
      },
      'Draft',
    );
    const saved = await open(
      'PUT',
      `/api/intake/${draft.token}/vas`,
      { final: false, language: 'en', data: { current: 8 } },
      draft.access,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const page = (await onePagerOf(ids.draftVisit, 'staff')).json<OnePager>();
    expect(page).toMatchObject({
      intake: { linkId: draft.linkId, status: 'active', stepsDone: 0, stepsPlanned: 3, completedAt: null },
      pain: { current: null, previous: null, change: null },
      bodyMap: { current: null, previous: null },
      allergies: null,
      medications: null,
      historyForms: [{ key: `cf-${ids.historyForm}`, step: 2, title: { en: 'Spine history' }, done: false, responseId: null }],
    });
  });

  it('answers 400 with the field for an appointment id that is not one', async () => {
    const response = await call('GET', '/api/patientappointments/one-pager?appointmentId=12', 'doctor');
    expect(response.statusCode).toBe(400);
    expect(response.json<{ fields: Record<string, string> }>().fields).toEqual({ appointmentId: 'idInvalid' });
    const missing = await call('GET', '/api/patientappointments/one-pager', 'doctor');
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json<{ fields: Record<string, string> }>().fields)).toEqual(['appointmentId']);
  });

  it("answers 404 for another clinic's appointment, and for a doctor's colleague's patient", async () => {
    expect((await onePagerOf(ids.visit, 'admin2')).statusCode).toBe(404);
    expect((await onePagerOf(ids.lakesideVisit, 'staff')).statusCode).toBe(404);
    expect((await onePagerOf(ids.otherDoctorVisit, 'doctor')).statusCode).toBe(404);
    expect((await onePagerOf(ids.otherDoctorVisit, 'staff')).statusCode).toBe(200);
    expect((await onePagerOf(crypto.randomUUID(), 'staff')).statusCode).toBe(404);
  });

  it('answers 401 without a sign-in: every staff role may read it, nobody else', async () => {
    const response = await open('GET', `/api/patientappointments/one-pager?appointmentId=${ids.visit}`);
    expect(response.statusCode).toBe(401);
  });
});

describe('the demo clinic', () => {
  it("today's finished intake reads against the last visit: pain, body map and the PDI with its change", async () => {
    const links = await t.db
      .select()
      .from(patientLinks)
      .where(and(eq(patientLinks.instanceId, riverside), eq(patientLinks.kind, 'intake'), isNotNull(patientLinks.completedAt)));
    // The demo's previous visit has a finished PDI intake too: today's is the later of the two.
    const withPdi = links.filter((link) => link.intakePlan?.steps.includes(6) && link.intakePlan.formCodes.includes(4));
    expect(withPdi.length).toBeGreaterThanOrEqual(2);
    const starts = await t.db
      .select({ id: appointments.id, startsAt: appointments.startsAt })
      .from(appointments)
      .where(
        inArray(
          appointments.id,
          withPdi.map((link) => link.appointmentId!),
        ),
      );
    const startOf = (link: (typeof withPdi)[number]) => starts.find((row) => row.id === link.appointmentId)!.startsAt.getTime();
    const today = withPdi.reduce((latest, link) => (startOf(link) > startOf(latest) ? link : latest));
    const page = (await onePagerOf(today!.appointmentId!, 'doctor')).json<OnePager>();
    expect(page.intake).toMatchObject({ status: 'completed' });
    expect(page.intake!.stepsDone).toBe(page.intake!.stepsPlanned);
    expect(page.pain.current).toEqual({ current: 6, average: 5, best: 3, worst: 8 });
    expect(page.pain.previous).not.toBeNull();
    expect(page.pain.change!.current).toBe(6 - page.pain.previous!.scores.current);
    expect(page.bodyMap).toMatchObject({ current: { count: 3 }, previous: { count: 4 } });
    // The Pain Disability Index ships its wording (decision 0067): every category rated 4 reads 28 of 70.
    const [pdi] = page.pros;
    expect(pdi).toMatchObject({ formCode: 4, score: 28, maximum: 70, bandLabel: null });
    expect(pdi!.notScored).toBeUndefined();
    expect(pdi!.previous).not.toBeNull();
    expect(pdi!.previous!.change).toBe(28 - pdi!.previous!.score!);
    expect(page.medications?.items.map((item) => item.name)).toEqual(['Meloxicam', 'Oxycodone']);
  });
});

async function visitPatient(appointmentId: string) {
  const [row] = await t.db
    .select({ patientId: appointments.patientId })
    .from(appointments)
    .where(eq(appointments.id, appointmentId));
  return row!.patientId;
}
