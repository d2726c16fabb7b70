import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Intervention,
  InterventionFormInfo,
  PlannedProcedure,
  RecentCode,
  VisitRecord,
} from '@pathwell/contracts/interventions';
import type { PatientPage } from '@pathwell/contracts/patients';
import { activityLogs, appointments, instances, managedItems, patients, users } from '../../db/schema';
import { DEMO_LUMBAR_TFESI, DEMO_SCS_TRIAL } from '../../db/seed/demo-care';
import { createTestApp, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
let riverside: string;
let lakeside: string;
const auth: Record<string, { headers: Record<string, string> }> = {};
let patientId: string;
let otherDoctorsPatient: string;
let lakesidePatient: string;
let appointmentId: string;
let info: InterventionFormInfo;
let doctorId: string;

const call = (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who === 'nobody' ? {} : auth[who]!.headers, ...(payload ? { payload } : {}) });

const itemId = (name: string) => [...info.procedures, ...info.injections].find((item) => item.name === name)!.id;

function injectionPayload(overrides: Record<string, unknown> = {}) {
  return {
    patientId,
    appointmentId,
    kind: 'injection',
    itemId: itemId(DEMO_LUMBAR_TFESI),
    bodyPartId: info.bodyParts.find((part) => part.name === 'Lumbar spine')!.id,
    directionId: info.directions.find((direction) => direction.name === 'Left')!.id,
    locationId: info.locations.find((location) => location.name === 'Lumbar')!.id,
    side: 'left',
    levels: ['l4-l5', 'L5-S1'],
    medicines: [],
    guidance: 'fluoroscopy',
    performedOn: '2026-03-03',
    providerId: doctorId,
    completion: 1,
    outcome: 'Tolerated well',
    followUpPlan: 'Review in 2 weeks',
    ...overrides,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const who of ['admin', 'doctor', 'staff', 'admin2']) auth[who] = await signIn(t.app, `${who}@pathwell.demo`);
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  doctorId = doctor!.id;
  const insert = async (instanceId: string, lastName: string, doctor: string | null) => {
    const [row] = await t.db
      .insert(patients)
      .values({ instanceId, firstName: 'Rosa', lastName, dateOfBirth: '1961-04-12', email: null, doctorId: doctor })
      .returning({ id: patients.id });
    return row!.id;
  };
  patientId = await insert(riverside, 'Delgado', doctorId);
  otherDoctorsPatient = await insert(riverside, 'Nobodys', null);
  lakesidePatient = await insert(lakeside, 'Lake', null);
  const [visit] = await t.db
    .insert(appointments)
    .values({ instanceId: riverside, patientId, doctorId, startsAt: new Date('2026-03-03T15:00:00Z'), status: 3, painScore: 7 })
    .returning({ id: appointments.id });
  appointmentId = visit!.id;
  info = (await call('staff', 'GET', `/api/patients/interventionforminfo/${patientId}`)).json();
});
afterAll(async () => {
  await t?.close();
});

describe('intervention form info', () => {
  it('serves every selector of the form in one call', () => {
    expect(info.patient).toMatchObject({ id: patientId, name: 'Rosa Delgado', dateOfBirth: '1961-04-12' });
    expect(info.injections.find((item) => item.name === DEMO_LUMBAR_TFESI)?.cptCode).toBe('64483');
    expect(info.procedures.map((item) => item.name)).toContain(DEMO_SCS_TRIAL);
    expect(info.bodyParts.length).toBeGreaterThan(0);
    expect(info.painPumpMedicines.find((medicine) => medicine.name === 'Baclofen')).toMatchObject({
      concentration: 2000,
      unit: 'mcg/mL',
    });
    expect(info.providers.map((provider) => provider.id)).toContain(doctorId);
    expect(info.appointments.map((visit) => visit.id)).toContain(appointmentId);
  });

  it('offers only injectables as medicines given, with their concentration (issue #24: it offered oxycodone)', () => {
    const names = info.medicines.map((medicine) => medicine.name);
    expect(names).toEqual(
      expect.arrayContaining(['Triamcinolone acetonide 40 mg/mL', 'Lidocaine 1% (10 mg/mL)', 'Iohexol 300 mg iodine/mL']),
    );
    expect(names.some((name) => /oxycodone|tramadol|fentanyl/i.test(name))).toBe(false);
    expect(info.medicines.find((medicine) => medicine.name.startsWith('Triamcinolone'))).toMatchObject({
      strength: 40,
      unit: 'mg/mL',
      kind: 'steroid',
    });
  });

  it('is audited as a view of the patient', async () => {
    const entries = await t.db
      .select({ description: activityLogs.description })
      .from(activityLogs)
      .where(
        and(eq(activityLogs.targetId, patientId), eq(activityLogs.area, 'Interventions'), eq(activityLogs.action, 'Viewed')),
      );
    expect(entries.map((entry) => entry.description)).toContain('Procedure form opened');
  });

  it('is 404 for another clinic’s patient and for a Doctor’s colleague’s patient, 401 signed out', async () => {
    expect((await call('staff', 'GET', `/api/patients/interventionforminfo/${lakesidePatient}`)).statusCode).toBe(404);
    expect((await call('doctor', 'GET', `/api/patients/interventionforminfo/${otherDoctorsPatient}`)).statusCode).toBe(404);
    expect((await call('nobody', 'GET', `/api/patients/interventionforminfo/${patientId}`)).statusCode).toBe(401);
    expect((await call('staff', 'GET', '/api/patients/interventionforminfo/not-an-id')).statusCode).toBe(400);
  });
});

