import { visitCodeKindOf } from '@pathwell/contracts/outreach';

/**
 * Coded visits of the volume seed (issue #15 §2): diagnosis (ICD-10-CM) and procedure (CPT / HCPCS)
 * codes per visit, made by PostgreSQL with `INSERT … SELECT … FROM generate_series` like the rest of
 * `seed:volume`, into `coded_visits` and `coded_visit_codes` in one statement per batch. Generated data
 * for benchmarks, not a clinical model: what matters is the shape a code pull reads.
 *
 * Each patient has one complaint ("region": lumbar, cervical, joints, widespread, headache), picked by
 * hashing the patient number; every visit of the patient takes 1–3 distinct codes from that region's
 * table, where a code's weight is how many of the table's 100 slots it fills (E/M visit codes in every
 * table, the region's diagnoses and procedures beside them). Visit `g` belongs to patient
 * `1 + hash % patients` (about `visits / patients` each, Poisson-like), is dated in the last three
 * years, and is seen by the patient's own doctor (the same hash as the patient seed's `doctor_id`).
 */

/** Share of patients per region (percent, cumulative order below). */
const REGION_SHARES = [
  ['lumbar', 45],
  ['cervical', 20],
  ['joint', 15],
  ['widespread', 12],
  ['headache', 8],
] as const;

/** Per region: code → slots of 100. */
const REGION_CODES: Record<(typeof REGION_SHARES)[number][0], Record<string, number>> = {
  lumbar: {
    '99213': 14,
    '99214': 8,
    'M54.16': 14, // radiculopathy, lumbar region
    'M54.17': 4, // radiculopathy, lumbosacral region
    'M51.16': 9, // intervertebral disc disorders with radiculopathy, lumbar
    'M51.17': 3,
    'M54.50': 9, // low back pain, unspecified
    'M47.816': 8, // spondylosis without myelopathy or radiculopathy, lumbar
    'M48.062': 5, // spinal stenosis, lumbar, with neurogenic claudication
    'M48.061': 3,
    'M96.1': 2, // postlaminectomy syndrome
    'M46.1': 3, // sacroiliitis
    '62323': 5, // interlaminar epidural, lumbar / sacral, with imaging
    '64483': 5, // transforaminal epidural, lumbar / sacral, single level
    '64493': 3, // facet joint injection, lumbar, single level
    '64635': 2, // radiofrequency ablation, lumbar facet, single level
    '27096': 1, // sacroiliac joint injection
    '63650': 1, // spinal cord stimulator trial (percutaneous electrode)
    J1030: 1, // methylprednisolone acetate 40 mg
  },
  cervical: {
    '99213': 15,
    '99214': 8,
    'M54.2': 16, // cervicalgia
    'M54.12': 12, // radiculopathy, cervical region
    'M50.120': 6, // cervical disc disorder with radiculopathy, mid-cervical
    'M47.812': 10, // spondylosis, cervical
    'M54.6': 6, // pain in thoracic spine
    'M79.1': 4, // myalgia
    '62321': 8, // interlaminar epidural, cervical / thoracic, with imaging
    '64490': 6, // facet joint injection, cervical / thoracic
    '64633': 4, // radiofrequency ablation, cervical / thoracic facet
    '20552': 4, // trigger point injections, 1–2 muscles
    J3301: 1, // triamcinolone acetonide 10 mg
  },
  joint: {
    '99213': 16,
    '99214': 7,
    'M17.11': 12, // primary osteoarthritis, right knee
    'M17.12': 10,
    'M25.561': 8, // pain in right knee
    'M25.551': 6, // pain in right hip
    'M16.11': 6, // primary osteoarthritis, right hip
    'M75.41': 5, // impingement syndrome of right shoulder
    '20610': 14, // arthrocentesis / injection, major joint
    '64454': 5, // genicular nerve block
    '64624': 4, // genicular nerve radiofrequency
    J7325: 7, // hyaluronan (Synvisc-One)
  },
  widespread: {
    '99213': 14,
    '99214': 12,
    'G89.4': 14, // chronic pain syndrome
    'G89.29': 12, // other chronic pain
    'M79.7': 10, // fibromyalgia
    'G90.521': 5, // complex regional pain syndrome I of right lower limb
    'M79.1': 8,
    'F11.20': 4, // opioid dependence, uncomplicated
    'Z79.891': 9, // long-term use of opiate analgesic
    '20553': 6, // trigger point injections, 3+ muscles
    '64450': 4, // peripheral nerve block
    '80305': 2, // drug screen
  },
  headache: {
    '99213': 15,
    '99214': 10,
    'G43.909': 16, // migraine, unspecified
    'G44.229': 10, // chronic tension-type headache
    'M53.0': 8, // cervicocranial syndrome
    'G44.86': 6, // cervicogenic headache
    'M54.2': 8,
    '64405': 12, // greater occipital nerve block
    '64615': 10, // chemodenervation for chronic migraine
    J0585: 5, // onabotulinumtoxinA, per unit
  },
};

