import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { PathwayRosterPage, pathwayRosterQuerySchema } from '@pathwell/contracts/pathways';
import type { SignedInContext } from '../../context';
import { formResponses, pathwayEnrolments, patients } from '../../db/schema';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { visiblePatients } from '../patients/patient-visibility.service';
import { customFormTitles, findPathway, formTitleOf, runsOf, skipReason } from './pathway-records';
import { listTotal } from '../../lib/list-total';

type RosterQuery = z.output<typeof pathwayRosterQuerySchema>;

/**
 * A pathway's roster (issue #24 §5): its enrolled patients, running ones first, each with every step's
 * result. A Doctor sees only their own patients (the same rule as the enrolment page), so the count is
 * theirs too. Listing patients is a patient-data read: one activity entry per page viewed.
 */
export async function pathwayRoster(ctx: SignedInContext, pathwayId: string, query: RosterQuery): Promise<PathwayRosterPage> {
  return ctx.db.transaction(async (tx) => {
    const pathway = await findPathway(tx, ctx, pathwayId);
    const where = and(
      eq(pathwayEnrolments.instanceId, ctx.instanceId),
      eq(pathwayEnrolments.pathwayId, pathway.id),
      query.status ? eq(pathwayEnrolments.status, query.status) : undefined,
      visiblePatients(ctx),
    );
    const joined = and(eq(patients.id, pathwayEnrolments.patientId), eq(patients.instanceId, pathwayEnrolments.instanceId));
    const rows = await tx
      .select({ enrolment: pathwayEnrolments, patient: patients })
      .from(pathwayEnrolments)
      .innerJoin(patients, joined)
      .where(where)
      .orderBy(
        asc(sql`case ${pathwayEnrolments.status} when 'active' then 0 else 1 end`),
        asc(patients.lastName),
        asc(patients.firstName),
        asc(pathwayEnrolments.id),
      )
      .limit(query.pageSize)
      .offset(query.pageSize * query.pageNumber);
    // A pathway's roster is a clinic's enrolments in one pathway: counted whole, the page says "of N".
    const { totalRecords } = await listTotal(
      tx,
      tx.select({ id: pathwayEnrolments.id }).from(pathwayEnrolments).innerJoin(patients, joined).where(where),
      { ...query, rowsOnPage: rows.length, exact: true },
    );
    const runs = await runsOf(
      tx,
      ctx.instanceId,
      rows.map((row) => row.enrolment.id),
    );
    const titles = await customFormTitles(
      tx,
      ctx.instanceId,
      runs.map((row) => row.step.customFormId),
    );
    const responseIds = runs.map((row) => row.run.formResponseId).filter((id): id is string => Boolean(id));
    const scores = new Map(
      (responseIds.length
        ? await tx
            .select({ id: formResponses.id, headlineScore: formResponses.headlineScore, notScored: formResponses.notScored })
            .from(formResponses)
            .where(and(eq(formResponses.instanceId, ctx.instanceId), inArray(formResponses.id, responseIds)))
        : []
      ).map((row) => [row.id, row]),
    );
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Viewed', {
        type: 'pathway',
        id: pathway.id,
        description: `Viewed the roster of pathway "${pathway.name}" (${rows.length} of ${totalRecords} patients, page ${query.pageNumber + 1})`,
      }),
    );
    return {
      totalRecords,
      pageNumber: query.pageNumber,
      pageSize: query.pageSize,
      data: rows.map(({ enrolment, patient }) => ({
        enrolmentId: enrolment.id,
        patientId: patient.id,
        patientName: [patient.firstName, patient.lastName].join(' '),
        status: enrolment.status,
        anchorAt: enrolment.anchorAt.toISOString(),
        steps: runs
          .filter((row) => row.run.enrolmentId === enrolment.id)
          .map(({ run, step }) => ({
            runId: run.id,
            kind: step.kind,
            dayOffset: step.dayOffset,
            formTitle: step.kind === 'pro' ? formTitleOf(step, titles) : null,
            status: run.status,
            dueAt: run.dueAt.toISOString(),
            sentAt: run.sentAt?.toISOString() ?? null,
            completedAt: run.completedAt?.toISOString() ?? null,
            skipReason: skipReason(run, enrolment, patient),
            headlineScore: run.formResponseId ? (scores.get(run.formResponseId)?.headlineScore ?? null) : null,
            ...(run.formResponseId && scores.get(run.formResponseId)?.notScored
              ? { notScored: 'wordingNotLoaded' as const }
              : {}),
          })),
      })),
    };
  });
}
