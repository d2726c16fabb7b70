import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormContent, RenderableForm } from '@pathwell/contracts/forms';
import type { AssignedPro, InstrumentSummary, PatientFormResponses, UnfilledForm } from '@pathwell/contracts/form-responses';
import type { FormResponseDetail } from '@pathwell/contracts/patient-links';
import { RoleCode } from '@pathwell/contracts/roles';
import { getInstrument, headlineOf, scoreForm, type FormCode, type LicensedWording } from '@pathwell/instruments';
import {
  activityLogs,
  appointments,
  customForms,
  customFormVersions,
  formResponses,
  instances,
  instrumentWordings,
  patients,
  users,
} from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';
import { importTestWording } from '../../../test/instrument-wording';
import { clearScoresAnsweredWithoutWording } from '../../../test/unscored-responses';

let t: TestApp;
let riverside: string;
let ownDoctorId: string;
const who = ['manager', 'admin', 'doctor', 'staff', 'admin2'] as const;
type Who = (typeof who)[number] | 'ownDoctor';
const tokens = {} as Record<Who, Record<string, string>>;

const call = (method: 'GET' | 'PUT' | 'DELETE', url: string, as: Who | null, payload?: unknown) =>
  t.app.inject({ method, url, headers: as ? tokens[as] : {}, payload: payload as object | undefined, remoteAddress: nextIp() });

async function addPatient(values: Partial<typeof patients.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(patients)
    .values({
      instanceId: riverside,
      firstName: 'Rosa',
      lastName: 'Results',
      dateOfBirth: '1975-04-02',
      doctorId: ownDoctorId,
      ...values,
    })
    .returning();
  return row!;
}

async function addAppointment(patientId: string, values: Partial<typeof appointments.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(appointments)
    .values({ instanceId: riverside, patientId, doctorId: ownDoctorId, startsAt: new Date('2026-03-02T15:00:00Z'), ...values })
    .returning();
  return row!;
}

/** A response stored as the submission would store it: scores computed by the instruments package. */
async function addInstrumentResponse(
  patientId: string,
  formCode: FormCode,
  answers: Record<string, number>,
  submittedAt: Date,
  values: Partial<typeof formResponses.$inferInsert> = {},
) {
  const scores = scoreForm(formCode, answers);
  const headline = headlineOf(formCode, scores);
  const [row] = await t.db
    .insert(formResponses)
    .values({
      instanceId: riverside,
      patientId,
      formCode,
      version: getInstrument(formCode).version,
      language: 'en',
      answers,
      scores,
      headlineScore: headline.score,
      band: headline.band,
      idempotencyKey: randomUUID(),
      submittedAt,
      ...values,
    })
    .returning();
  return row!;
}

/** ODI answers whose codes add up to `total` over the ten sections (percent = total × 2). */
const odiAnswers = (total: number) =>
  Object.fromEntries(
    Array.from({ length: 10 }, (_, index) => [`q${index + 1}`, Math.floor(total / 10) + (index < total % 10 ? 1 : 0)]),
  );

const customContent = (title: string, optionLabel: string): FormContent => ({
  title: { en: title },
  languages: ['en'],
  sections: [],
  questions: [
    {
      id: 'mood',
      type: 2,
      text: { en: 'How is your mood?' },
      required: true,
      options: [
        { value: 1, label: { en: optionLabel }, score: 1 },
        { value: 2, label: { en: 'Low' }, score: 2 },
      ],
    },
  ],
});

