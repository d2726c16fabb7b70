import { randomBytes, randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { EncounterMapping } from '@pathwell/contracts/encounter-imports';
import { clinicClock, instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import {
  audienceRuleSchema,
  CODE_MATCH_ANY,
  CODE_MATCH_TIMEFRAME,
  type AudienceRule,
  type AudienceRuleInput,
  type HotlistOutcome,
} from '@pathwell/contracts/outreach';
import { PatientPhoneType } from '@pathwell/contracts/patients';
import { RoleCode } from '@pathwell/contracts/roles';
import type { Database } from '../client';
import {
  appointments,
  audienceTemplates,
  campaignRecipients,
  campaigns,
  codeGroups,
  encounterImports,
  hotlistCalls,
  hotlistEntries,
  hotlists,
  inboundTexts,
  instances,
  managedItems,
  outboxMessages,
  patientPhoneNumbers,
  patients,
  smsOptOuts,
  users,
  visitRecords,
} from '../schema';
import { resolveAudience } from '../../modules/outreach/audience.service';
import { campaignMessageFor } from '../../modules/outreach/campaign-sender';
import { insertCodedVisits, syncVisitRecordCodes, type CodedVisitValues } from '../../modules/outreach/coded-visits.service';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { createRandom, type Random } from './demo-random';
import { rowsOf } from '../../lib/sql-rows';

/*
 * Demo data for campaigns, code pulls and hot lists (issue #15, decision 0049): coded visits for the
 * demo patients over the last two years (the visit records' own codes, and encounters imported from
 * the clinic's former practice-management system), a few patients not seen for more than six months
 * with lumbar radiculopathy, code groups and templates, one finished text campaign with its responses,
 * a draft waiting for approval by the second admin, and a hot list staff are working. Every code is a
 * real ICD-10-CM or CPT code of a pain clinic; every patient, number and answer is made up.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;

export const DEMO_LUMBAR_GROUP = 'Lumbar radiculopathy';
export const DEMO_LUMBAR_CODES = ['M54.16', 'M54.17', 'M51.16'] as const;
const DEMO_KNEE_GROUP = 'Knee osteoarthritis';
export const DEMO_KNEE_CODES = ['M17.0', 'M17.11', 'M17.12'] as const;
export const DEMO_LAPSED_TEMPLATE = 'Lumbar radiculopathy, not seen in 6 months';
export const DEMO_KNEE_TEMPLATE = 'Knee injection candidates';
export const DEMO_HOTLIST_TEMPLATE = 'Stimulator candidates without a visit booked';
export const DEMO_FINISHED_CAMPAIGN = 'Lumbar radiculopathy recall';
export const DEMO_DRAFT_CAMPAIGN = 'Knee injection check-in';
export const DEMO_HOTLIST = 'Stimulator candidates: call list';
/** How many patients, at most, were last seen more than six months ago (their visits moved back). */
const DEMO_LAPSED_MAX = 18;
/** Of them, this many have lumbar radiculopathy (the rest knee osteoarthritis). */
const LAPSED_LUMBAR = 14;
const DEMO_IMPORT_FILE = 'riverside-encounters-2024-2026.csv';

/** A patient's main complaint: the diagnoses their visits carry and the procedures they had. */
type Profile = {
  diagnoses: readonly (readonly [string, number])[];
  /** Sometimes coded beside the main diagnosis. */
  secondary: readonly string[];
  procedures: readonly (readonly string[])[];
};

export const DEMO_PROFILES = {
  // M54.16/M54.17 radiculopathy, lumbar / lumbosacral; M51.16 disc disorder with radiculopathy, lumbar.
  // 64483 (+64484) transforaminal epidural, lumbar; 62323 interlaminar epidural, lumbar, with imaging.
  lumbarRadiculopathy: {
    diagnoses: [
      ['M54.16', 5],
      ['M54.17', 2],
      ['M51.16', 3],
    ],
    secondary: ['M54.50'],
    procedures: [['64483'], ['64483', '64484'], ['62323']],
  },
  // M47.816 spondylosis without myelopathy or radiculopathy, lumbar; 64635 (+64636) facet radiofrequency ablation.
  lumbarSpondylosis: { diagnoses: [['M47.816', 1]], secondary: ['M54.50'], procedures: [['64635'], ['64635', '64636']] },
  // M48.061 spinal stenosis, lumbar, without neurogenic claudication.
  lumbarStenosis: { diagnoses: [['M48.061', 1]], secondary: ['M54.50'], procedures: [['62323']] },
  // M17.0 bilateral, M17.11 / M17.12 right / left primary knee osteoarthritis; 20610 major joint injection.
  kneeOsteoarthritis: {
    diagnoses: [
      ['M17.11', 2],
      ['M17.12', 2],
      ['M17.0', 1],
    ],
    secondary: [],
    procedures: [['20610']],
  },
  // M96.1 postlaminectomy syndrome; G89.4 chronic pain syndrome: spinal cord stimulator candidates.
  chronicPain: {
    diagnoses: [
      ['M96.1', 3],
      ['G89.4', 2],
    ],
    secondary: ['G89.4', 'M54.50'],
    procedures: [['62323']],
  },
  // M54.12 radiculopathy, cervical; M47.812 cervical spondylosis; 62321 interlaminar epidural, cervical.
  cervical: { diagnoses: [['M54.12', 1]], secondary: ['M47.812'], procedures: [['62321']] },
} as const satisfies Record<string, Profile>;
type ProfileName = keyof typeof DEMO_PROFILES;

const PROFILE_WEIGHTS: [ProfileName, number][] = [
  ['lumbarRadiculopathy', 26],
  ['lumbarSpondylosis', 15],
  ['lumbarStenosis', 11],
  ['kneeOsteoarthritis', 22],
  ['chronicPain', 14],
  ['cervical', 12],
];

function weighted<T>(random: Random, entries: readonly (readonly [T, number])[]): T {
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random.next() * total;
  for (const [value, weight] of entries) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return entries[entries.length - 1]![0];
}

/** Days since 1970-01-01 of a clinic calendar day, and back. */
const dayIndexOf = (instant: Date, timeZone: string) => {
  const clock = clinicClock(instant, timeZone);
  return Math.floor(Date.UTC(clock.year, clock.month - 1, clock.day) / DAY);
};
const isoOfDay = (dayIndex: number) => new Date(dayIndex * DAY).toISOString().slice(0, 10);
const isWeekend = (dayIndex: number) => [0, 6].includes(new Date(dayIndex * DAY).getUTCDay());
/** The weekday on or before a day. */
const weekdayBefore = (dayIndex: number) => {
  let day = dayIndex;
  while (isWeekend(day)) day--;
  return day;
};
/** The weekday on or after a day. */
const weekdayAfter = (dayIndex: number) => {
  let day = dayIndex;
  while (isWeekend(day)) day++;
  return day;
};
/** The clinic date `months` calendar months before a day (the 31st of a short month becomes its last day). */
export function monthsBefore(dayIndex: number, months: number): string {
  const date = new Date(dayIndex * DAY);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() - months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(date.getUTCDate(), lastDay))).toISOString().slice(0, 10);
}

