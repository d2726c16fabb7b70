import { and, eq, sql } from 'drizzle-orm';
import { clinicClock, formatClinicDateTime, instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import {
  HOTLIST_CALLBACK_HOUR,
  HOTLIST_CALLBACK_MAX_DAYS,
  HOTLIST_CLAIM_MINUTES,
  type HotlistCall,
  type HotlistCard,
  type HotlistNext,
  type HotlistOutcomeInput,
  type HotlistPhone,
  type HotlistQueue,
} from '@pathwell/contracts/hotlists';
import type { HotlistOutcome } from '@pathwell/contracts/outreach';
import type { SignedInContext } from '../../context';
import { hotlistEntries } from '../../db/schema';
import { AppError, fieldError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { clinicTimeZone } from '../settings/settings.service';
import { findActiveList, findList, iso, nameOf } from './hotlist-records';
import { requireOutreach } from './outreach-access';
import { rowsOf } from '../../lib/sql-rows';

/*
 * Working a hot list (decision 0052): "next" claims a patient for one staff member, the outcome of the
 * call settles the row or brings it back at a call-back time, and a held row can be handed back.
 */

const CLAIM_MS = HOTLIST_CLAIM_MINUTES * 60_000;

interface QueueStateRow {
  remaining: number;
  next_callback_at: string | null;
}

/** Due now, with the soonest call-back still to come. */
async function queueState(ctx: SignedInContext, hotlistId: string, now: Date): Promise<HotlistQueue> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const [row] = await rowsOf<QueueStateRow>(
    ctx.db,
    sql`select count(*) filter (where e.outcome is null or e.callback_at <= ${at})::int as remaining,
               min(e.callback_at) filter (where e.outcome is not null and e.callback_at > ${at}) as next_callback_at
          from hotlist_entries e
         where e.instance_id = ${ctx.instanceId} and e.hotlist_id = ${hotlistId}`,
  );
  return { remaining: row?.remaining ?? 0, nextCallbackAt: iso(row?.next_callback_at) };
}

/** An earlier call, as json_build_object writes it (its timestamps are text). */
interface CallJson {
  id: string;
  outcome: HotlistOutcome;
  note: string | null;
  callbackAt: string | null;
  userFirst: string | null;
  userLast: string | null;
  createdAt: string;
}

interface CardRow {
  first_name: string;
  last_name: string;
  date_of_birth: string;
  preferred_language: string;
  phones: HotlistPhone[];
  last_visit: string | null;
  calls: CallJson[];
}

/** The call screen's card for a claimed entry: patient, phones, last visit, earlier calls (one statement). */
async function cardOf(
  ctx: SignedInContext,
  list: { reason: string | null },
  entry: { id: string; patientId: string; matchedCodes: string[]; claimedUntil: Date; callbackAt: string | null },
  now: Date,
): Promise<HotlistCard> {
  const timeZone = await clinicTimeZone(ctx.db, ctx.instanceId);
  const [row] = await rowsOf<CardRow>(
    ctx.db,
    sql`
    select p.first_name, p.last_name, p.date_of_birth::text as date_of_birth, p.preferred_language,
           coalesce((
             select json_agg(json_build_object('number', ph.number, 'phoneType', ph.phone_type, 'isPrimary', ph.is_primary,
                                               'contactName', ph.contact_name, 'relation', ph.relation)
                             order by ph.is_primary desc, (ph.phone_type = 7) desc, ph.created_at)
               from patient_phone_numbers ph
              where ph.instance_id = p.instance_id and ph.patient_id = p.id), '[]'::json) as phones,
           greatest(
             (select max(cv.visit_date) from coded_visits cv where cv.instance_id = p.instance_id and cv.patient_id = p.id),
             (select max((a.starts_at at time zone ${timeZone})::date) from appointments a
               where a.patient_id = p.id and a.instance_id = p.instance_id and a.deleted_at is null
                 and a.status = ${AppointmentStatus.Completed} and a.starts_at <= ${now.toISOString()}::timestamptz)
           )::text as last_visit,
           coalesce((
             select json_agg(json_build_object('id', c.id, 'outcome', c.outcome, 'note', c.note, 'callbackAt', c.callback_at,
                                               'userFirst', u.first_name, 'userLast', u.last_name, 'createdAt', c.created_at)
                             order by c.created_at desc)
               from hotlist_calls c
               left join users u on u.id = c.user_id
              where c.instance_id = p.instance_id and c.entry_id = ${entry.id}), '[]'::json) as calls
      from patients p
     where p.instance_id = ${ctx.instanceId} and p.id = ${entry.patientId}`,
  );
  if (!row) throw notFound('patientNotFound');
  const previousCalls: HotlistCall[] = row.calls.map((call) => ({
    id: call.id,
    outcome: call.outcome,
    note: call.note,
    callbackAt: iso(call.callbackAt),
    userName: nameOf(call.userFirst, call.userLast),
    createdAt: iso(call.createdAt)!,
  }));
  return {
    entryId: entry.id,
    patientId: entry.patientId,
    firstName: row.first_name,
    lastName: row.last_name,
    dateOfBirth: row.date_of_birth,
    preferredLanguage: row.preferred_language === 'es' ? 'es' : 'en',
    phones: row.phones,
    lastVisit: row.last_visit,
    matchedCodes: entry.matchedCodes,
    reason: list.reason,
    claimedUntil: entry.claimedUntil.toISOString(),
    callbackAt: entry.callbackAt,
    previousCalls,
  };
}

interface ClaimedEntryRow {
  id: string;
  patient_id: string;
  matched_codes: string[];
  outcome: HotlistOutcome | null;
  callback_at: string | null;
}

/**
 * POST /api/hotlists/:id/next: the entry this user already holds (its claim renewed), else the next due
 * one nobody holds: call-backs whose time has come first (soonest first), then patients not called yet
 * in list order. One UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED LIMIT 1) RETURNING.
 */
export async function nextEntry(ctx: SignedInContext, id: string, now = new Date()): Promise<HotlistNext> {
  await requireOutreach(ctx);
  const list = await findActiveList(ctx, id);
  const at = sql`${now.toISOString()}::timestamptz`;
  const until = new Date(now.getTime() + CLAIM_MS);
  const [claimed] = await rowsOf<ClaimedEntryRow>(
    ctx.db,
    sql`
    with mine as (
      select e.id from hotlist_entries e
       where e.instance_id = ${ctx.instanceId} and e.hotlist_id = ${list.id}
         and e.claimed_by = ${ctx.actor.userId} and e.claimed_until > ${at}
       order by e.position
       limit 1
    ),
    due as (
      select e.id from hotlist_entries e
       where e.instance_id = ${ctx.instanceId} and e.hotlist_id = ${list.id}
         and not exists (select 1 from mine)
         and (e.outcome is null or e.callback_at <= ${at})
         and (e.claimed_until is null or e.claimed_until <= ${at})
       order by (e.outcome is null), e.callback_at, e.position
       limit 1
       for update skip locked
    )
    update hotlist_entries e
       set claimed_by = ${ctx.actor.userId}, claimed_until = ${until.toISOString()}::timestamptz, updated_at = ${at}
     where e.instance_id = ${ctx.instanceId} and e.hotlist_id = ${list.id}
       and e.id = coalesce((select id from mine), (select id from due))
    returning e.id, e.patient_id, e.matched_codes, e.outcome, e.callback_at`,
  );
  const state = await queueState(ctx, list.id, now);
  if (!claimed) return { entry: null, ...state };
  const entry = {
    id: claimed.id,
    patientId: claimed.patient_id,
    matchedCodes: claimed.matched_codes,
    claimedUntil: until,
    callbackAt: claimed.outcome === null ? null : iso(claimed.callback_at),
  };
  const card = await cardOf(ctx, list, entry, now);
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient Profile', 'Viewed', {
      type: 'patient',
      id: entry.patientId,
      description: `Opened for a call from hot list "${list.name}"`,
    }),
  );
  return { entry: card, ...state };
}

