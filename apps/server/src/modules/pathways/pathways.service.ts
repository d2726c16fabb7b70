import { and, asc, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  EnrolPathway,
  Pathway,
  PathwayEnrolment,
  PathwayScore,
  PathwayStep,
  PathwayStepRun,
  PathwaySummary,
  PatientPathway,
  pathwayInputSchema,
  pathwaySkipReasons,
} from '@pathwell/contracts/pathways';
import { getInstrument, isFormCode } from '@pathwell/instruments';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import {
  customForms,
  customFormVersions,
  formResponses,
  managedItems,
  pathwayEnrolments,
  pathways,
  pathwayStepRuns,
  pathwaySteps,
  patients,
} from '../../db/schema';
import { AppError, fieldError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { compareHeadlines } from '../form-responses/form-responses.service';
import { findVisiblePatient, visiblePatients } from '../patients/patients.service';
import { requireFormsWorded } from '../form-responses/wording-availability';
import { createEnrolment } from './pathway-triggers';

type PathwayInput = z.output<typeof pathwayInputSchema>;
type PathwayRow = typeof pathways.$inferSelect;
type StepRow = typeof pathwaySteps.$inferSelect;
type RunRow = typeof pathwayStepRuns.$inferSelect;

/** Interventional procedures and injections start procedure pathways; study groups start cohort ones. */
const PROCEDURE_LISTS = ['interventionalitems:1', 'interventionalitems:2'];
const COHORT_LIST = 'studygroups';

const canSeeRates = (ctx: SignedInContext) => ctx.actor.role === 'Admin' || ctx.actor.role === 'SystemManager';

const adminActivity = (ctx: SignedInContext, action: 'Created' | 'Updated' | 'Deleted', id: string, description: string) =>
  staffActivity(ctx, 'Admin Configuration', action, { type: 'pathway', id, description });

export function instrumentTitle(formCode: number | null): string | null {
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

function toStep(row: StepRow, titles: Map<string, string>): PathwayStep {
  return {
    id: row.id,
    sortOrder: row.sortOrder,
    dayOffset: row.dayOffset,
    kind: row.kind,
    formCode: row.formCode,
    customFormId: row.customFormId,
    formTitle: row.kind === 'pro' ? formTitleOf(row, titles) : null,
    messageEn: row.messageEn,
    messageEs: row.messageEs,
    reminderDays: row.reminderDays,
  };
}

const base = (row: PathwayRow) => ({
  id: row.id,
  name: row.name,
  description: row.description,
  trigger: row.trigger,
  triggerItemIds: row.triggerItemIds,
  isExample: row.isExample,
  isActive: row.isActive,
});

async function stepsOf(db: Database, instanceId: string, pathwayIds: string[]) {
  if (pathwayIds.length === 0) return [];
  return db
    .select()
    .from(pathwaySteps)
    .where(
      and(eq(pathwaySteps.instanceId, instanceId), inArray(pathwaySteps.pathwayId, pathwayIds), isNull(pathwaySteps.deletedAt)),
    )
    .orderBy(asc(pathwaySteps.sortOrder), asc(pathwaySteps.dayOffset));
}

export async function findPathway(db: Database, ctx: SignedInContext, id: string): Promise<PathwayRow> {
  const [row] = await db
    .select()
    .from(pathways)
    .where(and(eq(pathways.id, id), eq(pathways.instanceId, ctx.instanceId), isNull(pathways.deletedAt)));
  if (!row) throw notFound('pathwayNotFound');
  return row;
}

// ---- pathways ----------------------------------------------------------------------------------------

export async function listPathways(ctx: SignedInContext, now = new Date()): Promise<PathwaySummary[]> {
  const rows = await ctx.db
    .select()
    .from(pathways)
    .where(and(eq(pathways.instanceId, ctx.instanceId), isNull(pathways.deletedAt)))
    .orderBy(asc(pathways.name));
  const ids = rows.map((row) => row.id);
  const steps = await stepsOf(ctx.db, ctx.instanceId, ids);
  const enrolments = ids.length
    ? await ctx.db
        .select({
          pathwayId: pathwayEnrolments.pathwayId,
          total: sql<number>`count(*)::int`,
          active: sql<number>`count(*) filter (where ${pathwayEnrolments.status} = 'active')::int`,
          completed: sql<number>`count(*) filter (where ${pathwayEnrolments.status} = 'completed')::int`,
        })
        .from(pathwayEnrolments)
        .where(and(eq(pathwayEnrolments.instanceId, ctx.instanceId), inArray(pathwayEnrolments.pathwayId, ids)))
        .groupBy(pathwayEnrolments.pathwayId)
    : [];
  const runs =
    ids.length && canSeeRates(ctx)
      ? await ctx.db
          .select({
            pathwayId: pathwayEnrolments.pathwayId,
            due: sql<number>`count(*) filter (where ${pathwayStepRuns.status} <> 'skipped' and (${pathwayStepRuns.status} <> 'pending' or ${pathwayStepRuns.dueAt} <= ${now.toISOString()}))::int`,
            completed: sql<number>`count(*) filter (where ${pathwayStepRuns.status} = 'completed')::int`,
          })
          .from(pathwayStepRuns)
          .innerJoin(
            pathwayEnrolments,
            and(
              eq(pathwayEnrolments.id, pathwayStepRuns.enrolmentId),
              eq(pathwayEnrolments.instanceId, pathwayStepRuns.instanceId),
            ),
          )
          .where(and(eq(pathwayStepRuns.instanceId, ctx.instanceId), inArray(pathwayEnrolments.pathwayId, ids)))
          .groupBy(pathwayEnrolments.pathwayId)
      : [];
  return rows.map((row) => {
    const counts = enrolments.find((entry) => entry.pathwayId === row.id);
    const rate = runs.find((entry) => entry.pathwayId === row.id);
    const seeRates = canSeeRates(ctx);
    const due = seeRates ? (rate?.due ?? 0) : null;
    const completed = seeRates ? (rate?.completed ?? 0) : null;
    return {
      ...base(row),
      stepCount: steps.filter((step) => step.pathwayId === row.id).length,
      enrolments: counts?.total ?? 0,
      activeEnrolments: counts?.active ?? 0,
      completedEnrolments: counts?.completed ?? 0,
      dueRuns: due,
      completedRuns: completed,
      completionRate: due && completed !== null ? Math.min(1, completed / due) : null,
    };
  });
}

async function toPathway(db: Database, ctx: SignedInContext, row: PathwayRow): Promise<Pathway> {
  const steps = await stepsOf(db, ctx.instanceId, [row.id]);
  const titles = await customFormTitles(
    db,
    ctx.instanceId,
    steps.map((step) => step.customFormId),
  );
  return {
    ...base(row),
    steps: steps.map((step) => toStep(step, titles)),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function getPathway(ctx: SignedInContext, id: string): Promise<Pathway> {
  return toPathway(ctx.db, ctx, await findPathway(ctx.db, ctx, id));
}

/** Trigger items of the clinic's right list, and PRO steps' custom forms of the clinic. */
async function checkReferences(db: Database, ctx: SignedInContext, input: PathwayInput): Promise<string[]> {
  const itemIds = input.trigger === 'procedure' || input.trigger === 'cohort' ? [...new Set(input.triggerItemIds)] : [];
  if (input.trigger === 'procedure' || input.trigger === 'cohort') {
    if (itemIds.length === 0) throw fieldError('triggerItemIds', 'required');
    const lists = input.trigger === 'procedure' ? PROCEDURE_LISTS : [COHORT_LIST];
    const found = await db
      .select({ id: managedItems.id })
      .from(managedItems)
      .where(
        and(
          eq(managedItems.instanceId, ctx.instanceId),
          inArray(managedItems.id, itemIds),
          inArray(managedItems.listType, lists),
          isNull(managedItems.deletedAt),
        ),
      );
    if (found.length !== itemIds.length) throw fieldError('triggerItemIds', 'invalid');
  }
  for (const [index, step] of input.steps.entries()) {
    if (step.kind !== 'pro' || !step.customFormId) continue;
    const [form] = await db
      .select({ id: customForms.id, archivedAt: customForms.archivedAt })
      .from(customForms)
      .where(and(eq(customForms.id, step.customFormId), eq(customForms.instanceId, ctx.instanceId)));
    if (!form || form.archivedAt) throw fieldError(`steps.${index}.customFormId`, 'invalid', 'customFormNotFound');
  }
  await requireFormsWorded(
    db,
    ctx.instanceId,
    input.steps.map((step) => (step.kind === 'pro' ? step.formCode : null)),
    (index) => `steps.${index}.formCode`,
  );
  return itemIds;
}

async function insertSteps(db: Database, ctx: SignedInContext, pathwayId: string, input: PathwayInput) {
  // Sorted by day so the list reads in time order whatever order the editor sent.
  const ordered = [...input.steps].sort((a, b) => a.dayOffset - b.dayOffset);
  await db.insert(pathwaySteps).values(
    ordered.map((step, index) => ({
      instanceId: ctx.instanceId,
      pathwayId,
      sortOrder: index,
      dayOffset: step.dayOffset,
      kind: step.kind,
      formCode: step.kind === 'pro' && !step.customFormId ? (step.formCode ?? null) : null,
      customFormId: step.kind === 'pro' ? (step.customFormId ?? null) : null,
      messageEn: step.kind === 'pro' ? null : step.messageEn || null,
      messageEs: step.kind === 'pro' ? null : step.messageEs || null,
      reminderDays:
        step.kind === 'pro' || step.kind === 'painJournal'
          ? [...new Set(step.reminderDays.filter((day) => day > 0))].sort((a, b) => a - b)
          : [],
    })),
  );
}

export async function createPathway(ctx: SignedInContext, input: PathwayInput): Promise<Pathway> {
  return ctx.db.transaction(async (tx) => {
    const itemIds = await checkReferences(tx, ctx, input);
    const [row] = await tx
      .insert(pathways)
      .values({
        instanceId: ctx.instanceId,
        name: input.name,
        description: input.description || null,
        trigger: input.trigger,
        triggerItemIds: itemIds,
        isActive: input.isActive,
        createdBy: ctx.actor.userId,
      })
      .returning();
    await insertSteps(tx, ctx, row!.id, input);
    await recordActivity(tx, adminActivity(ctx, 'Created', row!.id, `Pathway "${input.name}" created`));
    return toPathway(tx, ctx, row!);
  });
}

/**
 * The steps are replaced as one: running enrolments keep the steps they were enrolled with (their runs
 * point at the earlier steps, kept as deleted), new enrolments follow the new plan.
 */
export async function updatePathway(ctx: SignedInContext, id: string, input: PathwayInput): Promise<Pathway> {
  return ctx.db.transaction(async (tx) => {
    await findPathway(tx, ctx, id);
    const itemIds = await checkReferences(tx, ctx, input);
    const now = new Date();
    const [row] = await tx
      .update(pathways)
      .set({
        name: input.name,
        description: input.description || null,
        trigger: input.trigger,
        triggerItemIds: itemIds,
        isActive: input.isActive,
        updatedAt: now,
      })
      .where(and(eq(pathways.id, id), eq(pathways.instanceId, ctx.instanceId)))
      .returning();
    await tx
      .update(pathwaySteps)
      .set({ deletedAt: now, updatedAt: now })
      .where(and(eq(pathwaySteps.instanceId, ctx.instanceId), eq(pathwaySteps.pathwayId, id), isNull(pathwaySteps.deletedAt)));
    await insertSteps(tx, ctx, id, input);
    await recordActivity(tx, adminActivity(ctx, 'Updated', id, `Pathway "${input.name}" updated`));
    return toPathway(tx, ctx, row!);
  });
}

/** Deleting stops its running enrolments: what was not sent yet is skipped. */
export async function deletePathway(ctx: SignedInContext, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const row = await findPathway(tx, ctx, id);
    const now = new Date();
    await tx
      .update(pathways)
      .set({ deletedAt: now, isActive: false, updatedAt: now })
      .where(and(eq(pathways.id, id), eq(pathways.instanceId, ctx.instanceId)));
    const running = await tx
      .select({ id: pathwayEnrolments.id })
      .from(pathwayEnrolments)
      .where(
        and(
          eq(pathwayEnrolments.instanceId, ctx.instanceId),
          eq(pathwayEnrolments.pathwayId, id),
          eq(pathwayEnrolments.status, 'active'),
        ),
      );
    for (const enrolment of running) await stopRuns(tx, ctx.instanceId, enrolment.id, now);
    await recordActivity(tx, adminActivity(ctx, 'Deleted', id, `Pathway "${row.name}" deleted`));
  });
}

export async function pathwayOptions(ctx: SignedInContext) {
  const items = await ctx.db
    .select({ id: managedItems.id, name: managedItems.name, listType: managedItems.listType })
    .from(managedItems)
    .where(
      and(
        eq(managedItems.instanceId, ctx.instanceId),
        inArray(managedItems.listType, [...PROCEDURE_LISTS, COHORT_LIST]),
        isNull(managedItems.deletedAt),
      ),
    )
    .orderBy(asc(managedItems.sortOrder), asc(managedItems.name));
  const forms = await ctx.db
    .select({ id: customForms.id, title: customForms.title })
    .from(customForms)
    .where(and(eq(customForms.instanceId, ctx.instanceId), isNull(customForms.archivedAt)))
    .orderBy(asc(customForms.title));
  return {
    procedures: items.filter((item) => PROCEDURE_LISTS.includes(item.listType)).map(({ id, name }) => ({ id, name })),
    studyGroups: items.filter((item) => item.listType === COHORT_LIST).map(({ id, name }) => ({ id, name })),
    customForms: forms,
  };
}

// ---- enrolments --------------------------------------------------------------------------------------

/** Ends the runs of an enrolment that have not been sent, and the enrolment itself. */
async function stopRuns(tx: Database, instanceId: string, enrolmentId: string, now: Date) {
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

export async function enrolPatient(ctx: SignedInContext, pathwayId: string, input: EnrolPathway): Promise<PathwayEnrolment> {
  const enrolmentId = await ctx.db.transaction(async (tx) => {
    const pathway = await findPathway(tx, ctx, pathwayId);
    const patient = await findVisiblePatient(ctx, tx, input.patientId);
    if (patient.accountClosedAt) throw new AppError('CONFLICT', 'accountClosed');
    if (!pathway.isActive) throw new AppError('CONFLICT', 'pathwayInactive');
    const id = await createEnrolment(ctx, tx, {
      pathwayId,
      patientId: patient.id,
      anchorAt: input.anchorAt ? new Date(input.anchorAt) : new Date(),
      startedBy: 'staff',
    });
    if (!id) throw new AppError('CONFLICT', 'pathwayAlreadyEnrolled');
    return id;
  });
  return enrolmentDetail(ctx, enrolmentId, false);
}

async function findVisibleEnrolment(db: Database, ctx: SignedInContext, enrolmentId: string) {
  const [row] = await db
    .select({ enrolment: pathwayEnrolments, patient: patients })
    .from(pathwayEnrolments)
    .innerJoin(patients, and(eq(patients.id, pathwayEnrolments.patientId), eq(patients.instanceId, pathwayEnrolments.instanceId)))
    .where(and(eq(pathwayEnrolments.id, enrolmentId), eq(pathwayEnrolments.instanceId, ctx.instanceId), visiblePatients(ctx)));
  if (!row) throw notFound('pathwayEnrolmentNotFound');
  return row;
}

export async function stopEnrolment(ctx: SignedInContext, enrolmentId: string): Promise<PathwayEnrolment> {
  await ctx.db.transaction(async (tx) => {
    const { enrolment } = await findVisibleEnrolment(tx, ctx, enrolmentId);
    if (enrolment.status !== 'active') throw new AppError('CONFLICT', 'pathwayEnrolmentEnded');
    await stopRuns(tx, ctx.instanceId, enrolment.id, new Date());
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Updated', {
        type: 'pathway enrolment',
        id: enrolment.id,
        description: `Pathway enrolment of patient ${enrolment.patientId} stopped`,
      }),
    );
  });
  return enrolmentDetail(ctx, enrolmentId, false);
}

