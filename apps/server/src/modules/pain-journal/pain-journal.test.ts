import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import type {
  PainJournalSaved,
  PainJournalView,
  PainSeries,
  PainTimeline,
  RecordedPain,
  SentPainJournal,
} from '@pathwell/contracts/pain-journal';
import {
  activityLogs,
  appointments,
  instances,
  interventions,
  managedItems,
  painEntries,
  patientLinks,
  patientPhoneNumbers,
  patients,
  users,
} from '../../db/schema';
import { createTestApp, latestEmailTo, nextIp, setInstanceSetting, signIn, type TestApp } from '../../../test/test-app';
import { issuePainJournalLink } from './pain-journal-links.service';

let t: TestApp;
let riverside: string;
let lakeside: string;
let doctorId: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};

const staff = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, as = 'staff', payload?: object) =>
  t.app.inject({ method, url, headers: tokens[as]!.headers, payload, remoteAddress: nextIp() });
const open = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, payload, remoteAddress: nextIp() });
const tokenOf = (url: string) => url.split('/').at(-1)!;
const entry = (score: number, note?: string) => ({ score, note, idempotencyKey: randomUUID() });

async function newPatient(instanceId: string, options: { doctor?: string | null; email?: string | null } = {}) {
  const [row] = await t.db
    .insert(patients)
    .values({
      instanceId,
      firstName: 'Rosa',
      lastName: 'Delgado',
      dateOfBirth: '1964-05-12',
      email: options.email === undefined ? `rosa.${randomUUID().slice(0, 8)}@example.test` : options.email,
      doctorId: options.doctor === undefined ? doctorId : options.doctor,
    })
    .returning({ id: patients.id, email: patients.email });
  return row!;
}

async function newAppointment(instanceId: string, patientId: string, startsAt: string, painScore: number | null, status: number) {
  const [row] = await t.db
    .insert(appointments)
    .values({ instanceId, patientId, doctorId, startsAt: new Date(startsAt), status, painScore })
    .returning({ id: appointments.id });
  return row!.id;
}

async function sendLink(patientId: string, body: object = {}, as = 'staff') {
  const response = await staff('POST', `/api/patients/${patientId}/painjournal/send`, as, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<SentPainJournal>();
}

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  await setInstanceSetting(t.db, riverside, 'timeZoneId', 'America/Chicago');
  for (const who of ['staff', 'doctor', 'admin', 'admin2']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  doctorId = doctor!.id;
});
afterAll(async () => {
  await t?.close();
});

