import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import type { PerformancePatients } from '@pathwell/contracts/reports-performance';
import type { ProviderBaselines, ReferralPatients } from '@pathwell/contracts/reports-referrals';
import type { SpotlightPage } from '@pathwell/contracts/reports-spotlight';
import type { SummaryPatients, SummaryReport } from '@pathwell/contracts/reports-summary';
import { appointments, formResponses, instances, patients, users } from '../../db/schema';
import { createTestApp, nextIp, setInstanceSetting, signIn, type TestApp } from '../../../test/test-app';

/*
 * Every report counts days the same way: dates on the clinic's calendar, difference in calendar days
 * (decision 0060, issue #24 §1). Riverside is in America/Chicago (CST, UTC−6, all of January–February
 * 2011: no clock change). Every instant below is fixed and every report is asked for a custom range in
 * 2011, so nothing depends on the day or time the test runs. ODI is form 2 (MCID 10, lower is better).
 *
 * Seven   new-patient visit Mon 01-10 09:00; ODI 01-17 22:30 (clinic day +7, 7 days 13.5 hours later)
 * Eight   new-patient visit Mon 01-10 09:00; ODI 01-18 00:30 (clinic day +8): outside −30/+7
 * Thirty  new-patient visit 01-31 08:00; ODI 01-01 06:00 (clinic day −30, 30 days 2 hours before)
 * Morning visit 01-03 10:00 (no pain); ODI 01-03 20:00 60, 01-31 08:00 30 (clinic day 28, 27.5 × 24 h)
 * Early   ODI 01-03 00:30 60, 01-30 23:30 30 (clinic day 27, 27 days 23 hours): no follow-up anywhere
 * Sign    ODI 01-05 12:00 50, 02-16 12:00 20 (42 days; improvement 30 = 3 MCID)
 */

let t: TestApp;
let riverside: string;
let doctorId: string;
let headers: Record<string, string>;
const ids: Record<string, string> = {};

const LAST_NAME = 'Clinicday';
const range = { dateFilter: 9, startDate: '01/01/2011', endDate: '02/28/2011' };
/** A Chicago wall-clock time in January–February 2011 (UTC−6) as an instant. */
const chicago = (day: string, time: string) => new Date(new Date(`${day}T${time}:00Z`).getTime() + 6 * 3_600_000);

const post = async <T>(url: string, payload: object): Promise<T> => {
  const response = await t.app.inject({ method: 'POST', url, headers, payload, remoteAddress: nextIp() });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<T>();
};

async function patient(firstName: string) {
  const [row] = await t.db
    .insert(patients)
    .values({ instanceId: riverside, firstName, lastName: LAST_NAME, dateOfBirth: '1965-04-05', doctorId })
    .returning({ id: patients.id });
  ids[firstName] = row!.id;
  return row!.id;
}

async function visit(patientId: string, at: Date, reason: 'new_patient' | null = null) {
  await t.db
    .insert(appointments)
    .values({ instanceId: riverside, patientId, doctorId, startsAt: at, status: AppointmentStatus.Completed, reason });
}

async function odi(patientId: string, at: Date, headlineScore: number) {
  await t.db.insert(formResponses).values({
    instanceId: riverside,
    patientId,
    formCode: 2,
    version: 'ODI 2.1a',
    language: 'en',
    answers: {},
    headlineScore,
    idempotencyKey: randomUUID(),
    submittedAt: at,
  });
}

beforeAll(async () => {
  t = await createTestApp();
  riverside = (await t.db.select().from(instances)).find((row) => row.name === 'Riverside Spine & Pain')!.id;
  await setInstanceSetting(t.db, riverside, 'timeZoneId', 'America/Chicago');
  await setInstanceSetting(t.db, riverside, 'enableProviderAppointmentDashboard', 'true');
  headers = (await signIn(t.app, 'admin@pathwell.demo')).headers;
  doctorId = (await t.db.select().from(users)).find((user) => user.email === 'doctor@pathwell.demo')!.id;

  const seven = await patient('Seven');
  await visit(seven, chicago('2011-01-10', '09:00'), 'new_patient');
  await odi(seven, chicago('2011-01-17', '22:30'), 40);
  const eight = await patient('Eight');
  await visit(eight, chicago('2011-01-10', '09:00'), 'new_patient');
  await odi(eight, chicago('2011-01-18', '00:30'), 40);
  const thirty = await patient('Thirty');
  await visit(thirty, chicago('2011-01-31', '08:00'), 'new_patient');
  await odi(thirty, chicago('2011-01-01', '06:00'), 40);
  const morning = await patient('Morning');
  await visit(morning, chicago('2011-01-03', '10:00'));
  await odi(morning, chicago('2011-01-03', '20:00'), 60);
  await odi(morning, chicago('2011-01-31', '08:00'), 30);
  const early = await patient('Early');
  await odi(early, chicago('2011-01-03', '00:30'), 60);
  await odi(early, chicago('2011-01-30', '23:30'), 30);
  const sign = await patient('Sign');
  await odi(sign, chicago('2011-01-05', '12:00'), 50);
  await odi(sign, chicago('2011-02-16', '12:00'), 20);
});

