import { sql, type SQL } from 'drizzle-orm';
import {
  AUDIENCE_SAMPLE_SIZE,
  CODE_MATCH_ALL,
  CODE_MATCH_TIMEFRAME,
  type AudiencePatient,
  type AudiencePreview,
  type AudienceRule,
  type CampaignChannel,
} from '@pathwell/contracts/outreach';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { PatientPhoneType } from '@pathwell/contracts/patients';
import type { Database } from '../../db/client';
import { clinicTimeZone } from '../settings/settings.service';
import { rowsOf } from '../../lib/sql-rows';

/** Runs a statement and answers its rows as plain records. */

/*
 * Audiences (issue #15 §2, decisions 0049 and 0053). One SQL statement answers a rule. The patients are
 * read from `patients_audience_idx` alone (live, active patients, with what the filters read, including
 * the last coded visit and last completed appointment that triggers keep on the row). The codes (with
 * the code groups expanded) are matched through `patient_code_marks` (one row per patient and code:
 * Any of These Codes is a semi-join, All of These Codes a grouping) or, with a date window or a
 * provider, through each coded visit in `coded_visit_codes`. A preview works out the matched codes of
 * its 25 sample patients only. Benchmarked at 1,000,000 patients and 5,000,000 coded visits
 * (bench/README.md).
 */

/**
 * Who an audience is for. A campaign reaches patients on its channels (a patient who can be reached on
 * none — texts stopped or off, no email or emails off — is left out); a code pull template without
 * channels counts patients reachable by text or email; a hot list needs a phone number and leaves out
 * patients who asked not to be called.
 */
export type AudiencePurpose = { kind: 'campaign'; channels: readonly CampaignChannel[] } | { kind: 'hotlist' };

interface AudienceMember {
  patientId: string;
  matchedCodes: string[];
  lastVisit: string | null;
}

/** An array parameter as PostgreSQL's literal (the values are validated codes and ids: no quoting needed). */
const pgArray = (values: readonly string[]) => `{${values.join(',')}}`;

interface RuleCodes {
  /** Every code the rule names, its groups' included (what a visit is looked up by). */
  all: string[];
  /** The codes named one by one. */
  listed: string[];
  /** Each named group's codes (groups of another clinic, deleted or empty ones are left out). */
  groups: string[][];
}

interface CodeGroupRow {
  codes: string[];
}

/** The rule's codes with its code groups' codes (groups of another clinic are never read). */
async function codesOf(db: Database, instanceId: string, rule: AudienceRule): Promise<RuleCodes> {
  const listed = [...new Set(rule.codes)].sort();
  if (rule.codeGroupIds.length === 0) return { all: listed, listed, groups: [] };
  const rows = await rowsOf<CodeGroupRow>(
    db,
    sql`
    select g.codes from code_groups g
     where g.instance_id = ${instanceId} and g.deleted_at is null
       and g.id = any(${pgArray(rule.codeGroupIds)}::uuid[])
     order by g.id`,
  );
  const groups = rows.map((row) => [...new Set(row.codes)].sort()).filter((codes) => codes.length > 0);
  return { all: [...new Set([...listed, ...groups.flat()])].sort(), listed, groups };
}

const mobileOf = (patient: SQL) => sql`(
  select ph.digits from patient_phone_numbers ph
   where ph.instance_id = ${patient}.instance_id and ph.patient_id = ${patient}.id and ph.phone_type = ${PatientPhoneType.MOBILE}
   order by ph.is_primary desc, ph.created_at limit 1)`;

/** A mobile that answered STOP to this clinic's number (numbers are stored in E.164; ten digits are US). */
const textStopped = (patient: SQL, mobile: SQL) => sql`exists (
  select 1 from sms_opt_outs o
   where o.instance_id = ${patient}.instance_id and o.opted_out
     and o.phone = case when length(${mobile}) = 10 then '+1' || ${mobile} else '+' || ${mobile} end)`;

