import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import {
  FOLLOW_UP_MIN_DAYS,
  PAIN_IMPROVEMENT_POINTS,
  type ReferralFunnel,
  type ReferralPatients,
  type ReferralTracker,
  type referralPatientsFilterSchema,
  type referralTrackerFilterSchema,
} from '@pathwell/contracts/reports-referrals';
import { formCodes, getInstrument } from '@pathwell/instruments';
import type { SignedInContext } from '../../context';
import { appointments, formResponses, interventions, managedItems, patients } from '../../db/schema';
import { appointmentDateWindow, type DateWindow } from '../../lib/clinic-dates';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { clinicTimeZone } from '../settings/settings.service';
import { clinicDayStartAfter } from './clinic-day';
import { withoutJit } from './report-session';
import { reportPatients } from '../patients/patient-visibility.service';
import { rowsOf } from '../../lib/sql-rows';

type TrackerFilter = z.output<typeof referralTrackerFilterSchema>;
type PatientsFilter = z.output<typeof referralPatientsFilterSchema>;

/**
 * The outcome forms that have a published MCID, with the direction of their headline score, as the
 * rows of a SQL VALUES list: the database needs each form's own threshold to judge improvement.
 */
function mcidValues(): SQL {
  const rows = formCodes
    .map((code) => getInstrument(code))
    .flatMap((definition) => {
      const headline = definition.scores.find((score) => score.key === definition.headline.key);
      if (!definition.mcid || !headline) return [];
      return [sql`(${definition.formCode}::int, ${definition.mcid.points}::numeric, ${headline.higherIsBetter}::boolean)`];
    });
  return rows.length > 0
    ? sql`values ${sql.join(rows, sql`, `)}`
    : sql`select null::int, null::numeric, null::boolean where false`;
}

/**
 * Improved: any outcome form with an MCID whose latest response, at least FOLLOW_UP_MIN_DAYS clinic days
 * after the first (decision 0060), moved the headline score the better way by at least the MCID; or the
 * visit pain score of a completed visit that far after the first completed visit with a score fell by at least
 * PAIN_IMPROVEMENT_POINTS (Farrar JT, Young JP, LaMoreaux L, Werth JL, Poole RM. Pain 2001;94:149–158).
 * Scores carry four decimals, so the change is rounded like the result page's (compareHeadlines).
 */
function improvedSql(instanceId: string, patientColumn: SQL, timeZone: string): SQL {
  const followUpAfter = (instant: SQL) => clinicDayStartAfter(instant, FOLLOW_UP_MIN_DAYS, timeZone);
  const response = (order: SQL, extra: SQL) => sql`
    select r.headline_score as score, r.submitted_at as at
      from ${formResponses} r
     where r.instance_id = ${instanceId} and r.patient_id = ${patientColumn} and r.form_code = m.form_code
       and r.headline_score is not null ${extra}
     order by ${order}
     limit 1`;
  const visit = (order: SQL, extra: SQL) => sql`
    select a.pain_score as score, a.starts_at as at
      from ${appointments} a
     where a.instance_id = ${instanceId} and a.patient_id = ${patientColumn} and a.deleted_at is null
       and a.status = ${AppointmentStatus.Completed} and a.pain_score is not null ${extra}
     order by ${order}
     limit 1`;
  return sql`(
    exists (
      select 1
        from mcid m
        cross join lateral (${response(sql`r.submitted_at, r.id`, sql``)}) first_response
        cross join lateral (${response(
          sql`r.submitted_at desc, r.id desc`,
          sql`and r.submitted_at >= ${followUpAfter(sql`first_response.at`)}`,
        )}) latest_response
       where round(case when m.higher_is_better then latest_response.score - first_response.score
                        else first_response.score - latest_response.score end, 4) >= m.points
    )
    or exists (
      select 1
        from (${visit(sql`a.starts_at, a.id`, sql``)}) first_visit
        cross join lateral (${visit(
          sql`a.starts_at desc, a.id desc`,
          sql`and a.starts_at >= ${followUpAfter(sql`first_visit.at`)}`,
        )}) latest_visit
       where first_visit.score - latest_visit.score >= ${PAIN_IMPROVEMENT_POINTS}
    )
  )`;
}

/**
 * The patients a filter takes in, one row each with the funnel's flags (`flagged`) and the first day of
 * their period (`period_start`). A patient enters the report at their first appointment (any status),
 * or when their record was created if they have none; the period is that instant's month or quarter on
 * the clinic's calendar.
 */
