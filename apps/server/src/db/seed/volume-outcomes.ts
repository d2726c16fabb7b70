import { getInstrument, headlineOf, scoreForm, type FormCode, type InstrumentAnswers } from '@pathwell/instruments';
import { createRandom } from './demo-random';

/**
 * Outcome data of the volume seed (issue #14 §5): form responses with baseline-to-follow-up courses and
 * interventions, made by PostgreSQL with `INSERT … SELECT … FROM generate_series` like the rest of
 * `seed:volume`. Generated data for benchmarks, not a clinical model: only the shape matters (most
 * patients improve, with spread, some worsen; follow-ups near 4, 8, 12 and 24 weeks).
 */

/** The forms in the order a patient's series take them; the first series picks by `FORM_SHARES`. */
const VOLUME_FORMS = [2, 11, 7, 3] as const satisfies readonly FormCode[];
/** Cumulative percentage of patients whose first series is each form: ODI 70 %, PHQ-9 10 %, PROMIS-10 8 %, NDI 12 %. */
const FORM_SHARES = [70, 80, 88, 100];
/** Mean baseline burden (0 best … 1 worst of the headline's range) per form, in `VOLUME_FORMS` order. */
const BASELINE_BURDEN = [0.42, 0.45, 0.55, 0.38];
/** One series: baseline then follow-ups at these weeks; a patient with more responses starts the next form. */
const SERIES_WEEKS = [0, 4, 8, 12, 24];
/** Steps of the burden scale: a response's level is `round(burden × (LEVELS - 1))`. */
const LEVELS = 101;

interface OutcomeTables {
  formCodes: number[];
  versions: string[];
  spanish: boolean[];
  /** `LEVELS` entries per form, concatenated in `VOLUME_FORMS` order. */
  headline: number[];
  band: (number | null)[];
  scores: string[];
  answers: string[];
}

/**
 * For each form, `LEVELS` real answer sets scored by the instrument itself, from the best to the worst
 * headline, so every generated row has answers, scores, headline and band that agree (the response page
 * and FHIR export show them as for a real submission). Deterministic: a seeded generator.
 */
export function outcomeTables(): OutcomeTables {
  const tables: OutcomeTables = {
    formCodes: [],
    versions: [],
    spanish: [],
    headline: [],
    band: [],
    scores: [],
    answers: [],
  };
  for (const code of VOLUME_FORMS) {
    const definition = getInstrument(code);
    const descriptor = definition.scores.find((score) => score.key === definition.headline.key)!;
    const random = createRandom(code * 7919);
    const candidates: { headline: number; band: number | null; scores: object; answers: InstrumentAnswers }[] = [];
    for (let step = 0; step <= 2000; step++) {
      const burden = (step % 201) / 200;
      const answers: InstrumentAnswers = {};
      for (const question of definition.questions) {
        const values = (question.options ?? []).map((option) => Number(option.value)).sort((a, b) => a - b);
        if (values.length === 0) continue;
        const spread = step <= 200 ? 0 : random.int(-2, 2) * 0.12;
        const share = Math.min(1, Math.max(0, burden + spread));
        const index = Math.round(share * (values.length - 1));
        const worseIsHigher = definition.higherCodeIsWorse[question.id] ?? true;
        answers[question.id] = values[worseIsHigher ? index : values.length - 1 - index]!;
      }
      const scores = scoreForm(code, answers);
      const { score, band } = headlineOf(code, scores);
      if (score === null || score === undefined) continue;
      candidates.push({ headline: score, band, scores, answers });
    }
    const low = descriptor.min ?? 0;
    const high = descriptor.max ?? definition.headline.maximum;
    for (let level = 0; level < LEVELS; level++) {
      const share = level / (LEVELS - 1);
      const target = descriptor.higherIsBetter ? high - share * (high - low) : low + share * (high - low);
      let best = candidates[0]!;
      for (const candidate of candidates)
        if (Math.abs(candidate.headline - target) < Math.abs(best.headline - target)) best = candidate;
      tables.headline.push(best.headline);
      tables.band.push(best.band);
      tables.scores.push(JSON.stringify(best.scores));
      tables.answers.push(JSON.stringify(best.answers));
    }
    tables.formCodes.push(code);
    tables.versions.push(definition.version);
    tables.spanish.push(definition.languages.includes('es'));
  }
  return tables;
}

