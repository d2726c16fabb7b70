import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { EnrolPathway, PathwayEnrolment, PathwayStepRun, PatientPathway } from '@pathwell/contracts/pathways';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { pathwayEnrolments, pathways, pathwayStepRuns, pathwaySteps, patients } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { findVisiblePatient, visiblePatients } from '../patients/patient-visibility.service';
import { completeIfDone, customFormTitles, findPathway, formTitleOf, runsOf, skipReason, stopRuns } from './pathway-records';
import { scoresOf } from './pathway-scores';
import { createEnrolment } from './pathway-triggers';

/* A patient's way through a pathway: enrolling by hand, stopping, tasks done, and what staff see of it. */

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
