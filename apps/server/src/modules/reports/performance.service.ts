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
import { doctorScope, reportReader, type SignedInContext } from '../../context';
import { appointmentDateWindow, type DateWindow } from '../appointments/appointment-dates';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { clinicTimeZone } from '../settings/settings.service';

/**
 * Pathwell's own performance measures (decision 0046): every count is one statement over a chain of
 * CTEs, each measure producing one row per patient ("facts"); the report groups them, the drill-down
 * pages them. Nothing is aggregated in Node.
 */

const COMPLETED = AppointmentStatus.Completed;

/** Outcome forms whose instrument definition publishes an MCID on the headline score, with its direction. */
export function mcidForms() {
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
  doctorId: string | null;
  window: DateWindow;
}

const days = (count: number) => sql`make_interval(days => ${count}::int)`;
const isoOf = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The CTEs every statement shares, ending in `facts(measure, form_code, patient_id, excluded, met,
 * score_form, anchor_at, first_score, follow_at, latest_score, change)`: one row per patient counted
 * in a measure's population (its denominator before exclusions); `form_code` is set only on the
 * per-form MCID rows.
 */
function factsCtes({ instanceId, doctorId, window }: Scope): SQL {
  const from = window.from.toISOString();
  const to = window.to.toISOString();
  const forms = mcidForms();
  const formValues = forms.length
    ? sql.join(
        forms.map((form) => sql`(${form.formCode}::smallint, ${form.points}::numeric, ${form.higherIsBetter}::boolean)`),
        sql`, `,
      )
    : sql`(null::smallint, null::numeric, null::boolean)`;
  return sql`
    scope as (
      select p.id, (p.archived_at is not null or p.account_closed_at is not null) as excluded
        from patients p
       where p.instance_id = ${instanceId} and p.deleted_at is null
         ${doctorId ? sql`and p.doctor_id = ${doctorId}` : sql``}
    ),
    win_visits as (
      select a.id, a.patient_id, a.starts_at, a.reason, a.pain_score
        from appointments a
        join scope s on s.id = a.patient_id
       where a.instance_id = ${instanceId} and a.deleted_at is null and a.status = ${COMPLETED}
         and a.starts_at >= ${from}::timestamptz and a.starts_at < ${to}::timestamptz
    ),
    seen as (select distinct patient_id from win_visits),
    -- Measure 1: the first new-patient visit in the window (reason 'new_patient', or the patient's first completed visit ever).
    first_visit as (
      select s.patient_id,
             (select min(a.starts_at) from appointments a
               where a.instance_id = ${instanceId} and a.patient_id = s.patient_id
                 and a.deleted_at is null and a.status = ${COMPLETED}) as first_at
        from seen s
    ),
    baseline_visit as (
      select distinct on (v.patient_id) v.patient_id, v.starts_at
        from win_visits v
        join first_visit f on f.patient_id = v.patient_id
       where v.reason = 'new_patient' or v.starts_at = f.first_at
       order by v.patient_id, v.starts_at
    ),
    baseline_pro as (
      select b.patient_id, b.starts_at as anchor_at, r.form_code, r.submitted_at, r.headline_score
        from baseline_visit b
        left join lateral (
          select x.form_code, x.submitted_at, x.headline_score
            from form_responses x
           where x.instance_id = ${instanceId} and x.patient_id = b.patient_id and x.form_code is not null
             and x.submitted_at >= b.starts_at - ${days(BASELINE_PRO_DAYS_BEFORE)}
             and x.submitted_at <= b.starts_at + ${days(BASELINE_PRO_DAYS_AFTER)}
           order by x.submitted_at, x.form_code
           limit 1
        ) r on true
    ),
    -- Measure 2: first outcome response long enough before the window's end, a visit in the window,
    -- and a second response of the same form 30+ days after the first, submitted in the window.
    first_pro as (
      select s.patient_id, r.form_code, r.submitted_at, r.headline_score
        from seen s
        join lateral (
          select x.form_code, x.submitted_at, x.headline_score
            from form_responses x
           where x.instance_id = ${instanceId} and x.patient_id = s.patient_id and x.form_code is not null
           order by x.submitted_at, x.form_code
           limit 1
        ) r on true
       where r.submitted_at <= ${to}::timestamptz - ${days(FOLLOW_UP_FIRST_DAYS_BEFORE_END)}
    ),
    follow_up as (
      select f.patient_id, f.form_code, f.submitted_at as anchor_at, f.headline_score as first_score,
             n.submitted_at as follow_at, n.headline_score as latest_score
        from first_pro f
        left join lateral (
          select x.submitted_at, x.headline_score
            from form_responses x
           where x.instance_id = ${instanceId} and x.patient_id = f.patient_id and x.form_code = f.form_code
             and x.submitted_at >= f.submitted_at + ${days(FOLLOW_UP_MIN_DAYS)}
             and x.submitted_at >= ${from}::timestamptz and x.submitted_at < ${to}::timestamptz
           order by x.submitted_at
           limit 1
        ) n on true
    ),
    -- Measure 3: first scored response of a form with an MCID, and the latest one in the window 28+ days later.
    mcid_forms (form_code, mcid, higher_is_better) as (values ${formValues}),
    mcid_latest as (
      select distinct on (x.patient_id, x.form_code) x.patient_id, x.form_code, x.submitted_at, x.headline_score
        from form_responses x
        join scope s on s.id = x.patient_id
        join mcid_forms m on m.form_code = x.form_code
       where x.instance_id = ${instanceId} and x.headline_score is not null
         and x.submitted_at >= ${from}::timestamptz and x.submitted_at < ${to}::timestamptz
       order by x.patient_id, x.form_code, x.submitted_at desc
    ),
    mcid_pairs as (
      select l.patient_id, l.form_code, b.submitted_at as anchor_at, b.headline_score as first_score,
             l.submitted_at as follow_at, l.headline_score as latest_score,
             case when m.higher_is_better then l.headline_score - b.headline_score
                  else b.headline_score - l.headline_score end as improvement,
             m.mcid
        from mcid_latest l
        join mcid_forms m on m.form_code = l.form_code
        join lateral (
          select x.submitted_at, x.headline_score
            from form_responses x
           where x.instance_id = ${instanceId} and x.patient_id = l.patient_id and x.form_code = l.form_code
             and x.headline_score is not null
           order by x.submitted_at
           limit 1
        ) b on true
       where l.submitted_at >= b.submitted_at + ${days(MCID_FOLLOW_UP_MIN_DAYS)}
    ),
    -- Measure 4: first completed visit with pain ever, and the latest one in the window after it.
    pain as (
      select s.patient_id, b.starts_at as anchor_at, b.pain_score as first_score,
             l.starts_at as follow_at, l.pain_score as latest_score
        from (select distinct patient_id from win_visits where pain_score is not null) s
        join lateral (
          select a.starts_at, a.pain_score from appointments a
           where a.instance_id = ${instanceId} and a.patient_id = s.patient_id and a.deleted_at is null
             and a.status = ${COMPLETED} and a.pain_score is not null
           order by a.starts_at, a.id
           limit 1
        ) b on true
        join lateral (
          select v.starts_at, v.pain_score from appointments v
           where v.instance_id = ${instanceId} and v.patient_id = s.patient_id and v.deleted_at is null
             and v.status = ${COMPLETED} and v.pain_score is not null
             and v.starts_at >= ${from}::timestamptz and v.starts_at < ${to}::timestamptz
           order by v.starts_at desc, v.id desc
           limit 1
        ) l on true
       where l.starts_at > b.starts_at
    ),
    measured as (
      select 'baselinePro'::text as measure, null::smallint as form_code, patient_id, submitted_at is not null as met,
             form_code as score_form, anchor_at, null::numeric as first_score, submitted_at as follow_at,
             headline_score as latest_score, null::numeric as change
        from baseline_pro
      union all
      select 'followUpPro', null, patient_id, follow_at is not null, form_code, anchor_at, first_score, follow_at,
             latest_score, null
        from follow_up
      union all
      select 'mcidImprovement', form_code, patient_id, improvement >= mcid, form_code, anchor_at, first_score,
             follow_at, latest_score, improvement
        from mcid_pairs
      union all
      -- Overall, each patient counts once, on the lowest form code they have a pair on.
      select * from (
        select distinct on (patient_id) 'mcidImprovement', null::smallint, patient_id, improvement >= mcid, form_code,
               anchor_at, first_score, follow_at, latest_score, improvement
          from mcid_pairs
         order by patient_id, form_code
      ) overall
      union all
      select 'painChange', null, patient_id, first_score - latest_score >= ${PAIN_MCID_POINTS}, null, anchor_at,
             first_score, follow_at, latest_score, latest_score - first_score
        from pain
    ),
    facts as (
      select m.*, s.excluded from measured m join scope s on s.id = m.patient_id
    )`;
}

