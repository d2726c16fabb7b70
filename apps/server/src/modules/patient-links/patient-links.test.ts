import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionType, type FormContent } from '@pathwell/contracts/forms';
import { instrumentForm, type LicensedWording } from '@pathwell/instruments';
import {
  FORM_RESPONSE_ADDED,
  LINK_VERIFY_FAILURES_BEFORE_CLOSED,
  LINK_VERIFY_MAX_FAILURES,
  type CreatedPatientLink,
  type LinkForm,
  type LinkStatusResponse,
  type PatientLink,
} from '@pathwell/contracts/patient-links';
import {
  activityLogs,
  appointments,
  customForms,
  customFormVersions,
  formDrafts,
  formResponses,
  instances,
  instrumentWordings,
  instanceSettings,
  outboxMessages,
  patientLinks,
  patients,
  users,
} from '../../db/schema';
import { createTestApp, latestEmailTo, nextIp, signIn, type TestApp } from '../../../test/test-app';
import { linkStatusOf } from '../patient-contact/link-access.service';
import { lastNameMatches, nextIdentityFailure, normalizeLastName } from '../patient-contact/identity-check.service';

let t: TestApp;
let riverside: string;
let lakeside: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};
const ids = {} as {
  patientA: string;
  patientB: string;
  patientNoEmail: string;
  lakesidePatient: string;
  appointmentA: string;
  appointmentB: string;
  customForm: string;
  archivedForm: string;
  lakesideForm: string;
};
const A = { lastName: 'Núñez-García', dateOfBirth: '03/09/1975' };
const B = { lastName: 'Smith', dateOfBirth: '01/02/1980' };

const customContent: FormContent = {
  title: { en: 'Back pain screener', es: 'Evaluación del dolor de espalda' },
  languages: ['en', 'es'],
  sections: [],
  questions: [
    {
      id: 'pain',
      type: QuestionType.MULTIPLE_CHOICE_SINGLE_ALLOWED,
      text: { en: 'Do you have back pain?', es: '¿Tiene dolor de espalda?' },
      required: true,
      options: [
        { value: 'yes', label: { en: 'Yes', es: 'Sí' }, score: 2 },
        { value: 'no', label: { en: 'No', es: 'No' }, score: 0 },
      ],
    },
    {
      id: 'where',
      type: QuestionType.MULTIPLE_CHOICE_MULTIPLE_ALLOWED,
      text: { en: 'Where?', es: '¿Dónde?' },
      required: true,
      showWhen: { questionId: 'pain', equals: 'yes' },
      options: [
        { value: 'low', label: { en: 'Lower back', es: 'Zona lumbar' }, score: 1 },
        { value: 'upper', label: { en: 'Upper back', es: 'Zona dorsal' }, score: 3 },
      ],
    },
    { id: 'notes', type: QuestionType.DESCRIPTIVE, text: { en: 'Anything else?', es: '¿Algo más?' }, required: false },
  ],
};

async function insertForm(instanceId: string, archived = false) {
  const [form] = await t.db
    .insert(customForms)
    .values({ instanceId, title: customContent.title.en, currentVersion: 2, archivedAt: archived ? new Date() : null })
    .returning();
  await t.db.insert(customFormVersions).values([
    { instanceId, customFormId: form!.id, version: 1, content: { ...customContent, title: { en: 'Old title' } } },
    { instanceId, customFormId: form!.id, version: 2, content: customContent },
  ]);
  return form!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const who of ['admin', 'manager', 'doctor', 'staff', 'admin2']) {
    tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  }
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  const patient = async (
    instanceId: string,
    values: { lastName: string; dateOfBirth: string; email: string | null; doctorId?: string },
  ) => {
    const [row] = await t.db
      .insert(patients)
      .values({ instanceId, firstName: 'Lucía', preferredLanguage: 'es', ...values })
      .returning({ id: patients.id });
    return row!.id;
  };
  ids.patientA = await patient(riverside, {
    lastName: 'Núñez-García',
    dateOfBirth: '1975-03-09',
    email: 'lucia.a@example.test',
    doctorId: doctor!.id,
  });
  ids.patientB = await patient(riverside, { lastName: 'Smith', dateOfBirth: '1980-01-02', email: 'b.smith@example.test' });
  ids.patientNoEmail = await patient(riverside, { lastName: 'Noemail', dateOfBirth: '1990-05-05', email: null });
  ids.lakesidePatient = await patient(lakeside, { lastName: 'Lake', dateOfBirth: '1970-07-07', email: 'lake@example.test' });
  const appointment = async (patientId: string) => {
    const [row] = await t.db
      .insert(appointments)
      .values({ instanceId: riverside, patientId, startsAt: new Date(Date.now() + 86_400_000) })
      .returning({ id: appointments.id });
    return row!.id;
  };
  ids.appointmentA = await appointment(ids.patientA);
  ids.appointmentB = await appointment(ids.patientB);
  ids.customForm = await insertForm(riverside);
  ids.archivedForm = await insertForm(riverside, true);
  ids.lakesideForm = await insertForm(lakeside);
});
afterAll(async () => {
  await t?.close();
});

type Who = keyof typeof tokens;
const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  as: Who,
  payload?: unknown,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url,
    headers: { ...tokens[as]!.headers, ...headers },
    payload: payload as object | undefined,
    remoteAddress: nextIp(),
  });
const open = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, accessToken?: string) =>
  t.app.inject({
    method,
    url,
    headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
    payload: payload as object | undefined,
    remoteAddress: nextIp(),
  });

