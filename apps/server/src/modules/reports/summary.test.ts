import { and, eq, like } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SummaryFilter, SummaryPatients, SummaryReport, SummarySeries } from '@pathwell/contracts/reports-summary';
import {
  activityLogs,
  appointments,
  formResponses,
  instances,
  interventions,
  managedItems,
  outboxMessages,
  patients,
  perioperativeTemplates,
  patientStudyGroups,
  users,
} from '../../db/schema';
import { createTestApp, setInstanceSetting, signIn, type TestApp } from '../../../test/test-app';

/*
 * A hand-built cohort in Riverside (clinic zone America/Chicago; every score at 15:00 UTC, mid-morning
 * there, so "day N" is N clinic days after day 0). All in study group G, which every request filters on,
 * so the demo clinic's own patients never mix in.
 *
 *   A  Ana Alpha    doctor@   gender X  disease 7  age 66  ODI d0 40, d20 38, d30 30, d85 20   pain d0 6, d30 3
 *                                                         SF-36 d0 45   procedure d5
 *   B  Ben Bravo    doctor@   gender Y             age 36  ODI d0 50, d10 99, d30 45, d85 30   SF-36 d0 70
 *                                                         procedure d5
 *   C  Cy Charlie   nobody    gender X             age 71  ODI d0 60, d30 65, d85 35, d200 10  PHQ-9 d0 27, d30 9
 *                                                         procedure d2 (deleted), d180
 *   D  =cmd Delta   doctor@                        age 40  pain d0 8, d30 5, d85 4 (and an upcoming visit with 1)
 *   L  Lena Lakeperson in Lakeside, ODI d0 10 (another clinic: never counted)
 *
 * Weeks: day 30 → 4 × round(30/28 = 1.07) = 4; day 20 → round(0.71) = 1 → 4 as well (A keeps the later,
 * day 30); day 10 → round(0.36) = 0 → no window; day 85 → round(3.04) = 3 → 12; day 200 → 28 > 24 → none.
 */

let t: TestApp;
let riverside: string;
let lakeside: string;
const auth: Record<string, { headers: Record<string, string> }> = {};
const ids: Record<string, string> = {};
let group: string;
let genderX: string;
let genderY: string;
let lumbar: string;
let procedureItem: string;

const DAY = 86_400_000;
const base = Date.UTC(2025, 2, 3, 15);
const at = (day: number) => new Date(base + day * DAY);
const isoDay = (day: number) => at(day).toISOString().slice(0, 10);
const mdyDay = (day: number) => {
  const [year, month, date] = isoDay(day).split('-');
  return `${month}/${date}/${year}`;
};
/** A birth date making the patient `years` old today, whenever the test runs (100 days past the birthday). */
const bornYearsAgo = (years: number) => {
  const date = new Date(Date.now() - 100 * DAY);
  date.setUTCFullYear(date.getUTCFullYear() - years);
  return date.toISOString().slice(0, 10);
};

const call = (who: string, url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: who === 'nobody' ? {} : auth[who]!.headers, payload });

async function report(who: string, filter: SummaryFilter): Promise<SummaryReport> {
  const response = await call(who, '/api/reports/summary', { studyGroups: [group], ...filter });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SummaryReport>();
}
const point = (series: SummarySeries | undefined, week: number) => series!.points.find((entry) => entry.week === week)!;
const odi = (result: SummaryReport) => result.series.find((entry) => entry.key === 'form-2');

async function item(instanceId: string, listType: string, name: string) {
  const [row] = await t.db
    .insert(managedItems)
    .values({ instanceId, listType, name, attributes: {} })
    .returning({ id: managedItems.id });
  return row!.id;
}

async function patient(
  instanceId: string,
  key: string,
  values: { firstName: string; lastName: string; dateOfBirth: string } & Partial<typeof patients.$inferInsert>,
) {
  const [row] = await t.db
    .insert(patients)
    .values({ instanceId, email: null, ...values })
    .returning({ id: patients.id });
  ids[key] = row!.id;
  if (instanceId === riverside)
    await t.db.insert(patientStudyGroups).values({ instanceId, patientId: row!.id, studyGroupId: group });
}

