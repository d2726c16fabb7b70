import { sql, type SQL } from 'drizzle-orm';
import { getInstrument, isFormCode } from '@pathwell/instruments';
import { mdyToIso } from '@pathwell/contracts/patients';
import {
  ReportSummaryDataType,
  SUMMARY_AGE_MAX,
  SUMMARY_VISIT_WEEKS_MAX,
  SUMMARY_VISIT_WEEKS_STEP,
  type SummaryFilterParsed,
  type SummaryPatientRow,
} from '@pathwell/contracts/reports-summary';
import { reportReader, type SignedInContext } from '../../context';
import { escapeLike } from '../managed-lists/managed-lists.service';
import { clinicTimeZoneFrom, isOn, readSettings } from '../settings/settings.service';
import { clinicDayOf } from './clinic-day';
import { reportPatients } from '../patients/patient-visibility.service';

/**
 * The data sandbox (issue #14 §1, decision 0044): the cohort's score over time, every number computed by
 * one SQL statement per request (CTEs and window functions over form_responses / appointments); Node
 * only turns n, mean and standard deviation into a confidence interval.
 */

/** Visit pain (0 no pain … 10 worst) is lower-is-better; its MCID is the published two-point reduction. */
const PAIN_MAXIMUM = 10;
const PAIN_MCID = {
  points: 2,
  source: 'Farrar JT et al., Pain 2001;94:149–158 (a reduction of approximately two points or 30 %)',
};
/** The baseline of a procedure-anchored patient is their last score on or before it, this many days back at most. */
const BASELINE_LOOKBACK_DAYS = 90;
/** Appointment status Completed (section 3). */
const COMPLETED = 3;
/** SF-36 / RAND-36 is outcome form 1. */
const RAND_FORM = 1;
/** Improvements equal to the MCID count as reaching it despite float rounding after normalising. */
const EPSILON = 1e-9;

interface SeriesMeta {
  key: string;
  formCode: number | null;
  maximum: number;
  normalised: boolean;
  higherIsBetter: boolean;
  /** Factor applied to every raw score: 100 / maximum when normalised, else 1. */
  factor: number;
  mcid: number | null;
  mcidSource: string | null;
}

export function seriesOf(filter: SummaryFilterParsed): SeriesMeta[] {
  if (filter.reportSummaryDataType === ReportSummaryDataType.Pain) {
    return [
      {
        key: 'pain',
        formCode: null,
        maximum: PAIN_MAXIMUM,
        normalised: false,
        higherIsBetter: false,
        factor: 1,
        mcid: PAIN_MCID.points,
        mcidSource: PAIN_MCID.source,
      },
    ];
  }
  const codes = [...new Set(filter.formIds)].filter(isFormCode);
  const normalised = codes.length > 1;
  return codes.map((code) => {
    const instrument = getInstrument(code);
    const headline = instrument.scores.find((score) => score.key === instrument.headline.key);
    const factor = normalised ? 100 / instrument.headline.maximum : 1;
    return {
      key: `form-${code}`,
      formCode: code,
      maximum: normalised ? 100 : instrument.headline.maximum,
      normalised,
      higherIsBetter: headline?.higherIsBetter ?? true,
      factor,
      mcid: instrument.mcid ? instrument.mcid.points * factor : null,
      mcidSource: instrument.mcid?.source ?? null,
    };
  });
}

export interface Settings {
  timeZone: string;
  showBmi: boolean;
  deploymentDay: string | null;
}

export async function sandboxSettings(ctx: SignedInContext): Promise<Settings> {
  const settings = await readSettings(reportReader(ctx), ctx.instanceId);
  return {
    timeZone: clinicTimeZoneFrom(settings),
    showBmi: isOn(settings, 'showBmiFilterOnSandbox'),
    deploymentDay: settings.deploymentDate ? mdyToIso(settings.deploymentDate.trim()) : null,
  };
}

