import { and, asc, desc, eq, gte, ilike, inArray, lt, sql, type SQL } from 'drizzle-orm';
import {
  ACTIVITY_EXPORT_MAX_ROWS,
  activityActionLabels,
  activityAreaLabels,
  activityCsvHeaders,
  loginDetailsCsvHeaders,
  loginResultLabels,
  type ActivityActor,
  type ActivityEntry,
  type ActivityExport,
  type ActivityFilter,
  type ActivityFilterFields,
  type ActivityPage,
  type LoginDetail,
  type LoginDetailsExport,
  type LoginDetailsFilter,
  type LoginDetailsPage,
  type PaginationFilter,
} from '@pathwell/contracts/activity';
import type { ActivityAction, ActivityArea } from '@pathwell/contracts/enums';
import type { SignedInContext } from '../../context';
import { activityLogs, sessions, users } from '../../db/schema';
import { countOf, listTotal } from '../../lib/list-total';
import { AppError } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { clinicTimeZone } from '../settings/settings.service';
import {
  clinicDayEnd,
  clinicDayStart,
  clinicIsoDate,
  clinicTodayStart,
  clinicWeekStart,
  formatClinicDateTime,
} from '@pathwell/contracts/clinic-time';
import { toCsv } from '../../lib/csv';

const LOGIN_AREA: ActivityArea = 'Login Activity';

/** `%` and `_` typed by a person are letters, not wildcards. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;

/** Every filter narrows within the acting clinic: another clinic's rows never match. */
function whereOf(ctx: SignedInContext, filter: Partial<ActivityFilterFields>, timeZone: string): SQL {
  const conditions: SQL[] = [eq(activityLogs.instanceId, ctx.instanceId)];
  if (filter.from) conditions.push(gte(activityLogs.createdAt, clinicDayStart(filter.from, timeZone)));
  if (filter.to) conditions.push(lt(activityLogs.createdAt, clinicDayEnd(filter.to, timeZone)));
  if (filter.userId) conditions.push(eq(activityLogs.actorUserId, filter.userId));
  if (filter.area) conditions.push(eq(activityLogs.area, filter.area));
  if (filter.action) conditions.push(eq(activityLogs.action, filter.action));
  if (filter.search) {
    conditions.push(
      ilike(
        sql`concat_ws(' ', ${activityLogs.targetType}, ${activityLogs.targetId}, ${activityLogs.description})`,
        likePattern(filter.search),
      ),
    );
  }
  return and(...conditions)!;
}

const entryColumns = {
  id: activityLogs.id,
  createdAt: activityLogs.createdAt,
  userId: activityLogs.actorUserId,
  firstName: users.firstName,
  lastName: users.lastName,
  email: activityLogs.actorEmail,
  area: activityLogs.area,
  action: activityLogs.action,
  targetType: activityLogs.targetType,
  targetId: activityLogs.targetId,
  description: activityLogs.description,
  ip: activityLogs.ip,
};

type EntryRow = {
  id: string;
  createdAt: Date;
  userId: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  area: string;
  action: string;
  targetType: string | null;
  targetId: string | null;
  description: string | null;
  ip: string | null;
};

const nameOf = (row: { firstName: string | null; lastName: string | null }) =>
  row.firstName === null ? null : `${row.firstName} ${row.lastName ?? ''}`.trim();

function toEntry(row: EntryRow): ActivityEntry {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    userId: row.userId,
    userName: nameOf(row),
    email: row.email,
    // The log is written only through recordActivity, whose types allow nothing else.
    area: row.area as ActivityArea,
    action: row.action as ActivityAction,
    targetType: row.targetType,
    targetId: row.targetId,
    description: row.description,
    ip: row.ip,
  };
}

/** Newest first; rows written in one transaction share a time, and their order in the chain breaks the tie. */
const newestFirst = [desc(activityLogs.createdAt), desc(activityLogs.chainSeq)];

function selectEntries(ctx: SignedInContext, where: SQL) {
  return ctx.db.select(entryColumns).from(activityLogs).leftJoin(users, eq(users.id, activityLogs.actorUserId)).where(where);
}

