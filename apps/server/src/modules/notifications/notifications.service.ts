import { and, desc, eq, gt, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import {
  NOTIFICATION_LIST_SIZE,
  type NotificationKind,
  type NotificationList,
  type NotificationPage,
  type StaffNotification,
} from '@pathwell/contracts/messaging';
import type { ServiceContext, SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { criticalFindings, notificationReceipts, notifications, patientLinks, patients } from '../../db/schema';
import { listTotal } from '../../lib/list-total';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { treatedByActor } from '../patients/patient-visibility.service';

/**
 * The notifications a user may see: their clinics' (a parent user's all-clinics view spans several);
 * a Doctor only those about their own patients (decision 0014), since the text names the patient. A
 * critical finding is for the patient's Doctor and the clinic's Admins only (decision 0058).
 */
function visibleTo(ctx: SignedInContext): SQL {
  const conditions = [inArray(notifications.instanceId, ctx.instanceIds), isNull(patients.deletedAt)];
  const treated = treatedByActor(ctx, patients.id, ctx.instanceIds);
  if (treated) conditions.push(treated);
  if (ctx.actor.role !== 'Doctor' && ctx.actor.role !== 'Admin') conditions.push(ne(notifications.kind, 'criticalFinding'));
  return and(...conditions)!;
}

/** A critical finding's notification stays urgent while a finding of its response is unacknowledged. */
const urgent = sql<boolean>`(${notifications.kind} = 'criticalFinding' and exists (
  select 1 from ${criticalFindings}
  where ${criticalFindings.instanceId} = ${notifications.instanceId}
    and ${criticalFindings.responseId} = ${notifications.responseId}
    and ${criticalFindings.acknowledgedAt} is null))`;

const receiptJoin = (ctx: SignedInContext) =>
  and(eq(notificationReceipts.notificationId, notifications.id), eq(notificationReceipts.userId, ctx.actor.userId));

const unseenCondition = isNull(notificationReceipts.seenAt);

function selectVisible(ctx: SignedInContext, db: Database) {
  return db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      createdAt: notifications.createdAt,
      patientId: notifications.patientId,
      responseId: notifications.responseId,
      urgent,
      patientFirstName: patients.firstName,
      patientLastName: patients.lastName,
      seenAt: notificationReceipts.seenAt,
      notifiedAt: notificationReceipts.notifiedAt,
    })
    .from(notifications)
    .innerJoin(patients, and(eq(patients.instanceId, notifications.instanceId), eq(patients.id, notifications.patientId)))
    .leftJoin(notificationReceipts, receiptJoin(ctx));
}

type Row = Awaited<ReturnType<ReturnType<typeof selectVisible>['execute']>>[number];

const toNotification = (row: Row): StaffNotification => ({
  id: row.id,
  kind: row.kind,
  createdAt: row.createdAt.toISOString(),
  patientId: row.patientId,
  patientFirstName: row.patientFirstName,
  patientLastName: row.patientLastName,
  seen: row.seenAt !== null,
  notified: row.notifiedAt !== null,
  responseId: row.responseId,
  urgent: row.urgent === true,
});

async function unseenCount(ctx: SignedInContext): Promise<number> {
  const [row] = await ctx.db
    .select({ count: sql<number>`count(*)::int` })
    .from(notifications)
    .innerJoin(patients, and(eq(patients.instanceId, notifications.instanceId), eq(patients.id, notifications.patientId)))
    .leftJoin(notificationReceipts, receiptJoin(ctx))
    .where(and(visibleTo(ctx), unseenCondition));
  return row?.count ?? 0;
}

/** The bell: the unseen count and the latest 50, newest first (specification section 9). */
export async function latestNotifications(ctx: SignedInContext): Promise<NotificationList> {
  const rows = await selectVisible(ctx, ctx.db)
    .where(visibleTo(ctx))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(NOTIFICATION_LIST_SIZE);
  return { unseen: await unseenCount(ctx), data: rows.map(toNotification) };
}