/**
 * Days before today of a patient's baseline, as SQL over patient number `p`: far enough back that the
 * patient's last follow-up (`$span` days after baseline, from the responses per patient) is in the past.
 */
const baselineDaysAgo = (span: string) => `(${span} + (${h(41, 'p')} % 540)::int)`;

/** `h(n)`: a non-negative pseudo-random integer for column `n` of row `of` (as in volume.ts). */
const h = (column: number, of = 'g') => `(hashint8extended(${of}, ${column}) & 2147483647)`;
/** A roughly normal draw (mean 0, sd 1) from three hashes (Irwin–Hall). */
const normal = (a: number, of: string) =>
  `((((${h(a, of)} % 10000) + (${h(a + 1, of)} % 10000) + (${h(a + 2, of)} % 10000)) / 10000.0 - 1.5) / 0.5)`;

/** Days from a series' baseline to the `j`-th response of the same form (0 = baseline). */
function weeksOf(j: string) {
  const cases = SERIES_WEEKS.map((weeks, index) => `when ${index} then ${weeks}`).join(' ');
  return `(case ${j} ${cases} else ${SERIES_WEEKS.at(-1)} + 12 * (${j} - ${SERIES_WEEKS.length - 1}) end)`;
}

/** Days the seeded responses span after a patient's baseline: the last follow-up plus its jitter. */
export function responseSpanDays(responsesPerPatient: number): number {
  const series = Math.max(1, Math.ceil(responsesPerPatient / SERIES_WEEKS.length));
  const rounds = Math.ceil(series / VOLUME_FORMS.length);
  const last = rounds * SERIES_WEEKS.length - 1;
  const weeks = last < SERIES_WEEKS.length ? SERIES_WEEKS[last]! : SERIES_WEEKS.at(-1)! + 12 * (last - SERIES_WEEKS.length + 1);
  return weeks * 7 + 7;
}

/**
 * $1 clinic, $2–$3 response numbers, $4 patients in the clinic, $5 span days, $6–$12 the outcome tables.
 * Response `g` belongs to patient `1 + (g-1) % patients` as its `k`-th response: k / 5 is the series
 * (one form from baseline to 24 weeks), k % 5 the visit within it. A series' course: baseline burden
 * `u0` (normal around the form's mean), relative improvement at 24 weeks `rel` (mean 30 %, sd 30 %, so
 * about one in six worsens), reached along `1 - exp(-days / 49)`, with per-visit noise.
 */
export const RESPONSES_SQL = `
with s as (
  select g, 1 + (g - 1) % $4::bigint as p, (g - 1) / $4::bigint as k
  from generate_series($2::bigint, $3::bigint) g
), t as (
  select s.*, k / ${SERIES_WEEKS.length} as e,
    ((k / ${SERIES_WEEKS.length}) / ${VOLUME_FORMS.length}) * ${SERIES_WEEKS.length} + k % ${SERIES_WEEKS.length} as j,
    ((case ${FORM_SHARES.map((share, index) => `when ${h(40, 'p')} % 100 < ${share} then ${index}`).join(' ')} end)
      + k / ${SERIES_WEEKS.length}) % ${VOLUME_FORMS.length} as slot
  from s
), u as (
  select t.*, p * 8 + slot as series,
    ${weeksOf('j')} * 7 + case when j > 0 then ${h(42)} % 11 - 5 else 0 end as days
  from t
), v as (
  select u.*,
    least(1.0, greatest(0.0,
      least(0.98, greatest(0.02, ($12::float8[])[slot + 1] + 0.17 * ${normal(43, 'series')}))
        * (1 - (0.30 + 0.30 * ${normal(46, 'series')}) * (1 - exp(-days / 49.0)))
      + case when j > 0 then 0.06 * (((${h(49)} % 10000) + (${h(50)} % 10000)) / 10000.0 - 1) else 0 end)) as burden
  from u
), w as (
  select v.*, slot * ${LEVELS} + round(burden * ${LEVELS - 1})::int + 1 as level from v
)
insert into form_responses (id, instance_id, patient_id, form_code, version, language, answers, scores, headline_score,
  band, idempotency_key, submitted_at)
select md5('response:' || $1::text || ':' || g)::uuid, $1::text::uuid, md5($1::text || ':' || p)::uuid,
  ($6::smallint[])[slot + 1], ($7::text[])[slot + 1],
  case when ($8::boolean[])[slot + 1] and ${h(1, 'p')} % 100 < 45 and ${h(4, 'p')} % 10 < 6 then 'es' else 'en' end,
  ($11::jsonb[])[level], ($10::jsonb[])[level], ($9::numeric[])[level], ($13::smallint[])[level],
  md5('idempotency:' || $1::text || ':' || g)::uuid,
  ((current_date - ${baselineDaysAgo('$5::int')})::timestamp + interval '15 hours'
    + (${h(51, 'p')} % 240) * interval '1 minute' + e * interval '4 minutes') at time zone 'UTC' + days * interval '1 day'
from w`;