const matchingEntries = (ctx: SignedInContext, where: SQL) =>
  ctx.db.select({ id: activityLogs.id }).from(activityLogs).where(where);

const pageOf = (paging: PaginationFilter) => ({ limit: paging.pageSize, offset: paging.pageNumber * paging.pageSize });

const totalOf = (ctx: SignedInContext, where: SQL, paging: PaginationFilter, rowsOnPage: number) =>
  listTotal(ctx.db, matchingEntries(ctx, where), { ...paging, rowsOnPage, exact: paging.exactTotal });

export async function listActivity(ctx: SignedInContext, filter: ActivityFilter): Promise<ActivityPage> {
  const where = whereOf(ctx, filter, await clinicTimeZone(ctx.db, ctx.instanceId));
  const { limit, offset } = pageOf(filter.paginationFilter);
  const rows = await selectEntries(ctx, where)
    .orderBy(...newestFirst)
    .limit(limit)
    .offset(offset);
  const total = await totalOf(ctx, where, filter.paginationFilter, rows.length);
  return { ...total, data: rows.map(toEntry) };
}

/** The newest entries of the clinic's log (the admin dashboard shows ten). */
export async function latestActivity(ctx: SignedInContext, limit: number): Promise<ActivityEntry[]> {
  const rows = await selectEntries(ctx, whereOf(ctx, {}, 'UTC'))
    .orderBy(...newestFirst)
    .limit(limit);
  return rows.map(toEntry);
}

/** Users who appear in the clinic's log (optionally in one area), for the user filter, by name. */
export async function listActors(ctx: SignedInContext, area?: ActivityArea): Promise<ActivityActor[]> {
  const inLog = ctx.db
    .select({ id: activityLogs.actorUserId })
    .from(activityLogs)
    .where(and(eq(activityLogs.instanceId, ctx.instanceId), area ? eq(activityLogs.area, area) : undefined));
  const rows = await ctx.db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(inArray(users.id, inLog))
    .orderBy(asc(users.firstName), asc(users.lastName));
  return rows.map((row) => ({ id: row.id, name: nameOf(row) ?? row.id }));
}

const loginColumns = { ...entryColumns, userAgent: sessions.userAgent };

function selectLoginDetails(ctx: SignedInContext, where: SQL) {
  return (
    ctx.db
      .select(loginColumns)
      .from(activityLogs)
      .leftJoin(users, eq(users.id, activityLogs.actorUserId))
      // Sign-ins and sign-outs name their session; the session remembers the browser it came from.
      .leftJoin(
        sessions,
        and(
          eq(activityLogs.targetType, 'session'),
          sql`${activityLogs.targetId} = ${sessions.id}::text`,
          eq(sessions.userId, activityLogs.actorUserId),
        ),
      )
      .where(where)
  );
}

function toLoginDetail(row: EntryRow & { userAgent: string | null }): LoginDetail {
  const entry = toEntry(row);
  return {
    id: entry.id,
    createdAt: entry.createdAt,
    userId: entry.userId,
    userName: entry.userName,
    email: entry.email,
    action: entry.action,
    event: entry.description ?? entry.targetType ?? entry.action,
    result: entry.action === 'Failed' ? 'Failed' : 'Succeeded',
    ip: entry.ip,
    userAgent: row.userAgent,
  };
}

export async function listLoginDetails(ctx: SignedInContext, filter: LoginDetailsFilter): Promise<LoginDetailsPage> {
  const where = whereOf(ctx, { ...filter, area: LOGIN_AREA }, await clinicTimeZone(ctx.db, ctx.instanceId));
  const { limit, offset } = pageOf(filter.paginationFilter);
  const rows = await selectLoginDetails(ctx, where)
    .orderBy(...newestFirst)
    .limit(limit)
    .offset(offset);
  const total = await totalOf(ctx, where, filter.paginationFilter, rows.length);
  return { ...total, data: rows.map(toLoginDetail) };
}

export interface CsvFile {
  fileName: string;
  content: Buffer;
}