/** The notification page (/patients/nevro/chatternotification): every notification, paged. */
export async function notificationPage(
  ctx: SignedInContext,
  page: { pageNumber: number; pageSize: number; exactTotal?: boolean },
): Promise<NotificationPage> {
  const rows = await selectVisible(ctx, ctx.db)
    .where(visibleTo(ctx))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(page.pageSize)
    .offset(page.pageNumber * page.pageSize);
  const matches = ctx.db
    .select({ one: sql`1` })
    .from(notifications)
    .innerJoin(patients, and(eq(patients.instanceId, notifications.instanceId), eq(patients.id, notifications.patientId)))
    .where(visibleTo(ctx));
  const total = await listTotal(ctx.db, matches, { ...page, rowsOnPage: rows.length, exact: page.exactTotal });
  // The page names patients, so opening it is logged. The bell's list is not: it is read again on
  // every realtime event, and its entries only repeat what this page and the dashboards log.
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient List', 'Viewed', { type: 'notifications', description: `Viewed ${rows.length} notifications` }),
  );
  return { ...total, unseen: await unseenCount(ctx), data: rows.map(toNotification) };
}

/**
 * Marks notifications seen (a click) or notified (the popup has shown) for the signed-in user. Only
 * notifications the user may see are marked; others are ignored, as if they did not exist.
 */
export async function markNotifications(ctx: SignedInContext, ids: string[] | 'all-unseen', mark: 'seen' | 'notified') {
  const condition =
    ids === 'all-unseen' ? and(visibleTo(ctx), unseenCondition) : and(visibleTo(ctx), inArray(notifications.id, ids));
  const targets = await ctx.db
    .select({ id: notifications.id, instanceId: notifications.instanceId })
    .from(notifications)
    .innerJoin(patients, and(eq(patients.instanceId, notifications.instanceId), eq(patients.id, notifications.patientId)))
    .leftJoin(notificationReceipts, receiptJoin(ctx))
    .where(condition);
  if (targets.length === 0) return { marked: 0 };
  const now = new Date();
  const column = mark === 'seen' ? { seenAt: now } : { notifiedAt: now };
  await ctx.db
    .insert(notificationReceipts)
    .values(
      targets.map((target) => ({
        instanceId: target.instanceId,
        notificationId: target.id,
        userId: ctx.actor.userId,
        ...column,
      })),
    )
    .onConflictDoUpdate({
      target: [notificationReceipts.notificationId, notificationReceipts.userId],
      set:
        mark === 'seen'
          ? { seenAt: sql`coalesce(${notificationReceipts.seenAt}, excluded.seen_at)` }
          : { notifiedAt: sql`coalesce(${notificationReceipts.notifiedAt}, excluded.notified_at)` },
    });
  // The user's other tabs and devices update their bell too.
  for (const instanceId of new Set(targets.map((target) => target.instanceId))) {
    await ctx.events.publish(ctx.db, { instanceId, kind: 'notification', userIds: [ctx.actor.userId] });
  }
  return { marked: targets.length };
}

/**
 * After a patient submits through a link: when no other form of that appointment is still waiting
 * (open, not revoked, not expired), every staff user of the clinic is told the patient is ready
 * (specification section 3, form-completion notification). Once per appointment.
 */
export async function notifyIfAppointmentFormsComplete(
  ctx: ServiceContext,
  db: Database,
  link: { instanceId: string; patientId: string; appointmentId: string | null },
): Promise<boolean> {
  if (!link.appointmentId) return false;
  const [waiting] = await db
    .select({ id: patientLinks.id })
    .from(patientLinks)
    .where(
      and(
        eq(patientLinks.instanceId, link.instanceId),
        eq(patientLinks.appointmentId, link.appointmentId),
        isNull(patientLinks.completedAt),
        isNull(patientLinks.revokedAt),
        gt(patientLinks.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  if (waiting) return false;
  return raiseNotification(ctx, db, {
    instanceId: link.instanceId,
    kind: 'formsCompleted',
    patientId: link.patientId,
    appointmentId: link.appointmentId,
  });
}

/**
 * A notification for every staff user of the clinic, pushed to open bells. With an appointment it is
 * raised once per appointment and kind; false when it already was.
 */
export async function raiseNotification(
  ctx: ServiceContext,
  db: Database,
  notification: {
    instanceId: string;
    kind: NotificationKind;
    patientId: string;
    appointmentId: string | null;
    responseId?: string | null;
  },
): Promise<boolean> {
  const inserted = await db.insert(notifications).values(notification).onConflictDoNothing().returning({ id: notifications.id });
  if (inserted.length === 0) return false;
  await ctx.events.publish(db, { instanceId: notification.instanceId, kind: 'notification' });
  return true;
}