function reachability(purpose: AudiencePurpose): SQL {
  const p = sql.raw('p');
  if (purpose.kind === 'hotlist') {
    return sql`exists (select 1 from patient_phone_numbers ph where ph.instance_id = p.instance_id and ph.patient_id = p.id)
      and not exists (select 1 from hotlist_entries he
                       where he.instance_id = p.instance_id and he.patient_id = p.id and he.outcome = 'doNotCall')`;
  }
  // The primary mobile (looked up once), reachable when it did not text STOP to the clinic. A campaign is
  // an optional message: the patient's own switches for those count too (decision 0065).
  const byText = sql`(p.enable_text and p.outreach_text and exists (select 1 from ${mobileOf(p)} as mobile(digits)
      where not ${textStopped(p, sql.raw('mobile.digits'))}))`;
  const byEmail = sql`(p.enable_email and p.outreach_email and coalesce(p.email, '') <> '')`;
  const channels = purpose.channels.length > 0 ? purpose.channels : (['sms', 'email'] as const);
  // Email first: a column test, so the phone look-ups run only for patients email does not reach.
  const parts = [...channels].sort((a, b) => (a === b ? 0 : a === 'email' ? -1 : 1)).map((c) => (c === 'sms' ? byText : byEmail));
  return sql`(${sql.join(parts, sql` or `)})`;
}

/**
 * For the rest of the transaction (`set_config(…, true)`: nothing carries over to the pooled
 * connection's next user): no JIT — costed far above jit_above_cost at a million patients, the
 * statement would be compiled for longer than it runs, as the reports found (decision 0046) — and
 * enough memory for the hash of a large audience (hundreds of thousands of patients) to stay in memory
 * instead of spilling to disk in batches.
 */
async function tuneTransaction(db: Database): Promise<void> {
  await db.execute(sql`select set_config('jit', 'off', true), set_config('work_mem', '64MB', true)`);
}

interface Built {
  /** `from (…) as p where …`: the matching patients (`p`) with every filter applied. */
  audience: SQL;
  /** The rule's matched codes of one patient (`p`), for the rows a preview shows or a list freezes. */
  matchedCodes: SQL;
  /** The patient's (`p`) last visit of either kind, as a clinic date. */
  lastVisit: SQL;
  empty: boolean;
}