/** Staff mark a raised task done; the enrolment completes when nothing else is waiting. */
export async function markTaskDone(ctx: SignedInContext, runId: string): Promise<PathwayEnrolment> {
  const enrolmentId = await ctx.db.transaction(async (tx) => {
    const [run] = await tx
      .select({ run: pathwayStepRuns, kind: pathwaySteps.kind })
      .from(pathwayStepRuns)
      .innerJoin(
        pathwaySteps,
        and(eq(pathwaySteps.id, pathwayStepRuns.stepId), eq(pathwaySteps.instanceId, pathwayStepRuns.instanceId)),
      )
      .where(and(eq(pathwayStepRuns.id, runId), eq(pathwayStepRuns.instanceId, ctx.instanceId)))
      .for('update', { of: pathwayStepRuns });
    if (!run) throw notFound('pathwayStepNotFound');
    const { enrolment } = await findVisibleEnrolment(tx, ctx, run.run.enrolmentId).catch(() => {
      throw notFound('pathwayStepNotFound');
    });
    if (run.kind !== 'task' || run.run.status !== 'sent') throw new AppError('CONFLICT', 'pathwayTaskNotOpen');
    const now = new Date();
    await tx
      .update(pathwayStepRuns)
      .set({ status: 'completed', completedAt: now, completedBy: ctx.actor.userId, updatedAt: now })
      .where(eq(pathwayStepRuns.id, runId));
    await completeIfDone(tx, ctx.instanceId, enrolment.id, now);
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Updated', {
        type: 'pathway step',
        id: runId,
        description: `Pathway task of patient ${enrolment.patientId} marked done`,
      }),
    );
    return enrolment.id;
  });
  return enrolmentDetail(ctx, enrolmentId, false);
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

