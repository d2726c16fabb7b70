import { sql, type SQL } from 'drizzle-orm';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import {
  BASELINE_PRO_DAYS_AFTER,
  BASELINE_PRO_DAYS_BEFORE,
  FOLLOW_UP_FIRST_DAYS_BEFORE_END,
  FOLLOW_UP_MIN_DAYS,
  MCID_FOLLOW_UP_MIN_DAYS,
  PAIN_MCID_POINTS,
  performanceMeasureKeys,
  type PerformanceFilterParsed,
  type PerformanceFormRow,
  type PerformanceMeasure,
  type PerformancePatients,
  type PerformanceReport,
} from '@pathwell/contracts/reports-performance';
import type { z } from 'zod';
import type { performancePatientsRequestSchema } from '@pathwell/contracts/reports-performance';
import { formCodes, getInstrument } from '@pathwell/instruments';
import { reportReader, type SignedInContext } from '../../context';
import { appointmentDateWindow, type DateWindow } from '../../lib/clinic-dates';
import { rowsOf } from '../../lib/sql-rows';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { clinicTimeZone } from '../settings/settings.service';
import { clinicDayStartAfter } from './clinic-day';
import { withoutJit } from './report-session';
import { reportPatients } from '../patients/patient-visibility.service';

/**
 * Pathwell's own performance measures (decision 0046): every count is one statement over a chain of
 * CTEs, each measure producing one row per patient ("facts"); the report groups them, the drill-down
 * pages them. Nothing is aggregated in Node.
 */

const COMPLETED = AppointmentStatus.Completed;

/** Outcome forms whose instrument definition publishes an MCID on the headline score, with its direction. */
function mcidForms() {
  return formCodes.flatMap((code) => {
    const instrument = getInstrument(code);
    if (!instrument.mcid) return [];
    const headline = instrument.scores.find((score) => score.key === instrument.headline.key);
    return [
      {
        formCode: code,
        points: instrument.mcid.points,
        source: instrument.mcid.source,
        higherIsBetter: headline?.higherIsBetter ?? false,
      },
    ];
  });
}

interface Scope {
  instanceId: string;
  /** Narrows the patients (alias `p`): patient-visibility.service's reportPatients. */
  ofPatients: SQL | undefined;
  window: DateWindow;
  timeZone: string;
}
const isoOf = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The CTEs every statement shares, ending in `facts(measure, form_code, patient_id, excluded, met,
 * score_form, anchor_at, first_score, follow_at, latest_score, improvement)`: one row per patient counted
 * in a measure's population (its denominator before exclusions); `form_code` is set only on the
 * per-form MCID rows. Every "N days" is N clinic days (decision 0060, `clinic-day.ts`); every improvement is
 * positive when the patient is better.
 */