async function scores(instanceId: string, key: string, formCode: number, byDay: Record<number, number>) {
  await t.db.insert(formResponses).values(
    Object.entries(byDay).map(([day, score]) => ({
      instanceId,
      patientId: ids[key]!,
      formCode,
      version: 'test',
      language: 'en' as const,
      answers: {},
      headlineScore: score,
      idempotencyKey: crypto.randomUUID(),
      submittedAt: at(Number(day)),
    })),
  );
}

async function visits(key: string, byDay: Record<number, number>, status = 3, bodyLocationIds: string[] = []) {
  await t.db.insert(appointments).values(
    Object.entries(byDay).map(([day, painScore]) => ({
      instanceId: riverside,
      patientId: ids[key]!,
      startsAt: at(Number(day)),
      status,
      painScore,
      bodyLocationIds,
    })),
  );
}

async function procedure(key: string, day: number, deleted = false) {
  await t.db.insert(interventions).values({
    instanceId: riverside,
    patientId: ids[key]!,
    kind: 'injection',
    itemId: procedureItem,
    performedOn: isoDay(day),
    deletedAt: deleted ? new Date() : null,
  });
}

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const who of ['admin', 'doctor', 'staff', 'admin2']) auth[who] = await signIn(t.app, `${who}@pathwell.demo`);
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  group = await item(riverside, 'studygroups', 'Sandbox test group');
  genderX = await item(riverside, 'gender', 'Sandbox gender X');
  genderY = await item(riverside, 'gender', 'Sandbox gender Y');
  lumbar = await item(riverside, 'bodylocations', 'Sandbox lumbar');
  procedureItem = await item(riverside, 'interventionalitems:2', 'Sandbox injection');

  const doctorId = doctor!.id;
  await patient(riverside, 'A', {
    firstName: 'Ana',
    lastName: 'Álpha',
    dateOfBirth: bornYearsAgo(66),
    doctorId,
    genderId: genderX,
    diseaseStates: [7],
    weight: 200,
    height: 70,
  });
  await patient(riverside, 'B', {
    firstName: 'Ben',
    lastName: 'Bravo',
    dateOfBirth: bornYearsAgo(36),
    doctorId,
    genderId: genderY,
    weight: 150,
    height: 70,
  });
  await patient(riverside, 'C', { firstName: 'Cy', lastName: 'Charlie', dateOfBirth: bornYearsAgo(71), genderId: genderX });
  await patient(riverside, 'D', { firstName: '=cmd', lastName: 'Delta', dateOfBirth: bornYearsAgo(40), doctorId });
  await patient(lakeside, 'L', { firstName: 'Lena', lastName: 'Lakeperson', dateOfBirth: bornYearsAgo(50) });

  await scores(riverside, 'A', 2, { 0: 40, 20: 38, 30: 30, 85: 20 });
  await scores(riverside, 'B', 2, { 0: 50, 10: 99, 30: 45, 85: 30 });
  await scores(riverside, 'C', 2, { 0: 60, 30: 65, 85: 35, 200: 10 });
  await scores(riverside, 'C', 11, { 0: 27, 30: 9 });
  await scores(riverside, 'A', 1, { 0: 45 });
  await scores(riverside, 'B', 1, { 0: 70 });
  await scores(lakeside, 'L', 2, { 0: 10, 30: 0 });
  await visits('A', { 0: 6, 30: 3 }, 3, [lumbar]);
  await visits('D', { 0: 8, 30: 5, 85: 4 });
  await visits('D', { 1: 1 }, 2);
  await procedure('A', 5);
  await procedure('B', 5);
  await procedure('C', 2, true);
  await procedure('C', 180);
});
afterAll(async () => {
  await t?.close();
});

