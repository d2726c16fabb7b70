import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Intervention, PlannedProcedure, VisitRecord } from '@pathwell/contracts/interventions';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';
import { appointments, instances, interventions, plannedProcedures } from '../schema';
import { DEMO_LUMBAR_TFESI } from './demo-care';

/** What a newcomer sees of decision 0038 in the demo clinic, through the same API the screens use. */
let t: TestApp;
let doctor: { headers: Record<string, string>; id: string };

beforeAll(async () => {
  t = await createTestApp();
  doctor = await signIn(t.app, 'doctor@pathwell.demo');
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: doctor.headers, remoteAddress: nextIp() });

describe('demo interventional care', () => {
  it('four of the doctor’s patients had a lumbar transforaminal injection, and their visit pain eased after it', async () => {
    const [riverside] = await t.db.select().from(instances).where(eq(instances.name, 'Riverside Spine & Pain'));
    const rows = await t.db
      .select()
      .from(interventions)
      .where(and(eq(interventions.instanceId, riverside!.id), eq(interventions.kind, 'injection')));
    expect(rows.length).toBeGreaterThanOrEqual(4);
    const first = rows[0]!;
    const listed = (await get(`/api/patients/${first.patientId}/interventions`)).json<Intervention[]>();
    expect(listed.find((row) => row.id === first.id)).toMatchObject({
      item: { name: DEMO_LUMBAR_TFESI, cptCode: '64483' },
      levels: ['L4-L5', 'L5-S1'],
      completion: 1,
    });
    const record = (await get(`/api/patientappointments/${first.appointmentId}/visitrecord`)).json<VisitRecord>();
    expect(record).toMatchObject({ actionsTaken: [4, 9], diagnosisCodes: ['M54.16'] });

    const visits = await t.db
      .select({ startsAt: appointments.startsAt, painScore: appointments.painScore })
      .from(appointments)
      .where(and(eq(appointments.patientId, first.patientId), isNotNull(appointments.painScore), eq(appointments.status, 3)));
    const day = (date: Date) => date.toISOString().slice(0, 10);
    const before = visits.find((visit) => day(visit.startsAt) === first.performedOn)!.painScore!;
    const after = visits.filter((visit) => day(visit.startsAt) > first.performedOn).map((visit) => visit.painScore!);
    expect(after.length).toBeGreaterThan(0);
    for (const score of after) expect(score).toBeLessThan(before);
  });

  it('one patient waits for a stimulator trial with a part-done payer checklist', async () => {
    const [planned] = await t.db.select().from(plannedProcedures).limit(1);
    const list = (await get(`/api/patients/${planned!.patientId}/procedures`)).json<PlannedProcedure[]>();
    expect(list[0]).toMatchObject({
      status: 'authorisationRequested',
      compliance: { physicalTherapyCompleted: true, psychEvaluationCompleted: false },
    });
  });
});