beforeAll(async () => {
  t = await createTestApp();
  const clinics = await t.db.select().from(instances);
  riverside = clinics.find((clinic) => clinic.name.startsWith('Riverside'))!.id;
  const [demoDoctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  const [own] = await t.db
    .insert(users)
    .values({
      instanceId: riverside,
      email: 'results.doctor@pathwell.demo',
      firstName: 'Rene',
      lastName: 'Okafor',
      role: RoleCode.Doctor,
      passwordHash: demoDoctor!.passwordHash,
      status: 'active',
    })
    .returning();
  ownDoctorId = own!.id;
  for (const user of who) tokens[user] = (await signIn(t.app, `${user}@pathwell.demo`)).headers;
  tokens.ownDoctor = (await signIn(t.app, 'results.doctor@pathwell.demo')).headers;
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/formresponses/{id}', () => {
  let patientId: string;
  let first: string;
  let second: string;
  let third: string;

  beforeAll(async () => {
    // The ODI answers below were given on the clinic's licensed wording, loaded in 2025 (decision 0061).
    await importTestWording(t.db, riverside, 2, new Date('2025-01-01T00:00:00Z'));
    const patient = await addPatient({ firstName: 'Olga', lastName: 'Disability' });
    patientId = patient.id;
    first = (await addInstrumentResponse(patientId, 2, odiAnswers(30), new Date('2026-01-05T10:00:00Z'))).id;
    second = (await addInstrumentResponse(patientId, 2, odiAnswers(25), new Date('2026-02-05T10:00:00Z'))).id;
    third = (await addInstrumentResponse(patientId, 2, odiAnswers(23), new Date('2026-03-05T10:00:00Z'))).id;
    // Another form of the same patient is never "previous" to an ODI.
    await addInstrumentResponse(
      patientId,
      11,
      { q1: 1, q2: 1, q3: 1, q4: 1, q5: 1, q6: 1, q7: 1, q8: 1, q9: 0, q10: 0 },
      new Date('2026-02-20T10:00:00Z'),
    );
  });

  it('shows the ODI as answered with its score, band and a 10-point improvement that meets the MCID', async () => {
    const response = await call('GET', `/api/formresponses/${second}`, 'staff');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<FormResponseDetail>();
    expect(body).toMatchObject({
      id: second,
      patientId,
      kind: 'instrument',
      formCode: 2,
      formTitle: getInstrument(2).name.en,
      version: 'ODI 2.1a',
      headlineScore: 50,
      patientName: 'Olga Disability',
    });
    expect(body.form.questions.map((question) => question.id)).toEqual(getInstrument(2).questions.map((question) => question.id));
    expect(body.answers).toEqual(odiAnswers(25));
    expect(body.scores.odiPercent).toBe(50);
    expect(body.band).toBe(body.scores.band);
    expect(body.previous).toMatchObject({ id: first, headlineScore: 60, change: -10, better: true, meetsMcid: true });
  });

  it('marks a smaller change as below the minimal clinically important difference', async () => {
    const body = (await call('GET', `/api/formresponses/${third}`, 'admin')).json<FormResponseDetail>();
    expect(body.previous).toMatchObject({ id: second, change: -4, better: true, meetsMcid: false });
  });

  it('has no previous response for the first one', async () => {
    const body = (await call('GET', `/api/formresponses/${first}`, 'manager')).json<FormResponseDetail>();
    expect(body.previous).toBeNull();
  });

  it('records the view in the activity log', async () => {
    await call('GET', `/api/formresponses/${first}`, 'staff');
    const logged = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, first), eq(activityLogs.area, 'Form Submission'), eq(activityLogs.action, 'Viewed')));
    expect(logged.length).toBeGreaterThan(0);
    expect(logged[0]!.instanceId).toBe(riverside);
  });

  it("shows a custom form response with the version it answered, compared with the same form's earlier version", async () => {
    const [form] = await t.db
      .insert(customForms)
      .values({ instanceId: riverside, title: 'Mood check', currentVersion: 2 })
      .returning();
    const [v1] = await t.db
      .insert(customFormVersions)
      .values({ instanceId: riverside, customFormId: form!.id, version: 1, content: customContent('Mood check', 'Good') })
      .returning();
    const [v2] = await t.db
      .insert(customFormVersions)
      .values({ instanceId: riverside, customFormId: form!.id, version: 2, content: customContent('Mood check v2', 'Great') })
      .returning();
    const base = { instanceId: riverside, patientId, language: 'en' as const, answers: { mood: 1 } };
    const [older] = await t.db
      .insert(formResponses)
      .values({
        ...base,
        customFormVersionId: v1!.id,
        version: '1',
        scores: { total: 1 },
        headlineScore: 1,
        idempotencyKey: randomUUID(),
        submittedAt: new Date('2026-01-10T10:00:00Z'),
      })
      .returning();
    const [newer] = await t.db
      .insert(formResponses)
      .values({
        ...base,
        customFormVersionId: v2!.id,
        version: '2',
        scores: { total: 2 },
        headlineScore: 2,
        idempotencyKey: randomUUID(),
        submittedAt: new Date('2026-02-10T10:00:00Z'),
      })
      .returning();

    const oldBody = (await call('GET', `/api/formresponses/${older!.id}`, 'staff')).json<FormResponseDetail>();
    expect(oldBody).toMatchObject({
      kind: 'custom',
      formCode: null,
      customFormId: form!.id,
      version: '1',
      formTitle: 'Mood check',
    });
    expect(oldBody.form.questions[0]!.options![0]!.label.en).toBe('Good');
    expect(oldBody.previous).toBeNull();

    const newBody = (await call('GET', `/api/formresponses/${newer!.id}`, 'staff')).json<FormResponseDetail>();
    expect(newBody.form).toMatchObject({ kind: 'custom', version: '2', title: { en: 'Mood check v2' } });
    expect(newBody.form.questions[0]!.options![0]!.label.en).toBe('Great');
    expect(newBody.previous).toMatchObject({ id: older!.id, change: 1, better: null, meetsMcid: null });
  });

  it('answers 404 to a user of another clinic and to a Doctor for a colleague’s patient', async () => {
    expect((await call('GET', `/api/formresponses/${second}`, 'admin2')).statusCode).toBe(404);
    expect((await call('GET', `/api/formresponses/${second}`, 'doctor')).statusCode).toBe(404);
    expect((await call('GET', `/api/formresponses/${second}`, 'ownDoctor')).statusCode).toBe(200);
    expect((await call('GET', `/api/formresponses/${randomUUID()}`, 'admin')).statusCode).toBe(404);
  });

  it('refuses an id that is not a UUID and a caller who is not signed in', async () => {
    const bad = await call('GET', '/api/formresponses/not-an-id', 'admin');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ id: 'idInvalid' });
    expect((await call('GET', `/api/formresponses/${second}`, null)).statusCode).toBe(401);
  });
});