async function createLink(body: Record<string, unknown>, as: Who = 'staff') {
  const response = await call('POST', '/api/patient-links', as, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedPatientLink>();
}
const phq9Link = (patientId = ids.patientA, extra: Record<string, unknown> = {}) =>
  createLink({ patientId, formCode: 11, ...extra });

async function verified(token: string, who = A) {
  const response = await open('POST', `/api/patient-links/${token}/verify`, who);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ accessToken: string; expiresAt: string }>().accessToken;
}
const status = async (token: string) => {
  const response = await open('GET', `/api/patient-links/${token}/status`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<LinkStatusResponse>();
};
const phq9Answers = () => ({ q1: 2, q2: 2, q3: 2, q4: 2, q5: 2, q6: 2, q7: 2, q8: 2, q9: 2, q10: 1 });
const submit = (token: string, accessToken: string | undefined, body: Record<string, unknown>) =>
  open('POST', `/api/patient-links/${token}/submit`, { idempotencyKey: randomUUID(), language: 'en', ...body }, accessToken);

describe('staff side', () => {
  it('creates a link to copy: token only hashed, URL on the section 2 route, audited', async () => {
    const link = await createLink({ patientId: ids.patientA, appointmentId: ids.appointmentA, formCode: 11 });
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.url).toBe(`${t.config.publicUrl}/patients/phq9/${link.token}/${ids.appointmentA}`);
    expect(link).toMatchObject({
      status: 'active',
      formCode: 11,
      customFormId: null,
      responseId: null,
      appointmentId: ids.appointmentA,
    });
    const days = (new Date(link.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const [row] = await t.db.select().from(patientLinks).where(eq(patientLinks.id, link.id));
    expect(row!.tokenHash).not.toContain(link.token);
    expect(JSON.stringify(row)).not.toContain(link.token);
    const logs = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, link.id));
    expect(logs.map((log) => [log.area, log.action])).toEqual([['Form Submission', 'Created']]);
  });

  it('builds the URL on the configured public URL whatever Host and Origin the request names (decision 0064)', async () => {
    const body = { patientId: ids.patientA, customFormId: ids.customForm };
    // Origin equal to Host used to be trusted: both are the caller's to choose.
    const forged = await call('POST', '/api/patient-links', 'staff', body, {
      origin: 'http://evil.example',
      host: 'evil.example',
    });
    expect(forged.json<CreatedPatientLink>().url).toMatch(
      new RegExp(`^${t.config.publicUrl}/customform/[A-Za-z0-9_-]{43}/surveryform$`),
    );
    const foreign = await call('POST', '/api/patient-links', 'staff', body, { origin: 'https://evil.example' });
    expect(foreign.json<CreatedPatientLink>().url.startsWith(`${t.config.publicUrl}/customform/`)).toBe(true);
  });

  it('emails the link through the outbox in the patient language', async () => {
    const link = await phq9Link(ids.patientA, { send: 'email' });
    const message = await latestEmailTo(t.db, 'lucia.a@example.test');
    expect(message.template).toBe('patient-link');
    expect(message.body).toContain(link.url);
    expect(message.body).toContain('Hola');
    expect(message.body).not.toContain('Núñez');
    // At rest the body is sealed: a copy of the database holds no working link (issue #11 §2).
    const [stored] = await t.db.select().from(outboxMessages).where(eq(outboxMessages.id, message.id));
    expect(stored!.body).not.toContain(link.url.split('/').at(-2)!);
    expect(stored!.body).toMatch(/^enc:v1:/);
    const english = await createLink({ patientId: ids.patientB, formCode: 12, send: 'email', language: 'en' });
    const toB = await latestEmailTo(t.db, 'b.smith@example.test');
    expect(toB.body).toContain(english.url);
    expect(toB.body).toContain('Hello');
    const logs = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, link.id));
    expect(logs.map((log) => log.action).sort()).toEqual(['Created', 'Sent']);
  });

  it('refuses to email a patient without an address', async () => {
    const response = await call('POST', '/api/patient-links', 'staff', {
      patientId: ids.patientNoEmail,
      formCode: 10,
      send: 'email',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION', fields: { send: 'patientEmailMissing' } });
  });

  it("keeps to the patient's and the clinic's email switches: no email is queued when either is off", async () => {
    const [{ id: optedOut }] = (await t.db
      .insert(patients)
      .values({
        instanceId: riverside,
        firstName: 'Ana',
        lastName: 'Nomail',
        dateOfBirth: '1991-06-06',
        email: 'opted.out@example.test',
        enableEmail: false,
      })
      .returning({ id: patients.id })) as [{ id: string }];
    const refused = await call('POST', '/api/patient-links', 'staff', { patientId: optedOut, formCode: 10, send: 'email' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ fields: { send: 'patientEmailOff' } });
    expect(await t.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, 'opted.out@example.test'))).toHaveLength(
      0,
    );

    await t.db
      .insert(instanceSettings)
      .values({ instanceId: riverside, configurationId: 'enableEmail', configurationValue: 'false' })
      .onConflictDoUpdate({
        target: [instanceSettings.instanceId, instanceSettings.configurationId],
        set: { configurationValue: 'false' },
      });
    try {
      const clinicOff = await call('POST', '/api/patient-links', 'staff', {
        patientId: ids.patientB,
        formCode: 10,
        send: 'email',
      });
      expect(clinicOff.statusCode).toBe(400);
      expect(clinicOff.json()).toMatchObject({ fields: { send: 'clinicEmailOff' } });
      // Copying the link still works with email off.
      expect((await call('POST', '/api/patient-links', 'staff', { patientId: ids.patientB, formCode: 10 })).statusCode).toBe(201);
    } finally {
      await t.db
        .update(instanceSettings)
        .set({ configurationValue: 'true' })
        .where(and(eq(instanceSettings.instanceId, riverside), eq(instanceSettings.configurationId, 'enableEmail')));
    }
  });

  it('answers 400 with fields on bad input', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ patientId: ids.patientA }, 'formCode'],
      [{ patientId: ids.patientA, formCode: 11, customFormId: ids.customForm }, 'formCode'],
      [{ patientId: ids.patientA, formCode: 16 }, 'formCode'],
      [{ patientId: 'nope', formCode: 11 }, 'patientId'],
      [{ patientId: ids.patientA, formCode: 11, expiresInDays: 31 }, 'expiresInDays'],
      [{ patientId: ids.patientA, formCode: 11, send: 'sms' }, 'send'],
    ];
    for (const [body, field] of cases) {
      const response = await call('POST', '/api/patient-links', 'staff', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.json<{ fields: object }>().fields)).toContain(field);
    }
    const archived = await call('POST', '/api/patient-links', 'staff', {
      patientId: ids.patientA,
      customFormId: ids.archivedForm,
    });
    expect(archived.statusCode).toBe(400);
    expect(archived.json()).toMatchObject({ fields: { customFormId: 'invalid' } });
    const badList = await call('GET', '/api/patient-links?patientId=x', 'staff');
    expect(badList.statusCode).toBe(400);
  });

  it("answers 404 for another clinic's patient, appointment or form, and for another patient's appointment", async () => {
    const notFound = [
      { patientId: ids.lakesidePatient, formCode: 11 },
      { patientId: ids.patientA, appointmentId: ids.appointmentB, formCode: 11 },
      { patientId: ids.patientA, appointmentId: randomUUID(), formCode: 11 },
      { patientId: ids.patientA, customFormId: ids.lakesideForm },
    ];
    for (const body of notFound) {
      const response = await call('POST', '/api/patient-links', 'staff', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(404);
    }
  });

  it("keeps other clinics' staff out: 404 for create, list and revoke", async () => {
    const link = await phq9Link();
    expect((await call('POST', '/api/patient-links', 'admin2', { patientId: ids.patientA, formCode: 11 })).statusCode).toBe(404);
    expect((await call('GET', `/api/patient-links?patientId=${ids.patientA}`, 'admin2')).statusCode).toBe(404);
    expect((await call('DELETE', `/api/patient-links/${link.id}`, 'admin2')).statusCode).toBe(404);
    expect((await status(link.token)).status).toBe('active');
  });

  it('limits a Doctor to their own patients and refuses a clinic the user does not belong to (403)', async () => {
    expect((await call('POST', '/api/patient-links', 'doctor', { patientId: ids.patientA, formCode: 10 })).statusCode).toBe(201);
    expect((await call('POST', '/api/patient-links', 'doctor', { patientId: ids.patientB, formCode: 10 })).statusCode).toBe(404);
    const foreignClinic = await call('GET', `/api/patient-links?patientId=${ids.patientA}`, 'staff', undefined, {
      clinicid: lakeside,
    });
    expect(foreignClinic.statusCode).toBe(403);
    const unsigned = await t.app.inject({ method: 'GET', url: `/api/patient-links?patientId=${ids.patientA}` });
    expect(unsigned.statusCode).toBe(401);
  });

  it('lists links with derived status and revokes', async () => {
    const link = await createLink({ patientId: ids.patientB, customFormId: ids.customForm });
    const response = await call('GET', `/api/patient-links?patientId=${ids.patientB}`, 'admin');
    expect(response.statusCode).toBe(200);
    const listed = response.json<PatientLink[]>();
    const mine = listed.find((item) => item.id === link.id)!;
    expect(mine).toMatchObject({ status: 'active', formTitle: 'Back pain screener', customFormId: ids.customForm });
    expect(mine).not.toHaveProperty('token');
    expect(listed.every((item) => item.patientId === ids.patientB)).toBe(true);

    expect((await call('DELETE', `/api/patient-links/${link.id}`, 'staff')).statusCode).toBe(204);
    const after = (await call('GET', `/api/patient-links?patientId=${ids.patientB}`, 'admin')).json<PatientLink[]>();
    expect(after.find((item) => item.id === link.id)!.status).toBe('revoked');
    expect((await status(link.token)).status).toBe('revoked');
    const verify = await open('POST', `/api/patient-links/${link.token}/verify`, B);
    expect(verify.statusCode).toBe(410);
    expect(verify.json()).toMatchObject({ code: 'GONE', error: 'revoked' });
    expect((await call('DELETE', `/api/patient-links/${randomUUID()}`, 'staff')).statusCode).toBe(404);
  });
});