function factsCtes({ instanceId, ofPatients, window, timeZone }: Scope): SQL {
  /** The first instant of the clinic day `count` days after the instant's clinic day. */
  const dayAfter = (instant: SQL, count: number) => clinicDayStartAfter(instant, count, timeZone);
  const from = window.from.toISOString();
  const to = window.to.toISOString();
  const forms = mcidForms();
  const formValues = forms.length
    ? sql.join(
        forms.map((form) => sql`(${form.formCode}::smallint, ${form.points}::numeric, ${form.higherIsBetter}::boolean)`),
        sql`, `,
      )
    : sql`(null::smallint, null::numeric, null::boolean)`;
  const live = sql`a.instance_id = ${instanceId} and a.deleted_at is null and a.status = ${COMPLETED}`;
  const inWindow = (column: SQL) => sql`${column} >= ${from}::timestamptz and ${column} < ${to}::timestamptz`;
  // One branch per MCID form, so each reads the clinic's responses of that form in (patient, time) order off
  // an index, backwards, and keeps each patient's latest without a sort.
  const mcidLatest = forms.length
    ? sql.join(
        forms.map(
          (form) => sql`(
            select distinct on (x.patient_id) x.patient_id, x.form_code, x.submitted_at, x.headline_score
              from form_responses x
             where x.instance_id = ${instanceId} and x.form_code = ${form.formCode}::smallint
               and x.headline_score is not null and ${inWindow(sql`x.submitted_at`)}
             order by x.patient_id desc, x.submitted_at desc
          )`,
        ),
        sql` union all `,
      )
    : sql`select null::uuid, null::smallint, null::timestamptz, null::numeric where false`;
  /*
   * Performance (decision 0046, issue #14 §5): the work follows the patients active in the window. One pass
   * over the window's completed visits finds them (and their latest pain score there); everything else is a
   * lookup per patient on a covering index read in order (appointments_patient_live_idx,
   * form_responses_patient_time_idx), never a scan of a patient's or the clinic's whole history. A bound a
   * lookup compares with is computed beforehand (pro_from, follow_from): an expression such as
   * `timestamptz - interval` is not leakproof, so under row-level security it could only filter the rows the
   * index returns, not bound the index scan itself.
   */
  return sql`
    scope as not materialized (
      select p.id, (p.archived_at is not null or p.account_closed_at is not null) as excluded
        from patients p
       where p.instance_id = ${instanceId} and p.deleted_at is null
         ${ofPatients ? sql`and ${ofPatients}` : sql``}
    ),
    -- The patients with a completed visit in the window: their first one there, their first new-patient one,
    -- and their latest one with pain there (its time and score).
    seen as materialized (
      select a.patient_id, bool_or(s.excluded) as excluded, min(a.starts_at) as first_win,
             min(a.starts_at) filter (where a.reason = 'new_patient') as first_new,
             max(a.starts_at) filter (where a.pain_score is not null) as pain_at,
             (array_agg(a.pain_score order by a.starts_at desc, a.id desc) filter (where a.pain_score is not null))[1] as pain_score
        from appointments a
        join scope s on s.id = a.patient_id
       where ${live} and ${inWindow(sql`a.starts_at`)}
       group by a.patient_id
    ),
    -- Measure 1: the first new-patient visit in the window (reason 'new_patient', or the patient's first
    -- completed visit ever: the first one in the window when none came before it).
    baseline_visit as materialized (
      select v.patient_id, v.excluded, v.starts_at,
             ${dayAfter(sql`v.starts_at`, -BASELINE_PRO_DAYS_BEFORE)} as pro_from,
             ${dayAfter(sql`v.starts_at`, BASELINE_PRO_DAYS_AFTER + 1)} as pro_until
        from (
          select s.patient_id, s.excluded, case when earlier.visit then s.first_new else s.first_win end as starts_at
            from seen s
            left join lateral (
              select true as visit from appointments a
               where s.first_new is distinct from s.first_win
                 and ${live} and a.patient_id = s.patient_id and a.starts_at < ${from}::timestamptz
               limit 1
            ) earlier on true
        ) v
       where v.starts_at is not null
    ),
    baseline_pro as (
      select b.patient_id, b.excluded, b.starts_at as anchor_at, r.form_code, r.submitted_at, r.headline_score
        from baseline_visit b
        left join lateral (
          select x.form_code, x.submitted_at, x.headline_score
            from form_responses x
           where x.instance_id = ${instanceId} and x.patient_id = b.patient_id and x.form_code is not null
             and x.headline_score is not null
             and x.submitted_at >= b.pro_from and x.submitted_at < b.pro_until
           order by x.submitted_at, x.form_code
           limit 1
        ) r on true
    ),
    -- A PRO result is a response with a headline score: one answered without its wording stores none
    -- (decision 0067), so it neither meets the baseline nor starts or completes a follow-up.
    -- Measure 2: first outcome response long enough before the window's end, a visit in the window,
    -- and a second response of the same form 30+ days after the first, submitted in the window.
    first_pro as materialized (
      select s.patient_id, s.excluded, r.form_code, r.submitted_at, r.headline_score,
             greatest(${dayAfter(sql`r.submitted_at`, FOLLOW_UP_MIN_DAYS)}, ${from}::timestamptz) as follow_from
        from seen s
        join lateral (
          select x.form_code, x.submitted_at, x.headline_score
            from form_responses x
           where x.instance_id = ${instanceId} and x.patient_id = s.patient_id and x.form_code is not null
             and x.headline_score is not null
           order by x.submitted_at, x.form_code
           limit 1
        ) r on true
       -- At least 60 clinic days before the window's last day: before the clinic day 60 days before its end.
       where r.submitted_at < ${dayAfter(sql`${to}::timestamptz`, -FOLLOW_UP_FIRST_DAYS_BEFORE_END)}
    ),
    follow_up as (
      select f.patient_id, f.excluded, f.form_code, f.submitted_at as anchor_at, f.headline_score as first_score,
             n.submitted_at as follow_at, n.headline_score as latest_score
        from first_pro f
        left join lateral (
          select x.submitted_at, x.headline_score
            from form_responses x
           where x.instance_id = ${instanceId} and x.patient_id = f.patient_id and x.form_code = f.form_code
             and x.headline_score is not null
             and x.submitted_at >= f.follow_from and x.submitted_at < ${to}::timestamptz
           order by x.submitted_at
           limit 1
        ) n on true
    ),
    -- Measure 3: first scored response of a form with an MCID, and the latest one in the window 28+ days later.
    mcid_forms (form_code, mcid, higher_is_better) as (values ${formValues}),
    mcid_latest (patient_id, form_code, submitted_at, headline_score) as (${mcidLatest}),
    mcid_pairs as materialized (
      select l.patient_id, s.excluded, l.form_code, b.submitted_at as anchor_at, b.headline_score as first_score,
             l.submitted_at as follow_at, l.headline_score as latest_score,
             case when m.higher_is_better then l.headline_score - b.headline_score
                  else b.headline_score - l.headline_score end as improvement,
             m.mcid
        from mcid_latest l
        join scope s on s.id = l.patient_id
        join mcid_forms m on m.form_code = l.form_code
        join lateral (
          select x.submitted_at, x.headline_score
            from form_responses x
           where x.instance_id = ${instanceId} and x.patient_id = l.patient_id and x.form_code = l.form_code
             and x.headline_score is not null
           order by x.submitted_at
           limit 1
        ) b on true
       where l.submitted_at >= ${dayAfter(sql`b.submitted_at`, MCID_FOLLOW_UP_MIN_DAYS)}
    ),
    -- Measure 4: first completed visit with pain ever, and the latest one in the window after it.
    pain as (
      select s.patient_id, s.excluded, b.starts_at as anchor_at, b.pain_score as first_score,
             s.pain_at as follow_at, s.pain_score as latest_score
        from seen s
        join lateral (
          select a.starts_at, a.pain_score from appointments a
           where ${live} and a.patient_id = s.patient_id and a.pain_score is not null
           order by a.starts_at, a.id
           limit 1
        ) b on true
       where s.pain_at is not null and s.pain_at > b.starts_at
    ),
    facts as (
      select 'baselinePro'::text as measure, null::smallint as form_code, patient_id, submitted_at is not null as met,
             form_code as score_form, anchor_at, null::numeric as first_score, submitted_at as follow_at,
             headline_score as latest_score, null::numeric as improvement, excluded
        from baseline_pro
      union all
      select 'followUpPro', null, patient_id, follow_at is not null, form_code, anchor_at, first_score, follow_at,
             latest_score, null, excluded
        from follow_up
      union all
      select 'mcidImprovement', form_code, patient_id, improvement >= mcid, form_code, anchor_at, first_score,
             follow_at, latest_score, improvement, excluded
        from mcid_pairs
      union all
      -- Overall, each patient counts once, on the lowest form code they have a pair on.
      select * from (
        select distinct on (patient_id) 'mcidImprovement', null::smallint, patient_id, improvement >= mcid, form_code,
               anchor_at, first_score, follow_at, latest_score, improvement, excluded
          from mcid_pairs
         order by patient_id, form_code
      ) overall
      union all
      select 'painChange', null, patient_id, first_score - latest_score >= ${PAIN_MCID_POINTS}, null, anchor_at,
             first_score, follow_at, latest_score, first_score - latest_score, excluded
        from pain
    )`;
}

