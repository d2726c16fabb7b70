import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OfficeVisitsReport } from '@pathwell/contracts/reports-visits';
import { appointments, instances, managedItems, patients, users } from '../../db/schema';
import { createTestApp, nextIp, setInstanceSetting, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
let riverside: string;
let lakeside: string;
let doctorId: string;
let otherDoctorId: string;
let typeOne: string;
let typeTwo: string;
const tokens: Record<string, { headers: Record<string, string> }> = {};

const post = (url: string, as: string | null, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: as ? tokens[as]!.headers : {}, payload, remoteAddress: nextIp() });
const report = async (as: string, body: object) => {
  const response = await post('/api/reports/officevisits', as, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<OfficeVisitsReport>();
};
const spring = { dateFilter: 9, startDate: '03/01/2031', endDate: '04/30/2031', period: 'month' };

async function newPatient(instanceId: string, deleted = false) {
  const [row] = await t.db
    .insert(patients)
    .values({
      instanceId,
      firstName: 'Ben',
      lastName: 'Visit',
      dateOfBirth: '1980-01-01',
      deletedAt: deleted ? new Date() : null,
    })
    .returning({ id: patients.id });
  return row!.id;
}
async function newType(instanceId: string, name: string) {
  const [row] = await t.db
    .insert(managedItems)
    .values({ instanceId, listType: 'customfield:appointmenttype', name })
    .returning({ id: managedItems.id });
  return row!.id;
}
type Visit = typeof appointments.$inferInsert;
const visit = (values: Omit<Visit, 'instanceId' | 'startsAt'> & { startsAt: string; instanceId?: string }) =>
  t.db
    .insert(appointments)
    .values({ ...values, instanceId: values.instanceId ?? riverside, startsAt: new Date(values.startsAt) });

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
    .values({ instanceId: riverside, email: 'bell.visits@pathwell.test', firstName: 'Omar', lastName: 'Bell', role: 3 })
    .returning({ id: users.id });
  otherDoctorId = other!.id;
  typeOne = await newType(riverside, 'Consult 2031');
  typeTwo = await newType(riverside, 'Injection 2031');
  const a = await newPatient(riverside);
  const b = await newPatient(riverside);
  const gone = await newPatient(riverside, true);
  const foreign = await newPatient(lakeside);
  // Chicago is UTC−6 until March 9, 2031, UTC−5 after.
  await visit({
    patientId: a,
    doctorId,
    appointmentTypeId: typeOne,
    reason: 'new_patient',
    status: 3,
    startsAt: '2031-03-03T15:00:00Z',
  });
  await visit({
    patientId: a,
    doctorId,
    appointmentTypeId: typeOne,
    reason: 'follow_up',
    status: 4,
    startsAt: '2031-03-10T15:00:00Z',
  });
  // Monday March 31, 23:30 local (April 1 04:30 UTC): March. No reason recorded.
  await visit({ patientId: b, doctorId: otherDoctorId, appointmentTypeId: typeTwo, status: 3, startsAt: '2031-04-01T04:30:00Z' });
  // Tuesday April 1, 00:30 local: April, still upcoming.
  await visit({
    patientId: b,
    doctorId: otherDoctorId,
    appointmentTypeId: typeTwo,
    reason: 'follow_up',
    status: 2,
    startsAt: '2031-04-01T05:30:00Z',
  });
  // Deleted before it took place: cancelled.
  await visit({
    patientId: a,
    doctorId,
    appointmentTypeId: typeOne,
    reason: 'follow_up',
    status: 2,
    startsAt: '2031-04-10T15:00:00Z',
    deletedAt: new Date(),
  });
  await visit({
    patientId: b,
    doctorId: otherDoctorId,
    appointmentTypeId: typeOne,
    reason: 'follow_up',
    status: 4,
    startsAt: '2031-04-15T15:00:00Z',
  });
  // Never counted: a deleted patient's visit, another clinic's.
  await visit({ patientId: gone, doctorId, appointmentTypeId: typeOne, status: 3, startsAt: '2031-03-05T15:00:00Z' });
  await visit({ instanceId: lakeside, patientId: foreign, status: 3, startsAt: '2031-03-05T15:00:00Z' });
});
afterAll(async () => {
  await t?.close();
});

const none = { total: 0, completed: 0, noShow: 0, open: 0, cancelled: 0 };

