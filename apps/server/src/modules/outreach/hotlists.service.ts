import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type {
  HotlistDashboard,
  HotlistDetail,
  HotlistEntriesQuery,
  HotlistEntryRow,
  HotlistInput,
  HotlistProgress,
  HotlistStaffRow,
  HotlistSummary,
} from '@pathwell/contracts/hotlists';
import type { HotlistOutcome } from '@pathwell/contracts/outreach';
import type { SignedInContext } from '../../context';
import { audienceTemplates, hotlistEntries, hotlists } from '../../db/schema';
import { fieldError } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { resolveAudience } from './audience.service';
import { findActiveList, findList, iso, nameOf } from './hotlist-records';
import { requireOutreach, requireSingleClinic } from './outreach-access';
import { countOf } from '../../lib/list-total';
import { rowsOf } from '../../lib/sql-rows';

/*
 * Hot lists (issue #15 §4, decision 0052). A list freezes its patients from a hot-list template when it
 * is made. Staff work it with "next": one UPDATE claims the next due row with FOR UPDATE SKIP LOCKED, so
 * two people asking at the same moment get two different patients, and a claim held by someone else
 * (until `claimed_until`) is never handed out. The outcome settles the row, or brings it back at a
 * call-back time.
 */

/** The columns of `progressColumns`. */
interface ProgressRow {
  total: number;
  called: number;
  settled: number;
  booked: number;
  declined: number;
  voicemail: number;
  wrong_number: number;
  do_not_call: number;
  callbacks: number;
  remaining: number;
  in_call: number;
}

/** Progress columns over `e` (hotlist_entries, possibly null from a left join) at `now`. */
function progressColumns(now: Date): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  const outcome = (value: HotlistOutcome) => sql`count(e.id) filter (where e.outcome = ${value})::int`;
  return sql`
    count(e.id)::int as total,
    count(e.outcome)::int as called,
    count(e.id) filter (where e.outcome is not null and e.callback_at is null)::int as settled,
    ${outcome('reachedBooked')} as booked,
    count(e.id) filter (where e.outcome = 'reachedDeclined' and e.callback_at is null)::int as declined,
    ${outcome('voicemail')} as voicemail,
    ${outcome('wrongNumber')} as wrong_number,
    ${outcome('doNotCall')} as do_not_call,
    count(e.id) filter (where e.outcome is not null and e.callback_at > ${at})::int as callbacks,
    count(e.id) filter (where e.outcome is null or e.callback_at <= ${at})::int as remaining,
    count(e.id) filter (where e.claimed_until > ${at})::int as in_call`;
}

const progressOf = (row: ProgressRow): HotlistProgress => ({
  total: row.total,
  called: row.called,
  settled: row.settled,
  booked: row.booked,
  declined: row.declined,
  voicemail: row.voicemail,
  wrongNumber: row.wrong_number,
  doNotCall: row.do_not_call,
  callbacks: row.callbacks,
  remaining: row.remaining,
  inCall: row.in_call,
});

interface HotlistSummaryRow extends ProgressRow {
  id: string;
  name: string;
  reason: string | null;
  status: HotlistSummary['status'];
  template_id: string | null;
  template_name: string | null;
  created_at: string;
  finished_at: string | null;
  created_first: string | null;
  created_last: string | null;
}

/** Every live list of the clinic (or one) with its progress: one statement. */
async function summaries(ctx: SignedInContext, now: Date, hotlistId?: string): Promise<HotlistSummary[]> {
  const rows = await rowsOf<HotlistSummaryRow>(
    ctx.db,
    sql`
    select h.id, h.name, h.reason, h.status, h.template_id, t.name as template_name, h.created_at, h.finished_at,
           u.first_name as created_first, u.last_name as created_last,
           ${progressColumns(now)}
      from hotlists h
      left join hotlist_entries e on e.instance_id = h.instance_id and e.hotlist_id = h.id
      left join audience_templates t on t.instance_id = h.instance_id and t.id = h.template_id
      left join users u on u.id = h.created_by
     where h.instance_id = ${ctx.instanceId} and h.deleted_at is null
       ${hotlistId ? sql`and h.id = ${hotlistId}` : sql``}
     group by h.id, t.name, u.first_name, u.last_name
     order by (h.status = 'finished'), h.created_at desc, h.id`,
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    reason: row.reason,
    status: row.status,
    templateId: row.template_id,
    templateName: row.template_name,
    createdAt: iso(row.created_at)!,
    createdByName: nameOf(row.created_first, row.created_last),
    finishedAt: iso(row.finished_at),
    progress: progressOf(row),
  }));
}

/** One staff member's calls; the names are null when the user row is gone. */
interface StaffCallsRow {
  user_id: string;
  first_name: string | null;
  last_name: string | null;
  calls: number;
  reached: number;
  booked: number;
  last_call_at: string;
}

