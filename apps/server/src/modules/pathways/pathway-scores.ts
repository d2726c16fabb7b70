import { and, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { PathwayScore } from '@pathwell/contracts/pathways';
import { getInstrument, isFormCode } from '@pathwell/instruments';
import type { Database } from '../../db/client';
import { customFormVersions, formResponses, type pathwayEnrolments } from '../../db/schema';
import { compareHeadlines } from '../form-responses/form-responses.service';
import type { RunRow, StepRow } from './pathway-records';

type ResponseRow = {
  id: string;
  formCode: number | null;
  customFormId: string | null;
  submittedAt: Date;
  headlineScore: number | null;
  notScored: 'wordingNotLoaded' | null;
};

/**
 * The scores of a pathway's PROs with change from baseline (decision 0041): the baseline of a form is
 * its first completed PRO in the enrolment; when that first one is not the day-0 step (the baseline was
 * missed) the patient's latest response to the form before the anchor stands in, if there is one. The
 * MCID verdict is the instrument's own (packages/instruments), the same rule as the result page.
 */
export async function scoresOf(
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
      notScored: formResponses.notScored,
    })
    .from(formResponses)
    .where(and(eq(formResponses.instanceId, instanceId), inArray(formResponses.id, responseIds)));
  const formKey = (formCode: number | null, customFormId: string | null) =>
    customFormId ? `c:${customFormId}` : `f:${formCode}`;
  const completed = runs.filter((row) => row.run.formResponseId && responses.some((r) => r.id === row.run.formResponseId));
  // The baseline is the first response with a score: one answered without its wording is none (decision 0067).
  const firstOf = new Map<string, { run: RunRow; step: StepRow }>();
  for (const row of completed) {
    if (responses.find((r) => r.id === row.run.formResponseId)!.notScored) continue;
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
      isNull(formResponses.notScored),
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
        notScored: formResponses.notScored,
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
    if (response.notScored) {
      // No score, so no baseline and no change: the screen says why instead.
      result.set(row.run.id, {
        responseId: response.id,
        submittedAt: response.submittedAt.toISOString(),
        headlineScore: null,
        notScored: response.notScored,
        baseline: null,
        isBaseline: false,
        mcidPoints: null,
        change: null,
        better: null,
        meetsMcid: null,
      });
      continue;
    }
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
