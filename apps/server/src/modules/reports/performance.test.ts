import { randomUUID } from 'node:crypto';
import { and, eq, gte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import type { PerformancePatients, PerformanceReport } from '@pathwell/contracts/reports-performance';
import { activityLogs, appointments, formResponses, instances, patients, users } from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';

/*
 * A hand-built clinic history in March 2010 (custom range 03/01/2010–03/31/2010, Riverside in
 * America/Chicago), far from the demo data. "v" = completed visit, "np" = reason new_patient,
 * ODI = form 2 (MCID 10, lower is better), NDI = form 3 (MCID 10, lower is better).
 *
 * Adams   (doctor)   v np 03-10 pain 8; ODI 03-05 50
 * Baker   (doctor)   v 03-12 pain 7 (first visit ever); ODI 01-01 60, 03-22 55; NDI 01-01 30, 03-22 15
 * Cruz    (doctor)   v np 2009-11-01 pain 8; v follow_up 03-20 pain 5; NDI 2009-11-01 40, 03-20 28
 * Diaz    (doctor)   v np 03-05 pain 6; v 03-25 pain 7; ODI 03-11 45
 * Evans   (doctor, archived)  v 2009-12-01 pain 9; v np 03-08 pain 4; ODI 2009-12-01 70, 03-08 40
 * Ford    (doctor, account closed)  v np 03-15 (first ever)
 * Gray    (doctor, deleted)  v np 03-10 pain 3; ODI 03-10 20 — never counted
 * Hill    (no doctor)  v 2010-02-01 pain 6; v np 03-10 pain 2; ODI 03-10 30
 * Ito     (Lakeside)   v np 03-10 pain 5; ODI 03-10 25 — another clinic
 * James   (doctor)   no-show np 03-10 and a deleted completed np 03-11 — no completed live visit
 * King    (doctor)   ODI 02-20 50, 03-10 30 (18 days: too soon for MCID); no visit
 * Lopez   (doctor)   v 2009-10-01; v follow_up 03-18; ODI 2009-10-01 40, 2010-02-15 35 (not in the window)
 */

let t: TestApp;
let riverside: string;
let lakeside: string;
let doctorId: string;
let adminId: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};
const ids: Record<string, string> = {};

const REPORT = '/api/reports/patientsperformancemeasure';
const PATIENTS = '/api/reports/patientsperformancemeasure/patients';
const march = { dateFilter: 9, startDate: '03/01/2010', endDate: '03/31/2010' };

const post = (url: string, payload: object, as?: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: as ? tokens[as]!.headers : {}, remoteAddress: nextIp() });

async function report(as: string, filter: object = march) {
  const response = await post(REPORT, filter, as);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PerformanceReport>();
}

async function patientsOf(as: string, body: object) {
  const response = await post(PATIENTS, { filter: march, ...body }, as);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PerformancePatients>();
}

async function patient(
  lastName: string,
  options: { instanceId?: string; doctor?: string | null; archived?: boolean; closed?: boolean; deleted?: boolean } = {},
) {
  const [row] = await t.db
    .insert(patients)
    .values({
      instanceId: options.instanceId ?? riverside,
      firstName: 'Pat',
      lastName,
      dateOfBirth: '1970-01-02',
      doctorId: options.doctor === undefined ? doctorId : options.doctor,
      archivedAt: options.archived ? new Date('2010-04-15T12:00:00Z') : null,
      accountClosedAt: options.closed ? new Date('2010-04-15T12:00:00Z') : null,
      deletedAt: options.deleted ? new Date('2010-04-15T12:00:00Z') : null,
    })
    .returning({ id: patients.id });
  ids[lastName] = row!.id;
  return { id: row!.id, instanceId: options.instanceId ?? riverside };
}

type Who = { id: string; instanceId: string };

async function visit(
  who: Who,
  day: string,
  options: { pain?: number; reason?: 'new_patient' | 'follow_up'; status?: number; deleted?: boolean } = {},
) {
  await t.db.insert(appointments).values({
    instanceId: who.instanceId,
    patientId: who.id,
    startsAt: new Date(`${day}T16:00:00Z`),
    status: options.status ?? AppointmentStatus.Completed,
    reason: options.reason ?? null,
    painScore: options.pain ?? null,
    deletedAt: options.deleted ? new Date() : null,
  });
}