/** Calls per staff member over the clinic's live lists (or one list): one statement. */
async function staffRows(ctx: SignedInContext, hotlistId?: string): Promise<HotlistStaffRow[]> {
  const rows = await rowsOf<StaffCallsRow>(
    ctx.db,
    sql`
    select c.user_id, u.first_name, u.last_name,
           count(*)::int as calls,
           count(*) filter (where c.outcome in ('reachedBooked', 'reachedDeclined'))::int as reached,
           count(*) filter (where c.outcome = 'reachedBooked')::int as booked,
           max(c.created_at) as last_call_at
      from hotlist_calls c
      join hotlists h on h.instance_id = c.instance_id and h.id = c.hotlist_id and h.deleted_at is null
      left join users u on u.id = c.user_id
     where c.instance_id = ${ctx.instanceId}
       ${hotlistId ? sql`and c.hotlist_id = ${hotlistId}` : sql``}
     group by c.user_id, u.first_name, u.last_name
     order by count(*) desc, lower(coalesce(u.last_name, '')), lower(coalesce(u.first_name, '')), c.user_id`,
  );
  return rows.map((row) => ({
    userId: row.user_id,
    name: nameOf(row.first_name, row.last_name) ?? '—',
    calls: row.calls,
    reached: row.reached,
    booked: row.booked,
    lastCallAt: iso(row.last_call_at),
  }));
}

// ---- reads -------------------------------------------------------------------------------------------

/** GET /api/hotlists: every list with its progress, and calls per staff member. */
export async function listHotlists(ctx: SignedInContext, now = new Date()): Promise<HotlistDashboard> {
  await requireOutreach(ctx);
  return { data: await summaries(ctx, now), staff: await staffRows(ctx) };
}

function entryFilter(filter: HotlistEntriesQuery['filter']): SQL {
  if (filter === 'all') return sql``;
  if (filter === 'open') return sql`and e.outcome is null`;
  if (filter === 'callback') return sql`and e.outcome is not null and e.callback_at is not null`;
  return sql`and e.outcome = ${filter}`;
}

/** An entry of the page; `claim_*` name whoever holds it now. */
interface EntryRow {
  id: string;
  position: number;
  patient_id: string;
  first_name: string;
  last_name: string;
  matched_codes: string[];
  outcome: HotlistOutcome | null;
  outcome_at: string | null;
  outcome_first: string | null;
  outcome_last: string | null;
  callback_at: string | null;
  attempts: number;
  claim_first: string | null;
  claim_last: string | null;
}

interface MyClaimRow {
  id: string;
}

/** GET /api/hotlists/:id: progress, calls per staff member, and a page of the entries (audited: patient names). */
export async function getHotlist(
  ctx: SignedInContext,
  id: string,
  query: HotlistEntriesQuery,
  now = new Date(),
): Promise<HotlistDetail> {
  await requireOutreach(ctx);
  const list = await findList(ctx, id);
  const [summary] = await summaries(ctx, now, list.id);
  const at = sql`${now.toISOString()}::timestamptz`;
  const rows = await rowsOf<EntryRow>(
    ctx.db,
    sql`
    select e.id, e.position, e.patient_id, p.first_name, p.last_name, e.matched_codes, e.outcome, e.outcome_at,
           ob.first_name as outcome_first, ob.last_name as outcome_last, e.callback_at, e.attempts,
           case when e.claimed_until > ${at} then cb.first_name end as claim_first,
           case when e.claimed_until > ${at} then cb.last_name end as claim_last
      from hotlist_entries e
      join patients p on p.instance_id = e.instance_id and p.id = e.patient_id
      left join users ob on ob.id = e.outcome_by
      left join users cb on cb.id = e.claimed_by
     where e.instance_id = ${ctx.instanceId} and e.hotlist_id = ${list.id} ${entryFilter(query.filter)}
     order by e.position, e.id
     limit ${query.pageSize} offset ${query.pageNumber * query.pageSize}`,
  );
  // Counted on its own, from the entries alone: a window count would build every joined row before the
  // page is cut (seconds on a large list), and a page past the end still reports the total. A call list
  // is finite and worked to its end, so the count is exact.
  const totalRecords = await countOf(
    ctx.db,
    sql`select 1 from hotlist_entries e
         where e.instance_id = ${ctx.instanceId} and e.hotlist_id = ${list.id} ${entryFilter(query.filter)}`,
    null,
  );
  const entries: HotlistEntryRow[] = rows.map((row) => ({
    id: row.id,
    position: row.position,
    patientId: row.patient_id,
    patientName: nameOf(row.first_name, row.last_name) ?? '—',
    matchedCodes: row.matched_codes,
    outcome: row.outcome,
    outcomeAt: iso(row.outcome_at),
    outcomeByName: nameOf(row.outcome_first, row.outcome_last),
    callbackAt: iso(row.callback_at),
    attempts: row.attempts,
    inCallWith: nameOf(row.claim_first, row.claim_last),
  }));
  const [mine] = await rowsOf<MyClaimRow>(
    ctx.db,
    sql`select e.id from hotlist_entries e
         where e.instance_id = ${ctx.instanceId} and e.hotlist_id = ${list.id}
           and e.claimed_by = ${ctx.actor.userId} and e.claimed_until > ${at}
         order by e.position limit 1`,
  );
  if (entries.length > 0) {
    await recordActivity(
      ctx.db,
      staffActivity(ctx, 'Patient List', 'Viewed', {
        type: 'hotlist',
        id: list.id,
        description: `Viewed ${entries.length} patients of hot list "${list.name}" (page ${query.pageNumber + 1})`,
      }),
    );
  }
  return {
    ...summary!,
    staff: await staffRows(ctx, list.id),
    entries: { totalRecords, data: entries },
    myClaimEntryId: mine ? mine.id : null,
  };
}

