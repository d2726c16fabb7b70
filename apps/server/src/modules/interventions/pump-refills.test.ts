import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicIsoDate } from '@pathwell/contracts/clinic-time';
import type { PumpRefillsDue } from '@pathwell/contracts/interventions';
import { activityLogs, instances, interventions, managedItems, patients, users } from '../../db/schema';
import { createTestApp, nextIp, setInstanceSetting, signIn, zoneAtHour, type TestApp } from '../../../test/test-app';

/** Pain-pump refills coming due (issue #24 §1, decision 0062). */
let t: TestApp;
const tokens: Record<string, { headers: Record<string, string> }> = {};
const ids: Record<string, string> = {};
let today: string;

const DAY_MS = 86_400_000;
const inDays = (days: number) => new Date(Date.parse(`${today}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  const riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  const lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  // Noon in the clinic, so "today" is the same day for the whole run whenever it runs.
  const zone = zoneAtHour(12);
  await setInstanceSetting(t.db, riverside, 'timeZoneId', zone);
  today = clinicIsoDate(new Date(), zone);
  for (const who of ['admin', 'doctor', 'staff', 'admin2', 'manager']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  ids.doctor = doctor!.id;
  const [morphine] = await t.db
    .insert(managedItems)
    .values({ instanceId: riverside, listType: 'painpumpmedicines', name: 'Refill test morphine', attributes: { unit: 'mg/mL' } })
    .returning();
  const patient = async (instanceId: string, lastName: string, doctorId: string | null, archived = false) => {
    const [row] = await t.db
      .insert(patients)
      .values({
        instanceId,
        firstName: 'Pia',
        lastName,
        dateOfBirth: '1958-02-11',
        email: null,
        doctorId,
        archivedAt: archived ? new Date() : null,
      })
      .returning({ id: patients.id });
    return row!.id;
  };
  const pumpVisit = async (instanceId: string, patientId: string, performedOn: string, nextRefillDate: string | null) => {
    await t.db.insert(interventions).values({
      instanceId,
      patientId,
      kind: 'pump',
      performedOn,
      providerId: instanceId === riverside ? ids.doctor : null,
      pump: {
        procedure: null,
        reservoirVolumeMl: 20,
        refills: [{ painPumpMedicineId: morphine!.id, concentration: 25, dailyDose: 2, doseChange: 2, newDailyDose: 2.5 }],
        nextRefillDate,
      },
    });
  };
  ids.replaced = await patient(riverside, 'Replaced', ids.doctor);
  await pumpVisit(riverside, ids.replaced, inDays(-60), inDays(5));
  // The later visit moved the date on: only its date counts.
  await pumpVisit(riverside, ids.replaced, inDays(-10), inDays(20));
  ids.overdue = await patient(riverside, 'Overdue', ids.doctor);
  await pumpVisit(riverside, ids.overdue, inDays(-80), inDays(-3));
  ids.colleague = await patient(riverside, 'Colleague', null);
  await pumpVisit(riverside, ids.colleague, inDays(-30), inDays(10));
  ids.later = await patient(riverside, 'Later', ids.doctor);
  await pumpVisit(riverside, ids.later, inDays(-20), inDays(60));
  ids.noDate = await patient(riverside, 'Nodate', ids.doctor);
  await pumpVisit(riverside, ids.noDate, inDays(-20), null);
  ids.archived = await patient(riverside, 'Archived', ids.doctor, true);
  await pumpVisit(riverside, ids.archived, inDays(-20), inDays(1));
  ids.lakeside = await patient(lakeside, 'Lake', null);
  await pumpVisit(lakeside, ids.lakeside, inDays(-20), inDays(2));
});
afterAll(async () => {
  await t?.close();
});

const due = (query: string, as = 'staff') =>
  t.app.inject({ method: 'GET', url: `/api/pumprefills/due${query}`, headers: tokens[as]!.headers, remoteAddress: nextIp() });

describe('pump refills coming due', () => {
  it("lists each patient's latest next refill date, overdue first, within 30 days by default", async () => {
    const response = await due('');
    expect(response.statusCode, response.body).toBe(200);
    const list = response.json<PumpRefillsDue>();
    expect(list).toMatchObject({ today, withinDays: 30 });
    expect(list.data.map((row) => [row.patientName, row.nextRefillDate, row.daysUntil])).toEqual([
      ['Pia Overdue', inDays(-3), -3],
      ['Pia Colleague', inDays(10), 10],
      ['Pia Replaced', inDays(20), 20],
    ]);
    expect(list.data[0]).toMatchObject({
      medicines: ['Refill test morphine'],
      performedOn: inDays(-80),
      providerName: expect.any(String),
    });
    const [log] = await t.db.select().from(activityLogs).where(eq(activityLogs.description, 'Pump refills coming due listed'));
    expect(log).toMatchObject({ area: 'Interventions', action: 'Viewed' });
  });

  it('looks further ahead on request, and lists one patient', async () => {
    const wider = (await due('?withinDays=90')).json<PumpRefillsDue>();
    expect(wider.data.map((row) => row.patientName)).toContain('Pia Later');
    const one = await due(`?patientId=${ids.replaced}&withinDays=90`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json<PumpRefillsDue>().data.map((row) => row.nextRefillDate)).toEqual([inDays(20)]);
  });

  it('keeps a Doctor to their own patients and each clinic to its own', async () => {
    const doctor = (await due('', 'doctor')).json<PumpRefillsDue>();
    expect(doctor.data.map((row) => row.patientName)).toEqual(['Pia Overdue', 'Pia Replaced']);
    expect((await due(`?patientId=${ids.colleague}`, 'doctor')).statusCode).toBe(404);
    expect((await due(`?patientId=${ids.lakeside}`, 'staff')).statusCode).toBe(404);
    const lakeside = (await due('', 'admin2')).json<PumpRefillsDue>();
    expect(lakeside.data.map((row) => row.patientName)).toEqual(['Pia Lake']);
  });

  it('answers 400 with the field for bad input, 403 to a System Manager, 401 signed out', async () => {
    const negative = await due('?withinDays=-1');
    expect(negative.statusCode).toBe(400);
    expect(negative.json().fields).toEqual({ withinDays: 'numberOutOfRange' });
    expect((await due('?withinDays=abc')).json().fields).toEqual({ withinDays: 'numberInvalid' });
    expect((await due('?withinDays=366')).statusCode).toBe(400);
    const badId = await due('?patientId=nope');
    expect(badId.statusCode).toBe(400);
    expect(badId.json().fields).toHaveProperty('patientId');
    expect((await due('', 'manager')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/pumprefills/due', remoteAddress: nextIp() })).statusCode).toBe(401);
  });
});
