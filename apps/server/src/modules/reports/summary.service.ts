import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  SUMMARY_VISIT_WEEKS_MAX,
  SUMMARY_VISIT_WEEKS_STEP,
  type SummaryFilterParsed,
  type SummaryPatientRow,
  type SummaryPatients,
  type SummaryReport,
  type SummarySeries,
  type summaryPatientsRequestSchema,
} from '@pathwell/contracts/reports-summary';
import { reportReader, type SignedInContext } from '../../context';
import { rowsOf } from '../../lib/sql-rows';
import { meanConfidenceInterval95 } from '../../lib/statistics';
import { recordActivity, staffActivity } from '../audit/audit.service';
import {
  list,
  numberOrNull,
  patientColumns,
  patientJoins,
  points,
  round,
  sandboxQuery,
  sandboxSettings,
  seriesOf,
  toPatientRow,
  type PatientPointRow,
  type Settings,
} from './summary-query';

interface AggregateRow {
  series_key: string;
  week: number;
  n: number;
  mean: number | string | null;
  sd: number | string | null;
  mean_improvement: number | string | null;
  mcid_reached: number;
  cohort_patients: number;
}

/** The aggregate report: one statement (besides the settings read). */
export async function summaryReport(ctx: SignedInContext, filter: SummaryFilterParsed, known?: Settings): Promise<SummaryReport> {
  const settings = known ?? (await sandboxSettings(ctx));
  const series = seriesOf(filter);
  const computedAt = new Date().toISOString();
  if (series.length === 0)
    return { dataType: filter.reportSummaryDataType, anchor: filter.anchor, cohortPatients: 0, series: [], computedAt };
  const weeks = [
    0,
    ...Array.from({ length: SUMMARY_VISIT_WEEKS_MAX / SUMMARY_VISIT_WEEKS_STEP }, (_, i) => (i + 1) * SUMMARY_VISIT_WEEKS_STEP),
  ].filter((week) => week === 0 || (week >= filter.visitMin && week <= filter.visitMax));
  const query = sandboxQuery(ctx, filter, settings, series);
  const rows = await rowsOf<AggregateRow>(
    reportReader(ctx),
    sql`
    with ${query.ctes},
    aggregates as (${query.aggregates}),
    grid as (
      select m.ord, m.series_key, w.week
        from meta m cross join unnest(array[${list(weeks)}]::int[]) as w(week)
    )
    select g.series_key, g.week, coalesce(a.n, 0)::int as n, a.mean, a.sd, a.mean_improvement,
           coalesce(a.mcid_reached, 0)::int as mcid_reached,
           (select count(*) from cohort)::int as cohort_patients
      from grid g left join aggregates a on a.series_key = g.series_key and a.week = g.week
     order by g.ord, g.week
  `,
  );
  return {
    dataType: filter.reportSummaryDataType,
    anchor: filter.anchor,
    cohortPatients: Number(rows[0]?.cohort_patients ?? 0),
    series: series.map((entry): SummarySeries => ({
      key: entry.key,
      formCode: entry.formCode,
      maximum: entry.maximum,
      normalised: entry.normalised,
      higherIsBetter: entry.higherIsBetter,
      mcid: round(entry.mcid),
      mcidSource: entry.mcidSource,
      points: rows
        .filter((row) => row.series_key === entry.key)
        .map((row) => {
          const n = Number(row.n);
          const mean = numberOrNull(row.mean);
          const sd = numberOrNull(row.sd);
          const interval = meanConfidenceInterval95(n, mean, sd);
          const reached = entry.mcid === null ? null : Number(row.mcid_reached);
          return {
            week: Number(row.week),
            patients: n,
            mean: round(mean),
            sd: round(sd),
            ciLow: round(interval?.low ?? null),
            ciHigh: round(interval?.high ?? null),
            meanImprovement: round(numberOrNull(row.mean_improvement)),
            mcidReached: reached,
            mcidPercent: reached === null || n === 0 ? null : round((100 * reached) / n, 1),
          };
        }),
    })),
    computedAt,
  };
}

/** The drill-down: patients behind one point, by last name, paged; audited as a patient-list view. */
export async function summaryPatients(
  ctx: SignedInContext,
  request: z.output<typeof summaryPatientsRequestSchema>,
): Promise<SummaryPatients> {
  const { pageNumber, pageSize } = request;
  const settings = await sandboxSettings(ctx);
  // Only the asked series is read (its factor still depends on how many forms the filter compares).
  const series = seriesOf(request.filter).filter((entry) => entry.key === request.seriesKey);
  let total = 0;
  let data: SummaryPatientRow[] = [];
  if (series.length) {
    const rows = await rowsOf<PatientPointRow & { total: number }>(
      reportReader(ctx),
      sql`
      with ${points(sandboxQuery(ctx, request.filter, settings, series))},
      selected as materialized (
        select * from points where series_key = ${request.seriesKey} and week = ${request.week}
      ),
      -- The page walks the patients in name order (patients_instance_folded_name_idx) and stops once it has
      -- the page: "is true" keeps the membership test a hashed subplan instead of a join that would fold
      -- and sort every selected patient's name first.
      named as materialized (
        select pt.id from patients pt
         where pt.instance_id = ${ctx.instanceId} and (pt.id in (select s.patient_id from selected s)) is true
         order by pathwell_fold(pt.last_name), pathwell_fold(pt.first_name), pt.id
         limit ${pageSize} offset ${pageNumber * pageSize}
      ),
      page as (
        select ${patientColumns}, pathwell_fold(pt.last_name) as last_key, pathwell_fold(pt.first_name) as first_key
          from selected p join named on named.id = p.patient_id ${patientJoins}
      )
      select (select count(*) from selected)::int as total, page.*
        from (select 1) as one left join page on true
       order by page.last_key, page.first_key, page.patient_id
    `,
    );
    total = Number(rows[0]?.total ?? 0);
    data = rows.filter((row) => row.patient_id !== null).map(toPatientRow);
  }
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient List', 'Viewed', {
      description: `Data sandbox: ${data.length} of ${total} patients behind ${request.seriesKey}, week ${request.week}`,
    }),
  );
  return { totalRecords: total, pageNumber, pageSize, data };
}