afterAll(async () => {
  await t?.close();
});

const firstNames = (names: string[]) =>
  names
    .filter((name) => name.endsWith(LAST_NAME))
    .map((name) => name.split(' ')[0])
    .sort();

const spotlight = () =>
  post<SpotlightPage>('/api/reports/patientsspotlight', { formCode: 2, patientLastName: LAST_NAME, pageSize: 100 });
const performancePatients = (body: object) =>
  post<PerformancePatients>('/api/reports/patientsperformancemeasure/patients', { filter: range, pageSize: 100, ...body });
const sandboxFilter = (name: string) => ({ formIds: [2], patientId: ids[name] });
const sandboxPatients = (name: string, week: number) =>
  post<SummaryPatients>('/api/reports/summary/patients', { filter: sandboxFilter(name), seriesKey: 'form-2', week });

describe('reports count clinic days (decision 0060)', () => {
  it('an answer late in the evening of clinic day +7 is in the first visit −30/+7 window; day +8 is not, day −30 is', async () => {
    const met = await performancePatients({ measure: 'baselinePro', group: 'numerator' });
    const all = await performancePatients({ measure: 'baselinePro', group: 'denominator' });
    expect(firstNames(all.rows.map((row) => row.fullName))).toEqual(['Eight', 'Morning', 'Seven', 'Thirty']);
    expect(firstNames(met.rows.map((row) => row.fullName))).toEqual(['Morning', 'Seven', 'Thirty']);
  });

  it('a follow-up on the morning of clinic day 28 counts in the spotlight, the sandbox and every 28-day rule; day 27 does not', async () => {
    const page = await spotlight();
    expect(page.data.map((row) => row.fullName.split(' ')[0]).sort()).toEqual(['Morning', 'Sign']);
    expect(page.data.find((row) => row.patientId === ids.Morning)).toMatchObject({
      baseline: { date: '2011-01-03', score: 60 },
      latest: { date: '2011-01-31', score: 30 },
      improvement: 30,
    });

    // The sandbox puts day 28 in week 4, the same follow-up.
    const sandbox = await post<SummaryReport>('/api/reports/summary', sandboxFilter('Morning'));
    expect(sandbox.series[0]!.points.find((point) => point.week === 4)).toMatchObject({ patients: 1, meanImprovement: 30 });
    expect((await sandboxPatients('Morning', 4)).data).toEqual([
      expect.objectContaining({ baselineDate: '2011-01-03', scoreDate: '2011-01-31', improvement: 30 }),
    ]);

    // Performance measure 3 (follow-up at least 28 days after the baseline).
    const mcid = await performancePatients({ measure: 'mcidImprovement', group: 'denominator', formCode: 2 });
    expect(firstNames(mcid.rows.map((row) => row.fullName))).toEqual(['Morning', 'Sign']);

    // Referral tracker "improved" and the provider dashboard's follow-up use the same 28 clinic days.
    const referred = await post<ReferralPatients>('/api/reports/referraltracker/patients', {
      dateFilter: 9,
      startDate: '01/01/2011',
      endDate: '12/31/2011',
      measure: 'improved',
    });
    expect(referred.rows.map((row) => row.firstName)).toEqual(['Morning']);
    const dashboard = await post<ProviderBaselines>('/api/patientappointments/providerappointmentreport', {
      dateFilter: 9,
      startDate: '01/01/2011',
      endDate: '01/31/2011',
    });
    expect(dashboard.totals.forms.find((form) => form.formCode === 2)).toMatchObject({
      baseline: { mean: 45, count: 4 },
      followUp: { mean: 30, count: 1 },
    });
  });

  it("shows the same patient's ODI improvement with the same sign and number in the spotlight, the performance drill-down and the sandbox", async () => {
    const row = (await spotlight()).data.find((entry) => entry.patientId === ids.Sign)!;
    expect(row).toMatchObject({ improvement: 30, improvementInMcids: 3 });
    const performance = await performancePatients({ measure: 'mcidImprovement', group: 'numerator', formCode: 2 });
    expect(performance.rows.find((entry) => entry.patientId === ids.Sign)).toMatchObject({
      firstScore: 50,
      latestScore: 20,
      improvement: 30,
    });
    // 42 days after week 0: the week-8 window.
    expect((await sandboxPatients('Sign', 8)).data).toEqual([
      expect.objectContaining({ baselineScore: 50, score: 20, improvement: 30 }),
    ]);
  });
});
