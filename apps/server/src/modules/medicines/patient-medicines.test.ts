import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdcMmeFactors, MME_SOURCE, type MmeResult, type PatientMedicine } from '@pathwell/contracts/mme';
import { activityLogs, instances, managedItems, patientMedicines, patients, users } from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
let riverside: string;
let lakeside: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};
let patientId: string;
let otherDoctorsPatient: string;
let lakesidePatient: string;
const med: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const who of ['admin', 'doctor', 'staff', 'admin2', 'manager']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  const insertPatient = async (instanceId: string, lastName: string, doctorId: string | null) => {
    const [row] = await t.db
      .insert(patients)
      .values({ instanceId, firstName: 'Rosa', lastName, dateOfBirth: '1961-04-12', email: null, doctorId })
      .returning({ id: patients.id });
    return row!.id;
  };
  patientId = await insertPatient(riverside, 'Medina', doctor!.id);
  otherDoctorsPatient = await insertPatient(riverside, 'Elsewhere', null);
  lakesidePatient = await insertPatient(lakeside, 'Lake', null);
  const insertItem = async (
    key: string,
    instanceId: string,
    listType: string,
    attributes: Record<string, unknown>,
    isActive = true,
  ) => {
    const [row] = await t.db
      .insert(managedItems)
      .values({ instanceId, listType, name: `MME test ${key}`, attributes, isActive })
      .returning({ id: managedItems.id });
    med[key] = row!.id;
  };
  const opioid = (strength: number, factor: number, unit = 'mg') => ({
    strength,
    unit,
    route: unit === 'mcg/h' ? 'transdermal' : 'oral',
    isOpioid: true,
    mmeConversionFactor: factor,
  });
  await insertItem('oxycodone', riverside, 'medicines', opioid(10, cdcMmeFactors.oxycodone));
  await insertItem('hydrocodone', riverside, 'medicines', opioid(10, cdcMmeFactors.hydrocodone));
  await insertItem('fentanyl', riverside, 'medicines', opioid(25, cdcMmeFactors.fentanylTransdermal, 'mcg/h'));
  await insertItem('alprazolam', riverside, 'medicines', { strength: 0.5, unit: 'mg', route: 'oral', isBenzodiazepine: true });
  await insertItem('gabapentin', riverside, 'medicines', { strength: 300, unit: 'mg', route: 'oral', isOpioid: false });
  await insertItem('retired', riverside, 'medicines', opioid(5, cdcMmeFactors.oxycodone), false);
  await insertItem('room', riverside, 'rooms', { capacity: 1 });
  // Stored before the list refused it (issue #24): a patch typed as 25 mcg, changed every 72 hours.
  await insertItem('fentanylMcg', riverside, 'medicines', {
    ...opioid(25, cdcMmeFactors.fentanylTransdermal, 'mcg'),
    route: 'transdermal',
  });
  // Buprenorphine is not in the CDC 2022 table; a clinic that typed a factor for it gets no conversion.
  // The required factor made clinics type 0 for it, which showed as 0 MME/day.
  await insertItem('buprenorphine', riverside, 'medicines', opioid(5, 0));
  await insertItem('triamcinolone', riverside, 'medicines', { kind: 'steroid', strength: 40, unit: 'mg/mL' });
  await insertItem('lakeside', lakeside, 'medicines', opioid(10, cdcMmeFactors.oxycodone));
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT', url: string, as: string | null, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: as ? tokens[as]!.headers : {},
    payload: payload as object | undefined,
    remoteAddress: nextIp(),
  });
const add = (patient: string, medicine: string, unitsPerDose: number, dosesPerDay: number, as = 'staff') =>
  call('POST', `/api/patients/${patient}/medicines`, as, { medicineId: med[medicine], unitsPerDose, dosesPerDay });
const mme = (body: unknown, as = 'staff') => call('POST', '/api/patients/mme', as, body);