/** The distinct codes of the tables, each with its kind (diagnosis or procedure). */
function volumeCodeList(): { code: string; kind: 'diagnosis' | 'procedure' }[] {
  const codes = [...new Set(Object.values(REGION_CODES).flatMap((table) => Object.keys(table)))].sort();
  return codes.map((code) => {
    const kind = visitCodeKindOf(code);
    if (!kind) throw new Error(`volume code ${code} is neither an ICD-10-CM nor a CPT / HCPCS code`);
    return { code, kind };
  });
}

/**
 * The statement's fixed parameters: $4 region per percent (100 entries, 0-based region number), $5 the
 * region tables (100 slots each, concatenated), $6 the code list, $7 their kinds.
 */
export function codesParameters(): [number[], string[], string[], string[]] {
  const regionOf: number[] = [];
  REGION_SHARES.forEach(([, share], region) => {
    for (let slot = 0; slot < share; slot++) regionOf.push(region);
  });
  const slots: string[] = [];
  for (const [region] of REGION_SHARES) {
    const table = REGION_CODES[region];
    const filled = Object.entries(table).flatMap(([code, weight]) => Array.from({ length: weight }, () => code));
    if (filled.length !== 100) throw new Error(`volume codes: the ${region} table fills ${filled.length} slots, not 100`);
    slots.push(...filled);
  }
  const list = volumeCodeList();
  return [regionOf, slots, list.map((entry) => entry.code), list.map((entry) => entry.kind)];
}

/** `h(n)`: a non-negative pseudo-random integer for column `n` of row `of` (as in volume.ts). */
const h = (column: number, of = 'g') => `(hashint8extended(${of}, ${column}) & 2147483647)`;

/**
 * $1 clinic, $2–$3 visit numbers, $4–$7 `codesParameters()`, $8 patients in the clinic, $9 the clinic's
 * doctors (in the patient seed's order). Visit `g`: patient `p`, region `r`, `k` = 1–3 codes drawn
 * from the region's slots (duplicates fold, so some visits have fewer), a date in the last 3 years.
 */
export const CODED_VISITS_SQL = `
with s as (
  select g, p, 1 + ${h(62)} % 3 as k,
    ${h(63)} % 100 as c1, ${h(64)} % 100 as c2, ${h(65)} % 100 as c3,
    current_date - (${h(66)} % 1095)::int as visit_date,
    ($4::int[])[1 + ${h(67, 'p')} % 100] * 100 as base
  from (select g, 1 + ${h(61)} % $8::bigint as p from generate_series($2::bigint, $3::bigint) g) n
), v as (
  select g, p, visit_date, base,
    array(select distinct c from unnest((array[($5::text[])[1 + base + c1], ($5::text[])[1 + base + c2],
      ($5::text[])[1 + base + c3]])[1:k]) c order by c) as codes
  from s
), inserted as (
  insert into coded_visits (id, instance_id, patient_id, visit_date, provider_id, provider_name, source, dedupe_key, codes, created_at)
  select md5('cv:' || $1::text || ':' || g)::uuid, $1::text::uuid, md5($1::text || ':' || p)::uuid, visit_date,
    ($9::uuid[])[1 + ${h(9, 'p')} % cardinality($9::uuid[])], null, 'import', 'volume:' || g, codes,
    visit_date::timestamp at time zone 'UTC'
  from v
  returning id, instance_id, patient_id, visit_date, provider_id, codes
)
insert into coded_visit_codes (instance_id, coded_visit_id, code, kind, patient_id, visit_date, provider_id)
select i.instance_id, i.id, c.code, ($7::text[])[array_position($6::text[], c.code)], i.patient_id, i.visit_date, i.provider_id
from inserted i cross join lateral unnest(i.codes) as c(code)`;
