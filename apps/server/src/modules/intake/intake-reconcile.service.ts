import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { HealthHistory } from '@pathwell/contracts/intake';
import type { PatientMedicine } from '@pathwell/contracts/mme';
import type { PatientAllergy, ReconciledIntake, ReconcileIntake } from '@pathwell/contracts/intake-record';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { intakeEntries, patientAllergies, users } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { addPatientMedicine } from '../medicines/patient-medicines.service';
import { findVisiblePatient } from '../patients/patient-visibility.service';
import { finishedStepData } from './intake-record.service';

/**
 * The intake's medications and allergies into the record in one step (issue #24 §4, decision 0056): staff
 * map each medication they keep to an entry of the clinic's medicines list with how it is taken (so it
 * counts in MME), and tick the allergies to record.
 */

type AllergyRow = typeof patientAllergies.$inferSelect;
/** Beside the opt-in answer (step 0, decision 0032): who reconciled the intake, and when. */
const RECONCILED_STEP = 0;
const RECONCILED_KEY = 'reconciled';

const toAllergy = (row: AllergyRow): PatientAllergy => ({
  id: row.id,
  name: row.name,
  reaction: row.reaction,
  linkId: row.linkId,
  createdAt: row.createdAt.toISOString(),
});

export async function listAllergies(ctx: SignedInContext, patientId: string): Promise<PatientAllergy[]> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, patientId);
    const rows = await tx
      .select()
      .from(patientAllergies)
      .where(
        and(
          eq(patientAllergies.instanceId, ctx.instanceId),
          eq(patientAllergies.patientId, patient.id),
          isNull(patientAllergies.removedAt),
        ),
      )
      .orderBy(asc(patientAllergies.createdAt), asc(patientAllergies.name), asc(patientAllergies.id));
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Viewed', { type: 'patient', id: patient.id, description: 'Allergies viewed' }),
    );
    return rows.map(toAllergy);
  });
}

/**
 * Takes an allergy off the record (recorded in error, or no longer true): the row is kept with the time it
 * was removed, so the activity log and the intake it came from still explain it. Removing it again is 404.
 */
export async function removeAllergy(ctx: SignedInContext, patientId: string, allergyId: string): Promise<PatientAllergy> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, patientId);
    const [row] = await tx
      .update(patientAllergies)
      .set({ removedAt: new Date(), updatedAt: new Date() })
      .where(
        and(
          eq(patientAllergies.instanceId, ctx.instanceId),
          eq(patientAllergies.patientId, patient.id),
          eq(patientAllergies.id, allergyId),
          isNull(patientAllergies.removedAt),
        ),
      )
      .returning();
    if (!row) throw notFound('allergyNotFound');
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Deleted', {
        type: 'patient',
        id: patient.id,
        description: `Allergy removed: ${row.name}${row.reaction ? ` (${row.reaction})` : ''}`,
      }),
    );
    return toAllergy(row);
  });
}

export async function reconcileIntake(
  ctx: SignedInContext,
  patientId: string,
  linkId: string,
  input: ReconcileIntake,
): Promise<ReconciledIntake> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, patientId);
    const history = await finishedStepData<HealthHistory>(ctx, tx, patient.id, linkId, 2);
    const medications = history.medications ?? [];
    const allergies = history.allergies ?? [];
    const fields: Record<string, 'invalid'> = {};
    input.medicines.forEach((line, at) => {
      if (!medications[line.index]) fields[`medicines.${at}.index`] = 'invalid';
    });
    input.allergies.forEach((index, at) => {
      if (!allergies[index]) fields[`allergies.${at}`] = 'invalid';
    });
    if (Object.keys(fields).length > 0) throw new AppError('VALIDATION', 'valuesInvalid', { fields });
    const added: PatientMedicine[] = [];
    for (const [at, line] of input.medicines.entries()) {
      const { index: _index, ...use } = line;
      try {
        // The medicines list's own add (its checks and audit), inside this step's transaction.
        added.push(await addPatientMedicine({ ...ctx, db: tx }, patient.id, use));
      } catch (failure) {
        if (failure instanceof AppError && failure.options.fields) {
          const fields = Object.fromEntries(
            Object.entries(failure.options.fields).map(([key, value]) => [`medicines.${at}.${key}`, value]),
          );
          throw new AppError('VALIDATION', failure.messageKey, { fields });
        }
        throw failure;
      }
    }
    const wanted = [...new Set(input.allergies)].map((index) => allergies[index]!);
    const recorded = wanted.length
      ? await tx
          .insert(patientAllergies)
          .values(
            wanted.map((allergy) => ({
              instanceId: ctx.instanceId,
              patientId: patient.id,
              name: allergy.name,
              reaction: allergy.reaction || null,
              linkId,
              createdBy: ctx.actor.userId,
            })),
          )
          .returning()
      : [];
    const marker = {
      at: new Date().toISOString(),
      by: ctx.actor.userId,
      medicines: added.length,
      allergies: recorded.length,
    };
    await tx
      .insert(intakeEntries)
      .values({
        linkId,
        instanceId: ctx.instanceId,
        step: RECONCILED_STEP,
        formKey: RECONCILED_KEY,
        data: marker,
        // The staff member's language is not the patient's: the row keeps the patient's own.
        language: patient.preferredLanguage,
        completedAt: new Date(),
      })
      .onConflictDoUpdate({
        target: [intakeEntries.linkId, intakeEntries.step, intakeEntries.formKey],
        set: { data: marker, completedAt: new Date(), updatedAt: new Date() },
      });
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Created', {
        type: 'patient',
        id: patient.id,
        description: `Reconciled intake ${linkId}: ${added.map((row) => row.name).join(', ') || 'no medicines'}; allergies: ${
          recorded.map((row) => row.name).join(', ') || 'none'
        }`,
      }),
    );
    return { medicines: added, allergies: recorded.map(toAllergy) };
  });
}

/** Who reconciled each of these links, and when (null: not yet). */
export async function reconciliationsOf(db: Database, instanceId: string, linkIds: string[]) {
  if (linkIds.length === 0) return () => null;
  const rows = await db
    .select({ linkId: intakeEntries.linkId, data: intakeEntries.data })
    .from(intakeEntries)
    .where(
      and(
        eq(intakeEntries.instanceId, instanceId),
        inArray(intakeEntries.linkId, linkIds),
        eq(intakeEntries.step, RECONCILED_STEP),
        eq(intakeEntries.formKey, RECONCILED_KEY),
      ),
    );
  const userIds = rows.map((row) => (row.data as { by?: string }).by).filter((id): id is string => Boolean(id));
  const names = userIds.length
    ? await db
        .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
        .from(users)
        .where(inArray(users.id, userIds))
    : [];
  return (linkId: string) => {
    const row = rows.find((candidate) => candidate.linkId === linkId);
    if (!row) return null;
    const data = row.data as { at: string; by?: string; medicines: number; allergies: number };
    const user = names.find((candidate) => candidate.id === data.by);
    return {
      at: data.at,
      byName: user ? [user.firstName, user.lastName].filter(Boolean).join(' ') : null,
      medicines: data.medicines,
      allergies: data.allergies,
    };
  };
}