describe('data sandbox aggregate', () => {
  it('charts ODI by week with mean, SD, 95 % CI, improvement and MCID share, worked out by hand', async () => {
    const result = await report('admin', { formIds: [2] });
    // Patients of group G: A, B, C, D (D has no ODI: in the cohort, not in the series).
    expect(result.cohortPatients).toBe(4);
    expect(result.dataType).toBe(1);
    const series = odi(result)!;
    expect(series).toMatchObject({ formCode: 2, maximum: 100, normalised: false, higherIsBetter: false, mcid: 10 });
    expect(series.mcidSource).toContain('Ostelo');
    expect(series.points.map((entry) => entry.week)).toEqual([0, 4, 8, 12, 16, 20, 24]);
    // Week 0: 40, 50, 60 → mean 50, sd 10, CI 50 ± 4.303 · 10 / √3 = 25.16 … 74.84; no change yet.
    expect(point(series, 0)).toEqual({
      week: 0,
      patients: 3,
      mean: 50,
      sd: 10,
      ciLow: 25.16,
      ciHigh: 74.84,
      meanImprovement: 0,
      mcidReached: 0,
      mcidPercent: 0,
    });
    // Week 4 (A's day 30 replaces its day 20; B's day 10 is in no window): 30, 45, 65 → mean 46.67,
    // sd √((16.67² + 1.67² + 18.33²) / 2) = 17.56, CI 46.67 ± 4.303 · 17.56 / √3 = 3.05 … 90.29.
    // Improvement (lower is better): A 40−30 = 10, B 5, C −5 → mean 3.33; MCID 10 reached by A only → 33.3 %.
    expect(point(series, 4)).toEqual({
      week: 4,
      patients: 3,
      mean: 46.67,
      sd: 17.56,
      ciLow: 3.05,
      ciHigh: 90.29,
      meanImprovement: 3.33,
      mcidReached: 1,
      mcidPercent: 33.3,
    });
    // Week 12: 20, 30, 35 → mean 28.33, sd 7.64, CI 9.36 … 47.31; improvements 20, 20, 25 → 21.67, all reach 10.
    expect(point(series, 12)).toMatchObject({ patients: 3, mean: 28.33, sd: 7.64, ciLow: 9.36, ciHigh: 47.31 });
    expect(point(series, 12)).toMatchObject({ meanImprovement: 21.67, mcidReached: 3, mcidPercent: 100 });
    // No score lands in weeks 8, 16, 20, 24 (C's day 200 is week 28, past the range).
    expect(point(series, 8)).toEqual({
      week: 8,
      patients: 0,
      mean: null,
      sd: null,
      ciLow: null,
      ciHigh: null,
      meanImprovement: null,
      mcidReached: 0,
      mcidPercent: null,
    });
    expect(point(series, 24).patients).toBe(0);
  });

  it('serves the same report at section 7’s patients/reportsummary', async () => {
    const response = await call('admin', '/api/patients/reportsummary', { studyGroups: [group], formIds: [2] });
    expect(response.statusCode).toBe(200);
    expect(point(odi(response.json<SummaryReport>()), 4).mean).toBe(46.67);
  });

  it('shows only the visit windows asked for, week 0 always', async () => {
    const series = odi(await report('admin', { formIds: [2], visitMin: 8, visitMax: 16 }))!;
    expect(series.points.map((entry) => entry.week)).toEqual([0, 8, 12, 16]);
  });

  it('normalises every form to 0–100 by its section 9 maximum when forms are compared', async () => {
    const result = await report('admin', { formIds: [2, 11] });
    expect(result.series.map((entry) => entry.key)).toEqual(['form-2', 'form-11']);
    // ODI's maximum is 100: the same numbers, now flagged as normalised.
    expect(odi(result)).toMatchObject({ maximum: 100, normalised: true, mcid: 10 });
    expect(point(odi(result), 0).mean).toBe(50);
    // PHQ-9 (maximum 27, no MCID in its definition): C's 27 → 100, 9 → 33.33; improvement 66.67.
    const phq9 = result.series.find((entry) => entry.key === 'form-11')!;
    expect(phq9).toMatchObject({ formCode: 11, maximum: 100, normalised: true, higherIsBetter: false, mcid: null });
    expect(point(phq9, 0)).toMatchObject({ patients: 1, mean: 100, sd: null, ciLow: null, ciHigh: null, mcidReached: null });
    expect(point(phq9, 4)).toMatchObject({
      patients: 1,
      mean: 33.33,
      meanImprovement: 66.67,
      mcidReached: null,
      mcidPercent: null,
    });
  });

  it('charts visit pain (0–10, lower is better, MCID 2 points after Farrar 2001)', async () => {
    const result = await report('admin', { reportSummaryDataType: 2 });
    const pain = result.series[0]!;
    expect(pain).toMatchObject({ key: 'pain', formCode: null, maximum: 10, higherIsBetter: false, mcid: 2 });
    expect(pain.mcidSource).toContain('Farrar');
    // Completed visits only (D's upcoming visit with 1 does not count). Week 0: A 6, D 8 → mean 7,
    // sd √2 = 1.41, CI 7 ± 12.706 · 1.41 / √2 = −5.71 … 19.71.
    expect(point(pain, 0)).toMatchObject({ patients: 2, mean: 7, sd: 1.41, ciLow: -5.71, ciHigh: 19.71 });
    // Week 4: A 3, D 5 → mean 4; both improved by 3 ≥ 2. Week 12: D alone, 4 (improved by 4).
    expect(point(pain, 4)).toMatchObject({ patients: 2, mean: 4, meanImprovement: 3, mcidReached: 2, mcidPercent: 100 });
    expect(point(pain, 12)).toMatchObject({ patients: 1, mean: 4, sd: null, ciLow: null, meanImprovement: 4, mcidReached: 1 });
  });

  it('anchors week 0 on a procedure: baseline the last score up to 90 days before, weeks from the procedure', async () => {
    const series = odi(await report('admin', { formIds: [2], anchor: 'procedure', procedureItemIds: [procedureItem] }))!;
    // A and B: injection on day 5, baselines day 0 (40, 50). C: the day-2 injection is deleted, and the day-180
    // one has no score in the 90 days before it (day 85 is 95 days earlier), so C is not in the series.
    expect(point(series, 0)).toMatchObject({ patients: 2, mean: 45 });
    // Days after the procedure: A's day 20 → 15 → week 4, day 30 → 25 → week 4 (kept, 30); B's day 10 → 5 → none,
    // day 30 → week 4 (45). Week 4: 30, 45 → 37.5. Day 85 → 80 → round(2.86) = 3 → week 12: 20, 30 → 25.
    expect(point(series, 4)).toMatchObject({ patients: 2, mean: 37.5, meanImprovement: 7.5, mcidReached: 1 });
    expect(point(series, 12)).toMatchObject({ patients: 2, mean: 25, meanImprovement: 20, mcidReached: 2 });
  });

  it('starts week 0 at the first score inside the date range', async () => {
    const series = odi(await report('admin', { formIds: [2], startDate: mdyDay(25), endDate: mdyDay(40) }))!;
    // First scores from day 25: day 30 (A 30, B 45, C 65, mean 46.67); day 85 is 55 days later → round(1.96) = 2 → week 8.
    expect(point(series, 0)).toMatchObject({ patients: 3, mean: 46.67 });
    expect(point(series, 8)).toMatchObject({ patients: 3, mean: 28.33 });
    expect(point(series, 4).patients).toBe(0);
  });

  it('applies the patient filters', async () => {
    const week0 = async (filter: SummaryFilter) => point(odi(await report('admin', { formIds: [2], ...filter })), 0);
    // Gender X: A and C → 40, 60.
    expect(await week0({ genders: [genderX] })).toMatchObject({ patients: 2, mean: 50 });
    // Disease state 7: A.
    expect(await week0({ diseaseStates: [7] })).toMatchObject({ patients: 1, mean: 40 });
    // Age 60–70: A (66); C is 71 and B 36.
    expect(await week0({ ageMin: 60, ageMax: 70 })).toMatchObject({ patients: 1, mean: 40 });
    // Name: every word, accents and case folded ("alpha" finds "Álpha").
    expect(await week0({ patientName: 'ALPHA ana' })).toMatchObject({ patients: 1, mean: 40 });
    expect(await week0({ patientId: ids.B })).toMatchObject({ patients: 1, mean: 50 });
    // Body location on any visit: A's pain visits.
    expect(await week0({ bodyLocations: [lumbar] })).toMatchObject({ patients: 1, mean: 40 });
    // RAND-36 at or before week 0 between 40 and 50: A (45); B has 70, C none. 0–0 means no filter.
    expect(await week0({ randScoreMin: 40, randScoreMax: 50 })).toMatchObject({ patients: 1, mean: 40 });
    expect(await week0({ randScoreMin: 0, randScoreMax: 0 })).toMatchObject({ patients: 3 });
    // A perioperative message of template T went to B.
    const [template] = await t.db
      .insert(perioperativeTemplates)
      .values({ instanceId: riverside, name: 'Sandbox lumbar injection' })
      .returning({ id: perioperativeTemplates.id });
    await t.db.insert(outboxMessages).values({
      instanceId: riverside,
      channel: 'email',
      recipient: 'ben@example.test',
      body: 'Before your injection',
      template: 'perioperative',
      patientId: ids.B,
      perioperativeTemplateId: template!.id,
    });
    expect(await week0({ perioperativeMessageTemplateIds: [template!.id] })).toMatchObject({ patients: 1, mean: 50 });
    // Starting pain (first completed visit with pain) 7–10: D only (8); A starts at 6.
    const pain = await report('admin', { reportSummaryDataType: 2, startingPainScoreMin: 7 });
    expect(pain.cohortPatients).toBe(1);
    expect(point(pain.series[0], 0)).toMatchObject({ patients: 1, mean: 8 });
  });

  it('applies BMI (703 · lb / in²) only when the clinic shows the BMI filter', async () => {
    // A: 703 · 200 / 70² = 28.7; B: 703 · 150 / 70² = 21.5; C has no weight.
    // The demo clinic shows the filter; with the setting off the bounds are ignored.
    await setInstanceSetting(t.db, riverside, 'showBmiFilterOnSandbox', 'false');
    expect(point(odi(await report('admin', { formIds: [2], bmiMin: 25, bmiMax: 30 })), 0).patients).toBe(3);
    await setInstanceSetting(t.db, riverside, 'showBmiFilterOnSandbox', 'true');
    try {
      expect(point(odi(await report('admin', { formIds: [2], bmiMin: 25, bmiMax: 30 })), 0)).toMatchObject({
        patients: 1,
        mean: 40,
      });
      expect(point(odi(await report('admin', { formIds: [2], bmiMin: 18, bmiMax: 50 })), 0)).toMatchObject({ patients: 2 });
    } finally {
      await setInstanceSetting(t.db, riverside, 'showBmiFilterOnSandbox', 'false');
    }
  });

  it('counts only scores on or after the deployment date when asked', async () => {
    await setInstanceSetting(t.db, riverside, 'deploymentDate', mdyDay(25));
    try {
      expect(point(odi(await report('admin', { formIds: [2] })), 0).mean).toBe(50);
      const deployed = odi(await report('admin', { formIds: [2], postDeploymentAppointments: true }))!;
      expect(point(deployed, 0)).toMatchObject({ patients: 3, mean: 46.67 });
    } finally {
      await setInstanceSetting(t.db, riverside, 'deploymentDate', '');
    }
  });

  it('keeps a Doctor to their own patients, whatever doctor the request names', async () => {
    const [other] = await t.db.select().from(users).where(eq(users.email, 'admin@pathwell.demo'));
    const result = await report('doctor', { formIds: [2], doctorId: other!.id });
    // The doctor's patients in G: A, B, D → cohort 3; ODI week 0: 40, 50 → 45.
    expect(result.cohortPatients).toBe(3);
    expect(point(odi(result), 0)).toMatchObject({ patients: 2, mean: 45 });
  });

  it('never counts another clinic’s data', async () => {
    // Lakeside's admin with Riverside's group: nothing. Riverside by the Lakeside patient's name: nothing.
    const foreign = await report('admin2', { formIds: [2] });
    expect(foreign.cohortPatients).toBe(0);
    expect(point(odi(foreign), 0).patients).toBe(0);
    const byName = await call('admin', '/api/reports/summary', { formIds: [2], patientName: 'Lakeperson' });
    expect(byName.json<SummaryReport>().cohortPatients).toBe(0);
  });

  it('answers bad filters with 400 and field errors, Staff with 403, signed out with 401', async () => {
    const noForms = await call('admin', '/api/reports/summary', { reportSummaryDataType: 1, formIds: [] });
    expect(noForms.statusCode).toBe(400);
    expect(noForms.json().fields).toMatchObject({ formIds: 'required' });
    const ages = await call('admin', '/api/reports/summary', { formIds: [2], ageMin: 60, ageMax: 40 });
    expect(ages.statusCode).toBe(400);
    expect(ages.json().fields).toMatchObject({ ageMin: 'rangeInvalid' });
    const noProcedure = await call('admin', '/api/reports/summary', { formIds: [2], anchor: 'procedure' });
    expect(noProcedure.json().fields).toHaveProperty('procedureItemIds');
    const outside = await call('admin', '/api/reports/summary', { formIds: [16], visitMax: 30, genders: ['x'] });
    expect(Object.keys(outside.json().fields)).toEqual(expect.arrayContaining(['formIds.0', 'visitMax', 'genders.0']));
    const dates = await call('admin', '/api/reports/summary', { formIds: [2], startDate: '02/30/2025', endDate: '01/01/9999' });
    expect(dates.json().fields).toMatchObject({ startDate: 'dateInvalid', endDate: 'dateInvalid' });
    // LIKE wildcards in a name are literal characters, not a match-all.
    expect((await report('admin', { formIds: [2], patientName: '%' })).cohortPatients).toBe(0);
    expect((await call('staff', '/api/reports/summary', { formIds: [2] })).statusCode).toBe(403);
    expect((await call('nobody', '/api/reports/summary', { formIds: [2] })).statusCode).toBe(401);
    expect(
      (await call('staff', '/api/reports/summary/patients', { filter: { formIds: [2] }, seriesKey: 'form-2', week: 0 }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call('nobody', '/api/reports/summary/export', { filter: { formIds: [2] }, level: 'aggregate', format: 'csv' }))
        .statusCode,
    ).toBe(401);
  });
});

describe('data sandbox drill-down', () => {
  const drill = (who: string, body: object) =>
    call(who, '/api/reports/summary/patients', { filter: { studyGroups: [group], formIds: [2] }, ...body });

  it('lists the patients behind a point by last name, paged, and audits the view', async () => {
    const first = await drill('admin', { seriesKey: 'form-2', week: 4, pageNumber: 0, pageSize: 2 });
    expect(first.statusCode).toBe(200);
    const page = first.json<SummaryPatients>();
    expect(page).toMatchObject({ totalRecords: 3, pageNumber: 0, pageSize: 2 });
    expect(page.data.map((row) => row.fullName)).toEqual(['Ana Álpha', 'Ben Bravo']);
    expect(page.data[0]).toEqual({
      patientId: ids.A,
      fullName: 'Ana Álpha',
      dateOfBirth: bornYearsAgo(66),
      doctorName: expect.any(String),
      baselineDate: isoDay(0),
      baselineScore: 40,
      scoreDate: isoDay(30),
      score: 30,
      improvement: 10,
      reachedMcid: true,
    });
    const second = (await drill('admin', { seriesKey: 'form-2', week: 4, pageNumber: 1, pageSize: 2 })).json<SummaryPatients>();
    expect(second.totalRecords).toBe(3);
    expect(second.data).toEqual([
      expect.objectContaining({ fullName: 'Cy Charlie', score: 65, improvement: -5, reachedMcid: false, doctorName: null }),
    ]);
    const beyond = (await drill('admin', { seriesKey: 'form-2', week: 4, pageNumber: 5, pageSize: 2 })).json<SummaryPatients>();
    expect(beyond).toMatchObject({ totalRecords: 3, data: [] });
    const audit = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.area, 'Patient List'), like(activityLogs.description, 'Data sandbox:%')));
    expect(audit.length).toBeGreaterThanOrEqual(3);
  });

  it('shows a Doctor only their patients and answers bad keys with 400', async () => {
    const page = (await drill('doctor', { seriesKey: 'form-2', week: 4 })).json<SummaryPatients>();
    expect(page.data.map((row) => row.patientId).sort()).toEqual([ids.A, ids.B].sort());
    const week0 = (await drill('admin', { seriesKey: 'form-2', week: 0 })).json<SummaryPatients>();
    expect(week0.data.find((row) => row.patientId === ids.C)).toMatchObject({ score: 60, improvement: 0, scoreDate: isoDay(0) });
    const foreign = (await drill('admin2', { seriesKey: 'form-2', week: 0 })).json<SummaryPatients>();
    expect(foreign.totalRecords).toBe(0);
    const bad = await drill('admin', { seriesKey: 'drop table', week: 3.5, pageSize: 1000 });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(expect.arrayContaining(['seriesKey', 'week', 'pageSize']));
  });
});

