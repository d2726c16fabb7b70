import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import {
  clinicDayEnd,
  clinicDayStart,
  clinicMdy,
  clinicTodayStart,
  clinicDayStartAfter,
  formatClinicDateTime,
} from '@pathwell/contracts/clinic-time';
import {
  outboxStatuses,
  resendableStatuses,
  type CommunicationAttachment,
  type CommunicationCounts,
  type CommunicationFilterParsed,
  type CommunicationMessage,
  type CommunicationPage,
  type OutboxStatus,
} from '@pathwell/contracts/messaging';
import type { SignedInContext } from '../../context';
import { outboxAttachments, outboxMessages, patients } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { listTotal } from '../../lib/list-total';
import { toCsv } from '../../lib/csv';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { maskRecipient, openAttachment, providerConfigured, requeueMessage } from '../outbox/outbox.service';
import { clinicTimeZoneFrom, readSettings } from '../settings/settings.service';

/** The days the counts chart covers, ending today (clinic time). */
const COUNT_DAYS = 14;
/** A CSV export stops here; the dashboard's filters narrow a larger clinic's history. */
const EXPORT_ROW_LIMIT = 50_000;

function conditionsFor(ctx: SignedInContext, filter: CommunicationFilterParsed, timeZone: string): SQL {
  const conditions: SQL[] = [eq(outboxMessages.instanceId, ctx.instanceId)];
  if (filter.startDate) conditions.push(gte(outboxMessages.createdAt, clinicDayStart(filter.startDate, timeZone)));
  if (filter.endDate) conditions.push(lt(outboxMessages.createdAt, clinicDayEnd(filter.endDate, timeZone)));
  if (filter.channel) conditions.push(eq(outboxMessages.channel, filter.channel));
  if (filter.status) conditions.push(eq(outboxMessages.status, filter.status));
  if (filter.template) conditions.push(eq(outboxMessages.template, filter.template));
  if (filter.patientId) conditions.push(eq(outboxMessages.patientId, filter.patientId));
  return and(...conditions)!;
}

function selectMessages(ctx: SignedInContext) {
  return ctx.db
    .select({
      id: outboxMessages.id,
      createdAt: outboxMessages.createdAt,
      channel: outboxMessages.channel,
      recipient: outboxMessages.recipient,
      template: outboxMessages.template,
      patientId: outboxMessages.patientId,
      patientFirstName: patients.firstName,
      patientLastName: patients.lastName,
      status: outboxMessages.status,
      error: outboxMessages.error,
      attempts: outboxMessages.attempts,
      sendAfter: outboxMessages.sendAfter,
      sentAt: outboxMessages.sentAt,
    })
    .from(outboxMessages)
    .leftJoin(patients, and(eq(patients.instanceId, outboxMessages.instanceId), eq(patients.id, outboxMessages.patientId)));
}

type Row = Awaited<ReturnType<ReturnType<typeof selectMessages>['execute']>>[number];

/** The files of the listed messages (names and sizes only), by message id. */
async function attachmentsOf(ctx: SignedInContext, messageIds: string[]): Promise<Map<string, CommunicationAttachment[]>> {
  const byMessage = new Map<string, CommunicationAttachment[]>();
  if (messageIds.length === 0) return byMessage;
  const rows = await ctx.db
    .select({
      id: outboxAttachments.id,
      messageId: outboxAttachments.messageId,
      fileName: outboxAttachments.fileName,
      contentType: outboxAttachments.contentType,
      size: outboxAttachments.size,
    })
    .from(outboxAttachments)
    .where(and(eq(outboxAttachments.instanceId, ctx.instanceId), inArray(outboxAttachments.messageId, messageIds)))
    .orderBy(asc(outboxAttachments.createdAt), asc(outboxAttachments.fileName), asc(outboxAttachments.id));
  for (const { messageId, ...attachment } of rows) byMessage.set(messageId, [...(byMessage.get(messageId) ?? []), attachment]);
  return byMessage;
}

function toMessage(row: Row, attachments: CommunicationAttachment[] = []): CommunicationMessage {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    channel: row.channel,
    recipient: maskRecipient(row.channel, row.recipient),
    template: row.template,
    patient: row.patientId
      ? { id: row.patientId, name: `${row.patientFirstName ?? ''} ${row.patientLastName ?? ''}`.trim() }
      : null,
    status: row.status,
    error: row.error,
    attempts: row.attempts,
    sendAfter: row.sendAfter?.toISOString() ?? null,
    sentAt: row.sentAt?.toISOString() ?? null,
    resendable: resendableStatuses.includes(row.status),
    attachments,
  };
}

/** Communication dashboard (issue #11 §3): the clinic's outbound messages, newest first, masked. */
export async function listCommunications(ctx: SignedInContext, filter: CommunicationFilterParsed): Promise<CommunicationPage> {
  const settings = await readSettings(ctx.db, ctx.instanceId);
  const where = conditionsFor(ctx, filter, clinicTimeZoneFrom(settings));
  const { pageNumber, pageSize, exactTotal } = filter.paginationFilter;
  const rows = await selectMessages(ctx)
    .where(where)
    .orderBy(desc(outboxMessages.createdAt), desc(outboxMessages.id))
    .limit(pageSize)
    .offset(pageNumber * pageSize);
  const matches = ctx.db
    .select({ one: sql`1` })
    .from(outboxMessages)
    .where(where);
  const total = await listTotal(ctx.db, matches, { pageNumber, pageSize, rowsOnPage: rows.length, exact: exactTotal });
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient List', 'Viewed', {
      type: 'communication dashboard',
      description: `Viewed ${rows.length} outbound messages`,
    }),
  );
  const attachments = await attachmentsOf(
    ctx,
    rows.map((row) => row.id),
  );
  return {
    ...total,
    data: rows.map((row) => toMessage(row, attachments.get(row.id))),
    providers: {
      email: providerConfigured(ctx, 'email', ctx.instanceId, settings),
      sms: providerConfigured(ctx, 'sms', ctx.instanceId, settings),
    },
  };
}