describe('current medicines and MME', () => {
  it('adds oxycodone 10 mg every 6 hours: 60 MME/day, flagged at 50 but not 90', async () => {
    const added = await add(patientId, 'oxycodone', 1, 4);
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json<PatientMedicine>()).toMatchObject({
      medicineId: med.oxycodone,
      name: 'MME test oxycodone',
      strength: 10,
      unit: 'mg',
      route: 'oral',
      isOpioid: true,
      mmeConversionFactor: 1.5,
      unitsPerDose: 1,
      dosesPerDay: 4,
      dailyMme: 60,
      stoppedAt: null,
    });
    const [log] = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, added.json<PatientMedicine>().id));
    expect(log).toMatchObject({ area: 'Patient Dashboard', action: 'Created' });

    const listed = await call('GET', `/api/patients/${patientId}/medicines`, 'doctor');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<PatientMedicine[]>().map((row) => [row.name, row.dailyMme])).toEqual([['MME test oxycodone', 60]]);

    const result = await mme({ patientId });
    expect(result.statusCode, result.body).toBe(200);
    expect(result.json<MmeResult>()).toMatchObject({
      patientId,
      whatIf: false,
      totalMme: 60,
      flags: { atOrAbove50: true, atOrAbove90: false, withBenzodiazepine: false },
      source: MME_SOURCE,
      lines: [{ name: 'MME test oxycodone', factor: 1.5, dailyMme: 60, note: null }],
    });
  });

  it('adds a patch and a benzodiazepine: 120 MME/day, flagged at 90 and for the combination', async () => {
    expect((await add(patientId, 'fentanyl', 1, 1, 'doctor')).statusCode).toBe(201);
    expect((await add(patientId, 'alprazolam', 1, 2, 'admin')).statusCode).toBe(201);
    expect((await add(patientId, 'gabapentin', 1, 3, 'manager')).statusCode).toBe(201);
    const result = (await mme({ patientId })).json<MmeResult>();
    expect(result.totalMme).toBe(120);
    expect(result.flags).toEqual({ atOrAbove50: true, atOrAbove90: true, withBenzodiazepine: true });
    expect(result.lines.map((line) => [line.name, line.dailyMme, line.note])).toEqual([
      ['MME test oxycodone', 60, null],
      ['MME test fentanyl', 60, 'patch'],
      ['MME test alprazolam', null, 'notOpioid'],
      ['MME test gabapentin', null, 'notOpioid'],
    ]);
  });

  it('changes how a medicine is taken, then stops it and keeps the row', async () => {
    const rows = (await call('GET', `/api/patients/${patientId}/medicines`, 'staff')).json<PatientMedicine[]>();
    const oxycodone = rows.find((row) => row.medicineId === med.oxycodone)!;
    const changed = await call('PUT', `/api/patients/${patientId}/medicines/${oxycodone.id}`, 'doctor', {
      unitsPerDose: 1,
      dosesPerDay: 2,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<PatientMedicine>()).toMatchObject({ dosesPerDay: 2, dailyMme: 30 });
    expect((await mme({ patientId })).json<MmeResult>().totalMme).toBe(90);

    const stopped = await call('POST', `/api/patients/${patientId}/medicines/${oxycodone.id}/stop`, 'staff');
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json<PatientMedicine>().stoppedAt).not.toBeNull();
    const [kept] = await t.db.select().from(patientMedicines).where(eq(patientMedicines.id, oxycodone.id));
    expect(kept?.stoppedAt).toBeInstanceOf(Date);
    const after = (await call('GET', `/api/patients/${patientId}/medicines`, 'staff')).json<PatientMedicine[]>();
    expect(after.map((row) => row.medicineId)).not.toContain(med.oxycodone);
    expect((await mme({ patientId })).json<MmeResult>().flags).toEqual({
      atOrAbove50: true,
      atOrAbove90: false,
      withBenzodiazepine: true,
    });
    // A stopped medicine cannot be changed or stopped again.
    expect((await call('POST', `/api/patients/${patientId}/medicines/${oxycodone.id}/stop`, 'staff')).statusCode).toBe(404);
    const logs = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, oxycodone.id), eq(activityLogs.action, 'Updated')));
    expect(logs.map((log) => log.description).sort()).toEqual([
      'Medicine changed: MME test oxycodone',
      'Medicine stopped: MME test oxycodone',
    ]);
  });

  it('computes a what-if without saving it', async () => {
    const before = await t.db.select().from(patientMedicines).where(eq(patientMedicines.patientId, patientId));
    const result = await mme({
      patientId,
      medicines: [
        { medicineId: med.hydrocodone, unitsPerDose: 1, dosesPerDay: 4 },
        { medicineId: med.retired, unitsPerDose: 1, dosesPerDay: 2 },
      ],
    });
    expect(result.statusCode, result.body).toBe(200);
    expect(result.json<MmeResult>()).toMatchObject({
      whatIf: true,
      totalMme: 55,
      flags: { atOrAbove50: true, atOrAbove90: false, withBenzodiazepine: false },
      lines: [
        { patientMedicineId: null, dailyMme: 40 },
        { patientMedicineId: null, dailyMme: 15 },
      ],
    });
    expect(await t.db.select().from(patientMedicines).where(eq(patientMedicines.patientId, patientId))).toHaveLength(
      before.length,
    );
    const empty = (await mme({ patientId, medicines: [] })).json<MmeResult>();
    expect(empty).toMatchObject({ totalMme: 0, lines: [], whatIf: true });
  });
});

