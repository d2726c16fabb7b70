import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { SelfCheckIn, SelfCheckInState } from '@pathwell/contracts/intake';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { enterClinicOf, withSystemContext, type ServiceContext } from '../../context';
import type { Database } from '../../db/client';
import { appointments, patientLinks, patients } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newToken, sha256 } from '../../lib/secrets';
import { recordActivity } from '../audit/audit.service';
import { accessExpiry, patientActivity } from '../patient-contact/link-access.service';
import {
  identityFailureText,
  identityLocked,
  identityMatches,
  identityMismatch,
  lockedMinutes,
  nextIdentityFailure,
} from '../patient-contact/identity-check.service';
import { clinicTimeZoneFrom, isOn, readSettings } from '../settings/settings.service';
import { checkInByPatient, sameClinicDay } from './intake-check-in.service';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';

const DAY_MS = 86_400_000;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const notFound = () => new AppError('NOT_FOUND', 'appointmentNotFound');

/**
 * The QR page is open: the clinic is read by the appointment's id through the 'self-check-in' door,
 * and from then on the request sees that clinic's rows only. An unknown id leaves it with none.
 */
export async function enterSelfCheckInClinic(ctx: ServiceContext, appointmentId: string): Promise<ServiceContext> {
  if (!UUID_PATTERN.test(appointmentId)) return ctx;
  const [row] = await withSystemContext(ctx, 'self-check-in', (system) =>
    system.db.select({ instanceId: appointments.instanceId }).from(appointments).where(eq(appointments.id, appointmentId)),
  );
  return row ? enterClinicOf(ctx, row.instanceId) : ctx;
}

/**
 * The appointment and its patient, both of the clinic entered, both live, and belonging together; any
 * other combination is the same 404, so the page tells a stranger nothing. The clinic must offer self
 * check-in (`enablePatientSelfCheckin`).
 */
async function findTarget(ctx: ServiceContext, db: Database, patientId: string, appointmentId: string, forUpdate = false) {
  if (!ctx.instanceId) throw notFound();
  const query = db
    .select({
      id: appointments.id,
      instanceId: appointments.instanceId,
      patientId: appointments.patientId,
      startsAt: appointments.startsAt,
      status: appointments.status,
      failures: appointments.selfCheckInFailures,
      lockedUntil: appointments.selfCheckInLockedUntil,
      lastName: patients.lastName,
      dateOfBirth: patients.dateOfBirth,
    })
    .from(appointments)
    .innerJoin(patients, and(eq(patients.id, appointments.patientId), eq(patients.instanceId, appointments.instanceId)))
    .where(
      and(
        eq(appointments.id, appointmentId),
        eq(appointments.instanceId, ctx.instanceId),
        eq(appointments.patientId, patientId),
        isNull(appointments.deletedAt),
        isNull(patients.deletedAt),
      ),
    );
  const [row] = forUpdate ? await query.for('update', { of: appointments }) : await query;
  if (!row) throw notFound();
  const settings = await readSettings(db, row.instanceId);
  if (!isOn(settings, 'enablePatientSelfCheckin')) throw notFound();
  return { row, settings };
}

export async function selfCheckInState(ctx: ServiceContext, patientId: string, appointmentId: string): Promise<SelfCheckInState> {
  const { row, settings } = await findTarget(ctx, ctx.db, patientId, appointmentId);
  const now = new Date();
  const locked = lockedMinutes(row.lockedUntil, now);
  const state: SelfCheckInState['state'] =
    row.status === AppointmentStatus.Checking_In
      ? 'checkedIn'
      : !sameClinicDay(row.startsAt, now, clinicTimeZoneFrom(settings))
        ? 'notToday'
        : locked !== null
          ? 'locked'
          : 'ready';
  return { clinicName: await clinicDisplayName(ctx.db, row.instanceId), state, lockedMinutes: locked };
}

/**
 * The patient scanned the QR code staff printed or showed for this visit and answers with last name and
 * date of birth (decision 0034), checked as every patient route checks them, and wrong answers counted
 * on the appointment by the same lockout policy (identity-check.ts). A right answer checks the patient
 * in by the same rules as the intake link's check-in.
 */