/** Messages per clinic day and status over the last COUNT_DAYS days (the dashboard's chart). */
export async function communicationCounts(ctx: SignedInContext): Promise<CommunicationCounts> {
  const timeZone = clinicTimeZoneFrom(await readSettings(ctx.db, ctx.instanceId));
  const todayStart = clinicTodayStart(new Date(), timeZone);
  const from = clinicDayStartAfter(todayStart, -(COUNT_DAYS - 1), timeZone);
  const to = clinicDayStartAfter(todayStart, 1, timeZone);
  const day = sql<string>`to_char(${outboxMessages.createdAt} at time zone ${timeZone}, 'MM/DD/YYYY')`;
  const rows = await ctx.db
    .select({ day, status: outboxMessages.status, count: sql<number>`count(*)::int` })
    .from(outboxMessages)
    .where(
      and(eq(outboxMessages.instanceId, ctx.instanceId), gte(outboxMessages.createdAt, from), lt(outboxMessages.createdAt, to)),
    )
    // By position: the day expression carries the zone as a parameter, which PostgreSQL would not match twice.
    .groupBy(sql`1`, sql`2`);
  const days: CommunicationCounts['days'] = [];
  for (let offset = 0; offset < COUNT_DAYS; offset++) {
    const label = clinicMdy(clinicDayStartAfter(from, offset, timeZone), timeZone);
    const counts = Object.fromEntries(outboxStatuses.map((status) => [status, 0])) as Record<OutboxStatus, number>;
    for (const row of rows) if (row.day === label) counts[row.status] = row.count;
    days.push({ day: label, counts });
  }
  return { days };
}

export async function exportCommunications(ctx: SignedInContext, filter: CommunicationFilterParsed) {
  const timeZone = clinicTimeZoneFrom(await readSettings(ctx.db, ctx.instanceId));
  const rows = await selectMessages(ctx)
    .where(conditionsFor(ctx, filter, timeZone))
    .orderBy(desc(outboxMessages.createdAt), desc(outboxMessages.id))
    .limit(EXPORT_ROW_LIMIT);
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient List', 'Viewed', {
      type: 'communication dashboard',
      description: `Exported ${rows.length} outbound messages`,
    }),
  );
  const headers = ['Time', 'Channel', 'Recipient', 'Template', 'Patient', 'Status', 'Error', 'Tries', 'Sent at'];
  return toCsv(
    headers,
    rows.map((row) => {
      const message = toMessage(row);
      return [
        formatClinicDateTime(row.createdAt, timeZone),
        message.channel,
        message.recipient,
        message.template,
        message.patient?.name ?? '',
        message.status,
        message.error,
        String(message.attempts),
        row.sentAt ? formatClinicDateTime(row.sentAt, timeZone) : '',
      ];
    }),
  );
}

/** Sends a failed, undelivered or stored message again, through a new delivery job. */
export async function resendCommunication(ctx: SignedInContext, id: string): Promise<CommunicationMessage> {
  const [row] = await ctx.db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.instanceId, ctx.instanceId), eq(outboxMessages.id, id)))
    .for('update');
  if (!row) throw notFound('messageNotFound');
  if (!resendableStatuses.includes(row.status)) throw new AppError('CONFLICT', 'messageNotResendable');
  // A support request kept while SUPPORT_EMAIL was unset goes to the address configured now, or nowhere.
  if (row.template === 'support-request') {
    if (!ctx.config.supportEmail) throw new AppError('CONFLICT', 'supportEmailNotSet');
    await ctx.db.update(outboxMessages).set({ recipient: ctx.config.supportEmail }).where(eq(outboxMessages.id, row.id));
  }
  const settings = await readSettings(ctx.db, ctx.instanceId);
  if (!providerConfigured(ctx, row.channel, ctx.instanceId, settings)) {
    throw new AppError('CONFLICT', 'noMessageProvider', { params: { channel: row.channel === 'sms' ? 'SMS' : 'email' } });
  }
  await requeueMessage(ctx, ctx.db, row);
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient List', 'Sent', { type: 'outbound message', id, description: `Sent message ${id} again` }),
  );
  const [updated] = await selectMessages(ctx).where(eq(outboxMessages.id, id));
  return toMessage(updated!, (await attachmentsOf(ctx, [id])).get(id));
}

/**
 * One file of one of the clinic's messages, decrypted (a support request's screenshot, decision 0037).
 * Another clinic's message or file answers 404, as if it did not exist; each opening is logged.
 */
export async function communicationAttachment(ctx: SignedInContext, messageId: string, attachmentId: string) {
  const [file] = await ctx.db
    .select()
    .from(outboxAttachments)
    .where(
      and(
        eq(outboxAttachments.instanceId, ctx.instanceId),
        eq(outboxAttachments.messageId, messageId),
        eq(outboxAttachments.id, attachmentId),
      ),
    );
  if (!file) throw notFound('fileNotFound');
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient List', 'Viewed', {
      type: 'outbound message',
      id: messageId,
      description: `Opened the attachment ${file.fileName} of message ${messageId}`,
    }),
  );
  return { fileName: file.fileName, contentType: file.contentType, content: openAttachment(ctx.config, file) };
}