async function response(who: Who, formCode: number, day: string, score: number, hour = 15) {
  await t.db.insert(formResponses).values({
    instanceId: who.instanceId,
    patientId: who.id,
    formCode,
    version: 'test',
    language: 'en',
    answers: {},
    headlineScore: score,
    idempotencyKey: randomUUID(),
    submittedAt: new Date(`${day}T${String(hour).padStart(2, '0')}:00:00Z`),
  });
}

beforeAll(async () => {
  t = await createTestApp();
  const clinics = await t.db.select().from(instances);
  riverside = clinics.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = clinics.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const who of ['staff', 'doctor', 'admin', 'admin2']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  doctorId = (await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo')))[0]!.id;
  adminId = (await t.db.select().from(users).where(eq(users.email, 'admin@pathwell.demo')))[0]!.id;

  const adams = await patient('Adams');
  await visit(adams, '2010-03-10', { reason: 'new_patient', pain: 8 });
  await response(adams, 2, '2010-03-05', 50);

  const baker = await patient('Baker');
  await visit(baker, '2010-03-12', { pain: 7 });
  await response(baker, 2, '2010-01-01', 60);
  await response(baker, 3, '2010-01-01', 30, 16);
  await response(baker, 2, '2010-03-22', 55);
  await response(baker, 3, '2010-03-22', 15, 16);

  const cruz = await patient('Cruz');
  await visit(cruz, '2009-11-01', { reason: 'new_patient', pain: 8 });
  await visit(cruz, '2010-03-20', { reason: 'follow_up', pain: 5 });
  await response(cruz, 3, '2009-11-01', 40);
  await response(cruz, 3, '2010-03-20', 28);

  const diaz = await patient('Diaz');
  await visit(diaz, '2010-03-05', { reason: 'new_patient', pain: 6 });
  await visit(diaz, '2010-03-25', { pain: 7 });
  await response(diaz, 2, '2010-03-11', 45);

  const evans = await patient('Evans', { archived: true });
  await visit(evans, '2009-12-01', { pain: 9 });
  await visit(evans, '2010-03-08', { reason: 'new_patient', pain: 4 });
  await response(evans, 2, '2009-12-01', 70);
  await response(evans, 2, '2010-03-08', 40);

  const ford = await patient('Ford', { closed: true });
  await visit(ford, '2010-03-15', { reason: 'new_patient' });

  const gray = await patient('Gray', { deleted: true });
  await visit(gray, '2010-03-10', { reason: 'new_patient', pain: 3 });
  await response(gray, 2, '2010-03-10', 20);

  const hill = await patient('Hill', { doctor: null });
  await visit(hill, '2010-02-01', { pain: 6 });
  await visit(hill, '2010-03-10', { reason: 'new_patient', pain: 2 });
  await response(hill, 2, '2010-03-10', 30);

  const ito = await patient('Ito', { instanceId: lakeside, doctor: null });
  await visit(ito, '2010-03-10', { reason: 'new_patient', pain: 5 });
  await response(ito, 2, '2010-03-10', 25);

  const james = await patient('James');
  await visit(james, '2010-03-10', { reason: 'new_patient', status: AppointmentStatus.No_Show });
  await visit(james, '2010-03-11', { reason: 'new_patient', deleted: true });

  const king = await patient('King');
  await response(king, 2, '2010-02-20', 50);
  await response(king, 2, '2010-03-10', 30);

  const lopez = await patient('Lopez');
  await visit(lopez, '2009-10-01');
  await visit(lopez, '2010-03-18', { reason: 'follow_up' });
  await response(lopez, 2, '2009-10-01', 40);
  await response(lopez, 2, '2010-02-15', 35);
});
afterAll(async () => {
  await t?.close();
});

const measureOf = (body: PerformanceReport, key: string) => body.measures.find((measure) => measure.key === key)!;
const namesOf = (page: PerformancePatients) => page.rows.map((row) => row.fullName.replace('Pat ', ''));

describe('POST /api/reports/patientsperformancemeasure', () => {
  it('counts every measure for the whole clinic, worked out by hand', async () => {
    const body = await report('admin');
    // The window is the clinic's March: 03/01 00:00 CST (06:00Z) to 04/01 00:00 CDT (05:00Z).
    expect(body.window).toEqual({
      from: '2010-03-01T06:00:00.000Z',
      to: '2010-04-01T05:00:00.000Z',
      timeZone: 'America/Chicago',
    });

    // Baseline PRO: new-patient visits in March: Adams (ODI 5 days before ✓), Baker (first visit ever, ODI
    // 70 days before, ODI 03-22 10 days after ✗), Diaz (ODI 6 days after ✓), Hill (ODI same day ✓); Evans (archived) and Ford
    // (closed) are exclusions; Cruz's March visit is neither; Gray deleted; James no completed visit.
    // 3 / 4 = 0.75, exclusions 2.
    expect(measureOf(body, 'baselinePro')).toEqual({
      key: 'baselinePro',
      numerator: 3,
      denominator: 4,
      exclusions: 2,
      rate: 0.75,
    });

    // Follow-up PRO: seen in March with a first response on or before 01/31: Baker (ODI 01-01, again 03-22 ✓),
    // Cruz (NDI 2009-11-01, again 03-20 ✓), Lopez (ODI 2009-10-01, again 02-15: not in March ✗); Evans
    // excluded. Adams, Diaz, Hill answered first in March. 2 / 3, exclusions 1.
    expect(measureOf(body, 'followUpPro')).toMatchObject({ numerator: 2, denominator: 3, exclusions: 1 });
    expect(measureOf(body, 'followUpPro').rate).toBeCloseTo(2 / 3, 10);

    // MCID per form. ODI: Baker 60 → 55 = 5 < 10 ✗; Evans excluded; King's two answers are 18 days apart
    // (< 28); Adams, Diaz, Hill one answer. NDI: Baker 30 → 15 = 15 ✓, Cruz 40 → 28 = 12 ✓ (lower is
    // better, so 40 − 28). Overall each patient once on their lowest form: Baker on ODI ✗, Cruz on NDI ✓,
    // Evans excluded: 1 / 2.
    expect(measureOf(body, 'mcidImprovement')).toEqual({
      key: 'mcidImprovement',
      numerator: 1,
      denominator: 2,
      exclusions: 1,
      rate: 0.5,
    });
    expect(
      body.perForm.map(({ formCode, numerator, denominator, exclusions, rate, mcid, higherIsBetter }) => ({
        formCode,
        numerator,
        denominator,
        exclusions,
        rate,
        mcid,
        higherIsBetter,
      })),
    ).toEqual([
      { formCode: 2, numerator: 0, denominator: 1, exclusions: 1, rate: 0, mcid: 10, higherIsBetter: false },
      { formCode: 3, numerator: 2, denominator: 2, exclusions: 0, rate: 1, mcid: 10, higherIsBetter: false },
    ]);

    // Pain: first visit pain ever → latest in March: Cruz 8 → 5 (−3), Diaz 6 → 7 (+1), Hill 6 → 2 (−4);
    // Evans excluded; Adams and Baker have a single visit. Improvements (first − latest) sorted −1, 3, 4:
    // median 3, q1 = −1 + 0.5 × 4 = 1, q3 = 3 + 0.5 × 1 = 3.5; improved by ≥ 2: Cruz, Hill = 2 / 3.
    const pain = measureOf(body, 'painChange');
    expect(pain).toMatchObject({ numerator: 2, denominator: 3, exclusions: 1, n: 3, median: 3, q1: 1, q3: 3.5 });
    expect(pain.improvedShare).toBeCloseTo(2 / 3, 10);
  });

  it('narrows a Doctor to their own patients whatever doctorId they send; an Admin may pick the doctor', async () => {
    for (const [as, filter] of [
      ['doctor', march],
      ['doctor', { ...march, doctorId: adminId }],
      ['admin', { ...march, doctorId }],
    ] as const) {
      const body = await report(as, filter);
      // Hill (no doctor) drops out: baseline 2 / 3; pain improvement Cruz 3, Diaz −1: median 1, q1 0, q3 2.
      expect(measureOf(body, 'baselinePro'), as).toMatchObject({ numerator: 2, denominator: 3, exclusions: 2 });
      expect(measureOf(body, 'followUpPro')).toMatchObject({ numerator: 2, denominator: 3, exclusions: 1 });
      expect(measureOf(body, 'mcidImprovement')).toMatchObject({ numerator: 1, denominator: 2, exclusions: 1 });
      expect(measureOf(body, 'painChange')).toMatchObject({ numerator: 1, denominator: 2, n: 2, median: 1, q1: 0, q3: 2 });
    }
  });

  it("never counts another clinic's patients", async () => {
    // Lakeside sees only Ito: new-patient visit with an ODI the same day.
    const body = await report('admin2');
    expect(measureOf(body, 'baselinePro')).toMatchObject({ numerator: 1, denominator: 1, exclusions: 0 });
    expect(measureOf(body, 'painChange')).toMatchObject({ denominator: 0, median: null, rate: null });
    const page = await patientsOf('admin2', { measure: 'baselinePro', group: 'denominator' });
    expect(namesOf(page)).toEqual(['Ito']);
  });

  it('answers a one-day window for the default preset (today)', async () => {
    const body = await report('admin', {});
    const hours = (Date.parse(body.window.to) - Date.parse(body.window.from)) / 3_600_000;
    expect([23, 24, 25]).toContain(hours);
    expect(body.measures.map((measure) => measure.key)).toEqual(['baselinePro', 'followUpPro', 'mcidImprovement', 'painChange']);
  });

  it('refuses a custom range without dates or ending before it starts', async () => {
    const missing = await post(REPORT, { dateFilter: 9 }, 'admin');
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ fields: Record<string, string> }>().fields).toMatchObject({
      startDate: 'required',
      endDate: 'required',
    });
    const backwards = await post(REPORT, { dateFilter: 9, startDate: '03/31/2010', endDate: '03/01/2010' }, 'admin');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json<{ fields: Record<string, string> }>().fields).toMatchObject({ endDate: 'dateRangeInvalid' });
    const preset = await post(REPORT, { dateFilter: 11 }, 'admin');
    expect(preset.statusCode).toBe(400);
    const drill = await post(PATIENTS, { filter: march, measure: 'nonsense', group: 'everyone' }, 'admin');
    expect(drill.statusCode).toBe(400);
  });

  it('is for System Managers, Admins and Doctors: Staff 403, signed out 401', async () => {
    expect((await post(REPORT, march, 'staff')).statusCode).toBe(403);
    expect((await post(PATIENTS, { filter: march, measure: 'baselinePro', group: 'numerator' }, 'staff')).statusCode).toBe(403);
    expect((await post(REPORT, march)).statusCode).toBe(401);
    expect((await post(PATIENTS, { filter: march, measure: 'baselinePro', group: 'numerator' })).statusCode).toBe(401);
  });
});