async function build(db: Database, instanceId: string, rule: AudienceRule, purpose: AudiencePurpose, now: Date): Promise<Built> {
  const codes = await codesOf(db, instanceId, rule);
  const timeZone = await clinicTimeZone(db, instanceId);
  await tuneTransaction(db);
  const at = now.toISOString();
  const today = sql`(${at}::timestamptz at time zone ${timeZone})::date`;
  const timeframe = rule.matchMode === CODE_MATCH_TIMEFRAME && rule.codedFrom && rule.codedTo;
  const ruleCodes = sql`${pgArray(codes.all)}::text[]`;

  // Which patients have the rule's codes. Without a date window or a provider no single visit matters:
  // the code marks (one row per patient and code, decision 0053) answer it, and Any of These Codes is a
  // plain semi-join (no grouping). With a window or a provider, each coded visit is read by its index.
  const byMarks = !timeframe && rule.providerIds.length === 0;
  let codeMatch: SQL;
  if (byMarks && rule.matchMode !== CODE_MATCH_ALL) {
    codeMatch = sql`exists (select 1 from patient_code_marks c
      where c.instance_id = ${instanceId} and c.patient_id = p.id and c.code = any(${ruleCodes}))`;
  } else {
    const codeFilters: SQL[] = [sql`c.instance_id = ${instanceId}`, sql`c.code = any(${ruleCodes})`];
    if (timeframe) codeFilters.push(sql`c.visit_date between ${rule.codedFrom}::date and ${rule.codedTo}::date`);
    if (rule.providerIds.length > 0) codeFilters.push(sql`c.provider_id = any(${pgArray(rule.providerIds)}::uuid[])`);
    // All of These Codes: every code named one by one, and at least one code of each named group.
    const all: SQL[] = [];
    if (rule.matchMode === CODE_MATCH_ALL) {
      if (codes.listed.length > 0) {
        all.push(
          sql`count(distinct c.code) filter (where c.code = any(${pgArray(codes.listed)}::text[])) = ${codes.listed.length}`,
        );
      }
      for (const group of codes.groups) all.push(sql`bool_or(c.code = any(${pgArray(group)}::text[]))`);
    }
    const having = all.length > 0 ? sql`having ${sql.join(all, sql` and `)}` : sql``;
    codeMatch = sql`p.id in (
      select c.patient_id from ${byMarks ? sql.raw('patient_code_marks') : sql.raw('coded_visit_codes')} c
       where ${sql.join(codeFilters, sql` and `)}
       group by c.patient_id ${having})`;
  }

  /** Midnight of a clinic date, as a moment. */
  const clinicMidnight = (day: string) => sql`(${day}::date::timestamp at time zone ${timeZone})`;
  /** A visit of either kind on or after a clinic date: a coded visit, or a completed appointment. */
  const visitedSince = (day: string) =>
    sql`(p.last_coded_visit >= ${day}::date or p.last_completed_visit_at >= ${clinicMidnight(day)})`;

  // The first five are the predicate of patients_audience_idx: the patients are read from it alone.
  const filters: SQL[] = [
    sql`p.instance_id = ${instanceId}`,
    sql`p.deleted_at is null`,
    sql`p.archived_at is null`,
    sql`p.account_closed_at is null`,
    sql`p.status = 'active'`,
  ];
  if (rule.ageMin !== null) filters.push(sql`p.date_of_birth <= ${today} - make_interval(years => ${rule.ageMin})`);
  if (rule.ageMax !== null) filters.push(sql`p.date_of_birth > ${today} - make_interval(years => ${rule.ageMax + 1})`);
  if (rule.payorStatusIds.length > 0) filters.push(sql`p.payor_status_id = any(${pgArray(rule.payorStatusIds)}::uuid[])`);
  // The last visit (the later of the last coded visit and the last completed appointment, in clinic
  // dates) before a day: no visit of either kind on or after it (no visit at all counts as before).
  if (rule.lastVisitBefore) filters.push(sql`${visitedSince(rule.lastVisitBefore)} is not true`);
  if (rule.lastVisitAfter) filters.push(sql`${visitedSince(rule.lastVisitAfter)} is true`);
  filters.push(codeMatch);
  if (rule.studyGroupIds.length > 0) {
    filters.push(sql`exists (select 1 from patient_study_groups sg
      where sg.instance_id = p.instance_id and sg.patient_id = p.id
        and sg.study_group_id = any(${pgArray(rule.studyGroupIds)}::uuid[]))`);
  }
  if (rule.noUpcomingAppointment) {
    filters.push(sql`not exists (select 1 from appointments a
      where a.patient_id = p.id and a.instance_id = p.instance_id and a.deleted_at is null
        and a.starts_at >= ${at}::timestamptz
        and a.status in (${AppointmentStatus.Upcoming}, ${AppointmentStatus.Checking_In}))`);
  }
  if (rule.excludeContactedWithinDays !== null) {
    const since = sql`${at}::timestamptz - make_interval(days => ${rule.excludeContactedWithinDays})`;
    filters.push(sql`not exists (select 1 from campaign_recipients r
      where r.instance_id = p.instance_id and r.patient_id = p.id and r.queued_at >= ${since})`);
    filters.push(sql`not exists (select 1 from hotlist_calls hc
      where hc.instance_id = p.instance_id and hc.patient_id = p.id and hc.created_at >= ${since})`);
  }

  // Whether the patient can be reached is asked last, of the patients every other filter kept: it looks
  // up phones per patient, and left among the other filters it makes the planner walk the patients one
  // by one (a nested loop over 400,000 look-ups) instead of joining them as sets. `offset 0` keeps it out.
  const audience = sql`from (
      select p.id, p.instance_id, p.first_name, p.last_name, p.date_of_birth, p.email, p.enable_email,
             p.enable_text, p.outreach_email, p.outreach_text, p.last_coded_visit, p.last_completed_visit_at
        from patients p
       where ${sql.join(filters, sql` and `)}
      offset 0) as p
     where ${reachability(purpose)}`;

  const visitFilters: SQL[] = [sql`cv.instance_id = p.instance_id`, sql`cv.patient_id = p.id`];
  if (timeframe) visitFilters.push(sql`cv.visit_date between ${rule.codedFrom}::date and ${rule.codedTo}::date`);
  if (rule.providerIds.length > 0) visitFilters.push(sql`cv.provider_id = any(${pgArray(rule.providerIds)}::uuid[])`);
  // Through the patient's visits (coded_visits by patient), not the code index (by code first).
  const matchedCodes = sql`(select coalesce(array_agg(distinct code order by code), '{}')
      from coded_visits cv cross join lateral unnest(cv.codes) as code
     where ${sql.join(visitFilters, sql` and `)} and code = any(${ruleCodes}))`;
  const lastVisit = sql`greatest(p.last_coded_visit, (p.last_completed_visit_at at time zone ${timeZone})::date)`;
  return { audience, matchedCodes, lastVisit, empty: codes.all.length === 0 };
}

