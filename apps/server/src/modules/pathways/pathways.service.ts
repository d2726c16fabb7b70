import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Pathway, PathwayStep, PathwaySummary, pathwayInputSchema } from '@pathwell/contracts/pathways';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { customForms, managedItems, pathwayEnrolments, pathways, pathwayStepRuns, pathwaySteps } from '../../db/schema';
import { fieldError } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { requireFormsWorded } from '../form-responses/wording-availability.service';
import { customFormTitles, findPathway, formTitleOf, stopRuns, type PathwayRow, type StepRow } from './pathway-records';

type PathwayInput = z.output<typeof pathwayInputSchema>;

/** Interventional procedures and injections start procedure pathways; study groups start cohort ones. */
const PROCEDURE_LISTS = ['interventionalitems:1', 'interventionalitems:2'];
const COHORT_LIST = 'studygroups';

const canSeeRates = (ctx: SignedInContext) => ctx.actor.role === 'Admin' || ctx.actor.role === 'SystemManager';

const adminActivity = (ctx: SignedInContext, action: 'Created' | 'Updated' | 'Deleted', id: string, description: string) =>
  staffActivity(ctx, 'Admin Configuration', action, { type: 'pathway', id, description });

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