const rule = (input: AudienceRuleInput): AudienceRule => audienceRuleSchema.parse(input);
/** A short link's code: eight URL-safe characters, unguessable enough for a link that only redirects. */
const linkCode = () => randomBytes(6).toString('base64url');
const e164 = (digits: string) => (digits.length === 10 ? `+1${digits}` : `+${digits}`);
const asJson = (rows: unknown[]) => JSON.stringify(rows);

/**
 * Patients who may be moved back in time: active, nothing booked from today on, and no data of any
 * other demo (forms, procedures, links, messages, consents …) that would then be out of step with
 * their visits. Any table with a `patient_id` column counts, so a later demo file is respected too.
 */
async function lapsedCandidates(tx: Database, instanceId: string, todayStart: Date): Promise<string[]> {
  // The code marks follow the coded visits by trigger (decision 0053): derived, not another demo's data.
  const own = new Set(['appointments', 'patient_phone_numbers', 'patient_notes', 'patient_code_marks']);
  const tables = (
    await rowsOf<{ table_name: string }>(
      tx,
      sql`select distinct c.table_name from information_schema.columns c
           join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
          where c.table_schema = current_schema() and c.column_name = 'patient_id' and t.table_type = 'BASE TABLE'
          order by 1`,
    )
  )
    .map((row) => row.table_name)
    .filter((name) => !own.has(name));
  const untouched = tables.map((name) => sql`not exists (select 1 from ${sql.identifier(name)} x where x.patient_id = p.id)`);
  const rows = await rowsOf<{ id: string }>(
    tx,
    sql`select p.id from patients p
         where p.instance_id = ${instanceId} and p.deleted_at is null and p.archived_at is null
           and p.account_closed_at is null and p.status = 'active'
           and exists (select 1 from appointments a where a.instance_id = p.instance_id and a.patient_id = p.id
                        and a.status = ${AppointmentStatus.Completed} and a.deleted_at is null)
           and not exists (select 1 from appointments a where a.instance_id = p.instance_id and a.patient_id = p.id
                            and a.starts_at >= ${todayStart.toISOString()}::timestamptz)
           and ${sql.join(untouched, sql` and `)}
         order by lower(p.last_name), lower(p.first_name), p.id
         limit ${DEMO_LAPSED_MAX}`,
  );
  return rows.map((row) => row.id);
}

