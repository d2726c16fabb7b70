import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { ACCESS_REQUESTS_PER_LINK, type AccessRequest, type StaffAccessRequest } from '@pathwell/contracts/patient-links';
import type { ServiceContext, SignedInContext } from '../../context';
import { accessRequests, users } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { raiseNotification } from '../notifications/notifications.service';
import { findVisiblePatient } from '../patients/patient-visibility.service';
import { findLink, findLinkPatient, gone, linkStatusOf, patientActivity } from '../patient-contact/link-access.service';

/**
 * "Request portal access" (issue #12, decision 0036): whoever holds a link and cannot pass the identity
 * check asks the clinic for help. Allowed while the link is open or locked by wrong answers (that is
 * when it is needed), at most ACCESS_REQUESTS_PER_LINK unhandled ones per link. The answer is the same
 * whatever was typed, so it teaches nothing about the record.
 */
export async function requestAccess(ctx: ServiceContext, token: string, input: AccessRequest) {
  await ctx.db.transaction(async (tx) => {
    const link = await findLink(tx, token, true);
    const status = linkStatusOf(link);
    if (status !== 'active' && status !== 'locked') throw gone(status);
    await findLinkPatient(tx, link);
    const [open] = await tx
      .select({ n: count() })
      .from(accessRequests)
      .where(and(eq(accessRequests.linkId, link.id), isNull(accessRequests.handledAt)));
    if ((open?.n ?? 0) >= ACCESS_REQUESTS_PER_LINK) throw new AppError('RATE_LIMITED', 'accessRequestsTooMany');
    const [row] = await tx
      .insert(accessRequests)
      .values({
        instanceId: link.instanceId,
        patientId: link.patientId,
        appointmentId: link.appointmentId,
        linkId: link.id,
        name: input.name,
        dateOfBirth: input.dateOfBirth || null,
        contact: input.contact,
        message: input.message || null,
      })
      .returning({ id: accessRequests.id });
    await recordActivity(
      tx,
      patientActivity(ctx, link, 'Patient Sign-In', 'Created', {
        type: 'access request',
        id: row!.id,
        description: 'Access to a link requested after the identity check did not match',
      }),
    );
    // Not tied to the appointment: each request is its own news, not one per visit.
    await raiseNotification(ctx, tx, {
      instanceId: link.instanceId,
      kind: 'accessRequest',
      patientId: link.patientId,
      appointmentId: null,
    });
  });
  return { received: true as const };
}

export async function patientAccessRequests(ctx: SignedInContext, patientId: string): Promise<StaffAccessRequest[]> {
  const patient = await findVisiblePatient(ctx, ctx.db, patientId);
  const rows = await ctx.db
    .select({ request: accessRequests, handledByFirst: users.firstName, handledByLast: users.lastName })
    .from(accessRequests)
    .leftJoin(users, eq(users.id, accessRequests.handledBy))
    .where(and(eq(accessRequests.instanceId, ctx.instanceId), eq(accessRequests.patientId, patient.id)))
    .orderBy(desc(accessRequests.createdAt))
    .limit(20);
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient Sign-In', 'Viewed', { type: 'patient', id: patient.id, description: 'Access requests viewed' }),
  );
  return rows.map(({ request, handledByFirst, handledByLast }) => ({
    id: request.id,
    createdAt: request.createdAt.toISOString(),
    appointmentId: request.appointmentId,
    name: request.name,
    dateOfBirth: request.dateOfBirth,
    contact: request.contact,
    message: request.message,
    handledAt: request.handledAt?.toISOString() ?? null,
    handledByName: handledByFirst ? `${handledByFirst} ${handledByLast ?? ''}`.trim() : null,
  }));
}

/** Staff called the person back (and, when it was the patient, sent a fresh link from the dashboard). */
export async function markAccessRequestHandled(ctx: SignedInContext, patientId: string, requestId: string) {
  const patient = await findVisiblePatient(ctx, ctx.db, patientId);
  const [row] = await ctx.db
    .update(accessRequests)
    .set({ handledAt: new Date(), handledBy: ctx.actor.userId })
    .where(
      and(
        eq(accessRequests.instanceId, ctx.instanceId),
        eq(accessRequests.patientId, patient.id),
        eq(accessRequests.id, requestId),
        isNull(accessRequests.handledAt),
      ),
    )
    .returning({ id: accessRequests.id });
  if (!row) throw notFound();
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient Sign-In', 'Updated', {
      type: 'access request',
      id: row.id,
      description: 'Access request handled',
    }),
  );
}
