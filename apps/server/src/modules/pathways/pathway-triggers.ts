import { and, arrayContains, asc, eq, isNull, ne } from 'drizzle-orm';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { appointments, pathwayEnrolments, pathways, pathwayStepRuns, pathwaySteps } from '../../db/schema';
import { recordActivity, staffActivity } from '../audit/audit.service';

const DAY_MS = 86_400_000;

type PathwayStart = 'staff' | 'procedure' | 'firstVisit' | 'cohort';

/**
 * Enrols a patient in a pathway: the enrolment and one step run per step, each due `dayOffset` days
 * after the anchor. Null when the patient already follows it (one active enrolment per pathway).
 */
export async function createEnrolment(
  ctx: SignedInContext,
  tx: Database,
  input: {
    pathwayId: string;
    patientId: string;
    anchorAt: Date;
    startedBy: PathwayStart;
    interventionId?: string | null;
  },
): Promise<string | null> {
  const [enrolment] = await tx
    .insert(pathwayEnrolments)
    .values({
      instanceId: ctx.instanceId,
      pathwayId: input.pathwayId,
      patientId: input.patientId,
      anchorAt: input.anchorAt,
      startedBy: input.startedBy,
      interventionId: input.interventionId ?? null,
      enrolledBy: ctx.actor.userId,
    })
    // The partial unique index (one active enrolment per patient and pathway) makes a second start a no-op.
    .onConflictDoNothing()
    .returning({ id: pathwayEnrolments.id });
  if (!enrolment) return null;
  const steps = await tx
    .select({ id: pathwaySteps.id, dayOffset: pathwaySteps.dayOffset })
    .from(pathwaySteps)
    .where(
      and(
        eq(pathwaySteps.instanceId, ctx.instanceId),
        eq(pathwaySteps.pathwayId, input.pathwayId),
        isNull(pathwaySteps.deletedAt),
      ),
    )
    .orderBy(asc(pathwaySteps.sortOrder));
  if (steps.length > 0) {
    await tx.insert(pathwayStepRuns).values(
      steps.map((step) => ({
        instanceId: ctx.instanceId,
        enrolmentId: enrolment.id,
        stepId: step.id,
        dueAt: new Date(input.anchorAt.getTime() + step.dayOffset * DAY_MS),
      })),
    );
  }
  await recordActivity(
    tx,
    staffActivity(ctx, 'Patient Dashboard', 'Created', {
      type: 'pathway enrolment',
      id: enrolment.id,
      description: `Patient ${input.patientId} enrolled in pathway ${input.pathwayId} (${input.startedBy})`,
    }),
  );
  return enrolment.id;
}

/**
 * Issue #13: an event enrols the patient in every active pathway of the clinic whose trigger matches it
 * (procedure: the performed item is one of the pathway's items; cohort: the study group is; first visit:
 * any), unless the patient already follows that pathway. Runs in the caller's transaction, so the
 * enrolment exists only if the event's own change commits.
 */
export async function startTriggeredPathways(
  ctx: SignedInContext,
  tx: Database,
  event: {
    kind: 'procedure' | 'firstVisit' | 'cohort';
    patientId: string;
    triggerId: string | null;
    anchorAt: Date;
    interventionId?: string | null;
  },
): Promise<void> {
  if (event.kind !== 'firstVisit' && !event.triggerId) return;
  const conditions = [
    eq(pathways.instanceId, ctx.instanceId),
    eq(pathways.trigger, event.kind),
    eq(pathways.isActive, true),
    isNull(pathways.deletedAt),
  ];
  if (event.kind !== 'firstVisit') conditions.push(arrayContains(pathways.triggerItemIds, [event.triggerId!]));
  const matching = await tx
    .select({ id: pathways.id })
    .from(pathways)
    .where(and(...conditions))
    .orderBy(asc(pathways.createdAt));
  for (const pathway of matching) {
    await createEnrolment(ctx, tx, {
      pathwayId: pathway.id,
      patientId: event.patientId,
      anchorAt: event.anchorAt,
      startedBy: event.kind,
      interventionId: event.kind === 'procedure' ? (event.interventionId ?? null) : null,
    });
  }
}

/**
 * An appointment just became Completed: when the patient has no other completed visit, this was the
 * first, and the first-visit pathways start from its start time.
 */
export async function startFirstVisitPathways(
  ctx: SignedInContext,
  tx: Database,
  visit: { id: string; patientId: string; startsAt: Date },
): Promise<void> {
  const [earlier] = await tx
    .select({ id: appointments.id })
    .from(appointments)
    .where(
      and(
        eq(appointments.instanceId, ctx.instanceId),
        eq(appointments.patientId, visit.patientId),
        eq(appointments.status, AppointmentStatus.Completed),
        ne(appointments.id, visit.id),
        isNull(appointments.deletedAt),
      ),
    )
    .limit(1);
  if (earlier) return;
  await startTriggeredPathways(ctx, tx, {
    kind: 'firstVisit',
    patientId: visit.patientId,
    triggerId: null,
    anchorAt: visit.startsAt,
  });
}