describe('patient side', () => {
  it('answers 404 for unknown or malformed tokens', async () => {
    for (const token of ['abc', 'A'.repeat(43), 'A'.repeat(42) + '!']) {
      for (const [method, path, body] of [
        ['GET', 'status', undefined],
        ['POST', 'verify', A],
        ['GET', 'form', undefined],
      ] as const) {
        const response = await open(method, `/api/patient-links/${encodeURIComponent(token)}/${path}`, body, 'x');
        expect(response.statusCode, `${path} ${token}`).toBe(404);
        expect(response.json()).toMatchObject({ code: 'NOT_FOUND', error: 'Link not found' });
      }
    }
  });

  it('shows status without personal data', async () => {
    const link = await createLink({ patientId: ids.patientA, customFormId: ids.customForm });
    const body = await status(link.token);
    expect(body).toEqual({
      status: 'active',
      clinicName: 'Riverside Spine & Pain',
      formTitle: { en: 'Back pain screener', es: 'Evaluación del dolor de espalda' },
      languages: ['en', 'es'],
      suggestedLanguage: 'es',
    });
    expect(JSON.stringify(body)).not.toMatch(/Lucía|Núñez|1975/);
  });

  it('verifies case- and accent-insensitively, refuses a mismatch, locks after repeated failures', async () => {
    const link = await phq9Link();
    const noAccessYet = await open('GET', `/api/patient-links/${link.token}/form`);
    expect(noAccessYet.statusCode).toBe(401);
    const wrongDate = await open('POST', `/api/patient-links/${link.token}/verify`, { ...A, dateOfBirth: '03/10/1975' });
    expect(wrongDate.statusCode).toBe(400);
    expect(wrongDate.json()).toMatchObject({ fields: { lastName: 'identityMismatch' }, params: { attemptsLeft: 4 } });
    expect((await open('POST', `/api/patient-links/${link.token}/verify`, { ...A, lastName: 'Smith' })).statusCode).toBe(400);
    const badInput = await open('POST', `/api/patient-links/${link.token}/verify`, { lastName: '', dateOfBirth: '1975-03-09' });
    expect(badInput.statusCode).toBe(400);
    expect(Object.keys(badInput.json<{ fields: object }>().fields).sort()).toEqual(['dateOfBirth', 'lastName']);
    // 02/31 has the right shape but is no day: the patient is told so, not that the format is wrong.
    const noSuchDay = await open('POST', `/api/patient-links/${link.token}/verify`, { ...A, dateOfBirth: '02/31/1982' });
    expect(noSuchDay.statusCode).toBe(400);
    expect(noSuchDay.json()).toMatchObject({ fields: { dateOfBirth: 'dateNotReal' } });

    const access = await verified(link.token, { lastName: ' nunez garcia ', dateOfBirth: A.dateOfBirth });
    expect(access).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await t.db.select().from(patientLinks).where(eq(patientLinks.id, link.id));
    expect(row!.verifyFailures).toBe(0);
    expect(row!.accessTokenHash).not.toBe(access);
    const logs = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, link.id), eq(activityLogs.area, 'Patient Sign-In')));
    expect(logs.map((log) => log.action).sort()).toEqual(['Created', 'Failed', 'Failed']);

    const locking = await phq9Link();
    for (let attempt = 1; attempt < LINK_VERIFY_MAX_FAILURES; attempt++) {
      expect((await open('POST', `/api/patient-links/${locking.token}/verify`, B)).statusCode).toBe(400);
    }
    const last = await open('POST', `/api/patient-links/${locking.token}/verify`, B);
    // The one answer to a lock on every patient route (identity-check.ts): 429 with the minutes left.
    expect(last.statusCode).toBe(429);
    expect(last.json()).toMatchObject({ code: 'RATE_LIMITED', messageKey: 'identityLocked', params: { minutes: 15 } });
    expect(last.headers['retry-after']).toBe('900');
    const evenRight = await open('POST', `/api/patient-links/${locking.token}/verify`, A);
    expect(evenRight.json()).toMatchObject({ code: 'RATE_LIMITED', messageKey: 'identityLocked' });
    expect((await status(locking.token)).status).toBe('locked');
    await t.db
      .update(patientLinks)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(patientLinks.id, locking.id));
    expect((await status(locking.token)).status).toBe('active');
    await verified(locking.token);
  });

  it('accepts any one surname of a compound last name, accent- and case-insensitively', async () => {
    for (const lastName of ['nunez', 'GARCÍA', 'Núñez García']) {
      const link = await phq9Link();
      const response = await open('POST', `/api/patient-links/${link.token}/verify`, { lastName, dateOfBirth: A.dateOfBirth });
      expect(response.statusCode, `${lastName}: ${response.body}`).toBe(200);
    }
    const link = await phq9Link();
    const partial = await open('POST', `/api/patient-links/${link.token}/verify`, {
      lastName: 'Núñ',
      dateOfBirth: A.dateOfBirth,
    });
    expect(partial.statusCode).toBe(400);
  });

  it('stays locked until it expires after three lockouts, so birth dates cannot be guessed over days', async () => {
    const link = await phq9Link();
    for (let attempt = 1; attempt <= LINK_VERIFY_FAILURES_BEFORE_CLOSED; attempt++) {
      await t.db.update(patientLinks).set({ lockedUntil: null }).where(eq(patientLinks.id, link.id));
      await open('POST', `/api/patient-links/${link.token}/verify`, B);
    }
    const [row] = await t.db.select().from(patientLinks).where(eq(patientLinks.id, link.id));
    expect(row!.lockedUntil!.getTime()).toBe(row!.expiresAt.getTime());
    const right = await open('POST', `/api/patient-links/${link.token}/verify`, A);
    expect(right.json()).toMatchObject({ code: 'RATE_LIMITED', messageKey: 'identityLocked' });
  });

  it('serves the form with the draft, keeps only visible answers, extends access', async () => {
    const link = await createLink({ patientId: ids.patientA, customFormId: ids.customForm });
    const access = await verified(link.token);
    const first = await open('GET', `/api/patient-links/${link.token}/form`, undefined, access);
    expect(first.statusCode, first.body).toBe(200);
    const form = first.json<LinkForm>();
    expect(form).toMatchObject({ patientFirstName: 'Lucía', clinicName: 'Riverside Spine & Pain', draft: null });
    expect(form.form).toMatchObject({ kind: 'custom', customFormId: ids.customForm, version: '2', formCode: null });
    expect(JSON.stringify(form)).not.toMatch(/Núñez|1975/);

    await t.db
      .update(patientLinks)
      .set({ accessExpiresAt: new Date(Date.now() + 60_000) })
      .where(eq(patientLinks.id, link.id));
    const save = await open(
      'PUT',
      `/api/patient-links/${link.token}/draft`,
      { answers: { pain: 'no', where: ['low'] }, position: 1, language: 'es' },
      access,
    );
    expect(save.statusCode, save.body).toBe(204);
    const [row] = await t.db.select().from(patientLinks).where(eq(patientLinks.id, link.id));
    expect(row!.accessExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
    const again = (await open('GET', `/api/patient-links/${link.token}/form`, undefined, access)).json<LinkForm>();
    expect(again.draft).toEqual({ answers: { pain: 'no' }, position: 1, language: 'es' });

    const badDraft = await open(
      'PUT',
      `/api/patient-links/${link.token}/draft`,
      { answers: { '1x': 1 }, position: -1, language: 'fr' },
      access,
    );
    expect(badDraft.statusCode).toBe(400);
    expect(badDraft.json<{ fields: object }>().fields).toHaveProperty('language');

    await t.db
      .update(patientLinks)
      .set({ accessExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(patientLinks.id, link.id));
    expect((await open('GET', `/api/patient-links/${link.token}/form`, undefined, access)).statusCode).toBe(401);
  });

  it("serves the clinic's imported licensed wording for that instrument only", async () => {
    const shipped = instrumentForm(2);
    const wording: LicensedWording = {
      formCode: 2,
      source: 'Licensed copy for the test clinic',
      languages: ['en'],
      questions: shipped.questions.map((question, index) => ({
        id: question.id,
        text: { en: `Licensed item ${index + 1}` },
        options: (question.options ?? []).map((option) => ({
          value: option.value as number,
          label: { en: `Licensed ${String(option.value)}` },
        })),
      })),
    };
    await t.db.insert(instrumentWordings).values({ instanceId: riverside, formCode: 2, definition: wording });
    const link = await createLink({ patientId: ids.patientA, formCode: 2 });
    const access = await verified(link.token);
    const form = (await open('GET', `/api/patient-links/${link.token}/form`, undefined, access)).json<LinkForm>().form;
    expect(form).toMatchObject({ kind: 'instrument', formCode: 2, credit: { en: 'Licensed copy for the test clinic' } });
    expect(form.questions[0]!.text.en).toBe('Licensed item 1');
    expect(form.questions.map((question) => question.id)).toEqual(shipped.questions.map((question) => question.id));
  });

  it("scopes access tokens to their own link: A's token cannot read or submit B's link, nor B's A's", async () => {
    const linkA = await phq9Link(ids.patientA);
    const linkB = await phq9Link(ids.patientB);
    const accessA = await verified(linkA.token, A);
    const accessB = await verified(linkB.token, B);
    // A holding B's link cannot pass B's identity check with A's details.
    expect((await open('POST', `/api/patient-links/${linkB.token}/verify`, A)).statusCode).toBe(400);
    expect((await open('GET', `/api/patient-links/${linkB.token}/form`, undefined, accessA)).statusCode).toBe(401);
    expect(
      (await open('PUT', `/api/patient-links/${linkB.token}/draft`, { answers: {}, position: 0, language: 'en' }, accessA))
        .statusCode,
    ).toBe(401);
    expect((await submit(linkB.token, accessA, { answers: phq9Answers() })).statusCode).toBe(401);
    expect((await open('GET', `/api/patient-links/${linkA.token}/form`, undefined, accessB)).statusCode).toBe(401);
    expect((await submit(linkA.token, accessB, { answers: phq9Answers() })).statusCode).toBe(401);
    expect((await submit(linkA.token, undefined, { answers: phq9Answers() })).statusCode).toBe(401);
    const stored = await t.db.select().from(formResponses).where(eq(formResponses.patientId, ids.patientB));
    expect(stored).toHaveLength(0);
    expect(
      (await open('GET', `/api/patient-links/${linkB.token}/form`, undefined, accessB)).json<LinkForm>().patientFirstName,
    ).toBe('Lucía');
  });

  it('says an expired link is expired and refuses it', async () => {
    const link = await phq9Link();
    const access = await verified(link.token);
    await t.db
      .update(patientLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(patientLinks.id, link.id));
    expect((await status(link.token)).status).toBe('expired');
    const verify = await open('POST', `/api/patient-links/${link.token}/verify`, A);
    expect(verify.statusCode).toBe(410);
    expect(verify.json()).toMatchObject({ error: 'expired' });
    const form = await open('GET', `/api/patient-links/${link.token}/form`, undefined, access);
    expect(form.statusCode).toBe(410);
    expect((await submit(link.token, access, { answers: phq9Answers() })).json()).toMatchObject({ error: 'expired' });
    const listed = (await call('GET', `/api/patient-links?patientId=${ids.patientA}`, 'staff')).json<PatientLink[]>();
    expect(listed.find((item) => item.id === link.id)!.status).toBe('expired');
  });

  it('scores PHQ-9 on the server, ignores a client score, and a retry stores nothing twice', async () => {
    const link = await phq9Link(ids.patientA, { appointmentId: ids.appointmentA, language: 'en' });
    const access = await verified(link.token);
    await open('PUT', `/api/patient-links/${link.token}/draft`, { answers: { q1: 2 }, position: 1, language: 'en' }, access);
    const idempotencyKey = randomUUID();
    const body = { idempotencyKey, language: 'en', answers: phq9Answers(), score: 0, scores: { total: 0 }, headlineScore: 0 };
    const first = await open('POST', `/api/patient-links/${link.token}/submit`, body, access);
    expect(first.statusCode, first.body).toBe(201);
    const { responseId, message } = first.json<{ responseId: string; message: string }>();
    expect(message).toBe(FORM_RESPONSE_ADDED);

    const retry = await open('POST', `/api/patient-links/${link.token}/submit`, body, access);
    expect(retry.statusCode).toBe(200);
    // Item 9 is answered above 0 here: the retry, like the first answer, asks for crisis resources.
    expect(retry.json()).toEqual({ message: FORM_RESPONSE_ADDED, responseId, crisisResources: true });

    const rows = await t.db.select().from(formResponses).where(eq(formResponses.linkId, link.id));
    expect(rows).toHaveLength(1);
    const [stored] = rows;
    expect(stored).toMatchObject({
      id: responseId,
      patientId: ids.patientA,
      appointmentId: ids.appointmentA,
      formCode: 11,
      language: 'en',
      headlineScore: 18,
      band: 3,
      idempotencyKey,
    });
    expect(stored!.scores).toMatchObject({ total: 18, severity: 3, item9Positive: 1 });
    expect(stored!.answers).toEqual(phq9Answers());
    expect(stored!.version.length).toBeGreaterThan(0);

    const [linkRow] = await t.db.select().from(patientLinks).where(eq(patientLinks.id, link.id));
    expect(linkRow!.completedAt).not.toBeNull();
    expect(await t.db.select().from(formDrafts).where(eq(formDrafts.linkId, link.id))).toHaveLength(0);
    expect((await status(link.token)).status).toBe('completed');
    const otherKey = await submit(link.token, access, { answers: phq9Answers() });
    expect(otherKey.statusCode).toBe(410);
    expect(otherKey.json()).toMatchObject({ code: 'GONE', error: 'completed' });
    const reverify = await open('POST', `/api/patient-links/${link.token}/verify`, A);
    expect(reverify.json()).toMatchObject({ error: 'completed' });
    const listed = (await call('GET', `/api/patient-links?patientId=${ids.patientA}`, 'doctor')).json<PatientLink[]>();
    expect(listed.find((item) => item.id === link.id)).toMatchObject({ status: 'completed', responseId });
    const logs = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, responseId));
    expect(logs.map((log) => [log.area, log.action])).toEqual([['Form Submission', 'Created']]);
  });

  it('refuses incomplete or invalid answers with fields per question', async () => {
    const link = await phq9Link();
    const access = await verified(link.token);
    const { q3: _dropped, ...missing } = phq9Answers();
    const response = await submit(link.token, access, { answers: { ...missing, q1: 7 } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION', fields: { q1: 'optionInvalid', q3: 'required' } });
    const unknown = await submit(link.token, access, { answers: { ...phq9Answers(), extra: 1 } });
    expect(unknown.json()).toMatchObject({ fields: { extra: 'notAsked' } });
    const badKey = await submit(link.token, access, { idempotencyKey: 'again', answers: phq9Answers() });
    expect(badKey.statusCode).toBe(400);
    expect(badKey.json<{ fields: object }>().fields).toHaveProperty('idempotencyKey');
    expect(await t.db.select().from(formResponses).where(eq(formResponses.linkId, link.id))).toHaveLength(0);
  });

  it('stores a custom form response with the option points as headline and the version answered', async () => {
    const link = await createLink({ patientId: ids.patientB, customFormId: ids.customForm });
    const access = await verified(link.token, B);
    const hidden = await submit(link.token, access, { answers: { pain: 'no', where: ['low'] } });
    expect(hidden.json()).toMatchObject({ fields: { where: 'notAsked' } });
    const response = await submit(link.token, access, {
      language: 'es',
      answers: { pain: 'yes', where: ['low', 'upper'], notes: 'Desde enero' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const [stored] = await t.db.select().from(formResponses).where(eq(formResponses.linkId, link.id));
    const [version] = await t.db
      .select()
      .from(customFormVersions)
      .where(and(eq(customFormVersions.customFormId, ids.customForm), eq(customFormVersions.version, 2)));
    expect(stored).toMatchObject({
      formCode: null,
      customFormVersionId: version!.id,
      version: '2',
      language: 'es',
      headlineScore: 6,
      band: null,
    });
  });

  it('handles two submissions racing with the same key as one', async () => {
    const link = await phq9Link();
    const access = await verified(link.token);
    const body = { idempotencyKey: randomUUID(), answers: phq9Answers() };
    const results = await Promise.all([submit(link.token, access, body), submit(link.token, access, body)]);
    expect(results.map((result) => result.statusCode).sort()).toEqual([200, 201]);
    expect(new Set(results.map((result) => result.json<{ responseId: string }>().responseId)).size).toBe(1);
    expect(await t.db.select().from(formResponses).where(eq(formResponses.linkId, link.id))).toHaveLength(1);
  });
  it('rate limits the open routes per address', async () => {
    const remoteAddress = nextIp();
    const attempt = () =>
      t.app.inject({ method: 'POST', url: `/api/patient-links/${'A'.repeat(43)}/verify`, payload: A, remoteAddress });
    for (let index = 0; index < 20; index++) expect((await attempt()).statusCode).toBe(404);
    expect((await attempt()).statusCode).toBe(429);
  });

  it('documents the routes in OpenAPI', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{ paths: object }>();
    for (const path of [
      '/api/patient-links',
      '/api/patient-links/{id}',
      '/api/patient-links/{token}/verify',
      '/api/patient-links/{token}/submit',
    ]) {
      expect(document.paths).toHaveProperty([path]);
    }
  });
});

describe('rules', () => {
  it('derives status in order of permanence', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const base = { completedAt: null, revokedAt: null, lockedUntil: null, expiresAt: new Date('2026-01-02T00:00:00Z') };
    expect(linkStatusOf(base, now)).toBe('active');
    expect(linkStatusOf({ ...base, lockedUntil: new Date('2026-01-01T00:10:00Z') }, now)).toBe('locked');
    expect(linkStatusOf({ ...base, expiresAt: now }, now)).toBe('expired');
    expect(linkStatusOf({ ...base, revokedAt: now, expiresAt: now }, now)).toBe('revoked');
    expect(linkStatusOf({ ...base, completedAt: now, revokedAt: now }, now)).toBe('completed');
  });

  it('compares last names without case, accents or punctuation', () => {
    expect(normalizeLastName('Núñez-García')).toBe(normalizeLastName('NUNEZ GARCIA'));
    expect(normalizeLastName("O'Brien")).toBe(normalizeLastName('obrien'));
    expect(normalizeLastName('Smith')).not.toBe(normalizeLastName('Smyth'));
  });

  it('takes any one surname of a compound last name, never a joining word alone', () => {
    expect(lastNameMatches('Fernández Peña', 'Fernandez')).toBe(true);
    expect(lastNameMatches('Fernández Peña', 'PEÑA')).toBe(true);
    expect(lastNameMatches('Fernández Peña', 'fernandez-pena')).toBe(true);
    expect(lastNameMatches('García y López', 'lopez')).toBe(true);
    expect(lastNameMatches('García y López', 'y')).toBe(false);
    expect(lastNameMatches('de la Cruz Ruiz', 'Cruz')).toBe(true);
    expect(lastNameMatches('de la Cruz Ruiz', 'De La Cruz')).toBe(true);
    expect(lastNameMatches('de la Cruz Ruiz', 'de')).toBe(false);
    expect(lastNameMatches("O'Brien", 'obrien')).toBe(true);
    expect(lastNameMatches('Fernández Peña', 'Fernan')).toBe(false);
    expect(lastNameMatches('Fernández Peña', 'Pena Fernandez')).toBe(false);
  });

  it('one lockout policy: tries left, a lock every fifth, the last lock until the close', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const closesAt = new Date('2026-01-08T00:00:00Z');
    expect(nextIdentityFailure(0, now, closesAt)).toMatchObject({ failures: 1, attemptsLeft: 4, lockedUntil: null });
    expect(nextIdentityFailure(3, now, closesAt)).toMatchObject({ failures: 4, attemptsLeft: 1, lockedUntil: null });
    expect(nextIdentityFailure(4, now, closesAt)).toMatchObject({
      failures: 5,
      attemptsLeft: 0,
      lockedUntil: new Date('2026-01-01T00:15:00Z'),
      closed: false,
    });
    expect(nextIdentityFailure(5, now, closesAt)).toMatchObject({ failures: 6, attemptsLeft: 4, lockedUntil: null });
    expect(nextIdentityFailure(14, now, closesAt)).toMatchObject({ lockedUntil: closesAt, closed: true });
  });
});

