import { and, eq } from 'drizzle-orm';
import { clinicIsoDate } from '@pathwell/contracts/clinic-time';
import type { AppointmentStatusCode } from '@pathwell/contracts/appointments';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import type { ServiceContext } from '../../context';
import type { Database } from '../../db/client';
import { appointments } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { recordActivity } from '../audit/audit.service';
import { refuseTransition } from '../appointments/appointments.service';
import { patientActivity } from '../patient-contact/link-access.service';
import { clinicTimeZoneFrom, isOn, readSettings, type SettingsMap } from '../settings/settings.service';
import { appointmentOf, lockOpenIntake, requireReadable } from './intake-link';

/* The patient checks in from the intake link (and, through checkInByPatient, from the self check-in QR page). */

const checkInAllowed = (settings: SettingsMap) =>
  isOn(settings, 'enablePatientSelfCheckin') || isOn(settings, 'enableHomeCheckin');
export const sameClinicDay = (a: Date, b: Date, timeZone: string) => clinicIsoDate(a, timeZone) === clinicIsoDate(b, timeZone);
export function checkInOffered(settings: SettingsMap, appointment: { startsAt: Date }, timeZone: string, now = new Date()) {
  return checkInAllowed(settings) && sameClinicDay(appointment.startsAt, now, timeZone);
}

/**
 * The patient checks in from the link, at the clinic (`enablePatientSelfCheckin`) or from home
 * (`enableHomeCheckin`), on the day of the visit. The status moves by decision 0013's rules, as when
 * staff check a patient in; checking in twice changes nothing.
 */
export async function patientCheckIn(ctx: ServiceContext, token: string, bearer: string | undefined) {
  return ctx.db.transaction(async (tx) => {
    const link = await lockOpenIntake(tx, token, bearer);
    requireReadable(link);
    const settings = await readSettings(tx, link.instanceId);
    if (!checkInAllowed(settings)) throw new AppError('FORBIDDEN', 'notAllowed');
    const appointment = await appointmentOf(tx, link);
    await checkInByPatient(
      ctx,
      tx,
      settings,
      { instanceId: link.instanceId, patientId: link.patientId, appointment },
      'the intake link',
    );
    return { checkedIn: true, confirmationPage: isOn(settings, 'checkinConfirmationPage') };
  });
}

/**
 * The patient checks in, from the intake link or the self check-in QR page: on the day of the visit,
 * by decision 0013's rules as when staff check a patient in; checking in twice changes nothing.
 */
export async function checkInByPatient(
  ctx: ServiceContext,
  tx: Database,
  settings: SettingsMap,
  target: { instanceId: string; patientId: string; appointment: { id: string; startsAt: Date; status: number } },
  from: string,
) {
  const { appointment } = target;
  if (appointment.status === AppointmentStatus.Checking_In) return;
  const now = new Date();
  if (!sameClinicDay(appointment.startsAt, now, clinicTimeZoneFrom(settings))) throw new AppError('CONFLICT', 'checkinNotToday');
  const status = appointment.status as AppointmentStatusCode;
  if (refuseTransition(status, AppointmentStatus.Checking_In, appointment.startsAt, now)) {
    throw new AppError('CONFLICT', 'statusChangeNotAllowed', { params: { from: status, to: AppointmentStatus.Checking_In } });
  }
  await tx
    .update(appointments)
    .set({ status: AppointmentStatus.Checking_In, checkedInAt: now, checkInDelayedUntil: null, updatedAt: now })
    .where(and(eq(appointments.id, appointment.id), eq(appointments.instanceId, target.instanceId)));
  await recordActivity(
    tx,
    patientActivity(ctx, target, 'Checkins', 'Created', {
      type: 'appointment',
      id: appointment.id,
      description: `Patient ${target.patientId} checked in from ${from}`,
    }),
  );
  // The appointment dashboard refreshes on this.
  await ctx.events.publish(tx, { instanceId: target.instanceId, kind: 'notification' });
}