describe('patches per hour, buprenorphine and injectables (issue #24)', () => {
  it('counts a 25 mcg/h patch changed every 72 hours as 60 MME/day (25 × 2.4, CDC 2022) and flags it at 50', async () => {
    const result = await mme({ patientId, medicines: [{ medicineId: med.fentanyl, unitsPerDose: 1, dosesPerDay: 0.33 }] });
    expect(result.statusCode, result.body).toBe(200);
    expect(result.json<MmeResult>()).toMatchObject({
      totalMme: 60,
      flags: { atOrAbove50: true, atOrAbove90: false },
      lines: [{ dailyMme: 60, note: 'patch' }],
    });
  });

  it('refuses a patch stored in mcg on the patient list and in the what-if (it came out as 19.8)', async () => {
    const added = await add(patientId, 'fentanylMcg', 1, 0.33);
    expect(added.statusCode, added.body).toBe(400);
    expect(added.json().fields).toEqual({ medicineId: 'transdermalPerHour' });
    const whatIf = await mme({ patientId, medicines: [{ medicineId: med.fentanylMcg, unitsPerDose: 1, dosesPerDay: 0.33 }] });
    expect(whatIf.statusCode).toBe(400);
    expect(whatIf.json().fields).toEqual({ 'medicines.0.medicineId': 'transdermalPerHour' });
  });

  it('refuses mcg for a transdermal opioid on the clinic medicines list, and takes mcg/h', async () => {
    const entry = (unit: string) => ({
      name: `Fentanyl patch ${unit}`,
      attributes: { strength: 25, unit, route: 'transdermal', isOpioid: true, mmeConversionFactor: 2.4 },
    });
    const refused = await call('POST', '/api/medicines', 'admin', entry('mcg'));
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().fields).toMatchObject({ 'attributes.unit': 'transdermalPerHour' });
    const taken = await call('POST', '/api/medicines', 'admin', entry('mcg/h'));
    expect(taken.statusCode, taken.body).toBe(201);
  });

  it('shows buprenorphine as not converted (null with a reason), never 0 MME/day', async () => {
    const result = await mme({ patientId, medicines: [{ medicineId: med.buprenorphine, unitsPerDose: 1, dosesPerDay: 1 }] });
    expect(result.statusCode, result.body).toBe(200);
    expect(result.json<MmeResult>().lines).toEqual([expect.objectContaining({ dailyMme: null, note: 'notConverted' })]);
  });

  it('keeps injectables off the patient list: they are given in procedures, not taken', async () => {
    const added = await add(patientId, 'triamcinolone', 1, 1);
    expect(added.statusCode).toBe(400);
    expect(added.json().fields).toEqual({ medicineId: 'medicineNotTaken' });
  });
});

