import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppointmentCodes, KnownCodes } from '@pathwell/contracts/encounter-imports';
import { activityLogs, appointments, codedVisitCodes, codedVisits, instances, patients, users } from '../../db/schema';
import { createTestApp, nextIp, setInstanceSetting, signIn, type TestApp } from '../../../test/test-app';
import { insertCodedVisit } from './coded-visits.service';

/**
 * Coded visits from Pathwell's visit records and the appointment codes routes (issue #15 §1): saving a
 * visit record keeps its coded visit in step; a patient's codes follow the patient's visibility.
 */
let t: TestApp;
let riverside: string;
let lakeside: string;
let doctorId: string;
let ownPatient: string;
let otherPatient: string;
let lakesidePatient: string;
let appointmentId: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const who of ['admin', 'doctor', 'staff', 'admin2']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  doctorId = doctor!.id;
  const insert = async (instanceId: string, lastName: string, patientDoctor: string | null) => {
    const [row] = await t.db
      .insert(patients)
      .values({ instanceId, firstName: 'Ana', lastName, dateOfBirth: '1968-11-02', doctorId: patientDoctor })
      .returning({ id: patients.id });
    return row!.id;
  };
  ownPatient = await insert(riverside, 'Codesown', doctorId);
  otherPatient = await insert(riverside, 'Codesother', null);
  lakesidePatient = await insert(lakeside, 'Codeslake', null);
  // 21:00 in Chicago (the demo clinics' zone) on March 5 is already March 6 in UTC.
  const [appointment] = await t.db
    .insert(appointments)
    .values({ instanceId: riverside, patientId: ownPatient, doctorId, startsAt: new Date('2024-03-06T03:00:00Z') })
    .returning({ id: appointments.id });
  appointmentId = appointment!.id;
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'PUT', url: string, as: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: tokens[as]!.headers, payload: payload as object | undefined, remoteAddress: nextIp() });
const saveRecord = (diagnosisCodes: string[], procedureCodes: string[]) =>
  call('PUT', `/api/patientappointments/${appointmentId}/visitrecord`, 'doctor', {
    actionsTaken: [],
    diagnosisCodes,
    procedureCodes,
    note: null,
  });