describe('interventions', () => {
  it('records an injection with levels normalised, audits it, and lists it on the patient', async () => {
    const response = await call('doctor', 'POST', '/api/interventions', injectionPayload());
    expect(response.statusCode).toBe(201);
    const created = response.json<Intervention>();
    expect(created).toMatchObject({
      kind: 'injection',
      item: { name: DEMO_LUMBAR_TFESI, cptCode: '64483' },
      levels: ['L4-L5', 'L5-S1'],
      side: 'left',
      provider: { id: doctorId },
      completion: 1,
      performedOn: '2026-03-03',
    });
    const listed = (await call('staff', 'GET', `/api/patients/${patientId}/interventions`)).json<Intervention[]>();
    expect(listed.map((row) => row.id)).toContain(created.id);
    const audit = await t.db
      .select()
      .from(activityLogs)
      .where(
        and(eq(activityLogs.targetId, created.id), eq(activityLogs.area, 'Interventions'), eq(activityLogs.action, 'Created')),
      );
    expect(audit).toHaveLength(1);
  });

  it('records a pump visit with a refill and dose change, and asks for the new dose unless maintained', async () => {
    const morphine = info.painPumpMedicines.find((medicine) => medicine.name.startsWith('Morphine'))!.id;
    const pump = {
      patientId,
      kind: 'pump',
      performedOn: '2026-03-10',
      providerId: doctorId,
      pump: {
        procedure: null,
        reservoirVolumeMl: 20,
        refills: [{ painPumpMedicineId: morphine, concentration: 25, dailyDose: 2.5, doseChange: 2, newDailyDose: 2.75 }],
        nextRefillDate: '2026-04-21',
      },
    };
    const created = await call('staff', 'POST', '/api/interventions', pump);
    expect(created.statusCode).toBe(201);
    expect(created.json<Intervention>().pump?.refills[0]).toMatchObject({
      name: 'Morphine, preservative-free',
      concentrationUnit: 'mg/mL',
      newDailyDose: 2.75,
    });

    const missingDose = await call('staff', 'POST', '/api/interventions', {
      ...pump,
      pump: { ...pump.pump, refills: [{ ...pump.pump.refills[0], newDailyDose: null }] },
    });
    expect(missingDose.statusCode).toBe(400);
    expect(missingDose.json().fields).toHaveProperty(['pump.refills.0.newDailyDose']);
  });

  it('answers bad input with 400 and field errors, never a 500', async () => {
    const bad = await call(
      'staff',
      'POST',
      '/api/interventions',
      injectionPayload({ levels: ['L9-X1'], performedOn: '2026-02-30', completion: 7 }),
    );
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(expect.arrayContaining(['levels.0', 'performedOn', 'completion']));
    const noItem = await call('staff', 'POST', '/api/interventions', injectionPayload({ itemId: null }));
    expect(noItem.statusCode).toBe(400);
    expect(noItem.json().fields).toHaveProperty('itemId');
    // A body part offered as the procedure: the item must come from the kind's own list.
    const wrongList = await call('staff', 'POST', '/api/interventions', injectionPayload({ itemId: info.bodyParts[0]!.id }));
    expect(wrongList.statusCode).toBe(400);
    expect(wrongList.json().fields).toHaveProperty('itemId');
  });

  it('refuses another clinic’s list items and patients', async () => {
    const [lakesideItem] = await t.db
      .insert(managedItems)
      .values({ instanceId: lakeside, listType: 'interventionalitems:2', name: 'Lakeside only injection', attributes: {} })
      .returning({ id: managedItems.id });
    const foreignItem = await call('staff', 'POST', '/api/interventions', injectionPayload({ itemId: lakesideItem!.id }));
    expect(foreignItem.statusCode).toBe(400);
    expect(foreignItem.json().fields).toHaveProperty('itemId');
    expect(
      (await call('staff', 'POST', '/api/interventions', injectionPayload({ patientId: lakesidePatient, appointmentId: null })))
        .statusCode,
    ).toBe(404);
    expect((await call('admin2', 'GET', `/api/patients/${patientId}/interventions`)).statusCode).toBe(404);
  });

  it('keeps a Doctor to their own patients and lets only Admin, System Manager and Doctor delete', async () => {
    const created = (
      await call('staff', 'POST', '/api/interventions', injectionPayload({ patientId: otherDoctorsPatient, appointmentId: null }))
    ).json<Intervention>();
    expect((await call('doctor', 'GET', `/api/interventions/${created.id}`)).statusCode).toBe(404);
    expect(
      (
        await call(
          'doctor',
          'PUT',
          `/api/interventions/${created.id}`,
          injectionPayload({ patientId: otherDoctorsPatient, appointmentId: null }),
        )
      ).statusCode,
    ).toBe(404);
    expect((await call('staff', 'DELETE', `/api/interventions/${created.id}`)).statusCode).toBe(403);
    expect((await call('admin2', 'DELETE', `/api/interventions/${created.id}`)).statusCode).toBe(404);
    expect((await call('admin', 'DELETE', `/api/interventions/${created.id}`)).statusCode).toBe(204);
    expect((await call('admin', 'GET', `/api/interventions/${created.id}`)).statusCode).toBe(404);
  });

  it('updates a record; a procedure completed now marks its planned procedure performed', async () => {
    const planned = (
      await call('staff', 'POST', '/api/procedures/upsert', {
        patientId,
        itemId: itemId(DEMO_SCS_TRIAL),
        status: 'scheduled',
        plannedFor: '2026-04-01',
      })
    ).json<PlannedProcedure>();
    const trial = (
      await call(
        'doctor',
        'POST',
        '/api/interventions',
        injectionPayload({ kind: 'procedure', itemId: itemId(DEMO_SCS_TRIAL), completion: 2, levels: ['T8-T9'] }),
      )
    ).json<Intervention>();
    let listed = (await call('doctor', 'GET', `/api/patients/${patientId}/procedures`)).json<PlannedProcedure[]>();
    expect(listed.find((row) => row.id === planned.id)?.status).toBe('scheduled');
    const updated = await call(
      'doctor',
      'PUT',
      `/api/interventions/${trial.id}`,
      injectionPayload({ kind: 'procedure', itemId: itemId(DEMO_SCS_TRIAL), completion: 1, levels: ['T8-T9'] }),
    );
    expect(updated.statusCode).toBe(200);
    listed = (await call('doctor', 'GET', `/api/patients/${patientId}/procedures`)).json<PlannedProcedure[]>();
    expect(listed.find((row) => row.id === planned.id)).toMatchObject({ status: 'performed', interventionId: trial.id });
  });
});

