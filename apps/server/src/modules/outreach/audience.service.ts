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

type Rows = { rows: Record<string, unknown>[] };
/** Runs a statement and answers its rows as plain records. */
const rowsOf = async (db: Database, statement: SQL) => ((await db.execute(statement)) as unknown as Rows).rows;
import { clinicTimeZone } from '../settings/settings.service';

/*
 * Audiences (issue #15 §2, decision 0049). One SQL statement answers a rule: the codes (with the code
 * groups expanded) are looked up in `coded_visit_codes` by its (clinic, code, date, patient) index, the
 * matching patients are grouped once, and only then joined to patients and narrowed by the filters, so
 * the cost follows the number of coded visits with those codes, not the size of the clinic.
 */

/**
 * Who an audience is for. A campaign reaches patients on its channels (a patient who can be reached on
 * none — texts stopped or off, no email or emails off — is left out); a code pull template without
 * channels counts patients reachable by text or email; a hot list needs a phone number and leaves out
 * patients who asked not to be called.
 */
export type AudiencePurpose = { kind: 'campaign'; channels: readonly CampaignChannel[] } | { kind: 'hotlist' };

export interface AudienceMember {
  patientId: string;
  matchedCodes: string[];
  lastVisit: string | null;
}

/** The rule's codes with its code groups' codes added (groups of another clinic are never read). */
async function codesOf(db: Database, instanceId: string, rule: AudienceRule): Promise<string[]> {
  if (rule.codeGroupIds.length === 0) return rule.codes;
  const rows = await rowsOf(
    db,
    sql`
    select coalesce(array_agg(distinct code), '{}') as codes
      from code_groups g, unnest(g.codes) code
     where g.instance_id = ${instanceId} and g.deleted_at is null
       and g.id = any(${pgArray(rule.codeGroupIds)}::uuid[])`,
  );
  const grouped = (rows[0]?.codes as string[] | undefined) ?? [];
  return [...new Set([...rule.codes, ...grouped])].sort();
}

/** An array parameter as PostgreSQL's literal (the values are validated codes and ids: no quoting needed). */
const pgArray = (values: readonly string[]) => `{${values.join(',')}}`;

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
  const mobile = mobileOf(p);
  const byText = sql`(p.enable_text and ${mobile} is not null and not ${textStopped(p, mobile)})`;
  const byEmail = sql`(p.enable_email and coalesce(p.email, '') <> '')`;
  if (purpose.kind === 'hotlist') {
    return sql`exists (select 1 from patient_phone_numbers ph where ph.instance_id = p.instance_id and ph.patient_id = p.id)
      and not exists (select 1 from hotlist_entries he
                       where he.instance_id = p.instance_id and he.patient_id = p.id and he.outcome = 'doNotCall')`;
  }
  const channels = purpose.channels.length > 0 ? purpose.channels : (['sms', 'email'] as const);
  const parts = channels.map((channel) => (channel === 'sms' ? byText : byEmail));
  return sql`(${sql.join(parts, sql` or `)})`;
}

interface Built {
  statement: (select: SQL, tail: SQL) => SQL;
  empty: boolean;
}

