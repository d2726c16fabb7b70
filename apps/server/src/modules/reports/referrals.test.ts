import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { RoleCode } from '@pathwell/contracts/roles';
import type { ReferralPatients, ReferralTracker } from '@pathwell/contracts/reports-referrals';
import {
  activityLogs,
  appointments,
  formResponses,
  instances,
  interventions,
  managedItems,
  patients,
  userInstances,
  users,
} from '../../db/schema';
import { createTestApp, nextIp, setInstanceSetting, signIn, type TestApp } from '../../../test/test-app';

/**
 * A small hand-built clinic year (2015, long before the demo data) in America/Chicago. Every number the
 * tests expect is worked out by hand from the list below, not by re-running the report's SQL.
 *
 *   P1 doctor A, source 1, referrer R1: first visit Feb 10 completed (pain 8), Mar 20 completed (pain 5:
 *      38 days later, 3 points better ≥ 2) → seen, procedure (Feb 20), improved.
 *   P2 doctor A, source 1, referrer R1: first visit Feb 25 no-show; ODI 50 → 30 only 13 days apart (< 28);
 *      a deleted procedure → referred only.
 *   P3 doctor B, source 2, no referrer: first visit Apr 5 completed (pain 6); ODI 40 → 28 45 days later
 *      (12 ≥ MCID 10, lower is better) → seen, improved.
 *   P4 doctor B, nothing recorded, no visit: enters on its creation, Apr 15; NDI 20 → 12 (8 < 10) → referred only.
 *   P8 doctor B, source 2, no referrer: first visit 2015-03-01 03:00 UTC = Feb 28, 21:00 in Chicago → February.
 *   Never counted: P5 (deleted), P7 (first visit Dec 2014, outside the year), P6 (Lakeside's).
 */
let t: TestApp;
let riverside: string;
let lakeside: string;
let doctorA: string;
let doctorB: string;
let referrerR1: string;
const ids: Record<string, string> = {};
const headers: Record<string, Record<string, string>> = {};

const year2015 = { dateFilter: 9, startDate: '01/01/2015', endDate: '12/31/2015' };
const post = (url: string, as: string | null, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: as ? headers[as] : {}, payload, remoteAddress: nextIp() });
const tracker = async (as: string, payload: object = {}) => {
  const response = await post('/api/reports/referraltracker', as, { ...year2015, ...payload });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ReferralTracker>();
};
const drill = async (payload: object) => {
  const response = await post('/api/reports/referraltracker/patients', 'admin', { ...year2015, ...payload });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ReferralPatients>();
};

async function patient(
  key: string,
  values: { instanceId?: string; doctorId: string; source?: number | null; referrer?: string | null; createdAt?: string },
) {
  const [row] = await t.db
    .insert(patients)
    .values({
      instanceId: values.instanceId ?? riverside,
      firstName: key,
      lastName: 'Referral',
      dateOfBirth: '1970-01-01',
      doctorId: values.doctorId,
      referralSource: values.source ?? null,
      referringProviderId: values.referrer ?? null,
      createdAt: new Date(values.createdAt ?? '2015-01-02T12:00:00Z'),
    })
    .returning({ id: patients.id });
  ids[key] = row!.id;
  return row!.id;
}

async function visit(
  patientId: string,
  startsAt: string,
  status: number,
  painScore: number | null = null,
  instanceId = riverside,
) {
  await t.db.insert(appointments).values({ instanceId, patientId, startsAt: new Date(startsAt), status, painScore });
}