describe('sending a pain journal link', () => {
  it('issues a 30-day link whose URL carries the patient id and the token, emails it, and audits both', async () => {
    const patient = await newPatient(riverside);
    const sent = await sendLink(patient.id, { send: ['email'], language: 'es' });
    expect(sent.url).toMatch(new RegExp(`/periodicvas/${patient.id}/[A-Za-z0-9_-]{43}$`));
    expect(sent.sent).toEqual([{ channel: 'email', status: expect.any(String) }]);
    const days = (new Date(sent.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    const email = await latestEmailTo(t.db, patient.email!);
    expect(email.subject).toBe('Riverside Spine & Pain: ¿cómo está su dolor?');
    expect(email.body).toContain(sent.url);
    const [link] = await t.db.select().from(patientLinks).where(eq(patientLinks.id, sent.linkId));
    expect(link).toMatchObject({ kind: 'painJournal', formCode: null, customFormId: null, language: 'es' });
    expect(link!.tokenHash).not.toContain(tokenOf(sent.url));
    const audit = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, sent.linkId));
    expect(audit.map((row) => row.action).sort()).toEqual(['Created', 'Sent']);
    const listed = await staff('GET', `/api/patient-links?patientId=${patient.id}`);
    expect(listed.json()).toEqual([expect.objectContaining({ id: sent.linkId, formTitle: 'Pain journal', status: 'active' })]);
  });

  it('answers the URL alone for the clinic tablet, and remembers the appointment', async () => {
    const patient = await newPatient(riverside);
    const appointmentId = await newAppointment(riverside, patient.id, '2026-03-03T15:00:00Z', 7, AppointmentStatus.Completed);
    const sent = await sendLink(patient.id, { appointmentId });
    expect(sent.sent).toEqual([]);
    const [link] = await t.db.select().from(patientLinks).where(eq(patientLinks.id, sent.linkId));
    expect(link!.appointmentId).toBe(appointmentId);
  });

  it('reports a text as not sent when the patient turned texts off', async () => {
    const patient = await newPatient(riverside);
    await t.db.update(patients).set({ enableText: false }).where(eq(patients.id, patient.id));
    await t.db.insert(patientPhoneNumbers).values({
      instanceId: riverside,
      patientId: patient.id,
      phoneType: 7,
      number: '(512) 555-0199',
      digits: '5125550199',
      isPrimary: true,
    });
    const sent = await sendLink(patient.id, { send: ['sms'] });
    expect(sent.sent).toEqual([{ channel: 'sms', status: 'notSent' }]);
  });

  it('works without anyone signed in (a pathway runner) and without an appointment', async () => {
    const patient = await newPatient(riverside);
    const ctx = {
      db: t.db,
      config: t.config,
      mailer: undefined as never,
      jobs: undefined as never,
      events: undefined as never,
      ip: '',
      userAgent: null,
      actor: null,
      instanceId: riverside,
      allClinics: false,
      instanceIds: [riverside],
    };
    const link = await t.db.transaction((tx) => issuePainJournalLink(ctx, tx, { patientId: patient.id }));
    expect(link.url).toBe(`${new URL(t.config.publicUrl).origin}/periodicvas/${patient.id}/${tokenOf(link.url)}`);
    const view = await open('GET', `/api/pain-journal/${tokenOf(link.url)}`);
    expect(view.json<PainJournalView>().status).toBe('active');
    const [audit] = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, link.linkId));
    expect(audit).toMatchObject({ actorUserId: null, action: 'Created' });
  });

  it('refuses bad input with field errors, and a patient with no email for an email', async () => {
    const patient = await newPatient(riverside, { email: null });
    const bad = await staff('POST', `/api/patients/${patient.id}/painjournal/send`, 'staff', { send: ['fax'] });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json<{ fields: object }>().fields)[0]).toMatch(/^send/);
    const noEmail = await staff('POST', `/api/patients/${patient.id}/painjournal/send`, 'staff', { send: ['email'] });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json()).toMatchObject({ fields: { send: 'patientEmailMissing' } });
    const badId = await staff('POST', '/api/patients/not-an-id/painjournal/send', 'staff', {});
    expect(badId.statusCode).toBe(400);
  });

  it("is 404 for another clinic's patient, another doctor's patient for a Doctor, and an appointment of someone else", async () => {
    const lakesidePatient = await newPatient(lakeside, { doctor: null });
    expect((await staff('POST', `/api/patients/${lakesidePatient.id}/painjournal/send`, 'staff', {})).statusCode).toBe(404);
    const nobodys = await newPatient(riverside, { doctor: null });
    expect((await staff('POST', `/api/patients/${nobodys.id}/painjournal/send`, 'doctor', {})).statusCode).toBe(404);
    expect((await staff('POST', `/api/patients/${nobodys.id}/painjournal/send`, 'admin', {})).statusCode).toBe(201);
    const other = await newPatient(riverside);
    const appointmentId = await newAppointment(riverside, other.id, '2026-03-03T15:00:00Z', null, AppointmentStatus.Upcoming);
    const mismatch = await staff('POST', `/api/patients/${nobodys.id}/painjournal/send`, 'admin', { appointmentId });
    expect(mismatch.statusCode).toBe(404);
    const signedOut = await t.app.inject({ method: 'POST', url: `/api/patients/${nobodys.id}/painjournal/send`, payload: {} });
    expect(signedOut.statusCode).toBe(401);
  });
});