describe('planned procedures and compliance', () => {
  it('adds, changes and records compliance; refuses a body part as the procedure and other clinics', async () => {
    const created = await call('staff', 'POST', '/api/procedures/upsert', {
      patientId,
      itemId: itemId('Lumbar radiofrequency ablation'),
    });
    expect(created.statusCode).toBe(200);
    const planned = created.json<PlannedProcedure>();
    expect(planned).toMatchObject({
      status: 'planned',
      item: { cptCode: '64635' },
      compliance: { physicalTherapyCompleted: false },
    });
    const changed = await call('staff', 'POST', '/api/procedures/upsert', {
      id: planned.id,
      patientId,
      itemId: planned.item.id,
      status: 'authorisationRequested',
    });
    expect(changed.json<PlannedProcedure>().status).toBe('authorisationRequested');
    const compliance = await call('staff', 'PUT', `/api/procedures/${planned.id}/compliance`, {
      conservativeCareWeeks: 6,
      physicalTherapyCompleted: true,
      imagingCompleted: true,
      psychEvaluationCompleted: false,
      notes: 'PT 6 weeks at Riverside Rehab',
    });
    expect(compliance.statusCode).toBe(200);
    expect(compliance.json<PlannedProcedure>().compliance).toMatchObject({
      conservativeCareWeeks: 6,
      physicalTherapyCompleted: true,
    });

    const badWeeks = await call('staff', 'PUT', `/api/procedures/${planned.id}/compliance`, { conservativeCareWeeks: -1 });
    expect(badWeeks.statusCode).toBe(400);
    expect(badWeeks.json().fields).toHaveProperty('conservativeCareWeeks');
    const bodyPart = await call('staff', 'POST', '/api/procedures/upsert', { patientId, itemId: info.bodyParts[0]!.id });
    expect(bodyPart.statusCode).toBe(400);
    expect(
      (await call('admin2', 'PUT', `/api/procedures/${planned.id}/compliance`, { physicalTherapyCompleted: true })).statusCode,
    ).toBe(404);
    expect((await call('nobody', 'GET', `/api/patients/${patientId}/procedures`)).statusCode).toBe(401);
  });
});