async function response(patientId: string, formCode: number, headlineScore: number, submittedAt: string) {
  await t.db.insert(formResponses).values({
    instanceId: riverside,
    patientId,
    formCode,
    version: 'test',
    language: 'en',
    answers: {},
    headlineScore,
    idempotencyKey: randomUUID(),
    submittedAt: new Date(submittedAt),
  });
}

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  await setInstanceSetting(t.db, riverside, 'timeZoneId', 'America/Chicago');
  for (const who of ['admin', 'doctor', 'staff', 'admin2']) headers[who] = (await signIn(t.app, `${who}@pathwell.demo`)).headers;
  doctorA = (await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo')))[0]!.id;
  const [colleague] = await t.db
    .insert(users)
    .values({
      email: 'referrals.colleague@pathwell.test',
      firstName: 'Luis',
      lastName: 'Peña',
      role: RoleCode.Doctor,
      instanceId: riverside,
    })
    .returning({ id: users.id });
  doctorB = colleague!.id;
  await t.db.insert(userInstances).values({ userId: doctorB, instanceId: riverside });
  const [referrer] = await t.db
    .insert(managedItems)
    .values({ instanceId: riverside, listType: 'referrals', name: 'Dr. Ortiz', attributes: { practice: 'Ortiz Spine' } })
    .returning({ id: managedItems.id });
  referrerR1 = referrer!.id;
  const [procedure] = await t.db
    .insert(managedItems)
    .values({ instanceId: riverside, listType: 'interventionalitems:1', name: 'Referral test procedure', attributes: {} })
    .returning({ id: managedItems.id });

  const p1 = await patient('P1', { doctorId: doctorA, source: 1, referrer: referrerR1 });
  await visit(p1, '2015-02-10T15:00:00Z', AppointmentStatus.Completed, 8);
  await visit(p1, '2015-03-20T15:00:00Z', AppointmentStatus.Completed, 5);
  await t.db
    .insert(interventions)
    .values({ instanceId: riverside, patientId: p1, kind: 'procedure', itemId: procedure!.id, performedOn: '2015-02-20' });

  const p2 = await patient('P2', { doctorId: doctorA, source: 1, referrer: referrerR1 });
  await visit(p2, '2015-02-25T15:00:00Z', AppointmentStatus.No_Show);
  await response(p2, 2, 50, '2015-02-25T16:00:00Z');
  await response(p2, 2, 30, '2015-03-10T16:00:00Z');
  await t.db.insert(interventions).values({
    instanceId: riverside,
    patientId: p2,
    kind: 'procedure',
    itemId: procedure!.id,
    performedOn: '2015-03-01',
    deletedAt: new Date('2015-03-02T00:00:00Z'),
  });

  const p3 = await patient('P3', { doctorId: doctorB, source: 2 });
  await visit(p3, '2015-04-05T15:00:00Z', AppointmentStatus.Completed, 6);
  await response(p3, 2, 40, '2015-04-05T16:00:00Z');
  await response(p3, 2, 28, '2015-05-20T16:00:00Z');

  const p4 = await patient('P4', { doctorId: doctorB, createdAt: '2015-04-15T15:00:00Z' });
  await response(p4, 3, 20, '2015-04-15T16:00:00Z');
  await response(p4, 3, 12, '2015-06-01T16:00:00Z');

  const p8 = await patient('P8', { doctorId: doctorB, source: 2 });
  await visit(p8, '2015-03-01T03:00:00Z', AppointmentStatus.Upcoming);

  const p5 = await patient('P5', { doctorId: doctorA, source: 1, referrer: referrerR1 });
  await visit(p5, '2015-02-12T15:00:00Z', AppointmentStatus.Completed, 9);
  await t.db.update(patients).set({ deletedAt: new Date() }).where(eq(patients.id, p5));

  const p7 = await patient('P7', { doctorId: doctorA, source: 1, referrer: referrerR1, createdAt: '2014-12-01T12:00:00Z' });
  await visit(p7, '2014-12-20T15:00:00Z', AppointmentStatus.Completed, 7);
  await visit(p7, '2015-02-20T15:00:00Z', AppointmentStatus.Completed, 3);

  const [lakesideDoctor] = await t.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.instanceId, lakeside), eq(users.role, RoleCode.Admin)));
  const p6 = await patient('P6', { instanceId: lakeside, doctorId: lakesideDoctor!.id, source: 1 });
  await visit(p6, '2015-02-11T15:00:00Z', AppointmentStatus.Completed, 5, lakeside);
});
afterAll(async () => {
  await t?.close();
});