interface DemoOutreachOptions {
  instanceId: string;
  timeZone: string;
  /** The Admin who writes the campaigns and templates. */
  authorId: string;
  /** The second Admin, who approves them (someone other than the author). */
  approverId: string;
  /** The Staff member working the hot list. */
  staffId: string;
  seed?: number;
  now?: Date;
  /** Where the campaign's short links point (the server's PUBLIC_URL). */
  publicUrl?: string;
}

/** Seeds the outreach demo once per clinic: a clinic that already has the lumbar code group is left alone. */
export async function seedDemoOutreach(tx: Database, options: DemoOutreachOptions): Promise<void> {
  const { instanceId, timeZone, authorId, approverId, staffId } = options;
  const now = options.now ?? new Date();
  const random = createRandom(options.seed ?? 15);
  const publicUrl = (options.publicUrl ?? 'http://localhost:3000').replace(/\/$/, '');

  const [existing] = await tx
    .select({ id: codeGroups.id })
    .from(codeGroups)
    .where(and(eq(codeGroups.instanceId, instanceId), eq(codeGroups.name, DEMO_LUMBAR_GROUP), isNull(codeGroups.deletedAt)));
  if (existing) return;

  const today = dayIndexOf(now, timeZone);
  const at = (dayIndex: number, hour: number, minute = 0) => {
    const [year, month, day] = isoOfDay(dayIndex).split('-').map(Number) as [number, number, number];
    return instantOfClinicTime(year, month, day, timeZone, hour, minute);
  };
  const todayStart = at(today, 0);

  const [clinic] = await tx.select({ name: instances.name }).from(instances).where(eq(instances.id, instanceId));
  const [doctor] = await tx
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(and(eq(users.instanceId, instanceId), eq(users.role, RoleCode.Doctor), isNull(users.deletedAt)))
    .orderBy(asc(users.createdAt), asc(users.email))
    .limit(1);
  const doctorName = doctor ? `${doctor.firstName} ${doctor.lastName}` : null;
  const [followUpType] = await tx
    .select({ id: managedItems.id })
    .from(managedItems)
    .where(
      and(
        eq(managedItems.instanceId, instanceId),
        eq(managedItems.listType, 'customfield:appointmenttype'),
        eq(managedItems.name, 'Follow-up'),
        isNull(managedItems.deletedAt),
      ),
    )
    .limit(1);
  const booking = (patientId: string, startsAt: Date, bookedAt: Date): typeof appointments.$inferInsert => ({
    instanceId,
    patientId,
    doctorId: doctor?.id ?? null,
    appointmentTypeId: followUpType?.id ?? null,
    startsAt,
    durationMinutes: 30,
    status: AppointmentStatus.Upcoming,
    reason: 'follow_up',
    createdAt: bookedAt,
    updatedAt: bookedAt,
  });

  // 1. Some patients last came more than six months ago: their visits move back whole weeks (same weekdays).
  const lapsed = await lapsedCandidates(tx, instanceId, todayStart);
  const lapsedProfile = new Map<string, ProfileName>(
    lapsed.map((id, index) => [id, index < LAPSED_LUMBAR ? 'lumbarRadiculopathy' : 'kneeOsteoarthritis']),
  );
  if (lapsed.length > 0) {
    const lastVisits = await tx
      .select({ patientId: appointments.patientId, last: sql<string>`max(${appointments.startsAt})` })
      .from(appointments)
      .where(and(eq(appointments.instanceId, instanceId), inArray(appointments.patientId, lapsed)))
      .groupBy(appointments.patientId);
    const shifts = lastVisits.map((row) => {
      const ageDays = Math.floor((now.getTime() - new Date(row.last).getTime()) / DAY);
      const target = random.int(205, 460);
      return { patientId: row.patientId, days: Math.max(0, Math.ceil((target - ageDays) / 7) * 7) };
    });
    await tx.execute(sql`
      update appointments a set
        starts_at = a.starts_at - make_interval(days => v.days),
        checked_in_at = a.checked_in_at - make_interval(days => v.days),
        completed_at = a.completed_at - make_interval(days => v.days),
        created_at = a.created_at - make_interval(days => v.days),
        updated_at = a.updated_at - make_interval(days => v.days)
      from jsonb_to_recordset(${asJson(shifts)}::jsonb) as v("patientId" uuid, days int)
      where a.patient_id = v."patientId" and a.instance_id = ${instanceId}`);
    await tx.execute(sql`
      update patients p set created_at = least(p.created_at, first.starts_at - interval '12 days'),
                            updated_at = least(p.updated_at, first.starts_at - interval '12 days')
      from (select patient_id, min(starts_at) as starts_at from appointments
             where instance_id = ${instanceId} and patient_id = any(${`{${lapsed.join(',')}}`}::uuid[])
             group by patient_id) first
      where p.id = first.patient_id and p.instance_id = ${instanceId}`);
  }

  // 2. Coded visits: a visit record's codes as recorded in Pathwell, the other visits as imported encounters.
  const people = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.instanceId, instanceId), isNull(patients.deletedAt)))
    .orderBy(asc(patients.lastName), asc(patients.firstName), asc(patients.id));
  const visits = await tx
    .select({
      id: appointments.id,
      patientId: appointments.patientId,
      startsAt: appointments.startsAt,
      doctorId: appointments.doctorId,
      reason: appointments.reason,
      typeName: managedItems.name,
    })
    .from(appointments)
    .leftJoin(
      managedItems,
      and(eq(managedItems.instanceId, appointments.instanceId), eq(managedItems.id, appointments.appointmentTypeId)),
    )
    .where(
      and(
        eq(appointments.instanceId, instanceId),
        eq(appointments.status, AppointmentStatus.Completed),
        isNull(appointments.deletedAt),
        sql`${appointments.startsAt} < ${todayStart.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(appointments.startsAt), asc(appointments.id));
  const records = await tx
    .select({
      id: visitRecords.id,
      appointmentId: visitRecords.appointmentId,
      diagnosisCodes: visitRecords.diagnosisCodes,
      procedureCodes: visitRecords.procedureCodes,
    })
    .from(visitRecords)
    .where(eq(visitRecords.instanceId, instanceId));
  const recordOf = new Map(records.map((record) => [record.appointmentId, record]));

  // Patients with nothing booked are the hot list's pool: every third of them is a stimulator candidate.
  const bookedAhead = new Set(
    (
      await tx
        .selectDistinct({ patientId: appointments.patientId })
        .from(appointments)
        .where(
          and(
            eq(appointments.instanceId, instanceId),
            isNull(appointments.deletedAt),
            sql`${appointments.startsAt} >= ${todayStart.toISOString()}::timestamptz`,
          ),
        )
    ).map((row) => row.patientId),
  );
  const profileOf = new Map<string, ProfileName>();
  let unbooked = 0;
  for (const person of people) {
    const drawn = weighted(random, PROFILE_WEIGHTS);
    const candidate = !bookedAhead.has(person.id) && !lapsedProfile.has(person.id) && unbooked++ % 3 === 0;
    profileOf.set(person.id, lapsedProfile.get(person.id) ?? (candidate ? 'chronicPain' : drawn));
  }
  // Patients whose recorded injections were lumbar radicular keep that story.
  const visitPatient = new Map(visits.map((visit) => [visit.id, visit.patientId]));
  for (const record of records) {
    const patientId = visitPatient.get(record.appointmentId);
    if (patientId && record.diagnosisCodes.some((code) => (DEMO_LUMBAR_CODES as readonly string[]).includes(code))) {
      profileOf.set(patientId, 'lumbarRadiculopathy');
    }
  }

  const importId = randomUUID();
  const importedAt = at(weekdayBefore(today - 40), 7, 30);
  const coded: CodedVisitValues[] = [];
  let encounter = 204_810;
  const mainDiagnosis = new Map<string, string>();
  const diagnosisOf = (patientId: string) => {
    let code = mainDiagnosis.get(patientId);
    if (!code) {
      code = weighted(random, DEMO_PROFILES[profileOf.get(patientId) ?? 'lumbarRadiculopathy'].diagnoses);
      mainDiagnosis.set(patientId, code);
    }
    return code;
  };
  const encounterCodes = (patientId: string, kind: 'new' | 'follow' | 'procedure') => {
    const profile: Profile = DEMO_PROFILES[profileOf.get(patientId) ?? 'lumbarRadiculopathy'];
    const diagnoses = [diagnosisOf(patientId)];
    const extra = profile.secondary.filter((code) => code !== diagnoses[0]);
    if (extra.length > 0 && random.chance(0.35)) diagnoses.push(random.pick(extra));
    const procedures =
      kind === 'procedure'
        ? [...random.pick(profile.procedures)]
        : [kind === 'new' ? '99204' : random.chance(0.6) ? '99213' : '99214'];
    return [...diagnoses, ...procedures];
  };
  const imported = (patientId: string, visitDay: number, codes: string[], providerId: string | null) => {
    const externalVisitId = `ENC-${encounter++}`;
    coded.push({
      instanceId,
      patientId,
      visitDate: isoOfDay(visitDay),
      providerId,
      providerName: providerId ? doctorName : null,
      source: 'import',
      importId,
      externalVisitId,
      dedupeKey: `ext:${externalVisitId}`,
      codes,
    });
  };

  for (const visit of visits) {
    // A visit with a visit record is coded in Pathwell (below); the old system never had it.
    if (recordOf.has(visit.id)) continue;
    const visitDay = dayIndexOf(visit.startsAt, timeZone);
    // The old system's export stops when the clinic moved to Pathwell's visit records (40 days ago).
    if (visitDay >= today - 40 || !random.chance(0.85)) continue;
    const kind = visit.typeName === 'Procedure' ? 'procedure' : visit.reason === 'new_patient' ? 'new' : 'follow';
    imported(visit.patientId, visitDay, encounterCodes(visit.patientId, kind), visit.doctorId ?? doctor?.id ?? null);
  }
  // Older history from the former system: up to two years back, before each patient's first visit here.
  const firstDay = new Map<string, number>();
  for (const visit of visits) {
    if (!firstDay.has(visit.patientId)) firstDay.set(visit.patientId, dayIndexOf(visit.startsAt, timeZone));
  }
  for (const person of people) {
    const first = firstDay.get(person.id);
    const isLapsed = lapsedProfile.has(person.id);
    if (first === undefined || (!isLapsed && !random.chance(0.45))) continue;
    const earliest = today - 720;
    if (first - 21 <= earliest) continue;
    const count = random.int(1, 3);
    let day = weekdayBefore(Math.max(earliest, first - random.int(60, 260)));
    for (let index = 0; index < count && day > earliest && day < first - 14; index++) {
      imported(
        person.id,
        day,
        encounterCodes(person.id, index === 0 ? 'new' : random.chance(0.4) ? 'procedure' : 'follow'),
        doctor?.id ?? null,
      );
      day = weekdayAfter(day + random.int(21, 70));
    }
  }
  await tx.insert(encounterImports).values({
    id: importId,
    instanceId,
    fileName: DEMO_IMPORT_FILE,
    status: 'done',
    mapping: {
      externalPatientId: 'Patient ID',
      firstName: 'First Name',
      lastName: 'Last Name',
      dateOfBirth: 'DOB',
      visitDate: 'Date of Service',
      provider: 'Rendering Provider',
      diagnosisCodes: 'Dx Codes',
      procedureCodes: 'CPT Codes',
      externalVisitId: 'Encounter #',
    } satisfies EncounterMapping,
    totalRows: coded.length,
    processedRows: coded.length,
    importedRows: coded.length,
    createdBy: authorId,
    startedAt: importedAt,
    finishedAt: new Date(importedAt.getTime() + 14_000),
    createdAt: importedAt,
    updatedAt: new Date(importedAt.getTime() + 14_000),
  });
  // Pathwell's own visit records are coded the way saving a record codes them.
  for (const record of records) await syncVisitRecordCodes(tx, instanceId, record.id);
  // Imported encounters, through the import's own insert (every key is new, so every row is imported).
  await insertCodedVisits(tx, coded);

  // 3. Code groups and templates.
  const groupsAt = at(weekdayBefore(today - 35), 11, 5);
  const [lumbarGroup, kneeGroup] = await tx
    .insert(codeGroups)
    .values([
      {
        instanceId,
        name: DEMO_LUMBAR_GROUP,
        codes: [...DEMO_LUMBAR_CODES],
        createdBy: authorId,
        createdAt: groupsAt,
        updatedAt: groupsAt,
      },
      {
        instanceId,
        name: DEMO_KNEE_GROUP,
        codes: [...DEMO_KNEE_CODES],
        createdBy: authorId,
        createdAt: groupsAt,
        updatedAt: groupsAt,
      },
    ])
    .returning({ id: codeGroups.id });
  const lapsedRule = (dayIndex: number) =>
    rule({
      codeGroupIds: [lumbarGroup!.id],
      matchMode: CODE_MATCH_ANY,
      lastVisitBefore: monthsBefore(dayIndex, 6),
      noUpcomingAppointment: true,
    });
  const kneeRule = rule({
    codeGroupIds: [kneeGroup!.id],
    codes: ['20610'],
    matchMode: CODE_MATCH_TIMEFRAME,
    codedFrom: monthsBefore(today, 12),
    codedTo: isoOfDay(today),
    ageMin: 45,
    excludeContactedWithinDays: 90,
  });
  const hotlistRule = rule({ codes: ['M96.1', 'G89.4'], matchMode: CODE_MATCH_ANY, noUpcomingAppointment: true });
  const templatesAt = new Date(groupsAt.getTime() + 20 * MINUTE);
  const [lapsedTemplate, kneeTemplate, hotlistTemplate] = await tx
    .insert(audienceTemplates)
    .values(
      [
        {
          instanceId,
          kind: 'campaign' as const,
          name: DEMO_LAPSED_TEMPLATE,
          description: 'Radicular low back pain, last visit more than six months ago, nothing booked.',
          rule: lapsedRule(today),
        },
        {
          instanceId,
          kind: 'campaign' as const,
          name: DEMO_KNEE_TEMPLATE,
          description:
            'Knee osteoarthritis or a knee injection in the last 12 months, aged 45 or over, not contacted in 90 days.',
          rule: kneeRule,
        },
        {
          instanceId,
          kind: 'hotlist' as const,
          name: DEMO_HOTLIST_TEMPLATE,
          description: 'Postlaminectomy or chronic pain syndrome with no visit booked: offer a stimulator consult.',
          rule: hotlistRule,
        },
      ].map((row) => ({ ...row, createdBy: authorId, createdAt: templatesAt, updatedAt: templatesAt })),
    )
    .returning({ id: audienceTemplates.id });

  // 4. The finished campaign: written by the first admin, approved by the second, sent 24 days ago.
  const sendDay = weekdayBefore(today - 24);
  const approvedAt = at(sendDay, 9, 40);
  const startedAt = at(sendDay, 10, 0);
  const campaignRule = lapsedRule(sendDay);
  const members = await resolveAudience(tx, instanceId, campaignRule, { kind: 'campaign', channels: ['sms'] }, approvedAt);
  const clinicName = clinic?.name ?? 'the clinic';
  const finished = {
    messageEn:
      'Hi {firstName}, it has been a while since your last visit at {clinic}. If your back or leg pain is back, {instruction} {link}',
    messageEs:
      'Hola {firstName}, hace tiempo que no lo vemos en {clinic}. Si el dolor de espalda o de pierna ha vuelto, {instruction} {link}',
    instructionEn: 'reply YES or call (512) 555-0142 to book a visit:',
    instructionEs: 'responda SÍ o llame al (512) 555-0142 para hacer una cita:',
  };
  if (members.length > 0) {
    const campaignId = randomUUID();
    const finishedAt = at(weekdayBefore(today - 6), 16, 30);
    await tx.insert(campaigns).values({
      id: campaignId,
      instanceId,
      name: DEMO_FINISHED_CAMPAIGN,
      templateId: lapsedTemplate!.id,
      rule: campaignRule,
      channels: ['sms'],
      ...finished,
      linkUrl: 'https://riverside-spine.example/book',
      throttlePerMinute: 30,
      attributionDays: 30,
      status: 'finished',
      textSending: true,
      recipientCount: members.length,
      createdBy: authorId,
      approvedBy: approverId,
      approvedAt,
      startedAt,
      finishedAt,
      createdAt: at(sendDay - 2, 15, 10),
      updatedAt: finishedAt,
    });
    const contacts = await tx
      .select({
        id: patients.id,
        firstName: patients.firstName,
        language: patients.preferredLanguage,
        digits: patientPhoneNumbers.digits,
        isPrimary: patientPhoneNumbers.isPrimary,
      })
      .from(patients)
      .innerJoin(
        patientPhoneNumbers,
        and(
          eq(patientPhoneNumbers.instanceId, patients.instanceId),
          eq(patientPhoneNumbers.patientId, patients.id),
          eq(patientPhoneNumbers.phoneType, PatientPhoneType.MOBILE),
        ),
      )
      .where(
        and(
          eq(patients.instanceId, instanceId),
          inArray(
            patients.id,
            members.map((member) => member.patientId),
          ),
        ),
      )
      .orderBy(sql`${patientPhoneNumbers.isPrimary} desc`, asc(patientPhoneNumbers.createdAt));
    const contactOf = new Map<string, (typeof contacts)[number]>();
    for (const contact of contacts) if (!contactOf.has(contact.id)) contactOf.set(contact.id, contact);

    const recipients = members.map((member, position) => {
      const contact = contactOf.get(member.patientId)!;
      const queuedAt = new Date(startedAt.getTime() + position * 2000);
      const code = linkCode();
      const language = contact.language === 'es' ? 'es' : 'en';
      // Exactly what the campaign sender texts: the filled message and the opt-out line.
      const body = campaignMessageFor(
        { ...finished, subjectEn: null, subjectEs: null },
        language,
        { firstName: contact.firstName, clinic: clinicName, provider: doctorName, linkCode: code },
        { publicUrl },
      ).text;
      return {
        recipientId: randomUUID(),
        messageId: randomUUID(),
        member,
        contact,
        language,
        phone: e164(contact.digits),
        queuedAt,
        code,
        body,
      } as const;
    });
    // One number no longer in service; every other text was delivered.
    const undelivered = recipients.length > 4 ? recipients.length - 2 : -1;
    await tx.insert(outboxMessages).values(
      recipients.map((recipient, index) => ({
        id: recipient.messageId,
        instanceId,
        channel: 'sms' as const,
        recipient: recipient.phone,
        body: recipient.body,
        template: 'campaign',
        status: index === undelivered ? ('undelivered' as const) : ('delivered' as const),
        error: index === undelivered ? 'Twilio error 30005: unknown destination handset' : null,
        patientId: recipient.member.patientId,
        attempts: 1,
        providerMessageId: `demo-campaign-${campaignId.slice(0, 8)}-${index}`,
        batchId: campaignId,
        createdAt: recipient.queuedAt,
        updatedAt: new Date(recipient.queuedAt.getTime() + 9000),
        sentAt: new Date(recipient.queuedAt.getTime() + 1500),
      })),
    );

    // Responses: clicks, two replies (one in Spanish), a STOP, and a patient who booked.
    const replyEn = recipients.find((recipient, index) => recipient.language === 'en' && index !== undelivered);
    const replyEs =
      recipients.find((recipient, index) => recipient.language === 'es' && index !== undelivered) ??
      recipients.find((recipient, index) => recipient !== replyEn && index !== undelivered);
    const stop = recipients.find(
      (recipient, index) => recipient !== replyEn && recipient !== replyEs && index !== undelivered && index > 0,
    );
    const clicked = new Set(
      recipients
        .filter((recipient, index) => index !== undelivered && recipient !== stop && (recipient === replyEn || index % 3 === 1))
        .map((recipient) => recipient.recipientId),
    );
    await tx.insert(campaignRecipients).values(
      recipients.map((recipient, position) => {
        const clickedAt = clicked.has(recipient.recipientId)
          ? new Date(recipient.queuedAt.getTime() + random.int(4, 300) * MINUTE)
          : null;
        const repliedAt =
          recipient === replyEn
            ? new Date(recipient.queuedAt.getTime() + 42 * MINUTE)
            : recipient === replyEs
              ? new Date(recipient.queuedAt.getTime() + 26 * HOUR)
              : null;
        return {
          id: recipient.recipientId,
          instanceId,
          campaignId,
          patientId: recipient.member.patientId,
          language: recipient.language,
          phone: recipient.phone,
          providerName: doctorName,
          matchedCodes: recipient.member.matchedCodes,
          smsStatus: 'queued' as const,
          smsMessageId: recipient.messageId,
          position,
          queuedAt: recipient.queuedAt,
          linkCode: recipient.code,
          clickedAt,
          clickCount: clickedAt ? random.int(1, 3) : 0,
          repliedAt,
          optedOutAt: recipient === stop ? new Date(recipient.queuedAt.getTime() + 7 * MINUTE) : null,
          createdAt: approvedAt,
        };
      }),
    );
    const inbound = [
      replyEn && {
        recipient: replyEn,
        body: 'Yes please. The pain down my left leg is back, can I come in next week?',
        keyword: null,
        receivedAt: new Date(replyEn.queuedAt.getTime() + 42 * MINUTE),
      },
      replyEs && {
        recipient: replyEs,
        body: 'Sí, me interesa una cita. ¿Tienen algo el jueves por la mañana?',
        keyword: null,
        receivedAt: new Date(replyEs.queuedAt.getTime() + 26 * HOUR),
      },
      stop && { recipient: stop, body: 'STOP', keyword: 'STOP', receivedAt: new Date(stop.queuedAt.getTime() + 7 * MINUTE) },
    ].filter((entry) => !!entry);
    if (inbound.length > 0) {
      await tx.insert(inboundTexts).values(
        inbound.map((entry, index) => ({
          instanceId,
          fromPhone: entry.recipient.phone,
          body: entry.body,
          keyword: entry.keyword,
          providerMessageId: `demo-inbound-${campaignId.slice(0, 8)}-${index}`,
          patientId: entry.recipient.member.patientId,
          campaignId,
          campaignRecipientId: entry.recipient.recipientId,
          receivedAt: entry.receivedAt,
        })),
      );
    }
    if (stop) {
      await tx
        .insert(smsOptOuts)
        .values({
          instanceId,
          phone: stop.phone,
          optedOut: true,
          keyword: 'STOP',
          updatedAt: new Date(stop.queuedAt.getTime() + 7 * MINUTE),
        })
        .onConflictDoNothing();
    }
    if (replyEn) {
      // The front desk called back the next morning and booked a visit: "booked" in the funnel.
      const bookedAt = at(weekdayAfter(sendDay + 1), 9, 15);
      await tx.insert(appointments).values(booking(replyEn.member.patientId, at(weekdayAfter(today + 3), 10, 30), bookedAt));
    }
  }

  // 5. A draft waiting for the second admin's approval.
  await tx.insert(campaigns).values({
    instanceId,
    name: DEMO_DRAFT_CAMPAIGN,
    templateId: kneeTemplate!.id,
    channels: ['sms', 'email'],
    messageEn:
      'Hi {firstName}, knee pain slowing you down? {clinic} offers same-week knee injection visits. {instruction} {link}',
    messageEs:
      'Hola {firstName}, ¿el dolor de rodilla no lo deja moverse? {clinic} ofrece citas para inyecciones de rodilla esta misma semana. {instruction} {link}',
    subjectEn: 'Knee pain? Book a visit at Riverside Spine & Pain',
    subjectEs: '¿Dolor de rodilla? Haga una cita en Riverside Spine & Pain',
    instructionEn: 'Reply YES or book online:',
    instructionEs: 'Responda SÍ o haga su cita en línea:',
    linkUrl: 'https://riverside-spine.example/book',
    throttlePerMinute: 60,
    attributionDays: 30,
    status: 'draft',
    createdBy: authorId,
    createdAt: at(weekdayBefore(today - 1), 14, 20),
    updatedAt: at(weekdayBefore(today - 1), 14, 35),
  });

  // 6. A hot list staff started working yesterday.
  const hotlistDay = weekdayBefore(today - 2);
  const workDay = weekdayBefore(today - 1);
  const hotlistAt = at(hotlistDay, 8, 30);
  const entries = await resolveAudience(tx, instanceId, hotlistRule, { kind: 'hotlist' }, hotlistAt);
  if (entries.length === 0) return;
  const hotlistId = randomUUID();
  await tx.insert(hotlists).values({
    id: hotlistId,
    instanceId,
    name: DEMO_HOTLIST,
    templateId: hotlistTemplate!.id,
    rule: hotlistRule,
    reason: 'Offer a spinal cord stimulator consult with Dr. Ortiz.',
    status: 'active',
    entryCount: entries.length,
    createdBy: authorId,
    createdAt: hotlistAt,
    updatedAt: hotlistAt,
  });
  const worked: { outcome: HotlistOutcome; note: string; hour: number; minute: number }[] = [
    { outcome: 'reachedBooked', note: 'Booked a stimulator consult; wants the trial explained.', hour: 9, minute: 10 },
    { outcome: 'reachedDeclined', note: 'Doing well with PT for now; call again in the spring.', hour: 9, minute: 25 },
    { outcome: 'voicemail', note: 'Left a voicemail with the clinic number.', hour: 9, minute: 40 },
    { outcome: 'wrongNumber', note: 'Number belongs to someone else now.', hour: 10, minute: 5 },
  ];
  const entryRows = entries.map((entry, position) => {
    const work = position < worked.length && position < entries.length - 2 ? worked[position]! : null;
    const outcomeAt = work ? at(workDay, work.hour, work.minute) : null;
    return {
      id: randomUUID(),
      instanceId,
      hotlistId,
      patientId: entry.patientId,
      position,
      matchedCodes: entry.matchedCodes,
      outcome: work?.outcome ?? null,
      outcomeAt,
      outcomeBy: work ? staffId : null,
      // The voicemail comes back tomorrow morning.
      callbackAt: work?.outcome === 'voicemail' ? at(today + 1, 10, 0) : null,
      note: work?.note ?? null,
      attempts: work ? 1 : 0,
      createdAt: hotlistAt,
      updatedAt: outcomeAt ?? hotlistAt,
    };
  });
  await tx.insert(hotlistEntries).values(entryRows);
  const calls = entryRows.filter((row) => row.outcome !== null);
  if (calls.length > 0) {
    await tx.insert(hotlistCalls).values(
      calls.map((row) => ({
        instanceId,
        hotlistId,
        entryId: row.id,
        patientId: row.patientId,
        userId: staffId,
        outcome: row.outcome!,
        callbackAt: row.callbackAt,
        note: row.note,
        createdAt: row.outcomeAt!,
      })),
    );
  }
  const booked = calls.find((row) => row.outcome === 'reachedBooked');
  if (booked) {
    await tx.insert(appointments).values(booking(booked.patientId, at(weekdayAfter(today + 8), 13, 30), booked.outcomeAt!));
  }
}