describe('bad input, other clinics and roles', () => {
  it("answers 400 with the field for bad amounts and for ids that are not this clinic's medicines", async () => {
    const bad = await call('POST', `/api/patients/${patientId}/medicines`, 'staff', {
      medicineId: med.oxycodone,
      unitsPerDose: 0,
      dosesPerDay: 'x',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({ unitsPerDose: 'numberOutOfRange', dosesPerDay: 'numberInvalid' });
    for (const key of ['room', 'lakeside', 'retired']) {
      const refused = await add(patientId, key, 1, 1);
      expect(refused.statusCode, key).toBe(400);
      expect(refused.json().fields).toEqual({ medicineId: 'invalid' });
    }
    const whatIf = await mme({ patientId, medicines: [{ medicineId: med.room, unitsPerDose: 1, dosesPerDay: 1 }] });
    expect(whatIf.statusCode).toBe(400);
    expect(whatIf.json().fields).toEqual({ 'medicines.0.medicineId': 'invalid' });
    const badId = await mme({ patientId: 'not-an-id' });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().fields).toMatchObject({ patientId: 'idInvalid' });
    const tooMany = await call('PUT', `/api/patients/${patientId}/medicines/${med.oxycodone}`, 'staff', {
      unitsPerDose: 101,
      dosesPerDay: 4,
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().fields).toEqual({ unitsPerDose: 'numberOutOfRange' });
  });

  it("answers 404 for another clinic's patient or row", async () => {
    expect((await call('GET', `/api/patients/${lakesidePatient}/medicines`, 'staff')).statusCode).toBe(404);
    expect((await add(lakesidePatient, 'oxycodone', 1, 1)).statusCode).toBe(404);
    expect((await mme({ patientId: lakesidePatient })).statusCode).toBe(404);
    const rows = (await call('GET', `/api/patients/${patientId}/medicines`, 'staff')).json<PatientMedicine[]>();
    const row = rows[0]!;
    expect(
      (await call('PUT', `/api/patients/${patientId}/medicines/${row.id}`, 'admin2', { unitsPerDose: 1, dosesPerDay: 1 }))
        .statusCode,
    ).toBe(404);
    expect((await call('POST', `/api/patients/${patientId}/medicines/${row.id}/stop`, 'admin2')).statusCode).toBe(404);
    // The row under another patient's id is not found either.
    expect((await call('POST', `/api/patients/${otherDoctorsPatient}/medicines/${row.id}/stop`, 'staff')).statusCode).toBe(404);
  });

  it('keeps a Doctor to their own patients (404), and other staff roles see every patient', async () => {
    expect((await call('GET', `/api/patients/${otherDoctorsPatient}/medicines`, 'doctor')).statusCode).toBe(404);
    expect((await add(otherDoctorsPatient, 'oxycodone', 1, 1, 'doctor')).statusCode).toBe(404);
    expect((await mme({ patientId: otherDoctorsPatient }, 'doctor')).statusCode).toBe(404);
    for (const who of ['admin', 'staff', 'manager']) {
      expect((await call('GET', `/api/patients/${otherDoctorsPatient}/medicines`, who)).statusCode, who).toBe(200);
    }
    expect((await add(otherDoctorsPatient, 'hydrocodone', 1, 4, 'staff')).statusCode).toBe(201);
  });

  it('answers 401 when signed out', async () => {
    expect((await call('GET', `/api/patients/${patientId}/medicines`, null)).statusCode).toBe(401);
    expect((await call('POST', '/api/patients/mme', null, { patientId })).statusCode).toBe(401);
    expect(
      (
        await call('POST', `/api/patients/${patientId}/medicines`, null, {
          medicineId: med.oxycodone,
          unitsPerDose: 1,
          dosesPerDay: 1,
        })
      ).statusCode,
    ).toBe(401);
  });
});