const funnel = (referred: number, seen: number, hadProcedure: number, improved: number) => ({
  referred,
  seen,
  hadProcedure,
  improved,
});

describe('POST /api/reports/referraltracker', () => {
  it('counts referred, seen, had a procedure and improved per month, source and referring provider', async () => {
    const report = await tracker('admin');
    const r1 = { providerId: referrerR1, providerName: 'Dr. Ortiz', providerPractice: 'Ortiz Spine' };
    const none = { providerId: null, providerName: null, providerPractice: null };
    // February: P1 + P2 (source 1, R1) and P8 (source 2); April: P3 (source 2) and P4 (nothing recorded).
    expect(report.rows).toEqual([
      { periodStart: '2015-02-01', source: 1, ...r1, ...funnel(2, 1, 1, 1) },
      { periodStart: '2015-02-01', source: 2, ...none, ...funnel(1, 0, 0, 0) },
      { periodStart: '2015-04-01', source: 2, ...none, ...funnel(1, 1, 0, 1) },
      { periodStart: '2015-04-01', source: null, ...none, ...funnel(1, 0, 0, 0) },
    ]);
    // Per source: 1 = P1 + P2; 2 = P3 + P8 (P3 seen and improved); none = P4.
    expect(report.bySource).toEqual([
      { source: 1, ...funnel(2, 1, 1, 1) },
      { source: 2, ...funnel(2, 1, 0, 1) },
      { source: null, ...funnel(1, 0, 0, 0) },
    ]);
    // Per referrer: R1 = P1 + P2; none = P3 + P4 + P8.
    expect(report.byProvider).toEqual([
      { ...r1, ...funnel(2, 1, 1, 1) },
      { ...none, ...funnel(3, 1, 0, 1) },
    ]);
    expect(report.byPeriod).toEqual([
      { periodStart: '2015-02-01', ...funnel(3, 1, 1, 1) },
      { periodStart: '2015-04-01', ...funnel(2, 1, 0, 1) },
    ]);
    // 5 patients; seen P1, P3; procedure P1; improved P1 (pain 8 → 5) and P3 (ODI 40 → 28).
    expect(report.totals).toEqual(funnel(5, 2, 1, 2));
    expect(report.timeZone).toBe('America/Chicago');
  });

  it('buckets by quarter', async () => {
    const report = await tracker('admin', { period: 'quarter' });
    // Q1: P1, P2, P8; Q2: P3, P4.
    expect(report.byPeriod).toEqual([
      { periodStart: '2015-01-01', ...funnel(3, 1, 1, 1) },
      { periodStart: '2015-04-01', ...funnel(2, 1, 0, 1) },
    ]);
  });

  it('filters by source, referring provider and doctor', async () => {
    expect((await tracker('admin', { referralSources: [2] })).totals).toEqual(funnel(2, 1, 0, 1)); // P3, P8
    expect((await tracker('admin', { referringProviderIds: [referrerR1] })).totals).toEqual(funnel(2, 1, 1, 1)); // P1, P2
    expect((await tracker('admin', { doctorId: doctorB })).totals).toEqual(funnel(3, 1, 0, 1)); // P3, P4, P8
  });

  it("shows a Doctor only their own patients' numbers, whatever doctor they name", async () => {
    const report = await tracker('doctor', { doctorId: doctorB });
    expect(report.totals).toEqual(funnel(2, 1, 1, 1)); // P1, P2
    expect(report.bySource).toEqual([{ source: 1, ...funnel(2, 1, 1, 1) }]);
  });

  it("never counts another clinic's patients", async () => {
    // Lakeside sees its own P6 only (first visit Feb 11, completed); Riverside's totals above leave P6 out.
    const report = await tracker('admin2');
    expect(report.totals).toEqual(funnel(1, 1, 0, 0));
    expect(report.byProvider).toEqual([{ providerId: null, providerName: null, providerPractice: null, ...funnel(1, 1, 0, 0) }]);
  });

  it('answers an empty report for a window with nobody in it', async () => {
    const report = await tracker('admin', { startDate: '01/01/2010', endDate: '01/31/2010' });
    expect(report).toMatchObject({ rows: [], bySource: [], byProvider: [], byPeriod: [], totals: funnel(0, 0, 0, 0) });
  });

  it('rejects bad input with field errors', async () => {
    const response = await post('/api/reports/referraltracker', 'admin', {
      dateFilter: 9,
      startDate: '12/31/2015',
      period: 'week',
      referralSources: [0],
      referringProviderIds: ['not-an-id'],
    });
    expect(response.statusCode).toBe(400);
    const fields = response.json<{ fields: Record<string, string> }>().fields;
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(['period', 'referralSources.0', 'referringProviderIds.0']));
    // A custom range needs its end day.
    const noEnd = await post('/api/reports/referraltracker', 'admin', { dateFilter: 9, startDate: '12/31/2015' });
    expect(noEnd.statusCode).toBe(400);
    expect(noEnd.json<{ fields: Record<string, string> }>().fields).toMatchObject({ endDate: 'required' });
  });

  it('is for the Reports roles: Staff get 403, nobody signed in 401', async () => {
    expect((await post('/api/reports/referraltracker', 'staff', year2015)).statusCode).toBe(403);
    expect((await post('/api/reports/referraltracker', null, year2015)).statusCode).toBe(401);
    expect((await post('/api/reports/referraltracker/patients', 'staff', year2015)).statusCode).toBe(403);
  });
});

