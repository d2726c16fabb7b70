import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { pathwaySkipReasons } from '@pathwell/contracts/pathways';
import { getInstrument, isFormCode } from '@pathwell/instruments';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { customForms, pathwayEnrolments, pathways, pathwayStepRuns, pathwaySteps, type patients } from '../../db/schema';
import { notFound } from '../../lib/app-error';

/*
 * The pathway records every part of the module reads and writes the same way: a pathway by id, the titles
 * of its forms, an enrolment's runs, and how an enrolment stops or completes. The definitions service,
 * the enrolments service, the roster and the sweep build on these and not on each other.
 */

export type PathwayRow = typeof pathways.$inferSelect;
export type StepRow = typeof pathwaySteps.$inferSelect;
export type RunRow = typeof pathwayStepRuns.$inferSelect;

function instrumentTitle(formCode: number | null): string | null {
  return formCode !== null && isFormCode(formCode) ? getInstrument(formCode).name.en : null;
}

export async function customFormTitles(db: Database, instanceId: string, ids: (string | null)[]) {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  const rows = wanted.length
    ? await db
        .select({ id: customForms.id, title: customForms.title })
        .from(customForms)
        .where(and(eq(customForms.instanceId, instanceId), inArray(customForms.id, wanted)))
    : [];
  return new Map(rows.map((row) => [row.id, row.title]));
}

export const formTitleOf = (step: Pick<StepRow, 'formCode' | 'customFormId'>, titles: Map<string, string>) =>
  step.customFormId ? (titles.get(step.customFormId) ?? null) : instrumentTitle(step.formCode);

export async function findPathway(db: Database, ctx: SignedInContext, id: string): Promise<PathwayRow> {
  const [row] = await db
    .select()
    .from(pathways)
    .where(and(eq(pathways.id, id), eq(pathways.instanceId, ctx.instanceId), isNull(pathways.deletedAt)));
  if (!row) throw notFound('pathwayNotFound');
  return row;
}

/** Ends the runs of an enrolment that have not been sent, and the enrolment itself. */
export async function stopRuns(tx: Database, instanceId: string, enrolmentId: string, now: Date) {
  await tx
    .update(pathwayStepRuns)
    .set({ status: 'skipped', completedAt: now, updatedAt: now })
    .where(
      and(
        eq(pathwayStepRuns.instanceId, instanceId),
        eq(pathwayStepRuns.enrolmentId, enrolmentId),
        inArray(pathwayStepRuns.status, ['pending', 'sent']),
      ),
    );
  await tx
    .update(pathwayEnrolments)
    .set({ status: 'stopped', completedAt: now, updatedAt: now })
    .where(and(eq(pathwayEnrolments.id, enrolmentId), eq(pathwayEnrolments.instanceId, instanceId)));
}

/** An active enrolment with no run pending or sent is completed. */
export async function completeIfDone(tx: Database, instanceId: string, enrolmentId: string, now: Date): Promise<boolean> {
  const [waiting] = await tx
    .select({ id: pathwayStepRuns.id })
    .from(pathwayStepRuns)
    .where(
      and(
        eq(pathwayStepRuns.instanceId, instanceId),
        eq(pathwayStepRuns.enrolmentId, enrolmentId),
        inArray(pathwayStepRuns.status, ['pending', 'sent']),
      ),
    )
    .limit(1);
  if (waiting) return false;
  const done = await tx
    .update(pathwayEnrolments)
    .set({ status: 'completed', completedAt: now, updatedAt: now })
    .where(
      and(
        eq(pathwayEnrolments.id, enrolmentId),
        eq(pathwayEnrolments.instanceId, instanceId),
        eq(pathwayEnrolments.status, 'active'),
      ),
    )
    .returning({ id: pathwayEnrolments.id });
  return done.length > 0;
}

export async function runsOf(db: Database, instanceId: string, enrolmentIds: string[]) {
  if (enrolmentIds.length === 0) return [];
  return db
    .select({ run: pathwayStepRuns, step: pathwaySteps })
    .from(pathwayStepRuns)
    .innerJoin(
      pathwaySteps,
      and(eq(pathwaySteps.id, pathwayStepRuns.stepId), eq(pathwaySteps.instanceId, pathwayStepRuns.instanceId)),
    )
    .where(and(eq(pathwayStepRuns.instanceId, instanceId), inArray(pathwayStepRuns.enrolmentId, enrolmentIds)))
    .orderBy(asc(pathwayStepRuns.dueAt), asc(pathwaySteps.sortOrder));
}

/** Why a run was skipped, read back from what the record shows (the sweep also writes it to the activity log). */
export function skipReason(
  run: RunRow,
  enrolment: typeof pathwayEnrolments.$inferSelect,
  patient: typeof patients.$inferSelect,
): (typeof pathwaySkipReasons)[number] | null {
  if (run.status !== 'skipped') return null;
  if (patient.accountClosedAt && (!run.completedAt || patient.accountClosedAt <= run.completedAt)) return 'accountClosed';
  if (enrolment.status === 'stopped' && run.completedAt && enrolment.completedAt && run.completedAt >= enrolment.completedAt) {
    return 'stopped';
  }
  return 'unreachable';
}