export async function patientPathways(ctx: SignedInContext, patientId: string): Promise<PatientPathway[]> {
  const patient = await findVisiblePatient(ctx, ctx.db, patientId);
  const rows = await ctx.db
    .select({ enrolment: pathwayEnrolments, name: pathways.name, isExample: pathways.isExample })
    .from(pathwayEnrolments)
    .innerJoin(pathways, and(eq(pathways.id, pathwayEnrolments.pathwayId), eq(pathways.instanceId, pathwayEnrolments.instanceId)))
    .where(and(eq(pathwayEnrolments.instanceId, ctx.instanceId), eq(pathwayEnrolments.patientId, patient.id)))
    .orderBy(asc(sql`case ${pathwayEnrolments.status} when 'active' then 0 else 1 end`), desc(pathwayEnrolments.anchorAt))
    .limit(50);
  const runs = await runsOf(
    ctx.db,
    ctx.instanceId,
    rows.map((row) => row.enrolment.id),
  );
  const titles = await customFormTitles(
    ctx.db,
    ctx.instanceId,
    runs.map((row) => row.step.customFormId),
  );
  return rows.map(({ enrolment, name, isExample }) => {
    const own = runs.filter((row) => row.run.enrolmentId === enrolment.id);
    const next = own.find((row) => row.run.status === 'pending');
    const nextPro = own.find((row) => row.run.status === 'pending' && row.step.kind === 'pro');
    return {
      id: enrolment.id,
      pathwayId: enrolment.pathwayId,
      pathwayName: name,
      isExample,
      status: enrolment.status,
      startedBy: enrolment.startedBy,
      anchorAt: enrolment.anchorAt.toISOString(),
      completedSteps: own.filter((row) => row.run.status === 'completed').length,
      totalSteps: own.length,
      nextStep: next
        ? {
            runId: next.run.id,
            kind: next.step.kind,
            dueAt: next.run.dueAt.toISOString(),
            formTitle: next.step.kind === 'pro' ? formTitleOf(next.step, titles) : null,
          }
        : null,
      nextProAt: nextPro?.run.dueAt.toISOString() ?? null,
    };
  });
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

type ResponseRow = {
  id: string;
  formCode: number | null;
  customFormId: string | null;
  submittedAt: Date;
  headlineScore: number | null;
};

/**
 * The scores of a pathway's PROs with change from baseline (decision 0041): the baseline of a form is
 * its first completed PRO in the enrolment; when that first one is not the day-0 step (the baseline was
 * missed) the patient's latest response to the form before the anchor stands in, if there is one. The
 * MCID verdict is the instrument's own (packages/instruments), the same rule as the result page.
 */
async function scoresOf(
  db: Database,
  instanceId: string,
  enrolment: typeof pathwayEnrolments.$inferSelect,
  runs: { run: RunRow; step: StepRow }[],
): Promise<Map<string, PathwayScore>> {
  const responseIds = runs.map((row) => row.run.formResponseId).filter((id): id is string => Boolean(id));
  const result = new Map<string, PathwayScore>();
  if (responseIds.length === 0) return result;
  const responses: ResponseRow[] = await db
    .select({
      id: formResponses.id,
      formCode: formResponses.formCode,
      customFormId: sql<
        string | null
      >`(select ${customFormVersions.customFormId} from ${customFormVersions} where ${customFormVersions.id} = ${formResponses.customFormVersionId})`,
      submittedAt: formResponses.submittedAt,
      headlineScore: formResponses.headlineScore,
    })
    .from(formResponses)
    .where(and(eq(formResponses.instanceId, instanceId), inArray(formResponses.id, responseIds)));
  const formKey = (formCode: number | null, customFormId: string | null) =>
    customFormId ? `c:${customFormId}` : `f:${formCode}`;
  const completed = runs.filter((row) => row.run.formResponseId && responses.some((r) => r.id === row.run.formResponseId));
  const firstOf = new Map<string, { run: RunRow; step: StepRow }>();
  for (const row of completed) {
    const key = formKey(row.step.formCode, row.step.customFormId);
    if (!firstOf.has(key)) firstOf.set(key, row);
  }
  const beforeAnchor = new Map<string, ResponseRow | null>();
  for (const [key, first] of firstOf) {
    if (first.step.dayOffset === 0) continue;
    const conditions = [
      eq(formResponses.instanceId, instanceId),
      eq(formResponses.patientId, enrolment.patientId),
      lt(formResponses.submittedAt, enrolment.anchorAt),
      first.step.customFormId
        ? sql`${formResponses.customFormVersionId} in (select ${customFormVersions.id} from ${customFormVersions} where ${customFormVersions.customFormId} = ${first.step.customFormId})`
        : eq(formResponses.formCode, first.step.formCode!),
    ];
    const [previous] = await db
      .select({
        id: formResponses.id,
        formCode: formResponses.formCode,
        customFormId: sql<string | null>`null`,
        submittedAt: formResponses.submittedAt,
        headlineScore: formResponses.headlineScore,
      })
      .from(formResponses)
      .where(and(...conditions))
      .orderBy(desc(formResponses.submittedAt), desc(formResponses.id))
      .limit(1);
    beforeAnchor.set(key, previous ?? null);
  }
  for (const row of completed) {
    const response = responses.find((r) => r.id === row.run.formResponseId)!;
    const key = formKey(row.step.formCode, row.step.customFormId);
    const first = firstOf.get(key)!;
    const preAnchor = beforeAnchor.get(key) ?? null;
    const isFirst = first.run.id === row.run.id;
    const baseline: ResponseRow | null = isFirst
      ? preAnchor
      : (preAnchor ?? responses.find((r) => r.id === first.run.formResponseId) ?? null);
    const definition = row.step.formCode !== null && isFormCode(row.step.formCode) ? getInstrument(row.step.formCode) : null;
    const higherIsBetter = definition
      ? (definition.scores.find((score) => score.key === definition.headline.key)?.higherIsBetter ?? null)
      : null;
    const mcidPoints = definition?.mcid?.points ?? null;
    const comparison = compareHeadlines(response.headlineScore, baseline?.headlineScore ?? null, { higherIsBetter, mcidPoints });
    result.set(row.run.id, {
      responseId: response.id,
      submittedAt: response.submittedAt.toISOString(),
      headlineScore: response.headlineScore,
      baseline: baseline
        ? { responseId: baseline.id, submittedAt: baseline.submittedAt.toISOString(), headlineScore: baseline.headlineScore }
        : null,
      isBaseline: isFirst && !preAnchor,
      mcidPoints,
      ...comparison,
      // An improvement of at least the MCID; a worsening of that size is not "meets" (the verdict is about benefit).
      meetsMcid: comparison.meetsMcid === null ? null : comparison.meetsMcid && comparison.better === true,
    });
  }
  return result;
}

export async function enrolmentDetail(ctx: SignedInContext, enrolmentId: string, audit = true): Promise<PathwayEnrolment> {
  return ctx.db.transaction(async (tx) => {
    const { enrolment, patient } = await findVisibleEnrolment(tx, ctx, enrolmentId);
    const [pathway] = await tx
      .select()
      .from(pathways)
      .where(and(eq(pathways.id, enrolment.pathwayId), eq(pathways.instanceId, ctx.instanceId)));
    const runs = await runsOf(tx, ctx.instanceId, [enrolment.id]);
    const titles = await customFormTitles(
      tx,
      ctx.instanceId,
      runs.map((row) => row.step.customFormId),
    );
    const scores = await scoresOf(tx, ctx.instanceId, enrolment, runs);
    if (audit) {
      await recordActivity(
        tx,
        staffActivity(ctx, 'Patient Dashboard', 'Viewed', {
          type: 'pathway enrolment',
          id: enrolment.id,
          description: `Viewed the pathway of patient ${patient.id}`,
        }),
      );
    }
    const steps: PathwayStepRun[] = runs.map(({ run, step }) => ({
      id: run.id,
      stepId: step.id,
      sortOrder: step.sortOrder,
      dayOffset: step.dayOffset,
      kind: step.kind,
      formCode: step.formCode,
      customFormId: step.customFormId,
      formTitle: step.kind === 'pro' ? formTitleOf(step, titles) : null,
      messageEn: step.messageEn,
      messageEs: step.messageEs,
      dueAt: run.dueAt.toISOString(),
      status: run.status,
      sentAt: run.sentAt?.toISOString() ?? null,
      remindersSent: run.remindersSent,
      reminderDays: step.reminderDays,
      completedAt: run.completedAt?.toISOString() ?? null,
      skipReason: skipReason(run, enrolment, patient),
      score: scores.get(run.id) ?? null,
    }));
    return {
      id: enrolment.id,
      pathwayId: enrolment.pathwayId,
      pathwayName: pathway?.name ?? '',
      pathwayDescription: pathway?.description ?? null,
      isExample: pathway?.isExample ?? false,
      patientId: patient.id,
      patientName: [patient.firstName, patient.lastName].join(' '),
      status: enrolment.status,
      startedBy: enrolment.startedBy,
      anchorAt: enrolment.anchorAt.toISOString(),
      completedAt: enrolment.completedAt?.toISOString() ?? null,
      steps,
    };
  });
}
