import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { RecordedPain } from '@pathwell/contracts/pain-journal';
import type { z } from 'zod';
import type { recordNewPainSchema } from '@pathwell/contracts/pain-journal';
import type { SignedInContext } from '../../context';
import { appointments, managedItems, painEntries } from '../../db/schema';
import { fieldError } from '../../lib/app-error';
import { findVisibleAppointment } from '../appointments/appointments.service';
import { recordActivity, staffActivity } from '../audit/audit.service';

/**
 * Section 7 "PATCH recordnewpain/{id}": a 'complaint' entry for the appointment, and the appointment's
 * own score (and body locations, when given) set to it, so the visit list, filters and chart agree.
 */
export async function recordNewPain(
  ctx: SignedInContext,
  appointmentId: string,
  input: z.output<typeof recordNewPainSchema>,
): Promise<RecordedPain> {
  return ctx.db.transaction(async (tx) => {
    const appointment = await findVisibleAppointment(tx, ctx, appointmentId);
    const locations = input.bodyLocationIds ? [...new Set(input.bodyLocationIds)] : undefined;
    if (locations?.length) {
      const items = await tx
        .select({ id: managedItems.id })
        .from(managedItems)
        .where(
          and(
            inArray(managedItems.id, locations),
            eq(managedItems.instanceId, ctx.instanceId),
            eq(managedItems.listType, 'bodylocations'),
            isNull(managedItems.deletedAt),
          ),
        );
      if (items.length !== locations.length) throw fieldError('bodyLocationIds', 'invalid', 'bodyLocationNotInClinic');
    }
    const [entry] = await tx
      .insert(painEntries)
      .values({
        instanceId: ctx.instanceId,
        patientId: appointment.patientId,
        appointmentId: appointment.id,
        source: 'complaint',
        score: input.score,
        note: input.note,
        bodyLocationIds: locations ?? appointment.bodyLocationIds,
        recordedBy: ctx.actor.userId,
      })
      .returning();
    await tx
      .update(appointments)
      .set({ painScore: input.score, ...(locations ? { bodyLocationIds: locations } : {}), updatedAt: new Date() })
      .where(and(eq(appointments.id, appointment.id), eq(appointments.instanceId, ctx.instanceId)));
    await recordActivity(
      tx,
      staffActivity(ctx, 'Appointments', 'Updated', {
        type: 'appointment',
        id: appointment.id,
        description: `Recorded a new pain complaint (${input.score}/10) for patient ${appointment.patientId}`,
      }),
    );
    return {
      id: entry!.id,
      appointmentId: appointment.id,
      score: entry!.score,
      bodyLocationIds: entry!.bodyLocationIds,
      note: entry!.note,
      recordedAt: entry!.recordedAt.toISOString(),
    };
  });
}
