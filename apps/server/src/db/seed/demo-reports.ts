import { randomBytes, randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { clinicClock, instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import { enumerations, referralSources } from '@pathwell/contracts/enumerations';
import { findManagedList } from '@pathwell/contracts/managed-lists';
import { noneCodeOf } from '@pathwell/contracts/patients';
import { RoleCode } from '@pathwell/contracts/roles';
import type { Database } from '../client';
import { sha256 } from '../../lib/secrets';
import {
  appointments,
  type formResponses,
  interventions,
  managedItems,
  patientLinks,
  patients,
  patientStudyGroups,
  users,
  visitRecords,
} from '../schema';
import { DEMO_LUMBAR_TFESI } from './demo-care';
import { buildDemoResponses, insertDemoResponses } from './demo-forms';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { createRandom, type Random } from './demo-random';

/*
 * Demo data for the outcome reports (issue #14): referring providers, referral sources, clinical
 * histories, success stories, opened links, and a cohort of patients answering the Pain Disability Index (PDI) and PHQ-9 at
 * baseline and about 4, 8, 12 and 24 weeks later, some with a lumbar epidural injection in between.
 * Every number is made up for the demo and every score comes from the instruments package's scoring;
 * none of it is clinical data or a clinical claim. Deterministic for a seed and a day (ids aside).
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;
/** The PDI ships its wording; the ODI is licensed and would carry no score without an import (decision 0067). */
const PDI = 4;
const PHQ9 = 11;
export const DEMO_LUMBAR_ILESI = 'Lumbar interlaminar epidural steroid injection';
/** How many patients the outcome cohort follows. */
const DEMO_COHORT_SIZE = 40;
/** Follow-up marks of the cohort, in days after the baseline visit: 0, 4, 8, 12 and 24 weeks. */
const DEMO_COHORT_MARKS = [0, 28, 56, 84, 168] as const;
const MARK_ATTENDANCE = [1, 0.9, 0.82, 0.8, 0.68];
/** Injected patients: baseline, the injection four weeks later, then 4, 8, 12 and 24 weeks after it. */
const INJECTION_MARKS = [0, 28, 56, 84, 112, 196] as const;
const INJECTION_ATTENDANCE = [1, 1, 1, 0.85, 0.8, 0.75];
const INJECTION_MARK = 1;
/** At most this many of the cohort have a lumbar injection (besides demo-care's four). */
const MAX_INJECTED = 12;

/**
 * Fictional referring providers. The NPIs have the shape and check digit of an NPI (the list's own
 * validation) but were made up, not looked up; phone numbers are in the 555-0100…0199 block kept for fiction.
 */
export const DEMO_REFERRING_PROVIDERS = [
  { name: 'Helen Park, MD', practice: 'Westlake Orthopedics', npi: '1928374655', phone: '(512) 555-0161', weight: 30 },
  { name: 'Marcus Bell, DO', practice: 'Capitol Family Medicine', npi: '1283746505', phone: '(512) 555-0162', weight: 24 },
  {
    name: 'Rebecca Alvarado, MD',
    practice: 'Hill Country Neurosurgery',
    npi: '1765432103',
    phone: '(512) 555-0163',
    weight: 16,
  },
  { name: 'Samuel Okafor, MD', practice: 'Eastside Primary Care', npi: '1543276897', phone: '(737) 555-0164', weight: 14 },
  { name: 'Linda Chu, PA-C', practice: 'Round Rock Urgent Care', npi: '1379462850', phone: '(512) 555-0165', weight: 9 },
  { name: 'Diego Serrano, DPT', practice: 'Motion Physical Therapy', npi: '1682054733', phone: '(512) 555-0166', weight: 7 },
] as const;

/** The patients' own words: plain, about their days, with no claim about what caused what. */
export const DEMO_SUCCESS_STORIES = [
  'I can pick up my granddaughter again, and most evenings we walk to the park down the street.',
  'I am back to full days at work. The front desk always remembered me, and the nurses explained every step before it happened.',
  'I sleep through most nights now and spent last Saturday in the garden. Thank you for listening to me.',
] as const;

const PHYSICIAN_REFERRAL = referralSources.find((option) => option.label.en === 'Physician referral')!.value as number;
const codeOf = (type: 'diseaseStates' | 'psychiatricHistory' | 'surgicalHistory', en: string) => {
  const option = enumerations[type].find((entry) => entry.label.en === en);
  if (!option) throw new Error(`No ${en} in ${type}`);
  return option.value as number;
};

function weighted<T>(random: Random, entries: readonly (readonly [T, number])[]): T {
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random.next() * total;
  for (const [value, weight] of entries) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return entries[entries.length - 1]![0];
}

/** Several distinct codes, each with its own chance; "None" when nothing came up. */
function history(random: Random, type: 'diseaseStates' | 'psychiatricHistory' | 'surgicalHistory', chances: [string, number][]) {
  // About one patient in ten has no history on file yet.
  if (random.chance(0.1)) return [];
  const codes = chances.filter(([, chance]) => random.chance(chance)).map(([en]) => codeOf(type, en));
  return codes.length > 0 ? codes.sort((a, b) => a - b) : [noneCodeOf(enumerations[type])!];
}

interface ReferralAndHistory {
  id: string;
  referralSource: number | null;
  referringProviderId: string | null;
  diseaseStates: number[];
  psychiatricHistory: number[];
  surgicalHistory: number[];
}

/** Pure: how each patient came to the clinic and what is in their history. */
export function buildReferralsAndHistory(seed: number, patientIds: string[], providerIds: string[]): ReferralAndHistory[] {
  const random = createRandom(seed * 104_729);
  const sources: [number | null, number][] = [
    [PHYSICIAN_REFERRAL, 46],
    [2, 10], // Self-referral
    [3, 5], // Emergency department
    [4, 3], // Hospital discharge
    [5, 4], // Insurance company
    [6, 3], // Attorney
    [7, 2], // Employer
    [8, 9], // Family or friend
    [9, 7], // Internet search
    [10, 3], // Social media
    [11, 1], // Advertisement
    [12, 1], // Other
    [null, 6],
  ];
  const providers = providerIds.map((id, index) => [id, DEMO_REFERRING_PROVIDERS[index]?.weight ?? 5] as const);
  return patientIds.map((id) => {
    const referralSource = weighted(random, sources);
    return {
      id,
      referralSource,
      referringProviderId:
        referralSource === PHYSICIAN_REFERRAL && providers.length > 0 && random.chance(0.92) ? weighted(random, providers) : null,
      diseaseStates: history(random, 'diseaseStates', [
        ['High blood pressure', 0.32],
        ['Obesity', 0.22],
        ['Diabetes', 0.15],
        ['Osteoarthritis', 0.2],
        ['Sleep apnea', 0.08],
        ['Fibromyalgia', 0.07],
        ['Migraine', 0.07],
        ['Peripheral neuropathy', 0.05],
        ['Thyroid disease', 0.05],
        ['Asthma', 0.05],
      ]),
      psychiatricHistory: history(random, 'psychiatricHistory', [
        ['Depression', 0.24],
        ['Anxiety', 0.22],
        ['Post-traumatic stress disorder (PTSD)', 0.04],
        ['Substance use disorder', 0.03],
      ]),
      surgicalHistory: history(random, 'surgicalHistory', [
        ['Lumbar spine surgery', 0.12],
        ['Spinal fusion', 0.05],
        ['Cervical spine surgery', 0.04],
        ['Knee replacement', 0.06],
        ['Hip replacement', 0.04],
        ['Carpal tunnel release', 0.05],
        ['Abdominal surgery', 0.1],
      ]),
    };
  });
}

type AppointmentRow = typeof appointments.$inferInsert;
type LinkRow = typeof patientLinks.$inferInsert;
type ResponseRow = typeof formResponses.$inferInsert;

export interface CohortPatient {
  id: string;
  createdAt: Date;
  preferredLanguage: 'en' | 'es';
  doctorId: string | null;
}
export interface CohortVisit {
  id: string;
  patientId: string;
  startsAt: Date;
  status: number;
  painScore: number | null;
  reason: 'new_patient' | 'follow_up' | null;
  bodyLocationIds: string[];
}
export interface CohortInput {
  instanceId: string;
  seed: number;
  now: Date;
  timeZone: string;
  patients: CohortPatient[];
  visits: CohortVisit[];
  /** Appointment types and rooms by name; body location "Lower back". */
  types: Record<'newPatient' | 'followUp' | 'procedure' | 'postProcedure', string | null>;
  rooms: string[];
  lowerBack: string | null;
  /** The two lumbar injections, alternated. */
  injectionItems: string[];
}
interface VisitUpdate {
  id: string;
  painScore?: number;
  reason?: 'follow_up';
  appointmentTypeId?: string | null;
  bodyLocationIds?: string[];
}
interface CohortRows {
  newVisits: AppointmentRow[];
  visitUpdates: VisitUpdate[];
  responses: ResponseRow[];
  links: LinkRow[];
  injections: { patientId: string; appointmentId: string; itemId: string; performedOn: string; side: 'left' | 'right' }[];
  createdAt: { id: string; createdAt: Date }[];
  stories: { id: string; story: string; sharedAt: Date | null }[];
}

type Course = 'improves' | 'partial' | 'flat' | 'worse' | 'injection' | 'injectionNoChange';

/** Days since 1970-01-01 of a clinic calendar day, and back. */
const dayIndexOf = (instant: Date, timeZone: string) => {
  const clock = clinicClock(instant, timeZone);
  return Math.floor(Date.UTC(clock.year, clock.month - 1, clock.day) / DAY);
};
const isoOfDay = (dayIndex: number) => new Date(dayIndex * DAY).toISOString().slice(0, 10);
/** Saturdays move to Friday and Sundays to Monday (or Friday when Monday would be today). */
const weekdayOf = (dayIndex: number, today: number) => {
  const weekday = new Date(dayIndex * DAY).getUTCDay();
  if (weekday === 6) return dayIndex - 1;
  if (weekday === 0) return dayIndex + 1 < today ? dayIndex + 1 : dayIndex - 2;
  return dayIndex;
};
const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** Pure: the outcome cohort's visits, answers, links, injections and stories. */
export function buildReportCohort(input: CohortInput): CohortRows {
  const random = createRandom(input.seed * 15_485_863);
  const { instanceId, timeZone } = input;
  const today = dayIndexOf(input.now, timeZone);
  const at = (dayIndex: number, hour: number, minute: number) => {
    const [year, month, day] = isoOfDay(dayIndex).split('-').map(Number) as [number, number, number];
    return instantOfClinicTime(year, month, day, timeZone, hour, minute);
  };
  const rows: CohortRows = {
    newVisits: [],
    visitUpdates: [],
    responses: [],
    links: [],
    injections: [],
    createdAt: [],
    stories: [],
  };
  const markVisits: AppointmentRow[] = [];
  const answeredPatients: CohortPatient[] = [];
  const storyCandidates: { patient: CohortPatient; lastVisit: Date }[] = [];
  let injected = 0;

  for (const patient of input.patients) {
    const own = input.visits
      .filter((visit) => visit.patientId === patient.id)
      .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
    const completed = own.filter((visit) => visit.status === AppointmentStatus.Completed && visit.painScore !== null);
    const firstDay = own.length > 0 ? dayIndexOf(own[0]!.startsAt, timeZone) : today;
    // Three in four started long enough ago for a 24-week answer; the rest are part-way through.
    const longAgo = random.chance(0.75);
    // Injected patients started early enough for most of their answers up to 24 weeks after the injection.
    const canInject = longAgo && injected < MAX_INJECTED && random.chance(0.45);
    const daysAgo = canInject ? random.int(215, 330) : longAgo ? random.int(175, 330) : random.int(50, 170);
    const baseline = weekdayOf(Math.min(firstDay - random.int(7, 28), today - daysAgo), today);
    const course: Course = canInject
      ? injected % 4 === 3
        ? 'injectionNoChange'
        : 'injection'
      : weighted(random, [
          ['improves', 52],
          ['partial', 18],
          ['flat', 18],
          ['worse', 12],
        ] as const);
    const injectionMark = canInject ? INJECTION_MARK : -1;
    const marks: readonly number[] = canInject ? INJECTION_MARKS : DEMO_COHORT_MARKS;
    const attendance = canInject ? INJECTION_ATTENDANCE : MARK_ATTENDANCE;
    if (canInject) injected++;
    const start = 5 + random.next() * 4;
    const drop =
      course === 'improves' || course === 'injection'
        ? 3 + random.next() * 2.5
        : course === 'partial'
          ? 1.2 + random.next() * 1.3
          : course === 'worse'
            ? -(1 + random.next() * 1.5)
            : course === 'injectionNoChange'
              ? 0.4
              : 0;
    const injectionDay = injectionMark >= 0 ? marks[injectionMark]! : 0;
    const painAt = (days: number) => {
      const eased =
        injectionMark >= 0
          ? days <= injectionDay
            ? -0.3 * (days / Math.max(injectionDay, 1))
            : drop * (1 - Math.exp(-(days - injectionDay) / 14))
          : drop * (1 - Math.exp(-days / 35));
      return clamp(Math.round(start - eased + (random.next() - 0.5) * 1.4), 0, 10);
    };
    const bodyLocationIds =
      injectionMark >= 0 && input.lowerBack
        ? [input.lowerBack]
        : (own[0]?.bodyLocationIds ?? (input.lowerBack ? [input.lowerBack] : []));

    // The existing completed visits follow the same course; a new first visit takes over "new patient".
    const used = new Set<string>();
    const updates = new Map<string, VisitUpdate>();
    const update = (id: string, change: Omit<VisitUpdate, 'id'>) => updates.set(id, { ...updates.get(id), id, ...change });
    for (const visit of completed) {
      update(visit.id, { painScore: painAt(dayIndexOf(visit.startsAt, timeZone) - baseline) });
    }
    if (injectionMark >= 0) for (const visit of own) update(visit.id, { bodyLocationIds });
    let lastVisit: Date | null = null;
    let answeredMarks = 0;
    for (const [markIndex, mark] of marks.entries()) {
      const due = markIndex === 0 ? baseline : weekdayOf(baseline + mark + random.int(-4, 4), today);
      if (due >= today) continue;
      const attends = random.chance(attendance[markIndex]!);
      const language = patient.preferredLanguage;
      if (!attends) {
        // A missed follow-up: most were emailed the questionnaires, some opened them, none answered.
        if (markIndex >= 2 && random.chance(0.7)) {
          const sentAt = at(due, 9, 0);
          const opened = random.chance(0.45);
          for (const formCode of [PDI, PHQ9]) {
            rows.links.push(
              link(
                instanceId,
                patient.id,
                formCode,
                language,
                sentAt,
                opened ? new Date(sentAt.getTime() + random.int(2, 50) * HOUR) : null,
                null,
              ),
            );
          }
        }
        continue;
      }
      const nearest = completed
        .filter((visit) => !used.has(visit.id))
        .map((visit) => ({ visit, distance: Math.abs(dayIndexOf(visit.startsAt, timeZone) - due) }))
        .filter((entry) => entry.distance <= 6)
        .sort((a, b) => a.distance - b.distance)[0]?.visit;
      const isInjection = markIndex === injectionMark;
      const days = (nearest ? dayIndexOf(nearest.startsAt, timeZone) : due) - baseline;
      const pain = painAt(days);
      let visitId: string;
      let startsAt: Date;
      if (nearest) {
        used.add(nearest.id);
        visitId = nearest.id;
        startsAt = nearest.startsAt;
        update(nearest.id, {
          painScore: pain,
          ...(isInjection && input.types.procedure ? { appointmentTypeId: input.types.procedure } : {}),
        });
      } else {
        const first = markIndex === 0 && due < firstDay;
        const type = first
          ? input.types.newPatient
          : isInjection
            ? input.types.procedure
            : injectionMark >= 0 && markIndex > injectionMark
              ? input.types.postProcedure
              : input.types.followUp;
        const duration = first ? 60 : isInjection ? 45 : 30;
        startsAt = at(due, random.int(8, 15), random.pick([0, 15, 30, 45]));
        visitId = randomUUID();
        rows.newVisits.push({
          id: visitId,
          instanceId,
          patientId: patient.id,
          doctorId: patient.doctorId,
          appointmentTypeId: type,
          roomId: input.rooms.length > 0 ? random.pick(input.rooms) : null,
          startsAt,
          durationMinutes: duration,
          status: AppointmentStatus.Completed,
          reason: first ? 'new_patient' : 'follow_up',
          painScore: pain,
          bodyLocationIds,
          checkedInAt: new Date(startsAt.getTime() - random.int(5, 20) * MINUTE),
          completedAt: new Date(startsAt.getTime() + duration * MINUTE),
          createdAt: new Date(startsAt.getTime() - random.int(7, 30) * DAY),
          updatedAt: new Date(startsAt.getTime() + duration * MINUTE),
        });
        if (first) {
          for (const visit of own) {
            if (visit.reason === 'new_patient')
              update(visit.id, { reason: 'follow_up', appointmentTypeId: input.types.followUp });
          }
        }
      }
      markVisits.push({
        id: visitId,
        instanceId,
        patientId: patient.id,
        startsAt,
        status: AppointmentStatus.Completed,
        painScore: pain,
      });
      if (isInjection) {
        rows.injections.push({
          patientId: patient.id,
          appointmentId: visitId,
          itemId: input.injectionItems[rows.injections.length % input.injectionItems.length]!,
          performedOn: isoOfDay(dayIndexOf(startsAt, timeZone)),
          side: random.chance(0.5) ? 'left' : 'right',
        });
      }
      if (markIndex === 0 && patient.createdAt.getTime() > startsAt.getTime() - DAY) {
        rows.createdAt.push({ id: patient.id, createdAt: new Date(startsAt.getTime() - random.int(2, 30) * DAY) });
      }
      lastVisit = startsAt;
      answeredMarks++;
    }
    for (const change of updates.values()) rows.visitUpdates.push(change);
    answeredPatients.push(patient);
    if ((course === 'improves' || course === 'injection') && answeredMarks >= 4 && lastVisit) {
      storyCandidates.push({ patient, lastVisit });
    }
  }

  // The real scoring: PDI and PHQ-9 answers that follow each visit's pain, scored by @pathwell/instruments.
  rows.responses = buildDemoResponses(instanceId, answeredPatients, markVisits, input.seed, 1);
  // Later follow-ups often came in by email a few days before the visit, through a link.
  const lateMarks = new Set(
    markVisits
      .filter((visit) => {
        const first = markVisits.find((other) => other.patientId === visit.patientId)!;
        return new Date(visit.startsAt).getTime() - new Date(first.startsAt).getTime() >= 80 * DAY;
      })
      .map((visit) => visit.id),
  );
  const byEmail = new Map<string, number>();
  for (const response of rows.responses) {
    if (!lateMarks.has(response.appointmentId!)) continue;
    let offset = byEmail.get(response.appointmentId!);
    if (offset === undefined) {
      offset = random.chance(0.5) ? random.int(1, 4) : 0;
      byEmail.set(response.appointmentId!, offset);
    }
    if (offset === 0) continue;
    const visitStart = new Date(markVisits.find((visit) => visit.id === response.appointmentId)!.startsAt);
    const sentAt = new Date(visitStart.getTime() - offset * DAY - 2 * HOUR);
    const openedAt = new Date(sentAt.getTime() + random.int(1, 20) * HOUR);
    const completedAt = new Date(openedAt.getTime() + random.int(4, 15) * MINUTE);
    const row = link(instanceId, response.patientId, response.formCode!, response.language, sentAt, openedAt, completedAt);
    rows.links.push(row);
    response.linkId = row.id;
    response.submittedAt = completedAt;
  }

  const shared = [0, 1];
  storyCandidates.slice(0, DEMO_SUCCESS_STORIES.length).forEach((candidate, index) => {
    const sharedAt = new Date(Math.min(candidate.lastVisit.getTime() + 2 * DAY, input.now.getTime() - HOUR));
    rows.stories.push({
      id: candidate.patient.id,
      story: DEMO_SUCCESS_STORIES[index]!,
      sharedAt: shared.includes(index) ? sharedAt : null,
    });
  });
  return rows;
}

function link(
  instanceId: string,
  patientId: string,
  formCode: number,
  language: 'en' | 'es',
  sentAt: Date,
  openedAt: Date | null,
  completedAt: Date | null,
): LinkRow & { id: string } {
  return {
    id: randomUUID(),
    instanceId,
    patientId,
    kind: 'form',
    formCode,
    // A token no one holds: demo links are never opened for real.
    tokenHash: sha256(randomBytes(32).toString('base64url')),
    language,
    expiresAt: new Date(sentAt.getTime() + 14 * DAY),
    openedAt,
    completedAt,
    createdAt: sentAt,
  };
}

/** One `update … from jsonb_to_recordset(…)` for many rows: a statement, not one per row. */
const asJson = (rows: unknown[]) => JSON.stringify(rows);

export async function seedDemoReports(
  tx: Database,
  options: { instanceId: string; timeZone: string; seed?: number; now?: Date },
) {
  const { instanceId, timeZone } = options;
  const seed = options.seed ?? 14;
  const now = options.now ?? new Date();
  const random = createRandom(seed);

  // Referring providers in the clinic's Referrals list, checked by the list's own schema (NPI check digit).
  const list = findManagedList('referrals')!;
  const providerRows = await tx
    .insert(managedItems)
    .values(
      DEMO_REFERRING_PROVIDERS.map((provider, index) => ({
        instanceId,
        listType: 'referrals',
        name: provider.name,
        attributes: list.attributes.parse({
          source: PHYSICIAN_REFERRAL,
          npi: provider.npi,
          practice: provider.practice,
          phone: provider.phone,
        }) as Record<string, unknown>,
        sortOrder: (index + 1) * 10,
      })),
    )
    .returning({ id: managedItems.id, name: managedItems.name });
  const providerIds = DEMO_REFERRING_PROVIDERS.map((provider) => providerRows.find((row) => row.name === provider.name)!.id);

  const people = await tx
    .select({
      id: patients.id,
      createdAt: patients.createdAt,
      preferredLanguage: patients.preferredLanguage,
      doctorId: patients.doctorId,
      archivedAt: patients.archivedAt,
    })
    .from(patients)
    .where(and(eq(patients.instanceId, instanceId), isNull(patients.deletedAt)))
    .orderBy(asc(patients.createdAt), asc(patients.id));
  const profiles = buildReferralsAndHistory(
    seed,
    people.map((person) => person.id),
    providerIds,
  );
  await tx.execute(sql`
    update patients p set
      referral_source = v.source,
      referring_provider_id = v.provider,
      disease_states = array(select jsonb_array_elements_text(v.disease)::smallint),
      psychiatric_history = array(select jsonb_array_elements_text(v.psych)::smallint),
      surgical_history = array(select jsonb_array_elements_text(v.surgery)::smallint)
    from jsonb_to_recordset(${asJson(
      profiles.map((row) => ({
        id: row.id,
        source: row.referralSource,
        provider: row.referringProviderId,
        disease: row.diseaseStates,
        psych: row.psychiatricHistory,
        surgery: row.surgicalHistory,
      })),
    )}::jsonb) as v(id uuid, source smallint, provider uuid, disease jsonb, psych jsonb, surgery jsonb)
    where p.id = v.id and p.instance_id = ${instanceId}`);

  // Links answered or sent by the pathways were stamped when seeded: date them from their step instead.
  await tx.execute(sql`
    update patient_links l set created_at = r.sent_at
    from pathway_step_runs r
    where r.link_id = l.id and r.instance_id = ${instanceId} and l.instance_id = ${instanceId}
      and r.sent_at is not null and l.created_at > r.sent_at`);
  await markLinksOpened(tx, instanceId, random, now);

  // The outcome cohort: patients with no answers and no procedures yet, the doctor's first.
  const [doctor] = await tx
    .select({ id: users.id, providerType: users.clinicalProviderType })
    .from(users)
    .where(and(eq(users.instanceId, instanceId), eq(users.role, RoleCode.Doctor), isNull(users.deletedAt)))
    .orderBy(asc(users.createdAt))
    .limit(1);
  const candidates = await tx
    .select({
      id: patients.id,
      createdAt: patients.createdAt,
      preferredLanguage: patients.preferredLanguage,
      doctorId: patients.doctorId,
    })
    .from(patients)
    .where(
      and(
        eq(patients.instanceId, instanceId),
        isNull(patients.deletedAt),
        isNull(patients.archivedAt),
        sql`not exists (select 1 from form_responses r where r.instance_id = ${instanceId} and r.patient_id = ${patients.id})`,
        sql`not exists (select 1 from interventions i where i.instance_id = ${instanceId} and i.patient_id = ${patients.id})`,
      ),
    )
    .orderBy(sql`${patients.doctorId} is null`, asc(patients.createdAt), asc(patients.id))
    .limit(DEMO_COHORT_SIZE);
  if (candidates.length === 0) return;
  const visits = await tx
    .select({
      id: appointments.id,
      patientId: appointments.patientId,
      startsAt: appointments.startsAt,
      status: appointments.status,
      painScore: appointments.painScore,
      reason: appointments.reason,
      bodyLocationIds: appointments.bodyLocationIds,
    })
    .from(appointments)
    .where(
      and(
        eq(appointments.instanceId, instanceId),
        inArray(
          appointments.patientId,
          candidates.map((row) => row.id),
        ),
        isNull(appointments.deletedAt),
      ),
    );
  const items = await tx
    .select({ id: managedItems.id, name: managedItems.name, listType: managedItems.listType })
    .from(managedItems)
    .where(
      and(
        eq(managedItems.instanceId, instanceId),
        inArray(managedItems.listType, [
          'customfield:appointmenttype',
          'rooms',
          'bodylocations',
          'interventionalitems:2',
          'interventionalitems:3',
          'interventionallocations',
          'adainterventionallocations',
          'studygroups',
        ]),
        isNull(managedItems.deletedAt),
      ),
    )
    .orderBy(asc(managedItems.sortOrder), asc(managedItems.name));
  const idOf = (listType: string, name: string) =>
    items.find((item) => item.listType === listType && item.name === name)?.id ?? null;
  const injectionItems = [DEMO_LUMBAR_TFESI, DEMO_LUMBAR_ILESI]
    .map((name) => idOf('interventionalitems:2', name))
    .filter((id): id is string => id !== null);

  const cohort = buildReportCohort({
    instanceId,
    seed,
    now,
    timeZone,
    patients: candidates,
    visits,
    types: {
      newPatient: idOf('customfield:appointmenttype', 'New Patient'),
      followUp: idOf('customfield:appointmenttype', 'Follow-up'),
      procedure: idOf('customfield:appointmenttype', 'Procedure'),
      postProcedure: idOf('customfield:appointmenttype', 'Post-procedure follow-up'),
    },
    rooms: items.filter((item) => item.listType === 'rooms').map((item) => item.id),
    lowerBack: idOf('bodylocations', 'Lower back'),
    injectionItems: doctor ? injectionItems : [],
  });

  if (cohort.newVisits.length > 0) await tx.insert(appointments).values(cohort.newVisits);
  if (cohort.visitUpdates.length > 0) {
    await tx.execute(sql`
      update appointments a set
        pain_score = coalesce(v.pain, a.pain_score),
        reason = coalesce(v.reason, a.reason),
        appointment_type_id = case when v.retype then v.type else a.appointment_type_id end,
        body_location_ids = coalesce(array(select jsonb_array_elements_text(v.locations)::uuid), a.body_location_ids)
      from jsonb_to_recordset(${asJson(
        cohort.visitUpdates.map((row) => ({
          id: row.id,
          pain: row.painScore ?? null,
          reason: row.reason ?? null,
          retype: row.appointmentTypeId !== undefined,
          type: row.appointmentTypeId ?? null,
          locations: row.bodyLocationIds ?? null,
        })),
      )}::jsonb) as v(id uuid, pain smallint, reason text, retype boolean, type uuid, locations jsonb)
      where a.id = v.id and a.instance_id = ${instanceId}`);
  }
  if (cohort.links.length > 0) await tx.insert(patientLinks).values(cohort.links);
  await insertDemoResponses(tx, cohort.responses);
  if (cohort.createdAt.length > 0) {
    await tx.execute(sql`
      update patients p set created_at = v."createdAt"
      from jsonb_to_recordset(${asJson(cohort.createdAt)}::jsonb) as v(id uuid, "createdAt" timestamptz)
      where p.id = v.id and p.instance_id = ${instanceId}`);
  }
  for (const story of cohort.stories) {
    await tx
      .update(patients)
      .set({ successStory: story.story, successStorySharedAt: story.sharedAt })
      .where(and(eq(patients.id, story.id), eq(patients.instanceId, instanceId)));
  }

  if (doctor && cohort.injections.length > 0) {
    const cptOf: Record<string, string> = { [DEMO_LUMBAR_TFESI]: '64483', [DEMO_LUMBAR_ILESI]: '62323' };
    const nameOf = (id: string) => items.find((item) => item.id === id)?.name ?? '';
    await tx.insert(interventions).values(
      cohort.injections.map((injection) => ({
        instanceId,
        patientId: injection.patientId,
        appointmentId: injection.appointmentId,
        kind: 'injection' as const,
        itemId: injection.itemId,
        bodyPartId: idOf('interventionalitems:3', 'Lumbar spine'),
        locationId: idOf('interventionallocations', 'Lumbar'),
        adaLocationId: idOf('adainterventionallocations', 'Office procedure room'),
        side: nameOf(injection.itemId) === DEMO_LUMBAR_TFESI ? injection.side : null,
        levels: nameOf(injection.itemId) === DEMO_LUMBAR_TFESI ? ['L4-L5', 'L5-S1'] : ['L5-S1'],
        guidance: 'fluoroscopy' as const,
        performedOn: injection.performedOn,
        providerId: doctor.id,
        providerType: doctor.providerType ?? 'Doctor',
        completion: 1,
        outcome: 'Tolerated well; no immediate complications recorded.',
        followUpPlan: 'Follow-up visit in 4 weeks.',
        createdBy: doctor.id,
      })),
    );
    await tx
      .insert(visitRecords)
      .values(
        cohort.injections.map((injection) => ({
          instanceId,
          patientId: injection.patientId,
          appointmentId: injection.appointmentId,
          // visitActions: 4 Interventional, 9 Administered Injection.
          actionsTaken: [4, 9],
          diagnosisCodes: ['M54.16'],
          procedureCodes: [cptOf[nameOf(injection.itemId)] ?? '64483'],
          note: 'Demo visit note: injection performed as planned.',
          recordedBy: doctor.id,
        })),
      )
      .onConflictDoNothing();
    const cohortGroup = idOf('studygroups', 'Lumbar ESI outcomes 2026');
    if (cohortGroup) {
      await tx
        .insert(patientStudyGroups)
        .values(
          cohort.injections.map((injection) => ({
            instanceId,
            patientId: injection.patientId,
            studyGroupId: cohortGroup,
            assignedBy: doctor.id,
          })),
        )
        .onConflictDoNothing();
    }
  }
}

/**
 * When the patients opened their links (the survey report's "opened"): every answered form or intake
 * link a little before it was completed, about two in five of the unanswered ones some hours after sending.
 */
async function markLinksOpened(tx: Database, instanceId: string, random: Random, now: Date) {
  const links = await tx
    .select({
      id: patientLinks.id,
      createdAt: patientLinks.createdAt,
      completedAt: patientLinks.completedAt,
      revokedAt: patientLinks.revokedAt,
    })
    .from(patientLinks)
    .where(
      and(eq(patientLinks.instanceId, instanceId), inArray(patientLinks.kind, ['form', 'intake']), isNull(patientLinks.openedAt)),
    )
    .orderBy(asc(patientLinks.createdAt), asc(patientLinks.id));
  const opened: { id: string; openedAt: string }[] = [];
  for (const row of links) {
    if (row.completedAt) {
      const earliest = Math.min(row.createdAt.getTime(), row.completedAt.getTime());
      const openedAt = Math.max(earliest, row.completedAt.getTime() - random.int(3, 40) * MINUTE);
      opened.push({ id: row.id, openedAt: new Date(openedAt).toISOString() });
    } else if (!row.revokedAt && random.chance(0.4)) {
      const openedAt = Math.min(row.createdAt.getTime() + random.int(1, 30) * HOUR, now.getTime() - MINUTE);
      if (openedAt > row.createdAt.getTime()) opened.push({ id: row.id, openedAt: new Date(openedAt).toISOString() });
    }
  }
  if (opened.length === 0) return;
  await tx.execute(sql`
    update patient_links l set opened_at = v."openedAt"
    from jsonb_to_recordset(${asJson(opened)}::jsonb) as v(id uuid, "openedAt" timestamptz)
    where l.id = v.id and l.instance_id = ${instanceId}`);
}