export const list = (values: readonly (string | number)[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

/** The patient filters of section 3's summary report filter, as conditions on `p` (patients). */
function patientConditions(ctx: SignedInContext, filter: SummaryFilterParsed, settings: Settings): SQL[] {
  const clinic = ctx.instanceId;
  const conditions: SQL[] = [];
  const ofPatients = reportPatients(ctx, filter.doctorId);
  if (ofPatients) conditions.push(ofPatients);
  if (filter.studyGroups.length)
    conditions.push(sql`exists (select 1 from patient_study_groups g
      where g.instance_id = ${clinic} and g.patient_id = p.id and g.study_group_id in (${list(filter.studyGroups)}))`);
  if (filter.bodyLocations.length)
    conditions.push(sql`exists (select 1 from appointments a
      where a.instance_id = ${clinic} and a.patient_id = p.id and a.deleted_at is null
        and a.body_location_ids && array[${list(filter.bodyLocations)}]::uuid[])`);
  const inList = (column: SQL, values: readonly (string | number)[]) => {
    if (values.length) conditions.push(sql`${column} in (${list(values)})`);
  };
  inList(sql`p.gender_id`, filter.genders);
  inList(sql`p.occupation_id`, filter.occupations);
  inList(sql`p.marital_status_id`, filter.maritalStatus);
  inList(sql`p.payor_status_id`, filter.payorStatus);
  inList(sql`p.nicotine_status_id`, filter.nicotineStatus);
  const overlaps = (column: SQL, values: readonly number[]) => {
    if (values.length) conditions.push(sql`${column} && array[${list(values)}]::smallint[]`);
  };
  overlaps(sql`p.disease_states`, filter.diseaseStates);
  overlaps(sql`p.psychiatric_history`, filter.psychaitricStatus);
  overlaps(sql`p.surgical_history`, filter.surgicalHistory);
  if (filter.patientId) conditions.push(sql`p.id = ${filter.patientId}`);
  // Every word must appear in the folded name, as in the top-bar patient search.
  for (const term of (filter.patientName ?? '').split(/\s+/).filter(Boolean).slice(0, 8))
    conditions.push(sql`p.search_name like '%' || pathwell_fold(${escapeLike(term)}) || '%'`);
  // The slider's ends are open: 0 is "any age up to", 100 is "100 and older".
  const age = sql`extract(year from age(${clinicDayOf(sql`now()`, settings.timeZone)}, p.date_of_birth))`;
  if (filter.ageMin > 0) conditions.push(sql`${age} >= ${filter.ageMin}`);
  if (filter.ageMax < SUMMARY_AGE_MAX) conditions.push(sql`${age} <= ${filter.ageMax}`);
  if (settings.showBmi && filter.bmiMin != null && filter.bmiMax != null)
    conditions.push(sql`p.weight > 0 and p.height > 0
      and 703 * p.weight / (p.height * p.height) between ${filter.bmiMin} and ${filter.bmiMax}`);
  if (filter.perioperativeMessageTemplateIds.length)
    conditions.push(sql`exists (select 1 from outbox_messages o
      where o.instance_id = ${clinic} and o.patient_id = p.id
        and o.perioperative_template_id in (${list(filter.perioperativeMessageTemplateIds)}))`);
  if (filter.startingPainScoreMin > 0 || filter.startingPainScoreMax < 10)
    conditions.push(sql`(select a.pain_score from appointments a
      where a.instance_id = ${clinic} and a.patient_id = p.id and a.deleted_at is null
        and a.status = ${COMPLETED} and a.pain_score is not null
      order by a.starts_at, a.id limit 1) between ${filter.startingPainScoreMin} and ${filter.startingPainScoreMax}`);
  return conditions;
}

/** RAND-36 applies when a range other than 0–0 (section 9's "no filter") is given. */
function randRange(filter: SummaryFilterParsed): [number, number] | null {
  const low = filter.randScoreMin ?? null;
  const high = filter.randScoreMax ?? null;
  if (low === null && high === null) return null;
  if ((low ?? 0) === 0 && (high ?? 0) === 0) return null;
  return [low ?? 0, high ?? 100];
}

/**
 * The common CTEs: cohort → series meta → points (each patient's week-0 baseline plus their latest score
 * in every follow-up window). Every later select reads `points`, `meta` and `cohort`.
 *
 * How it stays fast on a million responses (decision 0044, "Performance"): each series reads its
 * responses once, in (patient, time) order straight off `form_responses_report_idx` (index-only, the
 * headline is in the index) or `appointments_patient_live_idx`, and one window pass over that order gives
 * every row its patient's week 0 and baseline (first_value) and the day of the patient's next score
 * (lead): a follow-up score is the latest of its 4-week window exactly when the next score falls in a
 * later window, so no row is ranked, sorted or re-read. The cohort (patient filters) is applied to the
 * resulting points by one hash join: the same answer as filtering first, without losing the index order.
 */
interface SandboxQuery {
  /** cohort, meta and each series' window CTEs, to follow `with`. */
  ctes: SQL;
  /** Body of the `points` CTE: one row per patient, series and shown week, the cohort applied. */
  points: SQL;
  /** Body of the `aggregates` CTE: n, mean, SD, mean improvement and MCID count per series and week. */
  aggregates: SQL;
}

export function sandboxQuery(
  ctx: SignedInContext,
  filter: SummaryFilterParsed,
  settings: Settings,
  series: SeriesMeta[],
): SandboxQuery {
  const clinic = ctx.instanceId;
  const tz = settings.timeZone;
  const conditions = patientConditions(ctx, filter, settings);
  const cohortWhere = conditions.length ? sql` and ${sql.join(conditions, sql` and `)}` : sql``;
  const meta = sql.join(
    series.map(
      (entry, index) =>
        sql`(${index}::int, ${entry.key}::text, ${entry.formCode}::int, ${entry.factor}::float8, ${entry.higherIsBetter ? 1 : -1}::int, ${entry.mcid}::float8)`,
    ),
    sql`, `,
  );
  const deployed = (column: SQL) =>
    filter.postDeploymentAppointments && settings.deploymentDay
      ? sql` and ${clinicDayOf(column, tz)} >= ${settings.deploymentDay}::date`
      : sql``;
  const startDay = filter.startDate ? mdyToIso(filter.startDate) : null;
  const endDay = filter.endDate ? mdyToIso(filter.endDate) : null;
  const inRange = (column: SQL) =>
    sql`${startDay ? sql` and ${column} >= ${startDay}::date` : sql``}${endDay ? sql` and ${column} <= ${endDay}::date` : sql``}`;
  const firstScore = filter.anchor !== 'procedure';
  /**
   * One series' scores in (patient, time) order: patient, time, clinic day and score. With the first-score
   * anchor, scores before the start date can be neither the baseline nor a follow-up (those come after a
   * baseline inside the range), so they are left out here already. `offset 0` keeps the day computed once.
   */
  const scoresOf = (entry: SeriesMeta) => {
    const from = firstScore && startDay ? sql` and day >= ${startDay}::date` : sql``;
    const rows =
      entry.formCode === null
        ? sql`select a.patient_id, a.starts_at as at, ${clinicDayOf(sql`a.starts_at`, tz)} as day,
                     a.pain_score::float8 * ${entry.factor}::float8 as score
                from appointments a
               where a.instance_id = ${clinic} and a.deleted_at is null and a.status = ${COMPLETED}
                 and a.pain_score is not null${deployed(sql`a.starts_at`)}
               order by a.patient_id, a.starts_at`
        : sql`select r.patient_id, r.submitted_at as at, ${clinicDayOf(sql`r.submitted_at`, tz)} as day,
                     r.headline_score::float8 * ${entry.factor}::float8 as score
                from form_responses r
               where r.instance_id = ${clinic} and r.form_code = ${entry.formCode} and r.headline_score is not null${deployed(sql`r.submitted_at`)}
               order by r.patient_id, r.submitted_at`;
    return sql`select * from (${rows} offset 0) s where true${from}`;
  };
  // Week of a follow-up day d ≥ 1 after week 0: STEP × round(d / (7 × STEP)), in integers (round half up).
  const span = 7 * SUMMARY_VISIT_WEEKS_STEP;
  const weekOf = (day: SQL) => sql`(${SUMMARY_VISIT_WEEKS_STEP} * ((2 * (${day} - x.week0) + ${span}) / ${2 * span}))`;
  const weekMin = Math.max(SUMMARY_VISIT_WEEKS_STEP, filter.visitMin);
  const weekMax = Math.min(SUMMARY_VISIT_WEEKS_MAX, filter.visitMax);
  /** A follow-up row counts when it is ≥ 1 day after week 0, in a shown window, and the latest of its window. */
  const followUp = sql`x.day - x.week0 >= 1 and ${weekOf(sql`x.day`)} between ${weekMin} and ${weekMax}
    and (x.next_day is null or ${weekOf(sql`x.next_day`)} <> ${weekOf(sql`x.day`)})`;
  const rand = randRange(filter);
  /** RAND-36 at baseline: the patient's last RAND score up to their week 0. */
  const randOk = (patient: SQL, week0: SQL) =>
    rand
      ? sql`(select r.headline_score from form_responses r
              where r.instance_id = ${clinic} and r.patient_id = ${patient} and r.form_code = ${RAND_FORM}
                and r.headline_score is not null and ${clinicDayOf(sql`r.submitted_at`, tz)} <= ${week0}
              order by r.submitted_at desc limit 1) between ${rand[0]} and ${rand[1]}`
      : sql`true`;

  const ctes: SQL[] = [];
  const branches: { entry: SeriesMeta; rows: SQL }[] = [];
  series.forEach((entry, index) => {
    const windowed = sql.raw(`windowed_${index}`);
    /** With a RAND-36 range: the patients whose baseline passes it (checked once per patient). */
    const kept = rand ? sql.raw(`kept_${index}`) : null;
    const keptOnly = kept ? sql` and x.patient_id in (select patient_id from ${kept})` : sql``;
    if (firstScore) {
      // Week 0 is the patient's first score inside the date range (rows before the start are gone already).
      ctes.push(sql`${windowed} as (
        select s.patient_id, s.day, s.score, first_value(s.day) over w as week0, first_value(s.score) over w as baseline,
               lead(s.day) over w as next_day, row_number() over w as rn
          from (${scoresOf(entry)}) s
        window w as (partition by s.patient_id order by s.at rows unbounded preceding)
      )`);
      const endOk = endDay ? sql` and x.week0 <= ${endDay}::date` : sql``;
      if (kept)
        ctes.push(sql`${kept} as materialized (
          select x.patient_id from ${windowed} x where x.rn = 1${endOk} and ${randOk(sql`x.patient_id`, sql`x.week0`)}
        )`);
      branches.push({
        entry,
        rows: sql`
          select x.patient_id, case when x.rn = 1 then 0 when ${followUp} then ${weekOf(sql`x.day`)} end as week,
                 x.day, x.score, x.baseline, x.week0 as baseline_day
            from ${windowed} x
           where true${endOk}${keptOnly}`,
      });
    } else {
      // Week 0 is the patient's first procedure in the range; the baseline is their last score at most
      // BASELINE_LOOKBACK_DAYS before it: the row whose next score (if any) is after week 0.
      const flagged = sql.raw(`flagged_${index}`);
      ctes.push(sql`${flagged} as (
        select s.patient_id, s.day, s.score, pr.week0,
               s.day <= pr.week0 and coalesce(lead(s.day) over w > pr.week0, true) as is_baseline,
               lead(s.day) over w as next_day
          from (${scoresOf(entry)}) s join procedures pr on pr.patient_id = s.patient_id
         where s.day >= pr.week0 - ${BASELINE_LOOKBACK_DAYS}::int
        window w as (partition by s.patient_id order by s.at)
      )`);
      ctes.push(sql`${windowed} as (
        select f.*, max(f.score) filter (where f.is_baseline) over p as baseline,
               max(f.day) filter (where f.is_baseline) over p as baseline_day
          from ${flagged} f
        window p as (partition by f.patient_id)
      )`);
      if (kept)
        ctes.push(sql`${kept} as materialized (
          select x.patient_id from ${flagged} x where x.is_baseline and ${randOk(sql`x.patient_id`, sql`x.week0`)}
        )`);
      branches.push({
        entry,
        rows: sql`
          select x.patient_id, case when x.is_baseline then 0 when ${followUp} then ${weekOf(sql`x.day`)} end as week,
                 x.day, x.score, x.baseline, x.baseline_day
            from ${windowed} x
           where x.baseline_day is not null${keptOnly}`,
      });
    }
  });
  const procedures =
    filter.anchor === 'procedure'
      ? sql`procedures as (
          select i.patient_id, min(i.performed_on) as week0
            from interventions i join cohort c on c.id = i.patient_id
           where i.instance_id = ${clinic} and i.deleted_at is null
             and i.item_id in (${list(filter.procedureItemIds)})${inRange(sql`i.performed_on`)}
           group by i.patient_id
        ),`
      : sql``;
  // `offset 0` computes each row's week once. The cohort is joined per series, and inlined (not
  // materialised) so the planner sees the patients table's own statistics and hashes the patients, not
  // the 400,000 scores (a constant series key in a union, or a CTE's unknown statistics, misleads it).
  const shown = (branch: { rows: SQL }) =>
    sql`(${branch.rows} offset 0) x join cohort c on c.id = x.patient_id where x.week is not null`;
  return {
    ctes: sql`
    cohort as not materialized (
      select p.id from patients p
       where p.instance_id = ${clinic} and p.deleted_at is null${cohortWhere}
    ),
    meta (ord, series_key, form_code, factor, sign, mcid) as (values ${meta}),
    ${procedures}
    ${sql.join(ctes, sql`,\n`)}`,
    points: sql.join(
      branches.map(
        (
          branch,
        ) => sql`select x.patient_id, ${branch.entry.key}::text as series_key, x.week, x.day, x.score, x.baseline, x.baseline_day
          from ${shown(branch)}`,
      ),
      sql` union all `,
    ),
    aggregates: sql.join(
      branches.map(({ entry, ...branch }) => {
        const improvement = sql`(x.score - x.baseline) * ${entry.higherIsBetter ? 1 : -1}::int`;
        return sql`select ${entry.key}::text as series_key, x.week, count(*)::int as n, avg(x.score) as mean,
                          stddev_samp(x.score) as sd, avg(${improvement}) as mean_improvement,
                          (count(*) filter (where ${improvement} >= ${entry.mcid}::float8 - ${EPSILON}))::int as mcid_reached
                     from ${shown(branch)}
                    group by x.week`;
      }),
      sql` union all `,
    ),
  };
}

/** The common CTEs plus `points`, for the patient-level selects. */
export const points = (query: SandboxQuery) => sql`${query.ctes},\n    points as (${query.points})`;

export const round = (value: number | null, decimals = 2) => {
  if (value === null || !Number.isFinite(value)) return null;
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};
export const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export interface PatientPointRow {
  series_key: string;
  week: number;
  patient_id: string;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  date_of_birth: string;
  doctor_first: string | null;
  doctor_last: string | null;
  baseline_day: string;
  baseline: number | string;
  day: string;
  score: number | string;
  improvement: number | string;
  mcid: number | string | null;
}

/** The patient columns of a point, joined to the patient and their doctor, in name order. */
export const patientColumns = sql`
  p.series_key, p.week, p.patient_id, pt.first_name, pt.middle_name, pt.last_name, pt.date_of_birth::text as date_of_birth,
  u.first_name as doctor_first, u.last_name as doctor_last, p.baseline_day::text as baseline_day, p.baseline,
  p.day::text as day, p.score, (p.score - p.baseline) * m.sign as improvement, m.mcid`;
export const patientJoins = sql`
  join meta m on m.series_key = p.series_key
  join patients pt on pt.id = p.patient_id
  left join users u on u.id = pt.doctor_id`;

export function toPatientRow(row: PatientPointRow): SummaryPatientRow {
  const improvement = Number(row.improvement);
  const mcid = numberOrNull(row.mcid);
  const doctorName = row.doctor_first ? `${row.doctor_first} ${row.doctor_last ?? ''}`.trim() : null;
  return {
    patientId: row.patient_id,
    fullName: [row.first_name, row.middle_name, row.last_name].filter(Boolean).join(' '),
    dateOfBirth: row.date_of_birth,
    doctorName,
    baselineDate: row.baseline_day,
    baselineScore: round(Number(row.baseline))!,
    scoreDate: row.day,
    score: round(Number(row.score))!,
    improvement: round(improvement)!,
    reachedMcid: mcid === null ? null : improvement >= mcid - EPSILON,
  };
}
