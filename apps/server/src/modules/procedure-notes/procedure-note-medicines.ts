import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { medicinesGivenText } from '@pathwell/contracts/interventions';
import type { Database } from '../../db/client';
import { managedItems, procedureNotes, type InterventionMedicine } from '../../db/schema';
import { AppError } from '../../lib/app-error';

/*
 * The note's "medicines given" is the procedure record's, in one wording (`medicinesGivenText`,
 * decision 0062): filled into the draft, carried into a draft when the record changes, and checked when
 * the note is signed, so a signed note never states medicines other than the record's.
 */

/** The record's medicines as the note words them; '' when none were given. */
async function medicinesTextOf(db: Database, instanceId: string, medicines: readonly InterventionMedicine[]) {
  if (medicines.length === 0) return '';
  const rows = await db
    .select({ id: managedItems.id, name: managedItems.name })
    .from(managedItems)
    .where(
      and(
        eq(managedItems.instanceId, instanceId),
        inArray(
          managedItems.id,
          medicines.map((medicine) => medicine.medicineId),
        ),
      ),
    );
  const names = new Map(rows.map((row) => [row.id, row.name]));
  return medicinesGivenText(medicines.map((medicine) => ({ ...medicine, name: names.get(medicine.medicineId) ?? 'Medicine' })));
}

/** A changed record rewrites its wording in the intervention's unsigned drafts (signed versions never change). */
export async function carryMedicinesIntoDrafts(
  db: Database,
  instanceId: string,
  interventionId: string,
  before: readonly InterventionMedicine[],
  after: readonly InterventionMedicine[],
) {
  const [was, now] = [await medicinesTextOf(db, instanceId, before), await medicinesTextOf(db, instanceId, after)];
  if (!was || was === now) return;
  await db
    .update(procedureNotes)
    .set({ body: sql`replace(${procedureNotes.body}, ${was}, ${now})`, updatedAt: new Date() })
    .where(
      and(
        eq(procedureNotes.instanceId, instanceId),
        eq(procedureNotes.interventionId, interventionId),
        eq(procedureNotes.status, 'draft'),
        sql`strpos(${procedureNotes.body}, ${was}) > 0`,
      ),
    );
}

/**
 * Signing a note whose medicines are not the record's is refused, naming what the record says. A note
 * that carries the record's wording agrees; one that names no medicine of the clinic's list (its
 * template has no {{medicines}}) says nothing to disagree with; one that names a medicine of the list
 * without the record's wording (typed over, or given nothing per the record) disagrees.
 */
export async function requireRecordMedicines(
  db: Database,
  instanceId: string,
  medicines: readonly InterventionMedicine[],
  body: string,
) {
  const expected = await medicinesTextOf(db, instanceId, medicines);
  if (expected && body.includes(expected)) return;
  const listed = await db
    .select({ name: managedItems.name })
    .from(managedItems)
    .where(and(eq(managedItems.instanceId, instanceId), eq(managedItems.listType, 'medicines'), isNull(managedItems.deletedAt)));
  const text = body.toLowerCase();
  if (!listed.some(({ name }) => name.trim() && text.includes(name.trim().toLowerCase()))) return;
  throw new AppError('VALIDATION', 'procedureNoteMedicinesDiffer', {
    params: { medicines: expected || '—' },
    fields: { body: 'medicinesDiffer' },
  });
}