describe('a 6-digit code by email instead of last name and date of birth (decision 0035)', () => {
  const codeOf = (body: string) => /\b(\d{6})\b/.exec(body)![1]!;
  const sendCode = (token: string) => open('POST', `/api/patient-links/${token}/emailcode`);
  const verifyCode = (token: string, code: unknown) => open('POST', `/api/patient-links/${token}/verifycode`, { code });

  it('emails a code to the address on file that opens the link once, and only a hash of it is kept', async () => {
    const link = await phq9Link(ids.patientB);
    const sent = await sendCode(link.token);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ sentTo: 'b***@example.test', expiresInMinutes: 10 });
    const email = await latestEmailTo(t.db, 'b.smith@example.test');
    expect(email.template).toBe('link-code');
    const code = codeOf(email.body);
    // The subject shows on a locked phone: the code is in the body only.
    expect(email.subject).not.toMatch(/\d{6}/);
    const [row] = await t.db.select().from(patientLinks).where(eq(patientLinks.id, link.id));
    expect(row!.emailCodeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.emailCodeHash).not.toContain(code);

    const wrong = await verifyCode(link.token, code === '000000' ? '000001' : '000000');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({ code: 'codeWrong' });
    const right = await verifyCode(link.token, code);
    expect(right.statusCode, right.body).toBe(200);
    const accessToken = right.json<{ accessToken: string }>().accessToken;
    expect((await open('GET', `/api/patient-links/${link.token}/form`, undefined, accessToken)).statusCode).toBe(200);
    // Used once: the same code does not open it again.
    const again = await verifyCode(link.token, code);
    expect(again.statusCode).toBe(400);
    expect(again.json().fields).toEqual({ code: 'codeExpired' });
    const logs = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, link.id), eq(activityLogs.area, 'Patient Sign-In')));
    expect(logs.map((log) => log.description)).toEqual(
      expect.arrayContaining(['Sign-in code emailed to the patient', 'Patient confirmed identity with an emailed code']),
    );
  });

  it('waits a minute between codes, and answers 409 when there is no email on file', async () => {
    const link = await phq9Link(ids.patientB);
    expect((await sendCode(link.token)).statusCode).toBe(200);
    const soon = await sendCode(link.token);
    expect(soon.statusCode).toBe(429);
    expect(soon.json().messageKey).toBe('codeTooSoon');
    const noEmail = await phq9Link(ids.patientNoEmail);
    const refused = await sendCode(noEmail.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().messageKey).toBe('noEmailOnFile');
  });

  it('bad input is a 400 with the field; an unknown token 404; a code with no code sent is expired', async () => {
    const link = await phq9Link(ids.patientB);
    const bad = await verifyCode(link.token, '12ab');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ code: 'codeInvalid' });
    expect((await sendCode('x'.repeat(43))).statusCode).toBe(404);
    expect((await verifyCode('x'.repeat(43), '123456')).statusCode).toBe(404);
    const none = await verifyCode(link.token, '123456');
    expect(none.json().fields).toEqual({ code: 'codeExpired' });
  });

  it('wrong codes count toward the link lockout: the fifth locks it', async () => {
    const link = await phq9Link(ids.patientB);
    expect((await sendCode(link.token)).statusCode).toBe(200);
    const code = codeOf((await latestEmailTo(t.db, 'b.smith@example.test')).body);
    const wrongCode = code === '999999' ? '999998' : '999999';
    for (let attempt = 1; attempt <= 4; attempt++) expect((await verifyCode(link.token, wrongCode)).statusCode).toBe(400);
    const fifth = await verifyCode(link.token, wrongCode);
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json().messageKey).toBe('identityLocked');
    expect((await verifyCode(link.token, code)).statusCode).toBe(429);
    expect((await status(link.token)).status).toBe('locked');
  });
});

