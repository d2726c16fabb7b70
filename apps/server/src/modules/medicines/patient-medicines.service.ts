import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { medicineKindOf } from '@pathwell/contracts/enumerations';
import type { ValidationMessageKey } from '@pathwell/contracts/messages';
import {
  calculateMme,
  transdermalUnitWrong,
  MME_SOURCE,
  type MedicineUse,
  type MmeInputLine,
  type MmeRequest,
  type MmeResult,
  type PatientMedicine,
  type PatientMedicineInput,
} from '@pathwell/contracts/mme';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { managedItems, patientMedicines } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { findVisiblePatient } from '../patients/patient-visibility.service';

/**
 * The patient's current medicines and their total daily MME (issue #13, decision 0039). A medicine is
 * an entry of the clinic's `medicines` list (decision 0008); stopping one keeps the row for history.
 */

type MedicineItem = { id: string; name: string; attributes: Record<string, unknown> };
type Row = typeof patientMedicines.$inferSelect;

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

function describeMedicine(item: MedicineItem) {
  const { attributes } = item;
  return {
    name: item.name,
    strength: num(attributes.strength),
    unit: text(attributes.unit),
    route: text(attributes.route),
    isOpioid: attributes.isOpioid === true,
    isBenzodiazepine: attributes.isBenzodiazepine === true,
    mmeConversionFactor: num(attributes.mmeConversionFactor),
    mmeNotConverted: attributes.mmeNotConverted === true,
  };
}

const mmeLineOf = (medicine: ReturnType<typeof describeMedicine>, use: MedicineUse): MmeInputLine => ({ ...medicine, ...use });

/**
 * Why a list entry cannot be one of the patient's medicines: an injectable is given in procedures, not
 * taken; a patch stored in a unit other than mcg/h (before the list refused it) would be under-counted.
 */
function notTakeable(item: MedicineItem): ValidationMessageKey | null {
  if (medicineKindOf(item.attributes) !== 'prescription') return 'medicineNotTaken';
  if (transdermalUnitWrong(describeMedicine(item))) return 'transdermalPerHour';
  return null;
}

function toView(row: Row, item: MedicineItem): PatientMedicine {
  const medicine = describeMedicine(item);
  const [line] = calculateMme([mmeLineOf(medicine, { unitsPerDose: row.unitsPerDose, dosesPerDay: row.dosesPerDay })]).lines;
  return {
    id: row.id,
    medicineId: row.medicineId,
    ...medicine,
    unitsPerDose: row.unitsPerDose,
    dosesPerDay: row.dosesPerDay,
    dailyMme: line?.dailyMme ?? null,
    note: line?.note ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    stoppedAt: row.stoppedAt?.toISOString() ?? null,
  };
}

/** Entries of this clinic's medicines list (not deleted); a write also wants them active. */
async function medicineItems(ctx: SignedInContext, db: Database, ids: string[], activeOnly: boolean) {
  if (ids.length === 0) return new Map<string, MedicineItem>();
  const rows = await db
    .select({ id: managedItems.id, name: managedItems.name, attributes: managedItems.attributes })
    .from(managedItems)
    .where(
      and(
        eq(managedItems.instanceId, ctx.instanceId),
        eq(managedItems.listType, 'medicines'),
        inArray(managedItems.id, ids),
        isNull(managedItems.deletedAt),
        activeOnly ? eq(managedItems.isActive, true) : undefined,
      ),
    );
  return new Map(rows.map((row) => [row.id, row]));
}

async function currentRows(ctx: SignedInContext, db: Database, patientId: string) {
  return db
    .select({
      row: patientMedicines,
      item: { id: managedItems.id, name: managedItems.name, attributes: managedItems.attributes },
    })
    .from(patientMedicines)
    .innerJoin(
      managedItems,
      and(eq(managedItems.instanceId, patientMedicines.instanceId), eq(managedItems.id, patientMedicines.medicineId)),
    )
    .where(
      and(
        eq(patientMedicines.instanceId, ctx.instanceId),
        eq(patientMedicines.patientId, patientId),
        isNull(patientMedicines.stoppedAt),
      ),
    )
    .orderBy(asc(patientMedicines.createdAt), asc(patientMedicines.id));
}

export async function listPatientMedicines(ctx: SignedInContext, patientId: string): Promise<PatientMedicine[]> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, patientId);
    const rows = await currentRows(ctx, tx, patient.id);
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Viewed', {
        type: 'patient',
        id: patient.id,
        description: 'Current medicines viewed',
      }),
    );
    return rows.map(({ row, item }) => toView(row, item));
  });
}

