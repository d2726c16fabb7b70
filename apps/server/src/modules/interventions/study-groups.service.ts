import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { PatientStudyGroup } from '@pathwell/contracts/interventions';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { managedItems, patientStudyGroups, patients } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { announce } from '../../lib/domain-events';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { findVisiblePatient, visiblePatients } from '../patients/patient-visibility.service';

async function checkGroups(ctx: SignedInContext, db: Database, ids: string[], field: string) {
  if (ids.length === 0) return;
  const found = await db
    .select({ id: managedItems.id })
    .from(managedItems)
    .where(
      and(
        eq(managedItems.instanceId, ctx.instanceId),
        eq(managedItems.listType, 'studygroups'),
        inArray(managedItems.id, ids),
        isNull(managedItems.deletedAt),
      ),
    );
  if (found.length !== ids.length) throw new AppError('VALIDATION', 'valuesInvalid', { fields: { [field]: 'invalid' } });
}

async function patientStudyGroupList(ctx: SignedInContext, patientId: string, db = ctx.db): Promise<PatientStudyGroup[]> {
  const rows = await db
    .select({ id: managedItems.id, name: managedItems.name, assignedAt: patientStudyGroups.assignedAt })
    .from(patientStudyGroups)
    .innerJoin(managedItems, eq(managedItems.id, patientStudyGroups.studyGroupId))
    .where(and(eq(patientStudyGroups.instanceId, ctx.instanceId), eq(patientStudyGroups.patientId, patientId)))
    .orderBy(asc(managedItems.name));
  return rows.map((row) => ({ ...row, assignedAt: row.assignedAt.toISOString() }));
}

export async function getPatientStudyGroups(ctx: SignedInContext, patientId: string): Promise<PatientStudyGroup[]> {
  const patient = await findVisiblePatient(ctx, ctx.db, patientId);
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient Study Group', 'Viewed', { type: 'patient', id: patient.id, description: 'Cohorts viewed' }),
  );
  return patientStudyGroupList(ctx, patient.id);
}

async function addMembers(ctx: SignedInContext, tx: Database, patientIds: string[], studyGroupId: string) {
  const added = await tx
    .insert(patientStudyGroups)
    .values(
      patientIds.map((patientId) => ({ instanceId: ctx.instanceId, patientId, studyGroupId, assignedBy: ctx.actor.userId })),
    )
    .onConflictDoNothing()
    .returning({ patientId: patientStudyGroups.patientId });
  // A cohort assignment may start a pathway (decision 0041); only new members, not ones already in it.
  for (const { patientId } of added) {
    await announce(ctx, tx, 'cohortJoined', { patientId, studyGroupId, joinedAt: new Date() });
  }
  return added.length;
}

/** "Patient study groups update": the patient's cohorts become exactly `studyGroupIds`. */
export async function setPatientStudyGroups(
  ctx: SignedInContext,
  patientId: string,
  studyGroupIds: string[],
): Promise<PatientStudyGroup[]> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, patientId);
    await checkGroups(ctx, tx, studyGroupIds, 'studyGroupIds');
    const current = (await patientStudyGroupList(ctx, patient.id, tx)).map((group) => group.id);
    const removed = current.filter((id) => !studyGroupIds.includes(id));
    if (removed.length > 0) {
      await tx
        .delete(patientStudyGroups)
        .where(
          and(
            eq(patientStudyGroups.instanceId, ctx.instanceId),
            eq(patientStudyGroups.patientId, patient.id),
            inArray(patientStudyGroups.studyGroupId, removed),
          ),
        );
    }
    for (const id of studyGroupIds.filter((id) => !current.includes(id))) await addMembers(ctx, tx, [patient.id], id);
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Study Group', 'Updated', {
        type: 'patient',
        id: patient.id,
        description: `Cohorts set (${studyGroupIds.length})`,
      }),
    );
    return patientStudyGroupList(ctx, patient.id, tx);
  });
}

/** From the patient list: add or remove one cohort for the selected patients the actor may reach. */
export async function bulkStudyGroup(
  ctx: SignedInContext,
  input: { patientIds: string[]; studyGroupId: string; action: 'add' | 'remove' },
): Promise<{ changed: number }> {
  return ctx.db.transaction(async (tx) => {
    await checkGroups(ctx, tx, [input.studyGroupId], 'studyGroupId');
    const reachable = (
      await tx
        .select({ id: patients.id })
        .from(patients)
        .where(and(visiblePatients(ctx, [ctx.instanceId]), inArray(patients.id, input.patientIds)))
    ).map((row) => row.id);
    if (reachable.length !== input.patientIds.length) {
      throw new AppError('VALIDATION', 'valuesInvalid', { fields: { patientIds: 'invalid' } });
    }
    let changed: number;
    if (input.action === 'add') changed = await addMembers(ctx, tx, reachable, input.studyGroupId);
    else {
      const removed = await tx
        .delete(patientStudyGroups)
        .where(
          and(
            eq(patientStudyGroups.instanceId, ctx.instanceId),
            eq(patientStudyGroups.studyGroupId, input.studyGroupId),
            inArray(patientStudyGroups.patientId, reachable),
          ),
        )
        .returning({ patientId: patientStudyGroups.patientId });
      changed = removed.length;
    }
    for (const patientId of reachable) {
      await recordActivity(
        tx,
        staffActivity(ctx, 'Patient Study Group', 'Updated', {
          type: 'patient',
          id: patientId,
          description: input.action === 'add' ? 'Added to a cohort' : 'Removed from a cohort',
        }),
      );
    }
    return { changed };
  });
}