async function assertExportable(ctx: SignedInContext, where: SQL, maxRows: number) {
  // Counting stops one past the limit: enough to refuse, without reading the whole log.
  const total = await countOf(ctx.db, matchingEntries(ctx, where), maxRows + 1);
  if (total > maxRows) {
    throw new AppError('VALIDATION', 'activityExportTooLarge', { params: { max: maxRows } });
  }
  return total;
}

/**
 * An export takes a copy of the log out of the application, so it is itself recorded (viewing the
 * pages is not: see docs/decisions/0011-activity-log-pages-and-dashboard.md).
 */
async function recordExport(ctx: SignedInContext, what: string, rows: number) {
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Admin Configuration', 'Viewed', {
      type: what,
      description: `Exported ${rows} ${rows === 1 ? 'entry' : 'entries'} to CSV`,
    }),
  );
}

export async function exportActivity(
  ctx: SignedInContext,
  input: ActivityExport,
  { maxRows = ACTIVITY_EXPORT_MAX_ROWS }: { maxRows?: number } = {},
): Promise<CsvFile> {
  const timeZone = await clinicTimeZone(ctx.db, ctx.instanceId);
  const where = whereOf(ctx, input, timeZone);
  await assertExportable(ctx, where, maxRows);
  const rows = (
    await selectEntries(ctx, where)
      .orderBy(...newestFirst)
      .limit(maxRows)
  ).map(toEntry);
  const language = input.language;
  const content = toCsv(
    activityCsvHeaders[language],
    rows.map((row) => [
      formatClinicDateTime(new Date(row.createdAt), timeZone),
      row.userName,
      row.email,
      activityAreaLabels[row.area][language],
      activityActionLabels[row.action][language],
      [row.targetType, row.targetId].filter(Boolean).join(' '),
      row.description,
      row.ip,
    ]),
  );
  await recordExport(ctx, 'activity log', rows.length);
  return { fileName: `activity-log-${clinicIsoDate(new Date(), timeZone)}.csv`, content };
}

export async function exportLoginDetails(
  ctx: SignedInContext,
  input: LoginDetailsExport,
  { maxRows = ACTIVITY_EXPORT_MAX_ROWS }: { maxRows?: number } = {},
): Promise<CsvFile> {
  const timeZone = await clinicTimeZone(ctx.db, ctx.instanceId);
  const where = whereOf(ctx, { ...input, area: LOGIN_AREA }, timeZone);
  await assertExportable(ctx, where, maxRows);
  const rows = (
    await selectLoginDetails(ctx, where)
      .orderBy(...newestFirst)
      .limit(maxRows)
  ).map(toLoginDetail);
  const language = input.language;
  const content = toCsv(
    loginDetailsCsvHeaders[language],
    rows.map((row) => [
      formatClinicDateTime(new Date(row.createdAt), timeZone),
      row.userName,
      row.email,
      row.event,
      loginResultLabels[row.result][language],
      row.ip,
      row.userAgent,
    ]),
  );
  await recordExport(ctx, 'login details', rows.length);
  return { fileName: `login-details-${clinicIsoDate(new Date(), timeZone)}.csv`, content };
}

/** Sign-in counts for the admin dashboard, in clinic days. */
export async function signInCounts(ctx: SignedInContext, now = new Date()) {
  const timeZone = await clinicTimeZone(ctx.db, ctx.instanceId);
  const inLoginArea = and(eq(activityLogs.instanceId, ctx.instanceId), eq(activityLogs.area, LOGIN_AREA));
  const countWhere = (where: SQL) => countOf(ctx.db, matchingEntries(ctx, where), null);
  const [signInsToday, failedSignInsThisWeek] = await Promise.all([
    countWhere(
      and(
        inLoginArea,
        eq(activityLogs.action, 'Created'),
        eq(activityLogs.targetType, 'session'),
        gte(activityLogs.createdAt, clinicTodayStart(now, timeZone)),
      )!,
    ),
    countWhere(
      and(
        inLoginArea,
        eq(activityLogs.action, 'Failed'),
        inArray(activityLogs.targetType, ['session', 'two-factor code']),
        gte(activityLogs.createdAt, clinicWeekStart(now, timeZone)),
      )!,
    ),
  ]);
  return { signInsToday, failedSignInsThisWeek };
}