async function build(db: Database, instanceId: string, rule: AudienceRule, purpose: AudiencePurpose, now: Date): Promise<Built> {
  const codes = await codesOf(db, instanceId, rule);
  const timeZone = await clinicTimeZone(db, instanceId);
  const today = sql`(${now.toISOString()}::timestamptz at time zone ${timeZone})::date`;
  const codeFilters: SQL[] = [sql`c.instance_id = ${instanceId}`, sql`c.code = any(${pgArray(codes)}::text[])`];
  if (rule.matchMode === CODE_MATCH_TIMEFRAME && rule.codedFrom && rule.codedTo) {
    codeFilters.push(sql`c.visit_date between ${rule.codedFrom}::date and ${rule.codedTo}::date`);
  }
  if (rule.providerIds.length > 0) codeFilters.push(sql`c.provider_id = any(${pgArray(rule.providerIds)}::uuid[])`);
  const having = rule.matchMode === CODE_MATCH_ALL ? sql`having count(distinct c.code) = ${codes.length}` : sql``;

  const lastVisit = sql`greatest(
    (select max(cv.visit_date) from coded_visits cv where cv.instance_id = p.instance_id and cv.patient_id = p.id),
    (select max((a.starts_at at time zone ${timeZone})::date) from appointments a
      where a.patient_id = p.id and a.instance_id = p.instance_id and a.deleted_at is null
        and a.status = ${AppointmentStatus.Completed} and a.starts_at <= ${now.toISOString()}::timestamptz))`;

  const filters: SQL[] = [
    sql`p.instance_id = ${instanceId}`,
    sql`p.deleted_at is null`,
    sql`p.archived_at is null`,
    sql`p.account_closed_at is null`,
    sql`p.status = 'active'`,
    reachability(purpose),
  ];
  if (rule.ageMin !== null) filters.push(sql`p.date_of_birth <= ${today} - make_interval(years => ${rule.ageMin})`);
  if (rule.ageMax !== null) filters.push(sql`p.date_of_birth > ${today} - make_interval(years => ${rule.ageMax + 1})`);
  if (rule.payorStatusIds.length > 0) filters.push(sql`p.payor_status_id = any(${pgArray(rule.payorStatusIds)}::uuid[])`);
  if (rule.studyGroupIds.length > 0) {
    filters.push(sql`exists (select 1 from patient_study_groups sg
      where sg.instance_id = p.instance_id and sg.patient_id = p.id
        and sg.study_group_id = any(${pgArray(rule.studyGroupIds)}::uuid[]))`);
  }
  if (rule.noUpcomingAppointment) {
    filters.push(sql`not exists (select 1 from appointments a
      where a.patient_id = p.id and a.instance_id = p.instance_id and a.deleted_at is null
        and a.starts_at >= ${now.toISOString()}::timestamptz
        and a.status in (${AppointmentStatus.Upcoming}, ${AppointmentStatus.Checking_In}))`);
  }
  if (rule.lastVisitBefore) filters.push(sql`coalesce(${lastVisit} < ${rule.lastVisitBefore}::date, true)`);
  if (rule.lastVisitAfter) filters.push(sql`${lastVisit} >= ${rule.lastVisitAfter}::date`);
  if (rule.excludeContactedWithinDays !== null) {
    const since = sql`${now.toISOString()}::timestamptz - make_interval(days => ${rule.excludeContactedWithinDays})`;
    filters.push(sql`not exists (select 1 from campaign_recipients r
      where r.instance_id = p.instance_id and r.patient_id = p.id and r.queued_at >= ${since})`);
    filters.push(sql`not exists (select 1 from hotlist_calls hc
      where hc.instance_id = p.instance_id and hc.patient_id = p.id and hc.created_at >= ${since})`);
  }

  const statement = (select: SQL, tail: SQL) => sql`
    with hits as (
      select c.patient_id, array_agg(distinct c.code order by c.code) as matched_codes
        from coded_visit_codes c
       where ${sql.join(codeFilters, sql` and `)}
       group by c.patient_id
       ${having}
    )
    select ${select}
      from hits h
      join patients p on p.instance_id = ${instanceId} and p.id = h.patient_id
     where ${sql.join(filters, sql` and `)}
     ${tail}`;
  return { statement, empty: codes.length === 0 };
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
  const rows = await rowsOf(db, built.statement(sql`count(*)::int as count`, sql``));
  return Number(rows[0]?.count ?? 0);
}

/** The count and the first patients by name: what the template builder shows before saving. */
export async function previewAudience(
  db: Database,
  instanceId: string,
  rule: AudienceRule,
  purpose: AudiencePurpose,
  now = new Date(),
): Promise<AudiencePreview> {
  const built = await build(db, instanceId, rule, purpose, now);
  if (built.empty) return { count: 0, sample: [] };
  const timeZone = await clinicTimeZone(db, instanceId);
  const rows = await rowsOf(
    db,
    built.statement(
      sql`p.id as patient_id, p.first_name, p.last_name, p.date_of_birth::text as date_of_birth, h.matched_codes,
          count(*) over ()::int as total,
          greatest(
            (select max(cv.visit_date) from coded_visits cv where cv.instance_id = p.instance_id and cv.patient_id = p.id),
            (select max((a.starts_at at time zone ${timeZone})::date) from appointments a
              where a.patient_id = p.id and a.instance_id = p.instance_id and a.deleted_at is null
                and a.status = ${AppointmentStatus.Completed} and a.starts_at <= ${now.toISOString()}::timestamptz)
          )::text as last_visit`,
      sql`order by lower(p.last_name), lower(p.first_name), p.id limit ${AUDIENCE_SAMPLE_SIZE}`,
    ),
  );
  const sample: AudiencePatient[] = rows.map((row) => ({
    patientId: String(row.patient_id),
    firstName: String(row.first_name),
    lastName: String(row.last_name),
    dateOfBirth: String(row.date_of_birth),
    lastVisit: row.last_visit === null ? null : String(row.last_visit),
    matchedCodes: row.matched_codes as string[],
  }));
  const count = rows.length > 0 ? Number(rows[0]!.total) : 0;
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
  const timeZone = await clinicTimeZone(db, instanceId);
  const rows = await rowsOf(
    db,
    built.statement(
      sql`p.id as patient_id, h.matched_codes,
          greatest(
            (select max(cv.visit_date) from coded_visits cv where cv.instance_id = p.instance_id and cv.patient_id = p.id),
            (select max((a.starts_at at time zone ${timeZone})::date) from appointments a
              where a.patient_id = p.id and a.instance_id = p.instance_id and a.deleted_at is null
                and a.status = ${AppointmentStatus.Completed} and a.starts_at <= ${now.toISOString()}::timestamptz)
          )::text as last_visit`,
      sql`order by lower(p.last_name), lower(p.first_name), p.id`,
    ),
  );
  return rows.map((row) => ({
    patientId: String(row.patient_id),
    matchedCodes: row.matched_codes as string[],
    lastVisit: row.last_visit === null ? null : String(row.last_visit),
  }));
}