interface AudienceCountRow {
  count: number;
}

/** A patient of the preview's page; `total` is the whole audience's count, repeated on every row. */
interface SampleRow {
  patient_id: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  total: number;
  matched_codes: string[];
  last_visit: string | null;
}

interface MemberRow {
  patient_id: string;
  matched_codes: string[];
  last_visit: string | null;
}

/** How many patients the rule selects now. */
export async function countAudience(
  db: Database,
  instanceId: string,
  rule: AudienceRule,
  purpose: AudiencePurpose,
  now = new Date(),
): Promise<number> {
  const built = await build(db, instanceId, rule, purpose, now);
  if (built.empty) return 0;
  const rows = await rowsOf<AudienceCountRow>(db, sql`select count(*)::int as count ${built.audience}`);
  return rows[0]?.count ?? 0;
}

/**
 * The count and the first patients by name: what the template builder shows before saving. `page` takes
 * another slice of the same order (a campaign's approver pages through everyone it would message).
 */
export async function previewAudience(
  db: Database,
  instanceId: string,
  rule: AudienceRule,
  purpose: AudiencePurpose,
  now = new Date(),
  page: { offset: number; limit: number } = { offset: 0, limit: AUDIENCE_SAMPLE_SIZE },
): Promise<AudiencePreview> {
  const built = await build(db, instanceId, rule, purpose, now);
  if (built.empty) return { count: 0, sample: [] };
  // The audience is worked out once (materialized: else the planner may walk the patients in name order
  // to serve the page, testing every one against the hits), then counted and its first page taken; the
  // sample's codes and last visit are looked up for its own rows only.
  const rows = await rowsOf<SampleRow>(
    db,
    sql`
    with audience as materialized (
      select p.id, p.instance_id, p.first_name, p.last_name, p.date_of_birth, p.last_coded_visit,
             p.last_completed_visit_at ${built.audience}
    )
    select p.id as patient_id, p.first_name, p.last_name, p.date_of_birth::text as date_of_birth,
           (select count(*) from audience)::int as total,
           ${built.matchedCodes} as matched_codes, (${built.lastVisit})::text as last_visit
      from (select * from audience order by lower(last_name), lower(first_name), id
             limit ${page.limit} offset ${page.offset}) as p
     order by lower(p.last_name), lower(p.first_name), p.id`,
  );
  const sample: AudiencePatient[] = rows.map((row) => ({
    patientId: row.patient_id,
    firstName: row.first_name,
    lastName: row.last_name,
    dateOfBirth: row.date_of_birth,
    lastVisit: row.last_visit,
    matchedCodes: row.matched_codes,
  }));
  const count = rows.length > 0 ? rows[0]!.total : page.offset > 0 ? await countAudience(db, instanceId, rule, purpose, now) : 0;
  return { count, sample };
}

/** Every patient the rule selects now, in name order: what a campaign or hot list freezes. */
export async function resolveAudience(
  db: Database,
  instanceId: string,
  rule: AudienceRule,
  purpose: AudiencePurpose,
  now = new Date(),
): Promise<AudienceMember[]> {
  const built = await build(db, instanceId, rule, purpose, now);
  if (built.empty) return [];
  const rows = await rowsOf<MemberRow>(
    db,
    sql`select p.id as patient_id, ${built.matchedCodes} as matched_codes, (${built.lastVisit})::text as last_visit
        ${built.audience}
        order by lower(p.last_name), lower(p.first_name), p.id`,
  );
  return rows.map((row) => ({ patientId: row.patient_id, matchedCodes: row.matched_codes, lastVisit: row.last_visit }));
}