describe('POST /api/reports/referraltracker/patients', () => {
  it('lists the patients behind a measure, oldest referral first, and audits the read', async () => {
    const improved = await drill({ measure: 'improved' });
    expect(improved.totalRecords).toBe(2);
    expect(improved.rows.map((row) => row.firstName)).toEqual(['P1', 'P3']);
    expect(improved.rows[0]).toMatchObject({
      patientId: ids.P1,
      referredAt: '2015-02-10T15:00:00.000Z',
      source: 1,
      providerName: 'Dr. Ortiz',
      seen: true,
      hadProcedure: true,
      improved: true,
    });
    const audit = await t.db
      .select()
      .from(activityLogs)
      .where(
        and(eq(activityLogs.instanceId, riverside), eq(activityLogs.area, 'Patient List'), eq(activityLogs.action, 'Viewed')),
      );
    expect(audit.some((row) => row.description?.includes('referral tracker'))).toBe(true);
  });

  it('narrows to one cell: period, source (0 = none) and referrer (none)', async () => {
    expect((await drill({ source: 0 })).rows.map((row) => row.firstName)).toEqual(['P4']);
    const february = await drill({ periodStart: '2015-02-01', providerId: 'none' });
    expect(february.rows.map((row) => row.firstName)).toEqual(['P8']);
    expect(february.rows[0]!.referredAt).toBe('2015-03-01T03:00:00.000Z');
    const pages = await drill({ pageSize: 2, pageNumber: 1 });
    expect(pages.totalRecords).toBe(5);
    expect(pages.rows.map((row) => row.firstName)).toEqual(['P8', 'P3']); // P1, P2 | P8, P3 | P4
    // Past the last page: no rows, and still the total (it used to come from the page's own rows: 0).
    const beyond = await drill({ pageSize: 2, pageNumber: 5 });
    expect(beyond).toMatchObject({ totalRecords: 5, rows: [] });
  });

  it('keeps a Doctor to their own patients', async () => {
    const response = await post('/api/reports/referraltracker/patients', 'doctor', { ...year2015, doctorId: doctorB });
    expect(response.statusCode).toBe(200);
    expect(response.json<ReferralPatients>().rows.map((row) => row.firstName)).toEqual(['P1', 'P2']);
  });

  it('rejects a bad cell', async () => {
    const response = await post('/api/reports/referraltracker/patients', 'admin', {
      ...year2015,
      periodStart: 'February',
      measure: 'cured',
      pageSize: 1000,
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json<{ fields: Record<string, string> }>().fields)).toEqual(
      expect.arrayContaining(['periodStart', 'measure', 'pageSize']),
    );
  });
});
