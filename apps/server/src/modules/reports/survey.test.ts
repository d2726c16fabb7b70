import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedPatientLink } from '@pathwell/contracts/patient-links';
import type { SurveyItems, SurveyReport } from '@pathwell/contracts/reports-survey';
import {
  appointments,
  customForms,
  customFormVersions,
  formResponses,
  instances,
  intakeEntries,
  patientLinks,
  patients,
  users,
} from '../../db/schema';
import type { FormContent } from '@pathwell/contracts/forms';
import { createTestApp, nextIp, setInstanceSetting, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
let riverside: string;
let lakeside: string;
let doctorId: string;
let otherDoctorId: string;
let formX: string;
let versionX: string;
const ids: Record<string, string> = {};
const tokens: Record<string, { headers: Record<string, string> }> = {};

const post = (url: string, as: string | null, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: as ? tokens[as]!.headers : {}, payload, remoteAddress: nextIp() });
const report = async (as: string, body: object) => {
  const response = await post('/api/reports/surveyreport', as, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SurveyReport>();
};
const winter = { dateFilter: 9, startDate: '01/01/2031', endDate: '02/28/2031', period: 'month' };

async function newPatient(instanceId: string, doctor: string | null, deleted = false) {
  const [row] = await t.db
    .insert(patients)
    .values({
      instanceId,
      firstName: 'Ana',
      lastName: 'Survey',
      dateOfBirth: '1970-03-04',
      doctorId: doctor,
      deletedAt: deleted ? new Date('2031-03-01T00:00:00Z') : null,
    })
    .returning({ id: patients.id });
  return row!.id;
}

type LinkValues = typeof patientLinks.$inferInsert;
async function newLink(values: Omit<LinkValues, 'tokenHash' | 'expiresAt'>) {
  const [row] = await t.db
    .insert(patientLinks)
    .values({ tokenHash: randomUUID(), expiresAt: new Date('2031-12-31T00:00:00Z'), ...values })
    .returning({ id: patientLinks.id });
  return row!.id;
}

async function newResponse(values: Partial<typeof formResponses.$inferInsert> & { instanceId: string; patientId: string }) {
  await t.db.insert(formResponses).values({
    version: '1',
    language: 'en',
    answers: {},
    idempotencyKey: randomUUID(),
    ...values,
  });
}

const at = (iso: string) => new Date(iso);

const contentX: FormContent = {
  title: { en: 'Back pain check', es: 'Control del dolor de espalda' },
  languages: ['en', 'es'],
  sections: [],
  questions: [
    {
      id: 'q1',
      type: 2,
      text: { en: 'How bad is it?', es: '¿Qué tan fuerte es?' },
      required: true,
      options: [
        { value: 'a', label: { en: 'Mild', es: 'Leve' } },
        { value: 'b', label: { en: 'Severe', es: 'Fuerte' } },
      ],
    },
    {
      id: 'q2',
      type: 4,
      text: { en: 'Where?', es: '¿Dónde?' },
      required: false,
      options: [
        { value: 1, label: { en: 'Neck', es: 'Cuello' } },
        { value: 2, label: { en: 'Back', es: 'Espalda' } },
        { value: 3, label: { en: 'Legs', es: 'Piernas' } },
      ],
    },
    { id: 'q3', type: 1, text: { en: 'Tell us more', es: 'Cuéntenos más' }, required: false },
    { id: 'q4', type: 16, text: { en: 'Sleeping well', es: 'Duerme bien' }, required: false },
    { id: 'q5', type: 13, text: { en: 'Thank you', es: 'Gracias' }, required: false },
  ],
};

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  await setInstanceSetting(t.db, riverside, 'timeZoneId', 'America/Chicago');
  for (const who of ['staff', 'doctor', 'admin', 'admin2']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  doctorId = doctor!.id;
  const [other] = await t.db
    .insert(users)
    .values({ instanceId: riverside, email: 'other.doctor@pathwell.test', firstName: 'Omar', lastName: 'Bell', role: 3 })
    .returning({ id: users.id });
  otherDoctorId = other!.id;

  const a = await newPatient(riverside, doctorId);
  const b = await newPatient(riverside, otherDoctorId);
  const gone = await newPatient(riverside, doctorId, true);
  const foreign = await newPatient(lakeside, null);
  ids.a = a;
  const [form] = await t.db.insert(customForms).values({ instanceId: riverside, title: 'Back pain check' }).returning();
  formX = form!.id;
  const [version] = await t.db
    .insert(customFormVersions)
    .values({ instanceId: riverside, customFormId: formX, version: 1, content: contentX })
    .returning();
  versionX = version!.id;
  const [visit] = await t.db
    .insert(appointments)
    .values({ instanceId: riverside, patientId: a, doctorId, startsAt: at('2031-02-16T15:00:00Z') })
    .returning({ id: appointments.id });

  // PHQ-9 (form 11) links. Riverside is on Chicago time: UTC−6 in January and February.
  // 1: A, Jan 5 09:00 local, completed 30 minutes later.
  await newLink({
    instanceId: riverside,
    patientId: a,
    formCode: 11,
    createdAt: at('2031-01-05T15:00:00Z'),
    openedAt: at('2031-01-05T15:10:00Z'),
    completedAt: at('2031-01-05T15:30:00Z'),
  });
  // 2: A, Jan 10, opened, never completed.
  await newLink({
    instanceId: riverside,
    patientId: a,
    formCode: 11,
    createdAt: at('2031-01-10T12:00:00Z'),
    openedAt: at('2031-01-10T12:05:00Z'),
  });
  // 3: B, Jan 31 23:30 local (Feb 1 05:30 UTC): January. No opened stamp; a response on the link 90 minutes later.
  const link3 = await newLink({ instanceId: riverside, patientId: b, formCode: 11, createdAt: at('2031-02-01T05:30:00Z') });
  await newResponse({
    instanceId: riverside,
    patientId: b,
    linkId: link3,
    formCode: 11,
    submittedAt: at('2031-02-01T07:00:00Z'),
  });
  // 4: B, Feb 1 00:30 local: February, untouched.
  await newLink({ instanceId: riverside, patientId: b, formCode: 11, createdAt: at('2031-02-01T06:30:00Z') });
  // Never counted: withdrawn unanswered, a deleted patient's, another clinic's.
  await newLink({
    instanceId: riverside,
    patientId: a,
    formCode: 11,
    createdAt: at('2031-02-10T12:00:00Z'),
    revokedAt: at('2031-02-10T13:00:00Z'),
  });
  await newLink({
    instanceId: riverside,
    patientId: gone,
    formCode: 11,
    createdAt: at('2031-02-10T12:00:00Z'),
    completedAt: at('2031-02-10T12:01:00Z'),
  });
  await newLink({
    instanceId: lakeside,
    patientId: foreign,
    formCode: 11,
    createdAt: at('2031-02-10T12:00:00Z'),
    completedAt: at('2031-02-10T12:01:00Z'),
  });
  // Intake for A, Feb 15 12:00 local: PHQ-9 done after 60 minutes, ODI (2) and form X not done.
  const intake = await newLink({
    instanceId: riverside,
    patientId: a,
    appointmentId: visit!.id,
    kind: 'intake',
    intakePlan: { steps: [2, 6], formCodes: [11, 2], historyFormIds: [formX], checkInFormIds: [] },
    createdAt: at('2031-02-15T18:00:00Z'),
    openedAt: at('2031-02-15T18:20:00Z'),
  });
  await t.db.insert(intakeEntries).values([
    {
      instanceId: riverside,
      linkId: intake,
      step: 6,
      formKey: 'pro-11',
      data: {},
      language: 'en',
      completedAt: at('2031-02-15T19:00:00Z'),
    },
    { instanceId: riverside, linkId: intake, step: 6, formKey: 'pro-2', data: {}, language: 'en' },
  ]);
  // Form X on its own link for B, Feb 20, completed after 10 minutes.
  await newLink({
    instanceId: riverside,
    patientId: b,
    customFormId: formX,
    createdAt: at('2031-02-20T10:00:00Z'),
    completedAt: at('2031-02-20T10:10:00Z'),
  });

  // Form X answers in February.
  const answersOf = (answers: Record<string, unknown>) => answers as (typeof formResponses.$inferInsert)['answers'];
  await newResponse({
    instanceId: riverside,
    patientId: a,
    customFormVersionId: versionX,
    submittedAt: at('2031-02-20T12:00:00Z'),
    answers: answersOf({ q1: 'a', q2: [1, 3], q3: 'my back hurts', q4: true }),
  });
  await newResponse({
    instanceId: riverside,
    patientId: b,
    customFormVersionId: versionX,
    submittedAt: at('2031-02-21T12:00:00Z'),
    answers: answersOf({ q1: 'a', q2: [3], q3: '', q4: false }),
  });
  await newResponse({
    instanceId: riverside,
    patientId: b,
    customFormVersionId: versionX,
    submittedAt: at('2031-02-22T12:00:00Z'),
    answers: answersOf({ q1: 'b', q2: [], q4: true }),
  });
  await newResponse({
    instanceId: riverside,
    patientId: gone,
    customFormVersionId: versionX,
    submittedAt: at('2031-02-22T12:00:00Z'),
    answers: answersOf({ q1: 'b' }),
  });
});
afterAll(async () => {
  await t?.close();
});