export async function addPatientMedicine(
  ctx: SignedInContext,
  patientId: string,
  input: PatientMedicineInput,
): Promise<PatientMedicine> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, patientId);
    const item = (await medicineItems(ctx, tx, [input.medicineId], true)).get(input.medicineId);
    if (!item) throw new AppError('VALIDATION', 'valuesInvalid', { fields: { medicineId: 'invalid' } });
    const refused = notTakeable(item);
    if (refused) throw new AppError('VALIDATION', 'valuesInvalid', { fields: { medicineId: refused } });
    const [row] = await tx
      .insert(patientMedicines)
      .values({
        instanceId: ctx.instanceId,
        patientId: patient.id,
        medicineId: item.id,
        unitsPerDose: input.unitsPerDose,
        dosesPerDay: input.dosesPerDay,
        createdBy: ctx.actor.userId,
      })
      .returning();
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Created', {
        type: 'patient medicine',
        id: row!.id,
        description: `Medicine added: ${item.name}`,
      }),
    );
    return toView(row!, item);
  });
}

async function changeCurrent(
  ctx: SignedInContext,
  patientId: string,
  rowId: string,
  values: Partial<Pick<Row, 'unitsPerDose' | 'dosesPerDay' | 'stoppedAt'>>,
  description: string,
): Promise<PatientMedicine> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, patientId);
    const [row] = await tx
      .update(patientMedicines)
      .set({ ...values, updatedAt: new Date() })
      .where(
        and(
          eq(patientMedicines.instanceId, ctx.instanceId),
          eq(patientMedicines.patientId, patient.id),
          eq(patientMedicines.id, rowId),
          isNull(patientMedicines.stoppedAt),
        ),
      )
      .returning();
    if (!row) throw notFound();
    const [item] = await tx
      .select({ id: managedItems.id, name: managedItems.name, attributes: managedItems.attributes })
      .from(managedItems)
      .where(and(eq(managedItems.instanceId, ctx.instanceId), eq(managedItems.id, row.medicineId)));
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Updated', {
        type: 'patient medicine',
        id: row.id,
        description: `${description}: ${item?.name ?? ''}`.trim(),
      }),
    );
    return toView(row, item ?? { id: row.medicineId, name: '', attributes: {} });
  });
}

/** How the medicine is taken changed; a different medicine is a stop and an add. */
export function updatePatientMedicine(ctx: SignedInContext, patientId: string, rowId: string, input: MedicineUse) {
  return changeCurrent(
    ctx,
    patientId,
    rowId,
    { unitsPerDose: input.unitsPerDose, dosesPerDay: input.dosesPerDay },
    'Medicine changed',
  );
}

export function stopPatientMedicine(ctx: SignedInContext, patientId: string, rowId: string) {
  return changeCurrent(ctx, patientId, rowId, { stoppedAt: new Date() }, 'Medicine stopped');
}

/**
 * Total MME/day of the current medicines, or of the medicines given (a what-if: nothing is saved, and
 * inactive list entries are accepted because a current medicine may have been retired from the list).
 */
export async function calculatePatientMme(ctx: SignedInContext, input: MmeRequest): Promise<MmeResult> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, input.patientId);
    let lines: Array<{ patientMedicineId: string | null; item: MedicineItem; use: MedicineUse }>;
    if (input.medicines) {
      const items = await medicineItems(
        ctx,
        tx,
        input.medicines.map((medicine) => medicine.medicineId),
        false,
      );
      const fields: Record<string, ValidationMessageKey> = {};
      input.medicines.forEach((medicine, index) => {
        const item = items.get(medicine.medicineId);
        const refused = item ? notTakeable(item) : 'invalid';
        if (refused) fields[`medicines.${index}.medicineId`] = refused;
      });
      if (Object.keys(fields).length > 0) throw new AppError('VALIDATION', 'valuesInvalid', { fields });
      lines = input.medicines.map((medicine) => ({
        patientMedicineId: null,
        item: items.get(medicine.medicineId)!,
        use: { unitsPerDose: medicine.unitsPerDose, dosesPerDay: medicine.dosesPerDay },
      }));
    } else {
      lines = (await currentRows(ctx, tx, patient.id)).map(({ row, item }) => ({
        patientMedicineId: row.id,
        item,
        use: { unitsPerDose: row.unitsPerDose, dosesPerDay: row.dosesPerDay },
      }));
    }
    const described = lines.map((line) => ({ ...line, medicine: describeMedicine(line.item) }));
    const totals = calculateMme(described.map(({ medicine, use }) => mmeLineOf(medicine, use)));
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Viewed', {
        type: 'patient',
        id: patient.id,
        description: input.medicines ? 'MME what-if calculated' : 'MME calculated',
      }),
    );
    return {
      patientId: patient.id,
      whatIf: input.medicines !== undefined,
      lines: described.map(({ patientMedicineId, item, medicine, use }, index) => ({
        patientMedicineId,
        medicineId: item.id,
        name: medicine.name,
        strength: medicine.strength,
        unit: medicine.unit,
        unitsPerDose: use.unitsPerDose,
        dosesPerDay: use.dosesPerDay,
        factor: medicine.mmeConversionFactor,
        isOpioid: medicine.isOpioid,
        isBenzodiazepine: medicine.isBenzodiazepine,
        dailyMme: totals.lines[index]?.dailyMme ?? null,
        note: totals.lines[index]?.note ?? null,
      })),
      totalMme: totals.totalMme,
      flags: totals.flags,
      source: MME_SOURCE,
    };
  });
}