describe('GET /api/patients/{id}/formresponses', () => {
  let patientId: string;

  beforeAll(async () => {
    patientId = (await addPatient({ firstName: 'Paula', lastName: 'Series' })).id;
    await addInstrumentResponse(patientId, 2, odiAnswers(40), new Date('2026-01-01T09:00:00Z'));
    await addInstrumentResponse(patientId, 2, odiAnswers(20), new Date('2026-03-01T09:00:00Z'));
    await addInstrumentResponse(
      patientId,
      11,
      { q1: 2, q2: 2, q3: 2, q4: 2, q5: 2, q6: 2, q7: 2, q8: 2, q9: 0, q10: 1 },
      new Date('2026-02-01T09:00:00Z'),
    );
    // Another patient's response stays out of this list.
    const other = await addPatient({ firstName: 'Otto', lastName: 'Other' });
    await addInstrumentResponse(other.id, 2, odiAnswers(10), new Date('2026-02-15T09:00:00Z'));
  });

  it("lists the patient's responses newest first with each form's series oldest first", async () => {
    const response = await call('GET', `/api/patients/${patientId}/formresponses`, 'staff');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<PatientFormResponses>();
    expect(body.data.map((item) => [item.formCode, item.headlineScore])).toEqual([
      [2, 40],
      [11, 16],
      [2, 80],
    ]);
    const odi = body.series.find((series) => series.formCode === 2)!;
    expect(odi).toMatchObject({ title: getInstrument(2).name.en, maximum: 100, higherIsBetter: false, customFormId: null });
    expect(odi.points.map((point) => point.score)).toEqual([80, 40]);
    const phq9 = body.series.find((series) => series.formCode === 11)!;
    expect(phq9).toMatchObject({ maximum: 27, higherIsBetter: false });
    expect(phq9.points).toHaveLength(1);
  });

  it('an ODI answered before the clinic loaded its wording shows no score, band, series point or comparison (issue #24 §1)', async () => {
    // Answered on neutral labels ("Section 1", options 0–5): its "20.0/100 Minimal disability" meant nothing.
    const early = await addInstrumentResponse(patientId, 2, odiAnswers(10), new Date('2024-06-01T09:00:00Z'));
    // Stored as it was before decision 0067, then cleared by its migration, as an existing clinic's row is.
    await clearScoresAnsweredWithoutWording(t.db);
    const [stored] = await t.db.select().from(formResponses).where(eq(formResponses.id, early.id));
    expect(stored).toMatchObject({ scores: {}, headlineScore: null, band: null, notScored: 'wordingNotLoaded' });
    expect(stored!.answers).toEqual(odiAnswers(10));
    const list = (await call('GET', `/api/patients/${patientId}/formresponses`, 'staff')).json<PatientFormResponses>();
    expect(list.data.find((item) => item.id === early.id)).toMatchObject({
      headlineScore: null,
      band: null,
      notScored: 'wordingNotLoaded',
    });
    expect(list.data.filter((item) => item.notScored)).toHaveLength(1);
    expect(list.series.find((series) => series.formCode === 2)!.points.map((point) => point.responseId)).not.toContain(early.id);
    const detail = (await call('GET', `/api/formresponses/${early.id}`, 'staff')).json<FormResponseDetail>();
    expect(detail).toMatchObject({ headlineScore: null, band: null, scores: {}, previous: null, notScored: 'wordingNotLoaded' });
    // The first scored ODI after it compares with nothing: the unscored one is no baseline.
    const firstScored = list.data.find((item) => item.formCode === 2 && item.headlineScore === 80)!;
    const first = (await call('GET', `/api/formresponses/${firstScored.id}`, 'staff')).json<FormResponseDetail>();
    expect(first).toMatchObject({ headlineScore: 80, previous: null });
    expect(first.notScored).toBeUndefined();
    await t.db.delete(formResponses).where(eq(formResponses.id, early.id));
  });

  it('logs the view as a Patient Dashboard read', async () => {
    await call('GET', `/api/patients/${patientId}/formresponses`, 'admin');
    const logged = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, patientId), eq(activityLogs.area, 'Patient Dashboard')));
    expect(logged.length).toBeGreaterThan(0);
  });

  it('lets a Doctor see only their own patients, and nobody another clinic’s', async () => {
    expect((await call('GET', `/api/patients/${patientId}/formresponses`, 'ownDoctor')).statusCode).toBe(200);
    expect((await call('GET', `/api/patients/${patientId}/formresponses`, 'doctor')).statusCode).toBe(404);
    expect((await call('GET', `/api/patients/${patientId}/formresponses`, 'admin2')).statusCode).toBe(404);
    const bad = await call('GET', '/api/patients/123/formresponses', 'admin');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ id: 'idInvalid' });
  });
});