async function scopeOf(ctx: SignedInContext, filter: PerformanceFilterParsed, now = new Date()) {
  const timeZone = await clinicTimeZone(reportReader(ctx), ctx.instanceId);
  const window = appointmentDateWindow(filter, now, timeZone);
  const scope: Scope = { instanceId: ctx.instanceId, ofPatients: reportPatients(ctx, filter.doctorId), window, timeZone };
  return { scope, timeZone };
}

const rateOf = (numerator: number, denominator: number) => (denominator > 0 ? numerator / denominator : null);
const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

interface AggregateRow {
  measure: string;
  form_code: number | null;
  numerator: number;
  denominator: number;
  exclusions: number;
  median: number | null;
  q1: number | null;
  q3: number | null;
}

/** POST /api/reports/patientsperformancemeasure: every measure, one statement. */
export async function performanceReport(ctx: SignedInContext, filter: PerformanceFilterParsed): Promise<PerformanceReport> {
  const { scope, timeZone } = await scopeOf(ctx, filter);
  await withoutJit(reportReader(ctx));
  const aggregates = await rowsOf<AggregateRow>(
    reportReader(ctx),
    sql`
    with ${factsCtes(scope)}
    select measure, form_code::int as form_code,
           count(*) filter (where not excluded and met)::int as numerator,
           count(*) filter (where not excluded)::int as denominator,
           count(*) filter (where excluded)::int as exclusions,
           -- The quartiles are reported for the pain change only: computed there alone, so the counts need no sort.
           -- Improvement, first − latest: positive = less pain (decision 0060).
           max(q.median) as median, max(q.q1) as q1, max(q.q3) as q3
      from facts
      left join (
        select 'painChange'::text as of,
               (percentile_cont(0.5) within group (order by first_score - latest_score))::float8 as median,
               (percentile_cont(0.25) within group (order by first_score - latest_score))::float8 as q1,
               (percentile_cont(0.75) within group (order by first_score - latest_score))::float8 as q3
          from pain where not excluded
      ) q on q.of = facts.measure
     group by measure, form_code`,
  );

  const rowOf = (measure: string, formCode: number | null) =>
    aggregates.find((row) => row.measure === measure && (row.form_code === null ? null : Number(row.form_code)) === formCode);
  const measures: PerformanceMeasure[] = performanceMeasureKeys.map((key) => {
    const row = rowOf(key, null);
    const numerator = Number(row?.numerator ?? 0);
    const denominator = Number(row?.denominator ?? 0);
    const measure: PerformanceMeasure = {
      key,
      numerator,
      denominator,
      exclusions: Number(row?.exclusions ?? 0),
      rate: rateOf(numerator, denominator),
    };
    if (key !== 'painChange') return measure;
    return {
      ...measure,
      median: numberOrNull(row?.median),
      q1: numberOrNull(row?.q1),
      q3: numberOrNull(row?.q3),
      n: denominator,
      improvedShare: rateOf(numerator, denominator),
    };
  });
  const perForm: PerformanceFormRow[] = mcidForms().map((form) => {
    const row = rowOf('mcidImprovement', form.formCode);
    const numerator = Number(row?.numerator ?? 0);
    const denominator = Number(row?.denominator ?? 0);
    return {
      formCode: form.formCode,
      mcid: form.points,
      mcidSource: form.source,
      higherIsBetter: form.higherIsBetter,
      numerator,
      denominator,
      exclusions: Number(row?.exclusions ?? 0),
      rate: rateOf(numerator, denominator),
    };
  });
  return {
    window: { from: scope.window.from.toISOString(), to: scope.window.to.toISOString(), timeZone },
    measures,
    perForm,
    computedAt: new Date().toISOString(),
  };
}