describe('coded visits from visit records', () => {
  it("codes a saved visit record on the appointment's clinic date with its doctor, and keeps it in step", async () => {
    expect((await saveRecord(['T85.192A', 'M54.16'], ['64999'])).statusCode).toBe(200);
    const first = await call('GET', `/api/appointmentcodes?patientId=${ownPatient}`, 'doctor');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<AppointmentCodes>().data).toEqual([
      {
        id: expect.any(String),
        visitDate: '2024-03-05',
        providerName: 'Daniela Ortiz',
        source: 'pathwell',
        diagnosisCodes: ['T85.192A', 'M54.16'],
        procedureCodes: ['64999'],
      },
    ]);
    const codes = await t.db.select().from(codedVisitCodes).where(eq(codedVisitCodes.patientId, ownPatient));
    expect(codes.map((row) => [row.code, row.kind, row.visitDate, row.providerId]).sort()).toEqual([
      ['64999', 'procedure', '2024-03-05', doctorId],
      ['M54.16', 'diagnosis', '2024-03-05', doctorId],
      ['T85.192A', 'diagnosis', '2024-03-05', doctorId],
    ]);

    // Saving again replaces the codes; a record without codes has no coded visit.
    await saveRecord(['T85.192A'], []);
    const second = (await call('GET', `/api/appointmentcodes?patientId=${ownPatient}`, 'doctor')).json<AppointmentCodes>();
    expect(second.data).toHaveLength(1);
    expect(second.data[0]).toMatchObject({ diagnosisCodes: ['T85.192A'], procedureCodes: [] });
    await saveRecord([], []);
    expect((await call('GET', `/api/appointmentcodes?patientId=${ownPatient}`, 'doctor')).json<AppointmentCodes>().data).toEqual(
      [],
    );
    expect(await t.db.select().from(codedVisitCodes).where(eq(codedVisitCodes.patientId, ownPatient))).toEqual([]);
    await saveRecord(['T85.192A'], ['64999']);
  });

  it('lists imported visits beside recorded ones, newest first, and audits the read', async () => {
    const inserted = await insertCodedVisit(t.db, {
      instanceId: riverside,
      patientId: ownPatient,
      visitDate: '2025-01-10',
      providerId: null,
      providerName: 'Dr. Former',
      source: 'import',
      dedupeKey: 'ext:CODES-TEST-1',
      codes: ['M51.16', '62323'],
    });
    expect(inserted).toBe(true);
    // The same dedupe key again is left out.
    expect(
      await insertCodedVisit(t.db, {
        instanceId: riverside,
        patientId: ownPatient,
        visitDate: '2025-01-11',
        providerId: null,
        providerName: null,
        source: 'import',
        dedupeKey: 'ext:CODES-TEST-1',
        codes: ['M51.16'],
      }),
    ).toBe(false);
    const response = await call('GET', `/api/appointmentcodes?patientId=${ownPatient}`, 'staff');
    expect(response.statusCode).toBe(200);
    expect(response.json<AppointmentCodes>().data.map((visit) => [visit.visitDate, visit.source, visit.providerName])).toEqual([
      ['2025-01-10', 'import', 'Dr. Former'],
      ['2024-03-05', 'pathwell', 'Daniela Ortiz'],
    ]);
    const audit = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, ownPatient), eq(activityLogs.description, 'Diagnosis and procedure codes viewed')));
    expect(audit.length).toBeGreaterThanOrEqual(2);
  });

  it("answers 404 for a patient the caller may not see: another doctor's, or another clinic's", async () => {
    expect((await call('GET', `/api/appointmentcodes?patientId=${otherPatient}`, 'doctor')).statusCode).toBe(404);
    expect((await call('GET', `/api/appointmentcodes?patientId=${ownPatient}`, 'admin2')).statusCode).toBe(404);
    expect((await call('GET', `/api/appointmentcodes?patientId=${lakesidePatient}`, 'admin')).statusCode).toBe(404);
  });

  it('answers 400 without a valid patient id', async () => {
    const response = await call('GET', '/api/appointmentcodes?patientId=nope', 'admin');
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ patientId: 'idInvalid' });
  });
});

describe('known codes', () => {
  it('answers the codes used in the clinic for a prefix, most patients first, with their kind', async () => {
    const response = await call('GET', '/api/appointmentcodes/known?search=t85.1', 'admin');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<KnownCodes>().data).toEqual([{ code: 'T85.192A', kind: 'diagnosis', patients: 1 }]);
    const all = (await call('GET', '/api/appointmentcodes/known', 'admin')).json<KnownCodes>();
    expect(all.data.map((row) => row.code)).toContain('64999');
    // Another clinic never sees this clinic's codes.
    const lakesideCodes = (await call('GET', '/api/appointmentcodes/known?search=T85', 'admin2')).json<KnownCodes>();
    expect(lakesideCodes.data).toEqual([]);
    const tooLong = await call('GET', `/api/appointmentcodes/known?search=${'M'.repeat(21)}`, 'admin');
    expect(tooLong.statusCode).toBe(400);
  });

  it('refuses Doctors and Staff (403), and clinics without code pulls or campaigns (featureOff)', async () => {
    for (const who of ['doctor', 'staff']) expect((await call('GET', '/api/appointmentcodes/known', who)).statusCode).toBe(403);
    await setInstanceSetting(t.db, lakeside, 'useCodePull', 'false');
    try {
      const known = await call('GET', '/api/appointmentcodes/known', 'admin2');
      expect(known.statusCode).toBe(403);
      expect(known.json().messageKey).toBe('featureOff');
      expect((await call('GET', `/api/appointmentcodes?patientId=${lakesidePatient}`, 'admin2')).statusCode).toBe(403);
    } finally {
      await setInstanceSetting(t.db, lakeside, 'useCodePull', 'true');
    }
    const visits = await t.db.select().from(codedVisits).where(eq(codedVisits.instanceId, lakeside));
    expect(visits.every((visit) => visit.patientId !== ownPatient)).toBe(true);
  });
});