function flaggedPatients(ctx: SignedInContext, filter: TrackerFilter, window: DateWindow, timeZone: string): SQL {
  const from = window.from.toISOString();
  const to = window.to.toISOString();
  const ofPatients = reportPatients(ctx, filter.doctorId);
  const ids = (values: readonly (string | number)[]) =>
    sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    );
  const conditions = [
    ofPatients ? sql`and ${ofPatients}` : sql``,
    filter.referralSources.length > 0 ? sql`and p.referral_source in (${ids(filter.referralSources)})` : sql``,
    filter.referringProviderIds.length > 0 ? sql`and p.referring_provider_id in (${ids(filter.referringProviderIds)})` : sql``,
  ];
  return sql`
    mcid(form_code, points, higher_is_better) as (${mcidValues()}),
    -- Who entered in the window, found from the window's own rows (issue #14 §5): the patients whose first
    -- live appointment ever falls in it (one in it and none before it), and the patients created in it who
    -- have no live appointment at all. Never a pass over every patient of the clinic.
    entered (id, referred_at) as (
      select a.patient_id, min(a.starts_at)
        from ${appointments} a
       where a.instance_id = ${ctx.instanceId} and a.deleted_at is null
         and a.starts_at >= ${from}::timestamptz and a.starts_at < ${to}::timestamptz
       group by a.patient_id
      having not exists (
               select 1 from ${appointments} earlier
                where earlier.instance_id = ${ctx.instanceId} and earlier.patient_id = a.patient_id
                  and earlier.deleted_at is null and earlier.starts_at < ${from}::timestamptz
             )
      union all
      select p.id, p.created_at
        from ${patients} p
       where p.instance_id = ${ctx.instanceId}
         and p.created_at >= ${from}::timestamptz and p.created_at < ${to}::timestamptz
         and not exists (
               select 1 from ${appointments} any_visit
                where any_visit.instance_id = ${ctx.instanceId} and any_visit.patient_id = p.id and any_visit.deleted_at is null
             )
    ),
    cohort as (
      select p.id, p.first_name, p.last_name, p.referral_source as source, p.referring_provider_id as provider_id,
             e.referred_at
        from entered e
        join ${patients} p on p.id = e.id
       where p.instance_id = ${ctx.instanceId} and p.deleted_at is null ${sql.join(conditions, sql` `)}
    ),
    flagged as (
      select c.*,
             to_char(date_trunc(${filter.period}, c.referred_at at time zone ${timeZone}), 'YYYY-MM-DD') as period_start,
             exists (
               select 1 from ${appointments} a
                where a.instance_id = ${ctx.instanceId} and a.patient_id = c.id and a.deleted_at is null
                  and a.status = ${AppointmentStatus.Completed}
             ) as seen,
             exists (
               select 1 from ${interventions} v
                where v.instance_id = ${ctx.instanceId} and v.patient_id = c.id and v.deleted_at is null
             ) as had_procedure,
             ${improvedSql(ctx.instanceId, sql`c.id`, timeZone)} as improved,
             provider.name as provider_name,
             provider.attributes ->> 'practice' as provider_practice
        from cohort c
        left join ${managedItems} provider on provider.instance_id = ${ctx.instanceId} and provider.id = c.provider_id
    )`;
}

async function windowOf(ctx: SignedInContext, filter: TrackerFilter) {
  const timeZone = await clinicTimeZone(ctx.db, ctx.instanceId);
  const now = new Date();
  return { timeZone, now, window: appointmentDateWindow(filter, now, timeZone) };
}

type FunnelRow = { referred: number; seen: number; had_procedure: number; improved: number };
const funnelOf = (row: FunnelRow): ReferralFunnel => ({
  referred: Number(row.referred),
  seen: Number(row.seen),
  hadProcedure: Number(row.had_procedure),
  improved: Number(row.improved),
});

// `grouping(period_start, source, provider_id)` sets a bit for each column left out of the set.
const Grouping = { Cell: 0, Period: 3, Source: 5, Provider: 6, Total: 7 } as const;

