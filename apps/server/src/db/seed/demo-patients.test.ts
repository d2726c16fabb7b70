import { and, eq, sql } from 'drizzle-orm';
import { headlineOf, scoreForm, type FormCode } from '@pathwell/instruments';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { appointments, formResponses, instances, patientPhoneNumbers, patients, users } from '../schema';
import { buildDemoResponses } from './demo-forms';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { buildDemoClinic, DEMO_PATIENTS_PER_CLINIC, readDemoLists } from './demo-patients';

let t: TestApp;
let riverside: string;
let lakeside: string;

beforeAll(async () => {
  t = await createTestApp();
  const clinics = await t.db.select().from(instances);
  riverside = clinics.find((clinic) => clinic.name.startsWith('Riverside'))!.id;
  lakeside = clinics.find((clinic) => clinic.name.startsWith('Lakeside'))!.id;
});
afterAll(() => t.close());

const count = async (table: typeof patients | typeof appointments, instanceId: string) => {
  const [row] = await t.db
    .select({ count: sql<number>`count(*)::int` })
    .from(table)
    .where(eq(table.instanceId, instanceId));
  return Number(row!.count);
};

describe('demo patients', () => {
  it('gives each demo clinic 150 patients with a mobile phone and an emergency contact', async () => {
    expect(await count(patients, riverside)).toBe(DEMO_PATIENTS_PER_CLINIC);
    expect(await count(patients, lakeside)).toBe(DEMO_PATIENTS_PER_CLINIC);
    const phoneKinds = await t.db
      .select({ patientId: patientPhoneNumbers.patientId, types: sql<number[]>`array_agg(${patientPhoneNumbers.phoneType})` })
      .from(patientPhoneNumbers)
      .where(eq(patientPhoneNumbers.instanceId, riverside))
      .groupBy(patientPhoneNumbers.patientId);
    expect(phoneKinds).toHaveLength(DEMO_PATIENTS_PER_CLINIC);
    expect(phoneKinds.every((row) => row.types.includes(7) && row.types.includes(3))).toBe(true);
  });

  it('schedules appointments in every status, today included, with a pain score on every completed visit', async () => {
    for (const clinic of [riverside, lakeside]) {
      const rows = await t.db
        .select({ status: appointments.status, pain: appointments.painScore, startsAt: appointments.startsAt })
        .from(appointments)
        .where(eq(appointments.instanceId, clinic));
      const statuses = new Set(rows.map((row) => row.status));
      expect([...statuses].sort()).toEqual([1, 2, 3, 4]);
      const completed = rows.filter((row) => row.status === AppointmentStatus.Completed);
      expect(completed.every((row) => row.pain !== null && row.pain >= 0 && row.pain <= 10)).toBe(true);
      const now = Date.now();
      expect(rows.some((row) => row.startsAt.getTime() < now - 150 * 86_400_000)).toBe(true);
      expect(rows.some((row) => row.startsAt.getTime() > now + 7 * 86_400_000)).toBe(true);
      expect(rows.every((row) => row.startsAt.getTime() < now + 30 * 86_400_000)).toBe(true);
    }
  });

  it('includes Spanish-speaking patients whose accented names the folded search column finds', async () => {
    const spanish = await t.db
      .select({ count: sql<number>`count(*)::int` })
      .from(patients)
      .where(and(eq(patients.instanceId, riverside), eq(patients.preferredLanguage, 'es')));
    expect(Number(spanish[0]!.count)).toBeGreaterThan(15);
    const accented = await t.db
      .select({ lastName: patients.lastName, searchName: patients.searchName })
      .from(patients)
      .where(and(eq(patients.instanceId, riverside), sql`${patients.lastName} ~ '[áéíóúñÁÉÍÓÚÑ]'`));
    expect(accented.length).toBeGreaterThan(10);
    expect(accented.every((row) => !/[áéíóúñ]/.test(row.searchName!))).toBe(true);
  });

  it("assigns Riverside patients only to Riverside's doctor and keeps each clinic's rows to itself", async () => {
    const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
    const doctors = await t.db
      .selectDistinct({ doctorId: patients.doctorId })
      .from(patients)
      .where(eq(patients.instanceId, riverside));
    expect(doctors.map((row) => row.doctorId).sort()).toEqual([doctor!.id, null].sort());
    const lakesideDoctors = await t.db
      .selectDistinct({ doctorId: patients.doctorId })
      .from(patients)
      .where(eq(patients.instanceId, lakeside));
    expect(lakesideDoctors).toEqual([{ doctorId: null }]);
    const mixed = await t.db
      .select({ count: sql<number>`count(*)::int` })
      .from(appointments)
      .innerJoin(patients, eq(patients.id, appointments.patientId))
      .where(sql`${patients.instanceId} <> ${appointments.instanceId}`);
    expect(Number(mixed[0]!.count)).toBe(0);
    const foreignLists = await t.db.execute(sql`
      select count(*)::int as count from appointments a
      join managed_items m on m.id = a.room_id or m.id = a.appointment_type_id
      where m.instance_id <> a.instance_id`);
    expect(Number((foreignLists as unknown as { rows: { count: number }[] }).rows[0]!.count)).toBe(0);
  });

  it('builds the same clinic from the same seed and day, and another one from another seed', async () => {
    const lists = await readDemoLists(t.db, riverside);
    const input = { instanceId: riverside, doctorId: null, now: new Date('2026-03-04T15:00:00Z'), offsetHours: -6, lists };
    // Ids are random by design; everything else must repeat.
    const withoutIds = (rows: ReturnType<typeof buildDemoClinic>) =>
      JSON.stringify(rows, (key, value: unknown) => (key === 'id' || key === 'patientId' ? undefined : value));
    const first = buildDemoClinic({ ...input, seed: 7 });
    const again = buildDemoClinic({ ...input, seed: 7 });
    const other = buildDemoClinic({ ...input, seed: 8 });
    expect(withoutIds(again)).toEqual(withoutIds(first));
    expect(again.appointments.length).toBe(first.appointments.length);
    expect(other.patients.map((row) => row.lastName)).not.toEqual(first.patients.map((row) => row.lastName));
  });

  it('keeps most completed visits trending down in pain for patients with several visits', async () => {
    const rows = await t.db
      .select({ patientId: appointments.patientId, pain: appointments.painScore })
      .from(appointments)
      .where(and(eq(appointments.instanceId, riverside), eq(appointments.status, AppointmentStatus.Completed)))
      .orderBy(appointments.patientId, appointments.startsAt);
    const byPatient = new Map<string, number[]>();
    for (const row of rows) byPatient.set(row.patientId, [...(byPatient.get(row.patientId) ?? []), row.pain!]);
    const series = [...byPatient.values()].filter((scores) => scores.length >= 4);
    const improving = series.filter((scores) => scores.at(-1)! < scores[0]!);
    expect(series.length).toBeGreaterThan(20);
    expect(improving.length / series.length).toBeGreaterThan(0.45);
  });
});

