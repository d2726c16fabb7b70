import { and, asc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import { clinicDayStartAfter, clinicTodayStart } from '@pathwell/contracts/clinic-time';
import type { MedicineKind } from '@pathwell/contracts/enumerations';
import { cdcMmeFactors } from '@pathwell/contracts/mme';
import type { Database } from '../client';
import { appointments, managedItems, patientMedicines, patients } from '../schema';

const DAY = 24 * 3_600_000;

type DemoMedicine = { name: string; attributes: Record<string, unknown> };

const opioid = (name: string, strength: number, factor: number, unit = 'mg', route = 'oral'): DemoMedicine => ({
  name,
  attributes: { strength, unit, route, isOpioid: true, mmeConversionFactor: factor, isBenzodiazepine: false },
});
/** An injectable given in procedures (decision 0062): its strength is the product's concentration. */
const injectable = (name: string, kind: MedicineKind, strength: number): DemoMedicine => ({
  name,
  attributes: { kind, strength, unit: 'mg/mL', isOpioid: false, isBenzodiazepine: false },
});
const other = (name: string, strength: number, isBenzodiazepine = false): DemoMedicine => ({
  name,
  attributes: { strength, unit: 'mg', route: 'oral', isOpioid: false, isBenzodiazepine },
});

/**
 * A demo formulary whose opioid factors are the CDC 2022 table (`cdcMmeFactors`); the strength of a
 * combination tablet is its opioid part, since only that counts towards MME.
 */
export const demoMedicines: DemoMedicine[] = [
  opioid('Oxycodone 5 mg', 5, cdcMmeFactors.oxycodone),
  opioid('Oxycodone 10 mg', 10, cdcMmeFactors.oxycodone),
  opioid('Hydrocodone 10 mg / acetaminophen 325 mg', 10, cdcMmeFactors.hydrocodone),
  opioid('Tramadol 50 mg', 50, cdcMmeFactors.tramadol),
  opioid('Morphine ER 15 mg', 15, cdcMmeFactors.morphine),
  opioid('Tapentadol 50 mg', 50, cdcMmeFactors.tapentadol),
  opioid('Fentanyl patch 25 mcg/h', 25, cdcMmeFactors.fentanylTransdermal, 'mcg/h', 'transdermal'),
  other('Alprazolam 0.5 mg', 0.5, true),
  other('Gabapentin 300 mg', 300),
  other('Meloxicam 15 mg', 15),
  // What injections and procedures give, at the concentrations these products are sold in.
  injectable('Triamcinolone acetonide 40 mg/mL', 'steroid', 40),
  injectable('Methylprednisolone acetate 40 mg/mL', 'steroid', 40),
  injectable('Dexamethasone sodium phosphate 10 mg/mL', 'steroid', 10),
  injectable('Lidocaine 1% (10 mg/mL)', 'localAnesthetic', 10),
  injectable('Bupivacaine 0.25% (2.5 mg/mL)', 'localAnesthetic', 2.5),
  injectable('Ropivacaine 0.2% (2 mg/mL)', 'localAnesthetic', 2),
  injectable('Iohexol 300 mg iodine/mL', 'contrast', 300),
];

/** Who takes what: [medicine name, units per dose, doses per day, stopped days ago]. */
const regimens: Array<Array<[string, number, number, number?]>> = [
  // 60 + 60 = 120 MME/day with a benzodiazepine: every flag on.
  [
    ['Oxycodone 10 mg', 1, 4],
    ['Fentanyl patch 25 mcg/h', 1, 1],
    ['Alprazolam 0.5 mg', 1, 2],
  ],
  // 40 + 20 = 60 MME/day.
  [
    ['Hydrocodone 10 mg / acetaminophen 325 mg', 1, 4],
    ['Tramadol 50 mg', 1, 2],
    ['Gabapentin 300 mg', 1, 3],
  ],
  // No opioid.
  [
    ['Gabapentin 300 mg', 1, 3],
    ['Meloxicam 15 mg', 1, 1],
  ],
  // 30 MME/day now; oxycodone was stopped last month and stays in the history.
  [
    ['Morphine ER 15 mg', 1, 2],
    ['Oxycodone 5 mg', 1, 3, 30],
  ],
];

/**
 * Current medicines for four of today's Riverside patients (after the three the consents demo uses), so
 * the Medicines card shows each state of decision 0039: high with a benzodiazepine, around 60, no
 * opioid, and a stopped medicine.
 */
export async function seedDemoMedicines(tx: Database, options: { instanceId: string; timeZone: string; now?: Date }) {
  const now = options.now ?? new Date();
  const { instanceId } = options;
  await tx
    .insert(managedItems)
    .values(demoMedicines.map((medicine, index) => ({ instanceId, listType: 'medicines', sortOrder: index * 10, ...medicine })))
    .onConflictDoNothing();
  const items = await tx
    .select({ id: managedItems.id, name: managedItems.name })
    .from(managedItems)
    .where(
      and(
        eq(managedItems.instanceId, instanceId),
        eq(managedItems.listType, 'medicines'),
        isNull(managedItems.deletedAt),
        inArray(
          sql`lower(${managedItems.name})`,
          demoMedicines.map((medicine) => medicine.name.toLowerCase()),
        ),
      ),
    );
  const idOf = new Map(items.map((item) => [item.name.toLowerCase(), item.id]));

  const dayStart = clinicTodayStart(now, options.timeZone);
  const visits = await tx
    .select({ patientId: appointments.patientId })
    .from(appointments)
    .where(
      and(
        eq(appointments.instanceId, instanceId),
        gte(appointments.startsAt, dayStart),
        lt(appointments.startsAt, clinicDayStartAfter(dayStart, 1, options.timeZone)),
        isNull(appointments.deletedAt),
      ),
    )
    .orderBy(asc(appointments.startsAt), asc(appointments.id));
  const chosen = [...new Set(visits.map((visit) => visit.patientId))].slice(3, 3 + regimens.length);
  if (chosen.length < regimens.length) {
    // A quiet day: take the doctor's patients by name instead.
    const more = await tx
      .select({ id: patients.id })
      .from(patients)
      .where(and(eq(patients.instanceId, instanceId), isNull(patients.deletedAt)))
      .orderBy(asc(patients.lastName), asc(patients.firstName), asc(patients.id))
      .limit(20);
    for (const { id } of more) if (chosen.length < regimens.length && !chosen.includes(id)) chosen.push(id);
  }

  const rows = chosen.flatMap((patientId, index) =>
    regimens[index]!.map(([name, unitsPerDose, dosesPerDay, stoppedDaysAgo], order) => ({
      instanceId,
      patientId,
      medicineId: idOf.get(name.toLowerCase())!,
      unitsPerDose,
      dosesPerDay,
      // A minute apart, so the card lists them in the order written here.
      createdAt: new Date(now.getTime() - 90 * DAY + order * 60_000),
      updatedAt: new Date(now.getTime() - (stoppedDaysAgo ?? 90) * DAY),
      stoppedAt: stoppedDaysAgo === undefined ? null : new Date(now.getTime() - stoppedDaysAgo * DAY),
    })),
  );
  if (rows.length > 0) await tx.insert(patientMedicines).values(rows);
  return chosen;
}