describe('POST /api/reports/patientsperformancemeasure/patients', () => {
  it('lists the patients behind a numerator with the dates and scores that counted, and audits the read', async () => {
    const started = new Date();
    const page = await patientsOf('admin', { measure: 'baselinePro', group: 'numerator' });
    expect(page).toMatchObject({ totalRecords: 3, totalExact: true });
    expect(namesOf(page)).toEqual(['Adams', 'Diaz', 'Hill']);
    expect(page.rows[0]).toEqual({
      patientId: ids.Adams,
      fullName: 'Pat Adams',
      birthDate: '1970-01-02',
      doctor: expect.any(String),
      excluded: false,
      met: true,
      formCode: 2,
      anchorAt: '2010-03-10T16:00:00.000Z',
      firstScore: null,
      followAt: '2010-03-05T15:00:00.000Z',
      latestScore: 50,
      improvement: null,
    });
    expect(page.rows[2]!.doctor).toBeNull();
    const audit = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.area, 'Patient List'), gte(activityLogs.createdAt, started)));
    expect(audit.map((row) => row.description)).toContain('Performance measure baselinePro numerator: page 0, 3 patients');
  });

  it('lists exclusions and denominators, one form of the MCID table, and pages by name', async () => {
    expect(namesOf(await patientsOf('admin', { measure: 'baselinePro', group: 'exclusions' }))).toEqual(['Evans', 'Ford']);
    expect(namesOf(await patientsOf('admin', { measure: 'followUpPro', group: 'denominator' }))).toEqual([
      'Baker',
      'Cruz',
      'Lopez',
    ]);
    const ndi = await patientsOf('admin', { measure: 'mcidImprovement', group: 'numerator', formCode: 3 });
    expect(ndi.rows.map((row) => [row.fullName, row.firstScore, row.latestScore, row.improvement])).toEqual([
      ['Pat Baker', 30, 15, 15],
      ['Pat Cruz', 40, 28, 12],
    ]);
    const overall = await patientsOf('admin', { measure: 'mcidImprovement', group: 'denominator' });
    expect(overall.rows.map((row) => [row.fullName, row.formCode, row.met])).toEqual([
      ['Pat Baker', 2, false],
      ['Pat Cruz', 3, true],
    ]);
    const first = await patientsOf('admin', { measure: 'painChange', group: 'denominator', pageSize: 2, pageNumber: 0 });
    expect(first.totalRecords).toBe(3);
    // Improvement, positive = less pain (decision 0060).
    expect(first.rows.map((row) => [row.fullName, row.firstScore, row.latestScore, row.improvement])).toEqual([
      ['Pat Cruz', 8, 5, 3],
      ['Pat Diaz', 6, 7, -1],
    ]);
    const second = await patientsOf('admin', { measure: 'painChange', group: 'denominator', pageSize: 2, pageNumber: 1 });
    expect(namesOf(second)).toEqual(['Hill']);
    const beyond = await patientsOf('admin', { measure: 'painChange', group: 'denominator', pageSize: 2, pageNumber: 5 });
    expect(beyond).toEqual({ totalRecords: 3, totalExact: true, rows: [] });
  });

  it('shows a Doctor only their own patients', async () => {
    const page = await patientsOf('doctor', { measure: 'baselinePro', group: 'numerator' });
    expect(namesOf(page)).toEqual(['Adams', 'Diaz']);
  });
});