describe('data sandbox exports', () => {
  const exportFile = (body: object) =>
    call('admin', '/api/reports/summary/export', { filter: { studyGroups: [group], formIds: [2] }, ...body });

  it('writes the aggregate as CSV with a byte-order mark, in the request’s language', async () => {
    const response = await exportFile({ level: 'aggregate', format: 'csv' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="pathwell-data-sandbox-\d{4}-\d{2}-\d{2}\.csv"; filename\*=UTF-8''pathwell-data-sandbox-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = response.body.replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]).toBe('Series,Week,Patients,Mean,SD,95% CI low,95% CI high,Mean improvement,MCID reached,MCID %');
    expect(lines).toHaveLength(1 + 7);
    expect(lines[1]).toBe('Oswestry Disability Index (ODI),0,3,50,10,25.16,74.84,0,0,0');
    expect(lines[2]).toBe('Oswestry Disability Index (ODI),4,3,46.67,17.56,3.05,90.29,3.33,1,33.3');
    const spanish = await exportFile({ level: 'aggregate', format: 'csv', language: 'es' });
    expect(spanish.body.replace('\uFEFF', '').split('\r\n')[0]).toMatch(/^Serie,Semana,Pacientes,Media,DE,/);
  });

  it('writes every patient row, guarding a value that starts with "=", and audits it', async () => {
    const response = await call('admin', '/api/reports/summary/export', {
      filter: { studyGroups: [group], reportSummaryDataType: 2 },
      level: 'patients',
      format: 'csv',
    });
    expect(response.statusCode).toBe(200);
    const lines = response.body.replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]).toBe(
      'Series,Week,Patient,Date of birth,Doctor,Baseline date,Baseline score,Score date,Score,Improvement,MCID reached',
    );
    // Pain: week 0 A, D; week 4 A, D; week 12 D → 5 rows.
    expect(lines).toHaveLength(1 + 5);
    expect(lines.some((line) => line.includes(",'=cmd Delta,"))).toBe(true);
    expect(lines.some((line) => line.includes(',=cmd'))).toBe(false);
    expect(lines[3]).toMatch(/^Pain \(0–10\),4,Ana Álpha,.*,6,.*,3,3,Yes$/);
    const audit = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.area, 'Patient List'), like(activityLogs.description, 'Data sandbox CSV export%')));
    expect(audit).toHaveLength(1);
  });

  it('writes XLSX that a spreadsheet reads back with the header row', async () => {
    const response = await exportFile({ level: 'patients', format: 'xlsx', language: 'es' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    expect(response.headers['content-disposition']).toMatch(/filename="pathwell-data-sandbox-\d{4}-\d{2}-\d{2}\.xlsx"/);
    expect(response.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([
      'Serie',
      'Semana',
      'Paciente',
      'Fecha de nacimiento',
      'Médico',
      'Fecha basal',
      'Puntuación basal',
      'Fecha de la puntuación',
      'Puntuación',
      'Mejoría',
      'DMCI alcanzada',
    ]);
    // ODI: 3 at week 0, 3 at week 4, 3 at week 12.
    expect(sheet.rowCount).toBe(1 + 9);
  });

  it('describes the export as a binary file in the OpenAPI document', () => {
    const document = t.app.swagger() as unknown as {
      paths: Record<string, { post: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } }>;
    };
    const response = document.paths['/api/reports/summary/export']!.post.responses['200']!;
    expect(JSON.stringify(response)).toContain('"format":"binary"');
    expect(Object.keys(document.paths['/api/patients/reportsummary'] ?? {})).toEqual(['post']);
  });
});