const cfKey = () => `cf-${formX}`;
const PHQ9 = 'Patient Health Questionnaire-9 (PHQ-9)';

describe('POST /api/reports/surveyreport', () => {
  it('counts sent, opened and completed per form and month in the clinic calendar, with the medians', async () => {
    const body = await report('admin', winter);
    expect(body.timeZone).toBe('America/Chicago');
    // January PHQ-9: links 1, 2, 3 sent; all opened (3 by its response); 1 and 3 completed in 30 and 90 minutes.
    // February PHQ-9: link 4 and the intake's; only the intake's opened and completed, in 60 minutes.
    // February ODI: only inside the intake, opened with it. February form X: the intake's and B's own link.
    expect(body.periods).toEqual(
      [
        {
          period: '2031-01-01',
          formKey: 'pro-11',
          formName: PHQ9,
          sent: 3,
          opened: 3,
          completed: 2,
          completionRate: 0.6667,
          medianMinutesToComplete: 60,
        },
        {
          period: '2031-02-01',
          formKey: cfKey(),
          formName: 'Back pain check',
          sent: 2,
          opened: 2,
          completed: 1,
          completionRate: 0.5,
          medianMinutesToComplete: 10,
        },
        {
          period: '2031-02-01',
          formKey: 'pro-11',
          formName: PHQ9,
          sent: 2,
          opened: 1,
          completed: 1,
          completionRate: 0.5,
          medianMinutesToComplete: 60,
        },
        {
          period: '2031-02-01',
          formKey: 'pro-2',
          formName: expect.any(String),
          sent: 1,
          opened: 1,
          completed: 0,
          completionRate: 0,
          medianMinutesToComplete: null,
        },
      ].sort((x, y) => x.period.localeCompare(y.period) || x.formKey.localeCompare(y.formKey)),
    );
    // Per form: PHQ-9 5 sent, 4 opened, 3 completed (30, 60, 90 → median 60).
    expect(body.forms).toEqual([
      {
        formKey: 'pro-11',
        formCode: 11,
        customFormId: null,
        formName: PHQ9,
        sent: 5,
        opened: 4,
        completed: 3,
        completionRate: 0.6,
        medianMinutesToComplete: 60,
      },
      {
        formKey: cfKey(),
        formCode: null,
        customFormId: formX,
        formName: 'Back pain check',
        sent: 2,
        opened: 2,
        completed: 1,
        completionRate: 0.5,
        medianMinutesToComplete: 10,
      },
      expect.objectContaining({ formKey: 'pro-2', formCode: 2, sent: 1, opened: 1, completed: 0 }),
    ]);
    // All: 8 sent, 7 opened, 4 completed in 10, 30, 60, 90 minutes → median (30 + 60) / 2 = 45.
    expect(body.totals).toEqual({ sent: 8, opened: 7, completed: 4, completionRate: 0.5, medianMinutesToComplete: 45 });
  });

  it('buckets by Sunday weeks and narrows to one form', async () => {
    const body = await report('admin', { ...winter, period: 'week', formCode: 11 });
    // Jan 5 (Sun) and Jan 10 (Fri) share the week of Jan 5; Jan 31 (Fri) and Feb 1 (Sat) the week of Jan 26.
    expect(body.periods.map((row) => [row.period, row.sent, row.completed, row.medianMinutesToComplete])).toEqual([
      ['2031-01-05', 2, 1, 30],
      ['2031-01-26', 2, 1, 90],
      ['2031-02-09', 1, 1, 60],
    ]);
    expect(body.forms.map((form) => form.formKey)).toEqual(['pro-11']);
  });

  it("a Doctor sees only their own patients' forms, whatever doctorId they send", async () => {
    const own = await report('doctor', { ...winter, doctorId: otherDoctorId });
    // A's: links 1 and 2, and the intake's three forms; completed: link 1 (30) and the intake PHQ-9 (60).
    expect(own.totals).toEqual({ sent: 5, opened: 5, completed: 2, completionRate: 0.4, medianMinutesToComplete: 45 });
    const picked = await report('admin', { ...winter, doctorId });
    expect(picked.totals).toEqual(own.totals);
  });

  it("another clinic's admin counts none of it; Staff 403; signed out 401; bad input 400", async () => {
    // Lakeside's admin sees Lakeside's one completed link and none of Riverside's eight.
    expect((await report('admin2', winter)).totals).toMatchObject({ sent: 1, completed: 1 });
    expect((await post('/api/reports/surveyreport', 'staff', winter)).statusCode).toBe(403);
    expect((await post('/api/reports/surveyreport', null, winter)).statusCode).toBe(401);
    const bad = await post('/api/reports/surveyreport', 'admin', {
      dateFilter: 9,
      startDate: '03/01/2031',
      endDate: '02/01/2031',
      period: 'year',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({ period: 'invalid' });
    const reversed = await post('/api/reports/surveyreport', 'admin', {
      ...winter,
      startDate: '03/01/2031',
      endDate: '02/01/2031',
    });
    expect(reversed.json().fields).toMatchObject({ endDate: 'dateRangeInvalid' });
    const missing = await post('/api/reports/surveyreport', 'admin', { dateFilter: 9 });
    expect(missing.json().fields).toMatchObject({ startDate: expect.any(String), endDate: expect.any(String) });
  });
});

describe('POST /api/reports/surveyreport/items', () => {
  const items = async (as: string, body: object) => {
    const response = await post('/api/reports/surveyreport/items', as, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SurveyItems>();
  };

  it('counts each answer value (each element of a multiple choice), free text only as answered', async () => {
    const body = await items('admin', { customFormId: formX, filter: { ...winter, language: 'es' } });
    expect(body).toMatchObject({
      title: 'Control del dolor de espalda',
      version: 1,
      responses: 3,
      versions: [{ version: 1, responses: 3 }],
    });
    // Three responses (the deleted patient's is not one). q2's empty list and q3's empty text are not answers.
    expect(body.questions).toEqual([
      {
        questionId: 'q1',
        text: '¿Qué tan fuerte es?',
        type: 2,
        kind: 'values',
        answered: 3,
        answers: [
          { value: 'a', label: 'Leve', count: 2 },
          { value: 'b', label: 'Fuerte', count: 1 },
        ],
      },
      {
        questionId: 'q2',
        text: '¿Dónde?',
        type: 4,
        kind: 'values',
        answered: 2,
        answers: [
          { value: '1', label: 'Cuello', count: 1 },
          { value: '2', label: 'Espalda', count: 0 },
          { value: '3', label: 'Piernas', count: 2 },
        ],
      },
      { questionId: 'q3', text: 'Cuéntenos más', type: 1, kind: 'answered', answered: 1, answers: [] },
      {
        questionId: 'q4',
        text: 'Duerme bien',
        type: 16,
        kind: 'values',
        answered: 3,
        answers: [
          { value: 'true', label: 'Sí', count: 2 },
          { value: 'false', label: 'No', count: 1 },
        ],
      },
    ]);
    expect(JSON.stringify(body)).not.toContain('my back hurts');
  });

  it('scopes a Doctor to their patients; another clinic gets 404; Staff 403; 400 on a bad id', async () => {
    const own = await items('doctor', { customFormId: formX, filter: winter });
    expect(own.responses).toBe(1);
    expect(own.questions[0]!.answers).toEqual([
      { value: 'a', label: 'Mild', count: 1 },
      { value: 'b', label: 'Severe', count: 0 },
    ]);
    expect((await post('/api/reports/surveyreport/items', 'admin2', { customFormId: formX, filter: winter })).statusCode).toBe(
      404,
    );
    expect((await post('/api/reports/surveyreport/items', 'staff', { customFormId: formX })).statusCode).toBe(403);
    const bad = await post('/api/reports/surveyreport/items', 'admin', { customFormId: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({ customFormId: expect.any(String) });
  });

  it('lists the custom forms for the picker', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/reports/surveyreport/forms',
      headers: tokens.admin!.headers,
      remoteAddress: nextIp(),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().customForms).toContainEqual({ id: formX, title: 'Back pain check', currentVersion: 1 });
  });
});

describe("a link's opened stamp", () => {
  it('is set when the patient first gets in, not by a status check, and kept afterwards', async () => {
    const created = await post('/api/patient-links', 'staff', { patientId: ids.a, formCode: 11 });
    expect(created.statusCode, created.body).toBe(201);
    const link = created.json<CreatedPatientLink>();
    const openedAt = async () => (await t.db.select().from(patientLinks).where(eq(patientLinks.id, link.id)))[0]!.openedAt;
    await t.app.inject({ method: 'GET', url: `/api/patient-links/${link.token}/status`, remoteAddress: nextIp() });
    expect(await openedAt()).toBeNull();
    const verify = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/patient-links/${link.token}/verify`,
        payload: { lastName: 'Survey', dateOfBirth: '03/04/1970' },
        remoteAddress: nextIp(),
      });
    expect((await verify()).statusCode).toBe(200);
    const first = await openedAt();
    expect(first).toBeInstanceOf(Date);
    expect((await verify()).statusCode).toBe(200);
    expect((await openedAt())!.getTime()).toBe(first!.getTime());
  });
});