describe('visit record', () => {
  it('saves actions taken, codes and the note; offers the clinic’s recent codes', async () => {
    const empty = (await call('doctor', 'GET', `/api/patientappointments/${appointmentId}/visitrecord`)).json<VisitRecord>();
    expect(empty).toMatchObject({ actionsTaken: [], diagnosisCodes: [], note: null });
    const saved = await call('doctor', 'PUT', `/api/patientappointments/${appointmentId}/visitrecord`, {
      actionsTaken: [9, 4, 4],
      diagnosisCodes: ['m54.16', 'G89.4'],
      procedureCodes: ['64483', '77003'],
      note: '  Injection given.  ',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<VisitRecord>()).toMatchObject({
      actionsTaken: [4, 9],
      diagnosisCodes: ['M54.16', 'G89.4'],
      procedureCodes: ['64483', '77003'],
      note: 'Injection given.',
      recordedByName: expect.any(String),
    });
    const diagnoses = (await call('staff', 'GET', '/api/appointmentcodes/recent?kind=diagnosis')).json<RecentCode[]>();
    expect(diagnoses.find((row) => row.code === 'G89.4')).toMatchObject({ uses: 1, clinicLabel: null });
    const procedures = (await call('staff', 'GET', '/api/appointmentcodes/recent?kind=procedure')).json<RecentCode[]>();
    expect(procedures.find((row) => row.code === '64483')?.clinicLabel).toBe(DEMO_LUMBAR_TFESI);
    expect(procedures.find((row) => row.code === '64635')).toMatchObject({
      uses: 0,
      clinicLabel: 'Lumbar radiofrequency ablation',
    });
  });

  it('refuses malformed codes, "No Actions Taken" with an action, other clinics and a colleague’s patient', async () => {
    const bad = await call('doctor', 'PUT', `/api/patientappointments/${appointmentId}/visitrecord`, {
      actionsTaken: [8, 1],
      diagnosisCodes: ['54.16'],
      procedureCodes: ['6448'],
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(
      expect.arrayContaining(['actionsTaken', 'diagnosisCodes.0', 'procedureCodes.0']),
    );
    expect((await call('admin2', 'GET', `/api/patientappointments/${appointmentId}/visitrecord`)).statusCode).toBe(404);
    const [colleagueVisit] = await t.db
      .insert(appointments)
      .values({ instanceId: riverside, patientId: otherDoctorsPatient, startsAt: new Date('2026-03-04T15:00:00Z') })
      .returning({ id: appointments.id });
    expect((await call('doctor', 'GET', `/api/patientappointments/${colleagueVisit!.id}/visitrecord`)).statusCode).toBe(404);
    expect((await call('staff', 'GET', '/api/appointmentcodes/recent?kind=other')).statusCode).toBe(400);
  });
});

describe('cohorts', () => {
  const groupId = async (name: string) =>
    (
      await t.db
        .select({ id: managedItems.id })
        .from(managedItems)
        .where(and(eq(managedItems.instanceId, riverside), eq(managedItems.listType, 'studygroups'), eq(managedItems.name, name)))
    )[0]!.id;

  it('sets a patient’s cohorts, filters the patient list by them, and adds or removes in bulk', async () => {
    const esi = await groupId('Lumbar ESI outcomes 2026');
    const scs = await groupId('SCS candidates');
    const set = await call('staff', 'PUT', `/api/patients/${patientId}/studygroups`, { studyGroupIds: [esi, scs] });
    expect(set.statusCode).toBe(200);
    expect(set.json().map((group: { name: string }) => group.name)).toEqual(['Lumbar ESI outcomes 2026', 'SCS candidates']);
    const filtered = (
      await call('staff', 'POST', '/api/patients/filtered', { selectedStudyGroups: [scs], lastName: 'Delgado' })
    ).json<PatientPage>();
    expect(filtered.data.map((row) => row.id)).toEqual([patientId]);
    const bulk = await call('staff', 'POST', '/api/patients/studygroups/bulk', {
      patientIds: [patientId, otherDoctorsPatient],
      studyGroupId: scs,
      action: 'remove',
    });
    expect(bulk.json()).toEqual({ changed: 1 });
    const after = (
      await call('staff', 'POST', '/api/patients/filtered', { selectedStudyGroups: [scs], lastName: 'Delgado' })
    ).json<PatientPage>();
    expect(after.data).toHaveLength(0);
  });

  it('refuses a list item that is not a cohort, another clinic’s patient, and a Doctor’s colleague’s patient in bulk', async () => {
    const notCohort = await call('staff', 'PUT', `/api/patients/${patientId}/studygroups`, {
      studyGroupIds: [info.bodyParts[0]!.id],
    });
    expect(notCohort.statusCode).toBe(400);
    expect(notCohort.json().fields).toHaveProperty('studyGroupIds');
    const esi = await groupId('Lumbar ESI outcomes 2026');
    expect((await call('admin2', 'PUT', `/api/patients/${patientId}/studygroups`, { studyGroupIds: [] })).statusCode).toBe(404);
    const colleague = await call('doctor', 'POST', '/api/patients/studygroups/bulk', {
      patientIds: [otherDoctorsPatient],
      studyGroupId: esi,
      action: 'add',
    });
    expect(colleague.statusCode).toBe(400);
    const lake = await call('staff', 'POST', '/api/patients/studygroups/bulk', {
      patientIds: [lakesidePatient],
      studyGroupId: esi,
      action: 'add',
    });
    expect(lake.statusCode).toBe(400);
    expect(
      (await call('staff', 'POST', '/api/patients/studygroups/bulk', { patientIds: [], studyGroupId: esi, action: 'add' }))
        .statusCode,
    ).toBe(400);
  });
});

describe('medicines given in a procedure (issue #24)', () => {
  const medicineNamed = async (name: string) => {
    const [row] = await t.db
      .select({ id: managedItems.id })
      .from(managedItems)
      .where(and(eq(managedItems.instanceId, riverside), eq(managedItems.name, name)));
    return row!.id;
  };

  it('records an injectable with its dose, volume and lot', async () => {
    const triamcinolone = await medicineNamed('Triamcinolone acetonide 40 mg/mL');
    const created = await call(
      'doctor',
      'POST',
      '/api/interventions',
      injectionPayload({ medicines: [{ medicineId: triamcinolone, dose: 40, unit: 'mg', volumeMl: 1, lot: ' TK2291 ' }] }),
    );
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<Intervention>().medicines).toEqual([
      { medicineId: triamcinolone, name: 'Triamcinolone acetonide 40 mg/mL', dose: 40, unit: 'mg', volumeMl: 1, lot: 'TK2291' },
    ]);
  });

  it('refuses an oral medicine as given in a procedure, and bad volumes and lots', async () => {
    const oxycodone = await medicineNamed('Oxycodone 5 mg');
    const oral = await call(
      'doctor',
      'POST',
      '/api/interventions',
      injectionPayload({ medicines: [{ medicineId: oxycodone, dose: 5, unit: 'mg' }] }),
    );
    expect(oral.statusCode).toBe(400);
    expect(oral.json().fields).toEqual({ 'medicines.0.medicineId': 'medicineNotInjectable' });
    const lidocaine = await medicineNamed('Lidocaine 1% (10 mg/mL)');
    const bad = await call(
      'doctor',
      'POST',
      '/api/interventions',
      injectionPayload({ medicines: [{ medicineId: lidocaine, dose: 20, unit: 'mg', volumeMl: 0, lot: 'x'.repeat(41) }] }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({ 'medicines.0.volumeMl': 'numberOutOfRange', 'medicines.0.lot': 'tooLong' });
  });
});