/** POST /api/reports/referraltracker: the funnel per period, source and referring provider, in one statement. */
export async function referralTracker(ctx: SignedInContext, filter: TrackerFilter): Promise<ReferralTracker> {
  const { timeZone, now, window } = await windowOf(ctx, filter);
  await withoutJit(ctx.db);
  const result = await rowsOf<
    FunnelRow & {
      g: number;
      period_start: string | null;
      source: number | null;
      provider_id: string | null;
      provider_name: string | null;
      provider_practice: string | null;
    }
  >(
    ctx.db,
    sql`
    with ${flaggedPatients(ctx, filter, window, timeZone)}
    select grouping(period_start, source, provider_id)::int as g,
           period_start, source, provider_id, provider_name, provider_practice,
           count(*)::int as referred,
           count(*) filter (where seen)::int as seen,
           count(*) filter (where had_procedure)::int as had_procedure,
           count(*) filter (where improved)::int as improved
      from flagged
     group by grouping sets (
       (period_start, source, provider_id, provider_name, provider_practice),
       (period_start),
       (source),
       (provider_id, provider_name, provider_practice),
       ()
     )
     order by g, period_start, source nulls last, provider_name nulls last, provider_id`,
  );
  const rows = result.map((row) => ({ ...row, g: Number(row.g), source: row.source === null ? null : Number(row.source) }));
  const provider = (row: (typeof rows)[number]) => ({
    providerId: row.provider_id,
    providerName: row.provider_name,
    providerPractice: row.provider_practice,
  });
  const total = rows.find((row) => row.g === Grouping.Total);
  return {
    timeZone,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    period: filter.period,
    computedAt: now.toISOString(),
    rows: rows
      .filter((row) => row.g === Grouping.Cell)
      .map((row) => ({ periodStart: row.period_start!, source: row.source, ...provider(row), ...funnelOf(row) })),
    byPeriod: rows
      .filter((row) => row.g === Grouping.Period)
      .map((row) => ({ periodStart: row.period_start!, ...funnelOf(row) })),
    bySource: rows.filter((row) => row.g === Grouping.Source).map((row) => ({ source: row.source, ...funnelOf(row) })),
    byProvider: rows.filter((row) => row.g === Grouping.Provider).map((row) => ({ ...provider(row), ...funnelOf(row) })),
    totals: total ? funnelOf(total) : { referred: 0, seen: 0, hadProcedure: 0, improved: 0 },
  };
}

const measureColumn = { referred: sql`true`, seen: sql`seen`, hadProcedure: sql`had_procedure`, improved: sql`improved` };

/** POST /api/reports/referraltracker/patients: the patients behind one number, a page at a time; audited. */
export async function referralPatients(ctx: SignedInContext, filter: PatientsFilter): Promise<ReferralPatients> {
  const { timeZone, window } = await windowOf(ctx, filter);
  await withoutJit(ctx.db);
  const cell = [
    filter.periodStart ? sql`and period_start = ${filter.periodStart}` : sql``,
    filter.source === 0 ? sql`and source is null` : filter.source ? sql`and source = ${filter.source}` : sql``,
    filter.providerId === 'none'
      ? sql`and provider_id is null`
      : filter.providerId
        ? sql`and provider_id = ${filter.providerId}`
        : sql``,
  ];
  const result = await rowsOf<{
    id: string | null;
    first_name: string;
    last_name: string;
    referred_at: Date | string;
    source: number | null;
    provider_name: string | null;
    seen: boolean;
    had_procedure: boolean;
    improved: boolean;
    total: number;
  }>(
    ctx.db,
    sql`
    with ${flaggedPatients(ctx, filter, window, timeZone)},
    matched as materialized (
      select id, first_name, last_name, referred_at, source, provider_name, seen, had_procedure, improved
        from flagged
       where ${measureColumn[filter.measure]} ${sql.join(cell, sql` `)}
    )
    -- The total comes from its own one-row count, so a page past the end still says how many there are.
    select counted.total, page.*
      from (select count(*)::int as total from matched) counted
      left join lateral (
        select * from matched
         order by referred_at, last_name, first_name, id
         limit ${filter.pageSize} offset ${filter.pageNumber * filter.pageSize}
      ) page on true`,
  );
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient List', 'Viewed', {
      description: `Viewed the referral tracker's patients (${filter.measure}, page ${filter.pageNumber + 1})`,
    }),
  );
  return {
    totalRecords: Number(result[0]?.total ?? 0),
    rows: result
      .flatMap((row) => (row.id === null ? [] : [{ ...row, id: row.id }]))
      .map((row) => ({
        patientId: row.id,
        firstName: row.first_name,
        lastName: row.last_name,
        referredAt: new Date(row.referred_at).toISOString(),
        source: row.source === null ? null : Number(row.source),
        providerName: row.provider_name,
        seen: Boolean(row.seen),
        hadProcedure: Boolean(row.had_procedure),
        improved: Boolean(row.improved),
      })),
  };
}