describe('a response answered without its wording (issue #24 §1, decision 0067)', () => {
  it('is no PRO result: it neither meets the baseline nor starts or completes a follow-up', async () => {
    // May 2011, away from the March 2010 history: an ODI given on neutral labels, stored as migration 0029
    // leaves it (no score, the reason kept), around Nolan's first visit; before the fix it met the baseline.
    const nolan = await patient('Nolan');
    await visit(nolan, '2011-05-10', { reason: 'new_patient', pain: 6 });
    const unscored = (day: string) =>
      t.db.insert(formResponses).values({
        instanceId: riverside,
        patientId: nolan.id,
        formCode: 2,
        version: 'test',
        language: 'en',
        answers: { s1: 2 },
        headlineScore: null,
        notScored: 'wordingNotLoaded',
        idempotencyKey: randomUUID(),
        submittedAt: new Date(`${day}T15:00:00Z`),
      });
    await unscored('2011-05-09');
    await unscored('2011-02-01');
    await unscored('2011-05-20');
    const may = { dateFilter: 9, startDate: '05/01/2011', endDate: '05/31/2011' };
    const body = await report('admin', may);
    expect(measureOf(body, 'baselinePro')).toMatchObject({ numerator: 0, denominator: 1 });
    expect(measureOf(body, 'followUpPro')).toMatchObject({ numerator: 0, denominator: 0 });
    const page = await patientsOf('admin', { filter: may, measure: 'baselinePro', group: 'denominator' });
    expect(page.rows.map((row) => [row.fullName, row.met])).toEqual([['Pat Nolan', false]]);
  });
});