describe('assigned PROs and unfilled forms', () => {
  let patientId: string;
  let appointmentId: string;
  let colleagueAppointmentId: string;
  let colleagueVisitWithOwnPatientId: string;

  beforeAll(async () => {
    patientId = (await addPatient({ firstName: 'Ava', lastName: 'Assigned' })).id;
    appointmentId = (await addAppointment(patientId)).id;
    const [colleague] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
    // A colleague's patient the Doctor does not treat (decision 0070): only the colleague has seen them.
    const colleaguesPatient = await addPatient({ firstName: 'Cora', lastName: 'Colleague', doctorId: colleague!.id });
    colleagueAppointmentId = (await addAppointment(colleaguesPatient.id, { doctorId: colleague!.id })).id;
    colleagueVisitWithOwnPatientId = (await addAppointment(patientId, { doctorId: colleague!.id })).id;
    // A custom form of the clinic: settings accept only the clinic's own (issue #9).
    const [customForm] = await t.db.insert(customForms).values({ instanceId: riverside, title: 'Intake extras' }).returning();
    // ODI and PROMIS Global-10 can be assigned only where their licensed wording is loaded (decision 0061).
    await importTestWording(t.db, riverside, 2);
    await importTestWording(t.db, riverside, 7);
    const saved = await call('PUT', '/api/instancesettings/applicableforms', 'manager', [2, 11, customForm!.id]);
    expect(saved.statusCode, saved.body).toBe(200);
  });
  afterAll(async () => {
    await t.db
      .delete(instrumentWordings)
      .where(and(eq(instrumentWordings.instanceId, riverside), inArray(instrumentWordings.formCode, [2, 7])));
  });

  it('refuses a form whose licensed wording the clinic has not loaded: 400 on that form (issue #24 §1)', async () => {
    const refused = await call('PUT', '/api/patientappointments/assigned-pro', 'staff', { appointmentId, formCodes: [11, 3] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      messageKey: 'formWordingNotLoaded',
      fields: { 'formCodes.1': 'formWordingNotLoaded' },
    });
  });

  it("starts with the clinic's applicable outcome forms, custom form ids left out", async () => {
    const response = await call('GET', `/api/patientappointments/assigned-pro?appointmentId=${appointmentId}`, 'staff');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<AssignedPro>()).toEqual({ appointmentId, formCodes: [2, 11], isDefault: true });
  });

  it('lists the assigned forms not yet answered for the appointment', async () => {
    await addInstrumentResponse(patientId, 2, odiAnswers(12), new Date('2026-03-02T15:30:00Z'), { appointmentId });
    const response = await call('GET', `/api/patientappointments/getunfilledforms/${appointmentId}`, 'staff');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<UnfilledForm[]>()).toEqual([{ formCode: 11, title: getInstrument(11).name.en, slug: 'phq9' }]);
  });

  it('lets staff choose the forms of one appointment', async () => {
    const saved = await call('PUT', '/api/patientappointments/assigned-pro', 'ownDoctor', {
      appointmentId,
      formCodes: [12, 2, 7],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<AssignedPro>()).toEqual({ appointmentId, formCodes: [12, 2, 7], isDefault: false });
    const read = await call('GET', `/api/patientappointments/assigned-pro?appointmentId=${appointmentId}`, 'admin');
    expect(read.json<AssignedPro>()).toEqual({ appointmentId, formCodes: [12, 2, 7], isDefault: false });
    const unfilled = await call('GET', `/api/patientappointments/getunfilledforms/${appointmentId}`, 'staff');
    expect(unfilled.json<UnfilledForm[]>().map((form) => form.slug)).toEqual(['gad7', 'promisglobal10']);
    const logged = await t.db
      .select()
      .from(activityLogs)
      .where(
        and(eq(activityLogs.targetId, appointmentId), eq(activityLogs.area, 'Appointments'), eq(activityLogs.action, 'Updated')),
      );
    expect(logged).toHaveLength(1);
  });

  it('keeps an explicit empty choice: no questionnaires for this visit', async () => {
    const other = await addAppointment(patientId);
    const saved = await call('PUT', '/api/patientappointments/assigned-pro', 'staff', { appointmentId: other.id, formCodes: [] });
    expect(saved.json<AssignedPro>()).toEqual({ appointmentId: other.id, formCodes: [], isDefault: false });
    expect((await call('GET', `/api/patientappointments/getunfilledforms/${other.id}`, 'staff')).json()).toEqual([]);
  });

  it('refuses unknown and repeated form codes with the field', async () => {
    const unknown = await call('PUT', '/api/patientappointments/assigned-pro', 'staff', { appointmentId, formCodes: [2, 16] });
    expect(unknown.statusCode).toBe(400);
    expect(Object.keys(unknown.json().fields)).toEqual(['formCodes.1']);
    const repeated = await call('PUT', '/api/patientappointments/assigned-pro', 'staff', { appointmentId, formCodes: [2, 2] });
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json().fields).toEqual({ formCodes: 'formIdsInvalid' });
    const noId = await call('GET', '/api/patientappointments/assigned-pro?appointmentId=x', 'staff');
    expect(noId.statusCode).toBe(400);
    expect(noId.json().fields).toEqual({ appointmentId: 'idInvalid' });
  });

  it("answers 404 for another clinic's appointment and to a Doctor for a patient they do not treat", async () => {
    // A colleague's visit with the Doctor's own patient is part of that patient's history (decision 0070).
    expect(
      (await call('GET', `/api/patientappointments/getunfilledforms/${colleagueVisitWithOwnPatientId}`, 'ownDoctor')).statusCode,
    ).toBe(200);
    expect((await call('GET', `/api/patientappointments/assigned-pro?appointmentId=${appointmentId}`, 'admin2')).statusCode).toBe(
      404,
    );
    expect(
      (await call('PUT', '/api/patientappointments/assigned-pro', 'admin2', { appointmentId, formCodes: [2] })).statusCode,
    ).toBe(404);
    expect((await call('GET', `/api/patientappointments/getunfilledforms/${appointmentId}`, 'admin2')).statusCode).toBe(404);
    expect(
      (await call('GET', `/api/patientappointments/getunfilledforms/${colleagueAppointmentId}`, 'ownDoctor')).statusCode,
    ).toBe(404);
    expect(
      (
        await call('PUT', '/api/patientappointments/assigned-pro', 'ownDoctor', {
          appointmentId: colleagueAppointmentId,
          formCodes: [2],
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('instrument catalogue and licensed wording', () => {
  /** A stand-in for a licensed copy: the real wording is the licence holder's, never in this repository. */
  const odiWording = (): LicensedWording => ({
    formCode: 2,
    source: 'Test licence copy (not the real wording)',
    languages: ['en'],
    questions: getInstrument(2).questions.map((question) => ({
      id: question.id,
      text: { en: `Licensed text of ${question.id}` },
      options: (question.options ?? []).map((option) => ({
        value: Number(option.value),
        label: { en: `Licensed option ${option.value}` },
      })),
    })),
  });

  it('lists the 15 instruments with their wording status for the System Manager only', async () => {
    const response = await call('GET', '/api/instruments', 'manager');
    expect(response.statusCode, response.body).toBe(200);
    const { data } = response.json<{ data: InstrumentSummary[] }>();
    expect(data.map((item) => item.formCode)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(data.filter((item) => item.wording === 'licensed').map((item) => item.slug)).toEqual([
      'odi',
      'ndi',
      'promisglobal10',
      'soappr',
    ]);
    expect(data.find((item) => item.formCode === 2)).toMatchObject({ importedForClinic: false, importedAt: null });
    expect((await call('GET', '/api/instruments', 'admin')).statusCode).toBe(403);
  });

  it("imports a clinic's licensed ODI wording that patients and staff then see; other clinics keep neutral labels", async () => {
    const saved = await call('PUT', '/api/instruments/2/wording', 'manager', odiWording());
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<InstrumentSummary>()).toMatchObject({ formCode: 2, importedForClinic: true });

    const preview = (await call('GET', '/api/instruments/2', 'staff')).json<RenderableForm>();
    expect(preview.questions[0]!.text.en).toBe('Licensed text of q1');
    expect(preview.credit?.en).toBe('Test licence copy (not the real wording)');
    const lakesidePreview = (await call('GET', '/api/instruments/2', 'admin2')).json<RenderableForm>();
    expect(lakesidePreview.questions[0]!.text.en).not.toBe('Licensed text of q1');

    const patientId = (await addPatient()).id;
    const responseId = (await addInstrumentResponse(patientId, 2, odiAnswers(15), new Date('2026-04-01T10:00:00Z'))).id;
    const detail = (await call('GET', `/api/formresponses/${responseId}`, 'staff')).json<FormResponseDetail>();
    expect(detail.form.questions[1]!.options![0]!.label.en).toBe('Licensed option 0');

    const logged = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.area, 'Admin Configuration'), eq(activityLogs.targetType, 'instrument wording')));
    expect(logged.map((entry) => entry.action)).toContain('Updated');

    const removed = await call('DELETE', '/api/instruments/2/wording', 'manager');
    expect(removed.statusCode).toBe(204);
    const after = (await call('GET', '/api/instruments/2', 'staff')).json<RenderableForm>();
    expect(after.questions[0]!.text.en).not.toBe('Licensed text of q1');
    expect((await call('DELETE', '/api/instruments/2/wording', 'manager')).statusCode).toBe(404);
  });

  it('refuses wording whose option codes differ from the structure, with the field', async () => {
    const wording = odiWording();
    wording.questions[0]!.options = wording.questions[0]!.options.map((option) => ({ ...option, value: option.value + 1 }));
    const response = await call('PUT', '/api/instruments/2/wording', 'manager', wording);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ 'questions.0.options': 'optionInvalid' });
  });

  it('refuses wording for a form that ships its own, and a body that is not a wording', async () => {
    const phq9 = await call('PUT', '/api/instruments/11/wording', 'manager', { ...odiWording(), formCode: 11 });
    expect(phq9.statusCode).toBe(400);
    expect(phq9.json().fields).toEqual({ formCode: 'wordingShipped' });
    const empty = await call('PUT', '/api/instruments/2/wording', 'manager', { formCode: 2 });
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(empty.json().fields)).toEqual(expect.arrayContaining(['source', 'languages', 'questions']));
    const badCode = await call('GET', '/api/instruments/99', 'staff');
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json().fields).toEqual({ formCode: 'invalid' });
  });

  it('lets only the System Manager import or remove wording', async () => {
    expect((await call('PUT', '/api/instruments/2/wording', 'admin', odiWording())).statusCode).toBe(403);
    expect((await call('DELETE', '/api/instruments/2/wording', 'admin')).statusCode).toBe(403);
    expect((await call('GET', '/api/instruments/2', 'doctor')).statusCode).toBe(200);
  });
});