export const responsesParameters = (tables: OutcomeTables) => [
  tables.formCodes,
  tables.versions,
  tables.spanish,
  tables.headline,
  tables.scores,
  tables.answers,
  BASELINE_BURDEN,
  tables.band,
];

/**
 * $1 clinic, $2–$3 intervention numbers, $4 patients, $5 span days, $6 injections, $7 procedures, $8
 * doctors. Intervention `g` belongs to patient `1 + (g-1) % patients`; the first is performed 1–4 weeks
 * after the patient's baseline (before the first follow-up), further ones every 8 weeks, none after today.
 * Two in three are injections.
 */
export const INTERVENTIONS_SQL = `
with s as (
  select g, 1 + (g - 1) % $4::bigint as p, (g - 1) / $4::bigint as k
  from generate_series($2::bigint, $3::bigint) g
), t as (
  select s.*, ${h(52)} % 3 < 2 as injection, ${h(53)} as h53,
    least(current_date, current_date - ${baselineDaysAgo('$5::int')} + 7 + (${h(54)} % 22)::int + (k * 56)::int) as performed_on
  from s
)
insert into interventions (instance_id, patient_id, kind, item_id, side, guidance, performed_on, provider_id, provider_type,
  completion, created_at, updated_at)
select $1::text::uuid, md5($1::text || ':' || p)::uuid, case when injection then 'injection' else 'procedure' end,
  case when injection then ($6::uuid[])[1 + h53 % cardinality($6::uuid[])] else ($7::uuid[])[1 + h53 % cardinality($7::uuid[])] end,
  (array['left', 'right', 'bilateral'])[1 + h53 % 3], 'fluoroscopy', performed_on,
  ($8::uuid[])[1 + ${h(9, 'p')} % cardinality($8::uuid[])], 'Doctor', 1,
  performed_on::timestamp at time zone 'UTC' + interval '18 hours', performed_on::timestamp at time zone 'UTC' + interval '18 hours'
from t`;

/** The volume clinics' interventional catalogue (the demo clinic's names and CPT codes, decision 0038). */
export const volumeCatalogue = {
  'interventionalitems:1': [
    { name: 'Lumbar medial branch block', attributes: { cptCode: '64493' } },
    { name: 'Lumbar radiofrequency ablation', attributes: { cptCode: '64635' } },
    { name: 'Spinal cord stimulator trial', attributes: { cptCode: '63650' } },
  ],
  'interventionalitems:2': [
    { name: 'Lumbar transforaminal epidural steroid injection', attributes: { cptCode: '64483' } },
    { name: 'Lumbar interlaminar epidural steroid injection', attributes: { cptCode: '62323' } },
    { name: 'Cervical interlaminar epidural steroid injection', attributes: { cptCode: '62321' } },
    { name: 'Sacroiliac joint injection', attributes: { cptCode: '27096' } },
  ],
} as const;

/** Referring providers of the volume clinics (Referrals list; invented names, no NPI). */
export const volumeReferrals = [
  { name: 'Dr. Elena Ruiz', attributes: { source: 1, practice: 'Capital Spine Surgery' } },
  { name: 'Dr. Mark Chen', attributes: { source: 1, practice: 'Hill Country Family Medicine' } },
  { name: 'Dr. Priya Natarajan', attributes: { source: 1, practice: 'Austin Orthopedic Associates' } },
  { name: 'Dr. James Walker', attributes: { source: 1, practice: 'Lone Star Neurology' } },
  { name: 'Dr. Sofia Herrera', attributes: { source: 1, practice: 'Rio Grande Primary Care' } },
  { name: 'Dr. Thomas Reed', attributes: { source: 1, practice: 'Central Texas Sports Medicine' } },
];