export async function selfCheckIn(ctx: ServiceContext, patientId: string, appointmentId: string, input: SelfCheckIn) {
  const outcome = await ctx.db.transaction(async (tx) => {
    const { row, settings } = await findTarget(ctx, tx, patientId, appointmentId, true);
    const now = new Date();
    if (lockedMinutes(row.lockedUntil, now) !== null) return { kind: 'locked' as const, until: row.lockedUntil! };
    const target = { instanceId: row.instanceId, patientId: row.patientId, appointment: row };
    if (!identityMatches(row, input)) {
      // The last lock lasts until a day after the visit starts: past its day, the page says "not today".
      const failure = nextIdentityFailure(row.failures, now, new Date(row.startsAt.getTime() + DAY_MS));
      await tx
        .update(appointments)
        .set(
          failure.lockedUntil
            ? { selfCheckInFailures: failure.failures, selfCheckInLockedUntil: failure.lockedUntil }
            : { selfCheckInFailures: failure.failures },
        )
        .where(and(eq(appointments.id, row.id), eq(appointments.instanceId, row.instanceId)));
      await recordActivity(
        tx,
        patientActivity(ctx, target, 'Patient Sign-In', 'Failed', {
          type: 'appointment',
          id: row.id,
          description: identityFailureText('Self check-in: identity', failure),
        }),
      );
      return failure.lockedUntil
        ? { kind: 'locked' as const, until: failure.lockedUntil }
        : { kind: 'mismatch' as const, attemptsLeft: failure.attemptsLeft };
    }
    if (row.failures > 0 || row.lockedUntil) {
      await tx
        .update(appointments)
        .set({ selfCheckInFailures: 0, selfCheckInLockedUntil: null })
        .where(and(eq(appointments.id, row.id), eq(appointments.instanceId, row.instanceId)));
    }
    await checkInByPatient(ctx, tx, settings, target, 'the self check-in QR page');
    const continueIntake = await reissueOpenIntake(ctx, tx, row.instanceId, row.patientId, row.id, now);
    return { kind: 'ok' as const, confirmationPage: isOn(settings, 'checkinConfirmationPage'), continueIntake };
  });
  if (outcome.kind === 'locked') throw identityLocked(outcome.until, new Date());
  if (outcome.kind === 'mismatch') throw identityMismatch(outcome.attemptsLeft);
  return {
    checkedIn: true,
    confirmationPage: outcome.confirmationPage,
    ...(outcome.continueIntake ? { continueIntake: outcome.continueIntake } : {}),
  };
}

/**
 * After a self check-in, the visit's unfinished intake continues on the same phone: the identity was just
 * confirmed, so the open link gets a new token (only its hash is kept, so the old one cannot be handed
 * back; the emailed address stops working) and a fresh access token. Its saved answers stay with it.
 */
async function reissueOpenIntake(
  ctx: ServiceContext,
  tx: Database,
  instanceId: string,
  patientId: string,
  appointmentId: string,
  now: Date,
) {
  const [link] = await tx
    .select({ id: patientLinks.id })
    .from(patientLinks)
    .where(
      and(
        eq(patientLinks.instanceId, instanceId),
        eq(patientLinks.appointmentId, appointmentId),
        eq(patientLinks.patientId, patientId),
        eq(patientLinks.kind, 'intake'),
        isNull(patientLinks.completedAt),
        isNull(patientLinks.revokedAt),
        gt(patientLinks.expiresAt, now),
      ),
    )
    .orderBy(desc(patientLinks.createdAt))
    .limit(1)
    .for('update');
  if (!link) return null;
  const token = newToken();
  const accessToken = newToken();
  await tx
    .update(patientLinks)
    .set({
      tokenHash: sha256(token),
      accessTokenHash: sha256(accessToken),
      accessExpiresAt: accessExpiry(now),
      verifyFailures: 0,
      lockedUntil: null,
      openedAt: sql`coalesce(${patientLinks.openedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(eq(patientLinks.id, link.id));
  await recordActivity(
    tx,
    patientActivity(ctx, { instanceId }, 'Patient Sign-In', 'Created', {
      type: 'patient link',
      id: link.id,
      description: 'Intake continued on the phone after self check-in; the link has a new address',
    }),
  );
  return { token, appointmentId, accessToken };
}