describe("the patient's page", () => {
  it('shows the clinic and nothing about the patient, stores an entry, and answers a retry with the same result', async () => {
    const patient = await newPatient(riverside);
    const token = tokenOf((await sendLink(patient.id)).url);
    const view = await open('GET', `/api/pain-journal/${token}`);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json<PainJournalView>()).toEqual({
      clinicName: 'Riverside Spine & Pain',
      language: 'en',
      status: 'active',
      lastEntries: [],
    });
    expect(view.body).not.toMatch(/Rosa|Delgado|1964/);

    const body = entry(6, '  Worse after gardening  ');
    const first = await open('POST', `/api/pain-journal/${token}`, body);
    expect(first.statusCode, first.body).toBe(201);
    const saved = first.json<PainJournalSaved>();
    expect(saved).toMatchObject({ score: 6, replaced: false, lastEntries: [{ date: saved.date, score: 6 }] });
    const retry = await open('POST', `/api/pain-journal/${token}`, body);
    expect(retry.statusCode).toBe(200);
    expect(retry.json<PainJournalSaved>()).toEqual(saved);
    const rows = await t.db.select().from(painEntries).where(eq(painEntries.patientId, patient.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: 'journal', score: 6, note: 'Worse after gardening', recordedBy: null });
    expect(rows[0]!.linkId).not.toBeNull();
    const [audit] = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, rows[0]!.id));
    expect(audit).toMatchObject({ actorUserId: null, area: 'Form Submission', action: 'Created' });
  });

  it('keeps one entry a clinic day: a second answer the same day replaces the first', async () => {
    const patient = await newPatient(riverside);
    const token = tokenOf((await sendLink(patient.id)).url);
    expect((await open('POST', `/api/pain-journal/${token}`, entry(8))).statusCode).toBe(201);
    const second = await open('POST', `/api/pain-journal/${token}`, entry(5, 'Took my medicine'));
    expect(second.statusCode).toBe(200);
    expect(second.json<PainJournalSaved>()).toMatchObject({ score: 5, replaced: true });
    const rows = await t.db.select().from(painEntries).where(eq(painEntries.patientId, patient.id));
    expect(rows.map((row) => [row.score, row.note])).toEqual([[5, 'Took my medicine']]);
  });

  it('refuses a score outside 0–10, a long note and a missing key with field errors', async () => {
    const patient = await newPatient(riverside);
    const token = tokenOf((await sendLink(patient.id)).url);
    for (const [payload, field] of [
      [{ ...entry(11) }, 'score'],
      [{ ...entry(-1) }, 'score'],
      [{ ...entry(3), score: 'high' }, 'score'],
      [{ ...entry(3, 'x'.repeat(1001)) }, 'note'],
      [{ score: 3 }, 'idempotencyKey'],
    ] as const) {
      const response = await open('POST', `/api/pain-journal/${token}`, payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(response.json<{ fields: Record<string, string> }>().fields).toHaveProperty(field);
    }
    expect(await t.db.select().from(painEntries).where(eq(painEntries.patientId, patient.id))).toHaveLength(0);
  });

  it('answers 404 for an unknown token and for another kind of link', async () => {
    expect((await open('GET', `/api/pain-journal/${'A'.repeat(43)}`)).statusCode).toBe(404);
    expect((await open('POST', `/api/pain-journal/short`, entry(3))).statusCode).toBe(404);
    const patient = await newPatient(riverside);
    const formLink = await staff('POST', '/api/patient-links', 'staff', {
      patientId: patient.id,
      formCode: 11,
      expiresInDays: 7,
    });
    expect(formLink.statusCode, formLink.body).toBe(201);
    const formToken = formLink.json<{ token: string }>().token;
    expect((await open('GET', `/api/pain-journal/${formToken}`)).statusCode).toBe(404);
    // …and a journal token does not open the identity-checked form routes.
    const journalToken = tokenOf((await sendLink(patient.id)).url);
    expect((await open('GET', `/api/patient-links/${journalToken}/status`)).statusCode).toBe(404);
  });

  it('answers 410 once the link expired or was revoked, and says so on the page without the last entries', async () => {
    const patient = await newPatient(riverside);
    const expired = await sendLink(patient.id);
    expect((await open('POST', `/api/pain-journal/${tokenOf(expired.url)}`, entry(4))).statusCode).toBe(201);
    await t.db
      .update(patientLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(patientLinks.id, expired.linkId));
    const view = (await open('GET', `/api/pain-journal/${tokenOf(expired.url)}`)).json<PainJournalView>();
    expect(view).toMatchObject({ status: 'expired', lastEntries: [] });
    const late = await open('POST', `/api/pain-journal/${tokenOf(expired.url)}`, entry(4));
    expect(late.statusCode).toBe(410);
    expect(late.json()).toMatchObject({ code: 'GONE', error: 'expired' });

    const revoked = await sendLink(patient.id);
    expect((await staff('DELETE', `/api/patient-links/${revoked.linkId}`)).statusCode).toBe(204);
    expect((await open('GET', `/api/pain-journal/${tokenOf(revoked.url)}`)).json<PainJournalView>().status).toBe('revoked');
    const after = await open('POST', `/api/pain-journal/${tokenOf(revoked.url)}`, entry(4));
    expect(after.statusCode).toBe(410);
    expect(after.json()).toMatchObject({ error: 'revoked' });
  });

  it('refuses (409) an idempotency key already used on another link', async () => {
    const patient = await newPatient(riverside);
    const one = tokenOf((await sendLink(patient.id)).url);
    const other = await newPatient(riverside);
    const two = tokenOf((await sendLink(other.id)).url);
    const body = entry(2);
    expect((await open('POST', `/api/pain-journal/${one}`, body)).statusCode).toBe(201);
    expect((await open('POST', `/api/pain-journal/${two}`, body)).statusCode).toBe(409);
  });
});

