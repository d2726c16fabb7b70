import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdcMmeFactors, type MmeResult, type PatientMedicine } from '@pathwell/contracts/mme';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';
import { instances, managedItems, patientMedicines } from '../schema';
import { findManagedList } from '@pathwell/contracts/managed-lists';
import { demoMedicines } from './demo-medicines';

/** What a newcomer sees of decision 0039 in the demo clinic, through the API the Medicines card uses. */
let t: TestApp;
let staff: { headers: Record<string, string>; id: string };
let riverside: string;

beforeAll(async () => {
  t = await createTestApp();
  staff = await signIn(t.app, 'staff@pathwell.demo');
  const [clinic] = await t.db.select().from(instances).where(eq(instances.name, 'Riverside Spine & Pain'));
  riverside = clinic!.id;
});
afterAll(async () => {
  await t?.close();
});

describe('demo medicines', () => {
  it('every demo opioid carries the CDC 2022 factor of its opioid', () => {
    const expected: Record<string, number> = {
      Oxycodone: cdcMmeFactors.oxycodone,
      Hydrocodone: cdcMmeFactors.hydrocodone,
      Tramadol: cdcMmeFactors.tramadol,
      Morphine: cdcMmeFactors.morphine,
      Tapentadol: cdcMmeFactors.tapentadol,
      Fentanyl: cdcMmeFactors.fentanylTransdermal,
    };
    const opioids = demoMedicines.filter((medicine) => medicine.attributes.isOpioid);
    expect(opioids.length).toBeGreaterThan(5);
    for (const medicine of opioids) {
      const factor = expected[medicine.name.split(/[ /]/)[0]!];
      expect(medicine.attributes.mmeConversionFactor, medicine.name).toBe(factor);
    }
    expect(demoMedicines.find((medicine) => medicine.name.startsWith('Fentanyl'))?.attributes.unit).toBe('mcg/h');
    expect(demoMedicines.some((medicine) => medicine.attributes.isBenzodiazepine)).toBe(true);
  });

  it('lists injectables for procedures, each with its kind and concentration, and none of them an opioid', () => {
    const injectables = demoMedicines.filter(
      (medicine) => medicine.attributes.kind && medicine.attributes.kind !== 'prescription',
    );
    expect(injectables.map((medicine) => [medicine.name.split(' ')[0], medicine.attributes.kind])).toEqual([
      ['Triamcinolone', 'steroid'],
      ['Methylprednisolone', 'steroid'],
      ['Dexamethasone', 'steroid'],
      ['Lidocaine', 'localAnesthetic'],
      ['Bupivacaine', 'localAnesthetic'],
      ['Ropivacaine', 'localAnesthetic'],
      ['Iohexol', 'contrast'],
    ]);
    for (const medicine of injectables) {
      expect(medicine.attributes, medicine.name).toMatchObject({ unit: 'mg/mL', isOpioid: false, strength: expect.any(Number) });
    }
    // Every demo entry is what the admin page would accept.
    const list = findManagedList('medicines')!;
    for (const medicine of demoMedicines)
      expect(list.attributes.safeParse(medicine.attributes).success, medicine.name).toBe(true);
  });

  it('Riverside has the formulary, and four patients show high + benzodiazepine, about 60, no opioid and a stopped medicine', async () => {
    const items = await t.db
      .select()
      .from(managedItems)
      .where(and(eq(managedItems.instanceId, riverside), eq(managedItems.listType, 'medicines')));
    expect(items.map((item) => item.name)).toEqual(expect.arrayContaining(demoMedicines.map((medicine) => medicine.name)));

    const rows = await t.db.select().from(patientMedicines).where(eq(patientMedicines.instanceId, riverside));
    const patientIds = [...new Set(rows.map((row) => row.patientId))];
    expect(patientIds).toHaveLength(4);
    expect(rows.filter((row) => row.stoppedAt !== null)).toHaveLength(1);

    const results = await Promise.all(
      patientIds.map(async (patientId) => {
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/patients/mme',
          headers: staff.headers,
          payload: { patientId },
          remoteAddress: nextIp(),
        });
        expect(response.statusCode, response.body).toBe(200);
        return response.json<MmeResult>();
      }),
    );
    const summary = results.map((result) => [result.totalMme, result.flags.atOrAbove90, result.flags.withBenzodiazepine]);
    expect(summary).toEqual(
      expect.arrayContaining([
        [120, true, true],
        [60, false, false],
        [0, false, false],
        [30, false, false],
      ]),
    );

    const stopped = rows.find((row) => row.stoppedAt !== null)!;
    const current = await t.app.inject({
      method: 'GET',
      url: `/api/patients/${stopped.patientId}/medicines`,
      headers: staff.headers,
      remoteAddress: nextIp(),
    });
    expect(current.json<PatientMedicine[]>().map((row) => row.name)).toEqual(['Morphine ER 15 mg']);
    const live = await t.db
      .select()
      .from(patientMedicines)
      .where(and(eq(patientMedicines.patientId, stopped.patientId), isNull(patientMedicines.stoppedAt)));
    expect(live).toHaveLength(1);
  });
});