interface PatientRow {
  total: number;
  patient_id: string | null;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  date_of_birth: string;
  doctor: string | null;
  excluded: boolean;
  met: boolean;
  score_form: number | null;
  anchor_at: string | null;
  first_score: number | null;
  follow_at: string | null;
  latest_score: number | null;
  improvement: number | null;
}

/** POST /api/reports/patientsperformancemeasure/patients: the patients behind one count, paged by name. */
export async function performancePatients(
  ctx: SignedInContext,
  request: z.output<typeof performancePatientsRequestSchema>,
): Promise<PerformancePatients> {
  const { scope } = await scopeOf(ctx, request.filter);
  await withoutJit(reportReader(ctx));
  const group =
    request.group === 'numerator'
      ? sql`not f.excluded and f.met`
      : request.group === 'denominator'
        ? sql`not f.excluded`
        : sql`f.excluded`;
  const formCode = request.measure === 'mcidImprovement' ? (request.formCode ?? null) : null;
  const found = await rowsOf<PatientRow>(
    reportReader(ctx),
    sql`
    with ${factsCtes(scope)},
    matched as (
      select f.*, p.first_name, p.middle_name, p.last_name, p.date_of_birth::text as date_of_birth,
             nullif(trim(u.first_name || ' ' || u.last_name), '') as doctor
        from facts f
        join patients p on p.id = f.patient_id
        left join users u on u.id = p.doctor_id
       where f.measure = ${request.measure}
         and ${formCode === null ? sql`f.form_code is null` : sql`f.form_code = ${formCode}`}
         and ${group}
    )
    select t.total, pg.* from (select count(*)::int as total from matched) t
      left join lateral (
        select m.patient_id, m.first_name, m.middle_name, m.last_name, m.date_of_birth, m.doctor, m.excluded, m.met,
               m.score_form::int as score_form, ${isoOf(sql`m.anchor_at`)} as anchor_at, m.first_score::float8 as first_score,
               ${isoOf(sql`m.follow_at`)} as follow_at, m.latest_score::float8 as latest_score, m.improvement::float8 as improvement
          from matched m
         order by lower(m.last_name), lower(m.first_name), m.patient_id
         limit ${request.pageSize} offset ${request.pageNumber * request.pageSize}
      ) pg on true`,
  );

  const rows = found.filter((row) => row.patient_id !== null);
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient List', 'Viewed', {
      description: `Performance measure ${request.measure} ${request.group}${formCode ? ` (form ${formCode})` : ''}: page ${request.pageNumber}, ${rows.length} patients`,
    }),
  );
  return {
    totalRecords: Number(found[0]?.total ?? 0),
    totalExact: true,
    rows: rows.map((row) => ({
      patientId: row.patient_id!,
      fullName: [row.first_name, row.middle_name, row.last_name].filter(Boolean).join(' '),
      birthDate: row.date_of_birth,
      doctor: row.doctor,
      excluded: Boolean(row.excluded),
      met: Boolean(row.met),
      formCode: numberOrNull(row.score_form),
      anchorAt: row.anchor_at,
      firstScore: numberOrNull(row.first_score),
      followAt: row.follow_at,
      latestScore: numberOrNull(row.latest_score),
      improvement: numberOrNull(row.improvement),
    })),
  };
}