async function scopeOf(ctx: SignedInContext, filter: PerformanceFilterParsed, now = new Date()) {
  const timeZone = await clinicTimeZone(reportReader(ctx), ctx.instanceId);
  const window = appointmentDateWindow(filter, now, timeZone);
  const scope: Scope = { instanceId: ctx.instanceId, doctorId: doctorScope(ctx, filter.doctorId), window };
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
  const result = (await reportReader(ctx).execute(sql`
    with ${factsCtes(scope)}
    select measure, form_code::int as form_code,
           count(*) filter (where not excluded and met)::int as numerator,
           count(*) filter (where not excluded)::int as denominator,
           count(*) filter (where excluded)::int as exclusions,
           (percentile_cont(0.5) within group (order by change) filter (where not excluded))::float8 as median,
           (percentile_cont(0.25) within group (order by change) filter (where not excluded))::float8 as q1,
           (percentile_cont(0.75) within group (order by change) filter (where not excluded))::float8 as q3
      from facts
     group by measure, form_code`)) as unknown as { rows: AggregateRow[] };

  const rowOf = (measure: string, formCode: number | null) =>
    result.rows.find((row) => row.measure === measure && (row.form_code === null ? null : Number(row.form_code)) === formCode);
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
  change: number | null;
}

/** POST /api/reports/patientsperformancemeasure/patients: the patients behind one count, paged by name. */
export async function performancePatients(
  ctx: SignedInContext,
  request: z.output<typeof performancePatientsRequestSchema>,
): Promise<PerformancePatients> {
  const { scope } = await scopeOf(ctx, request.filter);
  const group =
    request.group === 'numerator'
      ? sql`not f.excluded and f.met`
      : request.group === 'denominator'
        ? sql`not f.excluded`
        : sql`f.excluded`;
  const formCode = request.measure === 'mcidImprovement' ? (request.formCode ?? null) : null;
  const result = (await reportReader(ctx).execute(sql`
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
               ${isoOf(sql`m.follow_at`)} as follow_at, m.latest_score::float8 as latest_score, m.change::float8 as change
          from matched m
         order by lower(m.last_name), lower(m.first_name), m.patient_id
         limit ${request.pageSize} offset ${request.pageNumber * request.pageSize}
      ) pg on true`)) as unknown as { rows: PatientRow[] };

  const rows = result.rows.filter((row) => row.patient_id !== null);
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient List', 'Viewed', {
      description: `Performance measure ${request.measure} ${request.group}${formCode ? ` (form ${formCode})` : ''}: page ${request.pageNumber}, ${rows.length} patients`,
    }),
  );
  return {
    totalRecords: Number(result.rows[0]?.total ?? 0),
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
      change: numberOrNull(row.change),
    })),
  };
}