describe('POST /api/reports/officevisits', () => {
  it('counts visits by month, provider, type and reason, with the no-show rate', async () => {
    const body = await report('admin', spring);
    const ortiz = { id: doctorId, name: 'Daniela Ortiz' };
    const bell = { id: otherDoctorId, name: 'Omar Bell' };
    const one = { id: typeOne, name: 'Consult 2031' };
    const two = { id: typeTwo, name: 'Injection 2031' };
    expect(body.rows).toEqual([
      {
        period: '2031-03-01',
        provider: ortiz,
        appointmentType: one,
        reason: 'follow_up',
        ...none,
        total: 1,
        noShow: 1,
        noShowRate: 1,
      },
      {
        period: '2031-03-01',
        provider: ortiz,
        appointmentType: one,
        reason: 'new_patient',
        ...none,
        total: 1,
        completed: 1,
        noShowRate: 0,
      },
      {
        period: '2031-03-01',
        provider: bell,
        appointmentType: two,
        reason: 'unknown',
        ...none,
        total: 1,
        completed: 1,
        noShowRate: 0,
      },
      {
        period: '2031-04-01',
        provider: ortiz,
        appointmentType: one,
        reason: 'follow_up',
        ...none,
        total: 1,
        cancelled: 1,
        noShowRate: null,
      },
      {
        period: '2031-04-01',
        provider: bell,
        appointmentType: one,
        reason: 'follow_up',
        ...none,
        total: 1,
        noShow: 1,
        noShowRate: 1,
      },
      {
        period: '2031-04-01',
        provider: bell,
        appointmentType: two,
        reason: 'follow_up',
        ...none,
        total: 1,
        open: 1,
        noShowRate: null,
      },
    ]);
    // March: 2 completed, 1 no-show → 1 / 3. April: 1 no-show, 1 open, 1 cancelled → 1 / 1.
    expect(body.byPeriod).toEqual([
      { period: '2031-03-01', total: 3, completed: 2, noShow: 1, open: 0, cancelled: 0, noShowRate: 0.3333 },
      { period: '2031-04-01', total: 3, completed: 0, noShow: 1, open: 1, cancelled: 1, noShowRate: 1 },
    ]);
    // Ortiz: 1 completed, 1 no-show, 1 cancelled → 1 / 2. Bell: 1 completed, 1 no-show, 1 open → 1 / 2.
    expect(body.byProvider).toEqual([
      { provider: ortiz, total: 3, completed: 1, noShow: 1, open: 0, cancelled: 1, noShowRate: 0.5 },
      { provider: bell, total: 3, completed: 1, noShow: 1, open: 1, cancelled: 0, noShowRate: 0.5 },
    ]);
    // Consult: 1 completed, 2 no-shows, 1 cancelled → 2 / 3. Injection: 1 completed, 1 open → 0 / 1.
    expect(body.byType).toEqual([
      { appointmentType: one, total: 4, completed: 1, noShow: 2, open: 0, cancelled: 1, noShowRate: 0.6667 },
      { appointmentType: two, total: 2, completed: 1, noShow: 0, open: 1, cancelled: 0, noShowRate: 0 },
    ]);
    expect(body.byReason).toEqual([
      { reason: 'follow_up', total: 4, completed: 0, noShow: 2, open: 1, cancelled: 1, noShowRate: 1 },
      { reason: 'new_patient', total: 1, completed: 1, noShow: 0, open: 0, cancelled: 0, noShowRate: 0 },
      { reason: 'unknown', total: 1, completed: 1, noShow: 0, open: 0, cancelled: 0, noShowRate: 0 },
    ]);
    // 2 completed, 2 no-shows → 2 / 4.
    expect(body.totals).toEqual({ total: 6, completed: 2, noShow: 2, open: 1, cancelled: 1, noShowRate: 0.5 });
  });

  it('weeks start on Sunday in the clinic calendar; appointment types narrow it', async () => {
    const body = await report('admin', { ...spring, period: 'week', appointmentTypeIds: [typeTwo] });
    // March 31 (Monday) 23:30 and April 1 (Tuesday) 00:30 local: both in the week of Sunday March 30.
    expect(body.byPeriod).toEqual([
      { period: '2031-03-30', total: 2, completed: 1, noShow: 0, open: 1, cancelled: 0, noShowRate: 0 },
    ]);
  });

  it('a Doctor sees only their own appointments, whatever doctorId they send; an admin may pick one', async () => {
    const own = await report('doctor', { ...spring, doctorId: otherDoctorId });
    expect(own.totals).toEqual({ total: 3, completed: 1, noShow: 1, open: 0, cancelled: 1, noShowRate: 0.5 });
    expect((await report('admin', { ...spring, doctorId })).totals).toEqual(own.totals);
  });

  it("another clinic counts none of this one's; Staff 403; signed out 401; bad input 400", async () => {
    // Lakeside's own visit only.
    expect((await report('admin2', spring)).totals).toMatchObject({ total: 1, completed: 1 });
    expect((await post('/api/reports/officevisits', 'staff', spring)).statusCode).toBe(403);
    expect((await post('/api/reports/officevisits', null, spring)).statusCode).toBe(401);
    const bad = await post('/api/reports/officevisits', 'admin', { ...spring, appointmentTypeIds: ['x'], dateFilter: 11 });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(expect.arrayContaining(['dateFilter']));
  });

  it('exports the rows as CSV with a byte-order mark and guarded cells', async () => {
    await t.db.update(managedItems).set({ name: '=HYPERLINK("x")' }).where(eq(managedItems.id, typeTwo));
    const response = await post('/api/reports/officevisits/export', 'admin', { ...spring, language: 'es' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Periodo,Proveedor,Tipo de cita,Visita,Total,Completadas,No se presentó,Abiertas,Canceladas,Tasa de inasistencia',
    );
    expect(lines).toHaveLength(7);
    expect(lines[3]).toBe(`2031-03-01,Omar Bell,"'=HYPERLINK(""x"")",Sin registrar,1,1,0,0,0,0.0%`);
    expect((await post('/api/reports/officevisits/export', 'staff', spring)).statusCode).toBe(403);
  });
});
