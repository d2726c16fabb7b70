import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffIntakeDetail } from '@pathwell/contracts/intake-record';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';
import { instances, intakeEntries, patientLinks } from '../schema';

/** Issue #24 §4 in the demo clinic: an intake whose paperwork differs from the record, and medicines to reconcile. */
let t: TestApp;
let staff: { headers: Record<string, string>; id: string };

beforeAll(async () => {
  t = await createTestApp();
  staff = await signIn(t.app, 'staff@pathwell.demo');
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: staff.headers, remoteAddress: nextIp() });

describe('demo intake answers for staff to take in', () => {
  it('Riverside has paperwork that differs from the record and intake medications to reconcile', async () => {
    const [riverside] = await t.db.select().from(instances).where(eq(instances.name, 'Riverside Spine & Pain'));
    const entries = await t.db
      .select({ patientId: patientLinks.patientId, step: intakeEntries.step })
      .from(intakeEntries)
      .innerJoin(patientLinks, eq(patientLinks.id, intakeEntries.linkId))
      .where(and(eq(intakeEntries.instanceId, riverside!.id), eq(intakeEntries.formKey, '')));
    const patientIds = [...new Set(entries.filter((entry) => entry.step === 1).map((entry) => entry.patientId))];
    expect(patientIds.length).toBeGreaterThan(0);
    const intakes = (
      await Promise.all(patientIds.map(async (id) => (await get(`/api/patients/${id}/intake`)).json<StaffIntakeDetail[]>()))
    ).flat();
    const differing = intakes.flatMap((intake) => intake.changes.filter((change) => change.differs));
    expect(differing.map((change) => change.field)).toEqual(expect.arrayContaining(['email', 'primaryInsurance', 'pharmacy']));
    const withMedicines = intakes.filter(
      (intake) => (intake.saved.history?.medications?.length ?? 0) > 1 && intake.steps.some((s) => s.step === 2 && s.done),
    );
    expect(withMedicines.length).toBeGreaterThan(0);
  });
});