/** The next weekday at HOTLIST_CALLBACK_HOUR on the clinic's clock: a voicemail's default call-back. */
export function nextClinicDayMorning(now: Date, timeZone: string): Date {
  const clock = clinicClock(now, timeZone);
  const day = new Date(Date.UTC(clock.year, clock.month - 1, clock.day + 1));
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day.setUTCDate(day.getUTCDate() + 1);
  return instantOfClinicTime(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), timeZone, HOTLIST_CALLBACK_HOUR);
}

async function findEntry(ctx: SignedInContext, hotlistId: string, entryId: string) {
  const [entry] = await ctx.db
    .select()
    .from(hotlistEntries)
    .where(
      and(eq(hotlistEntries.instanceId, ctx.instanceId), eq(hotlistEntries.hotlistId, hotlistId), eq(hotlistEntries.id, entryId)),
    );
  if (!entry) throw notFound('hotlistEntryNotFound');
  return entry;
}

interface SettledEntryRow {
  id: string;
}

/**
 * POST /api/hotlists/:id/entries/:entryId/outcome: only the staff member holding the row records what
 * came of the call (a claim that ran out still counts while nobody else took the row). Writes the call,
 * settles the row or sets its call-back, lets the claim go; audited as a contact with the patient.
 */
export async function recordOutcome(
  ctx: SignedInContext,
  id: string,
  entryId: string,
  input: HotlistOutcomeInput,
  now = new Date(),
): Promise<HotlistQueue> {
  await requireOutreach(ctx);
  const list = await findActiveList(ctx, id);
  const entry = await findEntry(ctx, list.id, entryId);
  const timeZone = await clinicTimeZone(ctx.db, ctx.instanceId);
  let callbackAt: Date | null = input.callbackAt ? new Date(input.callbackAt) : null;
  if (callbackAt) {
    if (callbackAt.getTime() <= now.getTime()) throw fieldError('callbackAt', 'callbackInPast');
    if (callbackAt.getTime() > now.getTime() + HOTLIST_CALLBACK_MAX_DAYS * 86_400_000) throw fieldError('callbackAt', 'invalid');
  } else if (input.outcome === 'voicemail') {
    callbackAt = nextClinicDayMorning(now, timeZone);
  }
  const [settled] = await rowsOf<SettledEntryRow>(
    ctx.db,
    sql`
    update hotlist_entries e
       set outcome = ${input.outcome}, outcome_at = ${now.toISOString()}::timestamptz, outcome_by = ${ctx.actor.userId},
           callback_at = ${callbackAt ? callbackAt.toISOString() : null}::timestamptz, note = ${input.note},
           attempts = e.attempts + 1, claimed_by = null, claimed_until = null, updated_at = ${now.toISOString()}::timestamptz
     where e.instance_id = ${ctx.instanceId} and e.hotlist_id = ${list.id} and e.id = ${entry.id}
       and e.claimed_by = ${ctx.actor.userId}
    returning e.id`,
  );
  if (!settled) throw new AppError('CONFLICT', 'hotlistNotClaimed');
  await ctx.db.execute(
    sql`insert into hotlist_calls (instance_id, hotlist_id, entry_id, patient_id, user_id, outcome, callback_at, note, created_at)
        values (${ctx.instanceId}, ${list.id}, ${entry.id}, ${entry.patientId}, ${ctx.actor.userId}, ${input.outcome},
                ${callbackAt ? callbackAt.toISOString() : null}::timestamptz, ${input.note}, ${now.toISOString()}::timestamptz)`,
  );
  const callback = callbackAt ? `, call back ${formatClinicDateTime(callbackAt, timeZone)}` : '';
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient Profile', 'Created', {
      type: 'patient',
      id: entry.patientId,
      description: `Hot-list call recorded: ${input.outcome}${callback} (list "${list.name}")`,
    }),
  );
  return queueState(ctx, list.id, now);
}

/** POST /api/hotlists/:id/entries/:entryId/release: the holder hands the row back to the queue unchanged. */
export async function releaseEntry(ctx: SignedInContext, id: string, entryId: string): Promise<void> {
  await requireOutreach(ctx);
  const list = await findList(ctx, id);
  const entry = await findEntry(ctx, list.id, entryId);
  const released = await ctx.db
    .update(hotlistEntries)
    .set({ claimedBy: null, claimedUntil: null })
    .where(
      and(
        eq(hotlistEntries.instanceId, ctx.instanceId),
        eq(hotlistEntries.id, entry.id),
        eq(hotlistEntries.claimedBy, ctx.actor.userId),
      ),
    )
    .returning({ id: hotlistEntries.id });
  if (released.length === 0) throw new AppError('CONFLICT', 'hotlistNotClaimed');
}