// ---- managing lists (System Manager and Admin) ---------------------------------------------------------

const ENTRY_CHUNK = 1000;

/** POST /api/hotlists: freezes the template's patients now, in name order. */
export async function createHotlist(ctx: SignedInContext, input: HotlistInput, now = new Date()): Promise<HotlistSummary> {
  await requireOutreach(ctx);
  requireSingleClinic(ctx);
  const [template] = await ctx.db
    .select()
    .from(audienceTemplates)
    .where(
      and(
        eq(audienceTemplates.instanceId, ctx.instanceId),
        eq(audienceTemplates.id, input.templateId),
        isNull(audienceTemplates.deletedAt),
      ),
    );
  if (!template || template.kind !== 'hotlist') throw fieldError('templateId', 'invalid', 'templateNotFound');
  const members = await resolveAudience(ctx.db, ctx.instanceId, template.rule, { kind: 'hotlist' }, now);
  if (members.length === 0) throw fieldError('templateId', 'hotlistAudienceEmpty');

  const [list] = await ctx.db
    .insert(hotlists)
    .values({
      instanceId: ctx.instanceId,
      name: input.name,
      templateId: template.id,
      rule: template.rule,
      reason: input.reason,
      entryCount: members.length,
      createdBy: ctx.actor.userId,
    })
    .returning();
  for (let start = 0; start < members.length; start += ENTRY_CHUNK) {
    await ctx.db.insert(hotlistEntries).values(
      members.slice(start, start + ENTRY_CHUNK).map((member, index) => ({
        instanceId: ctx.instanceId,
        hotlistId: list!.id,
        patientId: member.patientId,
        position: start + index + 1,
        matchedCodes: member.matchedCodes,
      })),
    );
  }
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient List', 'Created', {
      type: 'hotlist',
      id: list!.id,
      description: `Created hot list "${list!.name}" with ${members.length} patients from template "${template.name}"`,
    }),
  );
  const [summary] = await summaries(ctx, now, list!.id);
  return summary!;
}

/** POST /api/hotlists/:id/finish: nobody works it any more; claims are let go. */
export async function finishHotlist(ctx: SignedInContext, id: string, now = new Date()): Promise<HotlistSummary> {
  await requireOutreach(ctx);
  const list = await findActiveList(ctx, id);
  await ctx.db
    .update(hotlists)
    .set({ status: 'finished', finishedAt: now, updatedAt: now })
    .where(and(eq(hotlists.instanceId, ctx.instanceId), eq(hotlists.id, list.id)));
  await ctx.db
    .update(hotlistEntries)
    .set({ claimedBy: null, claimedUntil: null })
    .where(and(eq(hotlistEntries.instanceId, ctx.instanceId), eq(hotlistEntries.hotlistId, list.id)));
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient List', 'Updated', {
      type: 'hotlist',
      id: list.id,
      description: `Finished hot list "${list.name}"`,
    }),
  );
  const [summary] = await summaries(ctx, now, list.id);
  return summary!;
}

/**
 * DELETE /api/hotlists/:id: the list goes; its calls stay (they count as "contacted" for later
 * audiences) and so do its "do not call" answers.
 */
export async function deleteHotlist(ctx: SignedInContext, id: string, now = new Date()): Promise<void> {
  await requireOutreach(ctx);
  const list = await findList(ctx, id);
  await ctx.db
    .update(hotlists)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(eq(hotlists.instanceId, ctx.instanceId), eq(hotlists.id, list.id)));
  await ctx.db
    .update(hotlistEntries)
    .set({ claimedBy: null, claimedUntil: null })
    .where(and(eq(hotlistEntries.instanceId, ctx.instanceId), eq(hotlistEntries.hotlistId, list.id)));
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient List', 'Deleted', {
      type: 'hotlist',
      id: list.id,
      description: `Deleted hot list "${list.name}"`,
    }),
  );
}