describe('demo questionnaire responses', () => {
  it('score each PDI and PHQ-9 response with the instruments package and tie it to a completed visit of its patient', async () => {
    const lists = await readDemoLists(t.db, riverside);
    const clinic = buildDemoClinic({
      instanceId: riverside,
      doctorId: null,
      seed: 3,
      now: new Date('2026-03-04T15:00:00Z'),
      offsetHours: -6,
      lists,
    });
    const responses = buildDemoResponses(riverside, clinic.patients, clinic.appointments, 3);
    expect(responses.length).toBeGreaterThan(50);
    const visits = new Map(clinic.appointments.map((visit) => [visit.id, visit]));
    for (const response of responses) {
      const visit = visits.get(response.appointmentId!);
      expect(visit?.status).toBe(AppointmentStatus.Completed);
      expect(visit?.patientId).toBe(response.patientId);
      const scores = scoreForm(response.formCode as FormCode, response.answers as Record<string, number>);
      expect(response.scores).toEqual(scores);
      expect(response.headlineScore).toBe(headlineOf(response.formCode as FormCode, scores).score);
    }
    // Only forms that ship their wording: a licensed one (ODI…) would carry no score in the demo (decision 0067).
    expect(new Set(responses.map((response) => response.formCode))).toEqual(new Set([4, 11]));
  });

  it('are in the seeded demo clinic', async () => {
    const [row] = await t.db
      .select({ total: sql<number>`count(*)::int` })
      .from(formResponses)
      .where(eq(formResponses.instanceId, riverside));
    expect(row!.total).toBeGreaterThan(50);
  });
});