describe('which outcome forms the clinic can give (issue #24 §1, decision 0061)', () => {
  it('every role reads it; a licensed form counts only where the clinic imported its wording', async () => {
    for (const who of ['staff', 'ownDoctor', 'admin'] as const) {
      const response = await call('GET', '/api/instruments/availability', who);
      expect(response.statusCode, response.body).toBe(200);
    }
    const riversideView = (await call('GET', '/api/instruments/availability', 'staff')).json<{
      data: { formCode: number; available: boolean; languages: string[] }[];
    }>().data;
    expect(riversideView).toHaveLength(15);
    expect(riversideView.find((form) => form.formCode === 11)).toEqual({
      formCode: 11,
      available: true,
      languages: ['en', 'es'],
    });
    expect(riversideView.find((form) => form.formCode === 3)).toEqual({ formCode: 3, available: false, languages: [] });
    await importTestWording(t.db, riverside, 2);
    const imported = (await call('GET', '/api/instruments/availability', 'staff')).json<{
      data: { formCode: number; available: boolean; languages: string[] }[];
    }>().data;
    expect(imported.find((form) => form.formCode === 2)).toEqual({ formCode: 2, available: true, languages: ['en'] });
    // Riverside's import is Riverside's: Lakeside still has none.
    const lakeside = (await call('GET', '/api/instruments/availability', 'admin2')).json<{
      data: { formCode: number; available: boolean }[];
    }>().data;
    expect(lakeside.find((form) => form.formCode === 2)?.available).toBe(false);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/instruments/availability', remoteAddress: nextIp() })).statusCode,
    ).toBe(401);
  });
});