describe('the pain series and the chart points', () => {
  let patientId: string;
  beforeAll(async () => {
    patientId = (await newPatient(riverside)).id;
    const linkId = (await sendLink(patientId)).linkId;
    const journal = (recordedAt: string, score: number, note: string | null = null) => ({
      instanceId: riverside,
      patientId,
      source: 'journal' as const,
      score,
      note,
      linkId,
      recordedAt: new Date(recordedAt),
    });
    await t.db.insert(painEntries).values([
      // 02:30 UTC on 3 March is still 2 March in Chicago.
      journal('2026-03-03T02:30:00Z', 8, 'Before the injection'),
      journal('2026-03-05T18:00:00Z', 4),
      journal('2026-03-10T18:00:00Z', 2, 'Much better'),
      { ...journal('2026-03-04T18:00:00Z', 9), source: 'complaint' as const, linkId: null },
    ]);
    await newAppointment(riverside, patientId, '2026-02-24T16:00:00Z', 8, AppointmentStatus.Completed);
    await newAppointment(riverside, patientId, '2026-03-03T16:00:00Z', 7, AppointmentStatus.Checking_In);
    await newAppointment(riverside, patientId, '2026-03-17T16:00:00Z', 9, AppointmentStatus.No_Show);
    const [item] = await t.db
      .insert(managedItems)
      .values({ instanceId: riverside, listType: 'interventionalitems:2', name: 'Lumbar epidural steroid injection' })
      .returning({ id: managedItems.id });
    await t.db.insert(interventions).values([
      { instanceId: riverside, patientId, kind: 'injection', itemId: item!.id, performedOn: '2026-03-03' },
      {
        instanceId: riverside,
        patientId,
        kind: 'injection',
        itemId: item!.id,
        performedOn: '2026-01-10',
        deletedAt: new Date(),
      },
    ]);
  });

  it('groups journal and visit pain by ISO week of the clinic calendar', async () => {
    const response = await staff('GET', `/api/patients/painjournal?patientId=${patientId}&interval=week`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<PainSeries>()).toEqual({
      interval: 'week',
      timeZone: 'America/Chicago',
      series: [
        { periodStart: '2026-02-23', average: 8, min: 8, max: 8, count: 1 },
        // 2 March (journal 8, the Chicago day), 3 March visit 7, 5 March journal 4; the complaint is the visit's.
        { periodStart: '2026-03-02', average: 6.3, min: 4, max: 8, count: 3 },
        { periodStart: '2026-03-09', average: 2, min: 2, max: 2, count: 1 },
      ],
    });
  });

  it('groups by day and by month, and defaults to weeks', async () => {
    const days = (await staff('GET', `/api/patients/painjournal?patientId=${patientId}&interval=day`)).json<PainSeries>();
    expect(days.series.map((period) => period.periodStart)).toEqual([
      '2026-02-24',
      '2026-03-02',
      '2026-03-03',
      '2026-03-05',
      '2026-03-10',
    ]);
    const months = (await staff('GET', `/api/patients/painjournal?patientId=${patientId}&interval=month`)).json<PainSeries>();
    expect(months.series).toEqual([
      { periodStart: '2026-02-01', average: 8, min: 8, max: 8, count: 1 },
      { periodStart: '2026-03-01', average: 5.3, min: 2, max: 8, count: 4 },
    ]);
    expect((await staff('GET', `/api/patients/painjournal?patientId=${patientId}`)).json<PainSeries>().interval).toBe('week');
  });

  it('refuses a bad interval or id (400), hides other clinics and other doctors (404) and needs a session (401)', async () => {
    const bad = await staff('GET', `/api/patients/painjournal?patientId=${patientId}&interval=year`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ fields: { interval: expect.any(String) } });
    expect((await staff('GET', '/api/patients/painjournal?patientId=nope')).statusCode).toBe(400);
    expect((await staff('GET', `/api/patients/painjournal?patientId=${patientId}`, 'admin2')).statusCode).toBe(404);
    expect((await staff('GET', `/api/patients/${patientId}/paintimeline`, 'admin2')).statusCode).toBe(404);
    const nobodys = await newPatient(riverside, { doctor: null });
    expect((await staff('GET', `/api/patients/painjournal?patientId=${nobodys.id}`, 'doctor')).statusCode).toBe(404);
    expect((await staff('GET', `/api/patients/${nobodys.id}/paintimeline`, 'doctor')).statusCode).toBe(404);
    expect((await staff('GET', `/api/patients/painjournal?patientId=${patientId}`, 'doctor')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/patients/painjournal?patientId=${patientId}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/api/patients/${patientId}/paintimeline` })).statusCode).toBe(401);
  });

  it('gives the chart its visits, journal entries with notes and procedures performed, and logs the view', async () => {
    const response = await staff('GET', `/api/patients/${patientId}/paintimeline`, 'doctor');
    expect(response.statusCode, response.body).toBe(200);
    const timeline = response.json<PainTimeline>();
    expect(timeline.visits.map((visit) => [visit.startsAt, visit.score])).toEqual([
      ['2026-02-24T16:00:00.000Z', 8],
      ['2026-03-03T16:00:00.000Z', 7],
    ]);
    expect(timeline.journal.map((point) => [point.score, point.note])).toEqual([
      [8, 'Before the injection'],
      [4, null],
      [2, 'Much better'],
    ]);
    expect(timeline.procedures).toEqual([
      { id: expect.any(String), performedOn: '2026-03-03', kind: 'injection', itemName: 'Lumbar epidural steroid injection' },
    ]);
    const views = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, patientId), eq(activityLogs.area, 'Patient Dashboard')));
    expect(views.length).toBeGreaterThan(0);
  });
});

describe('recording a new pain complaint at a visit', () => {
  it("stores a complaint entry, sets the appointment's score and body locations, and audits it", async () => {
    const patient = await newPatient(riverside);
    const appointmentId = await newAppointment(riverside, patient.id, '2026-03-03T16:00:00Z', 3, AppointmentStatus.Checking_In);
    const [location] = await t.db
      .select({ id: managedItems.id })
      .from(managedItems)
      .where(and(eq(managedItems.instanceId, riverside), eq(managedItems.listType, 'bodylocations')))
      .limit(1);
    const response = await staff('PATCH', `/api/patientappointments/recordnewpain/${appointmentId}`, 'doctor', {
      score: 9,
      bodyLocationIds: [location!.id],
      note: 'New pain in the left leg',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<RecordedPain>()).toMatchObject({
      appointmentId,
      score: 9,
      bodyLocationIds: [location!.id],
      note: 'New pain in the left leg',
    });
    const [appointment] = await t.db.select().from(appointments).where(eq(appointments.id, appointmentId));
    expect(appointment).toMatchObject({ painScore: 9, bodyLocationIds: [location!.id] });
    const [stored] = await t.db.select().from(painEntries).where(eq(painEntries.appointmentId, appointmentId));
    expect(stored).toMatchObject({ source: 'complaint', score: 9, recordedBy: tokens.doctor!.id });
    const [audit] = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, appointmentId), eq(activityLogs.area, 'Appointments')));
    expect(audit).toMatchObject({ action: 'Updated', actorUserId: tokens.doctor!.id });

    // Without body locations the appointment keeps its own.
    const again = await staff('PATCH', `/api/patientappointments/recordnewpain/${appointmentId}`, 'staff', { score: 6 });
    expect(again.statusCode).toBe(200);
    const [after] = await t.db.select().from(appointments).where(eq(appointments.id, appointmentId));
    expect(after).toMatchObject({ painScore: 6, bodyLocationIds: [location!.id] });
  });

  it('refuses bad input with field errors and a body location of another clinic', async () => {
    const patient = await newPatient(riverside);
    const appointmentId = await newAppointment(
      riverside,
      patient.id,
      '2026-03-03T16:00:00Z',
      null,
      AppointmentStatus.Checking_In,
    );
    const url = `/api/patientappointments/recordnewpain/${appointmentId}`;
    for (const [payload, field] of [
      [{}, 'score'],
      [{ score: 10.5 }, 'score'],
      [{ score: 4, note: 'y'.repeat(1001) }, 'note'],
      [{ score: 4, bodyLocationIds: ['nope'] }, 'bodyLocationIds.0'],
    ] as const) {
      const response = await staff('PATCH', url, 'staff', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ fields: Record<string, string> }>().fields).toHaveProperty([field]);
    }
    const [lakesideLocation] = await t.db
      .select({ id: managedItems.id })
      .from(managedItems)
      .where(and(eq(managedItems.instanceId, lakeside), eq(managedItems.listType, 'bodylocations')))
      .limit(1);
    const foreign = await staff('PATCH', url, 'staff', { score: 4, bodyLocationIds: [lakesideLocation!.id] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ fields: { bodyLocationIds: 'invalid' } });
  });

  it('is 404 in another clinic and for a Doctor on an appointment not theirs, and 401 signed out', async () => {
    const patient = await newPatient(riverside, { doctor: null });
    const [row] = await t.db
      .insert(appointments)
      .values({ instanceId: riverside, patientId: patient.id, doctorId: null, startsAt: new Date(), status: 1 })
      .returning({ id: appointments.id });
    const url = `/api/patientappointments/recordnewpain/${row!.id}`;
    expect((await staff('PATCH', url, 'admin2', { score: 3 })).statusCode).toBe(404);
    expect((await staff('PATCH', url, 'doctor', { score: 3 })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PATCH', url, payload: { score: 3 } })).statusCode).toBe(401);
    expect((await staff('PATCH', url, 'admin', { score: 3 })).statusCode).toBe(200);
  });
});