describe('forms whose licensed wording is not loaded (issue #24 §1, decision 0061)', () => {
  // NDI (form 3) ships only neutral labels ("Section 1", options 0–5); Riverside has not imported it.
  it('cannot be sent: 400 formWordingNotLoaded on the form, in English and Spanish', async () => {
    const refused = await call('POST', '/api/patient-links', 'staff', { patientId: ids.patientA, formCode: 3 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      messageKey: 'formWordingNotLoaded',
      fields: { formCode: 'formWordingNotLoaded' },
    });
    expect(refused.json<{ error: string }>().error).toContain('licensed wording is not loaded');
    const spanish = await call(
      'POST',
      '/api/patient-links',
      'staff',
      { patientId: ids.patientA, formCode: 3 },
      { 'accept-language': 'es' },
    );
    expect(spanish.statusCode).toBe(400);
    expect(await t.db.select().from(patientLinks).where(eq(patientLinks.formCode, 3))).toHaveLength(0);
  });

  it('an existing link tells the patient the clinic will contact them, shows no questions and takes no answers', async () => {
    // A link sent while the clinic had the wording, which was removed since.
    const shipped = instrumentForm(3);
    const wording: LicensedWording = {
      formCode: 3,
      source: 'Licensed copy for the test clinic',
      languages: ['en'],
      questions: shipped.questions.map((question, index) => ({
        id: question.id,
        text: { en: `Licensed item ${index + 1}` },
        options: (question.options ?? []).map((option) => ({
          value: option.value as number,
          label: { en: `L${String(option.value)}` },
        })),
      })),
    };
    await t.db.insert(instrumentWordings).values({ instanceId: riverside, formCode: 3, definition: wording });
    const link = await createLink({ patientId: ids.patientA, formCode: 3 });
    await t.db
      .delete(instrumentWordings)
      .where(and(eq(instrumentWordings.instanceId, riverside), eq(instrumentWordings.formCode, 3)));

    expect(await status(link.token)).toMatchObject({ status: 'active', formUnavailable: true });
    const access = await verified(link.token);
    const form = await open('GET', `/api/patient-links/${link.token}/form`, undefined, access);
    expect(form.statusCode).toBe(409);
    expect(form.json()).toMatchObject({ messageKey: 'formWordingNotLoaded' });
    expect(form.body).not.toContain('Section 1');
    const answers = Object.fromEntries(shipped.questions.map((question) => [question.id, 0]));
    const submitted = await submit(link.token, access, { answers });
    expect(submitted.statusCode).toBe(409);
    const draft = await open('PUT', `/api/patient-links/${link.token}/draft`, { answers, position: 0, language: 'en' }, access);
    expect(draft.statusCode).toBe(409);
    expect(await t.db.select().from(formResponses).where(eq(formResponses.linkId, link.id))).toHaveLength(0);
  });

  it('a form that ships its wording, or a licensed one the clinic imported, is sent as before', async () => {
    expect((await call('POST', '/api/patient-links', 'staff', { patientId: ids.patientA, formCode: 11 })).statusCode).toBe(201);
    const status = await call('POST', '/api/patient-links', 'staff', { patientId: ids.patientA, formCode: 2 });
    // ODI: imported for Riverside by the test above ("serves the clinic's imported licensed wording").
    expect(status.statusCode).toBe(201);
  });
});
