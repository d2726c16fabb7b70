import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { SelfCheckIn, SelfCheckInState } from '@pathwell/contracts/intake';
import { LINK_LOCK_MINUTES, LINK_VERIFY_MAX_FAILURES } from '@pathwell/contracts/patient-links';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { enterClinicOf, withSystemContext, type ServiceContext } from '../../context';
import type { Database } from '../../db/client';
import { appointments, patientLinks, patients } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newToken, sameHash, sha256 } from '../../lib/secrets';
import { recordActivity } from '../audit/audit.service';
import { accessExpiry, clinicName, mdyToIso, normalizeLastName, patientActivity } from '../patient-links/patient-links.service';
import { clinicTimeZoneFrom, isOn, readSettings } from '../settings/settings.service';
import { checkInByPatient, sameClinicDay } from './intake.service';

const MINUTE_MS = 60_000;
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

const lockedMinutes = (lockedUntil: Date | null, now: Date) =>
  lockedUntil && lockedUntil.getTime() > now.getTime() ? Math.ceil((lockedUntil.getTime() - now.getTime()) / MINUTE_MS) : null;

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
  return { clinicName: await clinicName(ctx.db, row.instanceId), state, lockedMinutes: locked };
}

/**
 * The patient scanned the QR code staff printed or showed for this visit and answers with last name and
 * date of birth (decision 0034). Wrong answers count on the appointment; every fifth locks the page for
 * LINK_LOCK_MINUTES, as a link's identity check does. A right answer checks the patient in by the same
 * rules as the intake link's check-in.
 */
export async function selfCheckIn(ctx: ServiceContext, patientId: string, appointmentId: string, input: SelfCheckIn) {
  const outcome = await ctx.db.transaction(async (tx) => {
    const { row, settings } = await findTarget(ctx, tx, patientId, appointmentId, true);
    const now = new Date();
    const locked = lockedMinutes(row.lockedUntil, now);
    if (locked !== null) return { kind: 'locked' as const, minutes: locked };
    const nameMatches = sameHash(sha256(normalizeLastName(row.lastName)), sha256(normalizeLastName(input.lastName)));
    const birthMatches = sameHash(sha256(row.dateOfBirth), sha256(mdyToIso(input.dateOfBirth)));
    const target = { instanceId: row.instanceId, patientId: row.patientId, appointment: row };
    if (!(nameMatches && birthMatches)) {
      const failures = row.failures + 1;
      const locks = failures % LINK_VERIFY_MAX_FAILURES === 0;
      await tx
        .update(appointments)
        .set(
          locks
            ? { selfCheckInFailures: failures, selfCheckInLockedUntil: new Date(now.getTime() + LINK_LOCK_MINUTES * MINUTE_MS) }
            : { selfCheckInFailures: failures },
        )
        .where(and(eq(appointments.id, row.id), eq(appointments.instanceId, row.instanceId)));
      await recordActivity(
        tx,
        patientActivity(ctx, target, 'Patient Sign-In', 'Failed', {
          type: 'appointment',
          id: row.id,
          description: locks
            ? `Self check-in: identity did not match; locked for ${LINK_LOCK_MINUTES} minutes`
            : `Self check-in: identity did not match (${failures % LINK_VERIFY_MAX_FAILURES} of ${LINK_VERIFY_MAX_FAILURES})`,
        }),
      );
      return locks ? { kind: 'locked' as const, minutes: LINK_LOCK_MINUTES } : { kind: 'mismatch' as const };
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
  if (outcome.kind === 'locked')
    throw new AppError('RATE_LIMITED', 'selfCheckInLocked', {
      params: { minutes: outcome.minutes },
      retryAfterSeconds: outcome.minutes * 60,
    });
  if (outcome.kind === 'mismatch') {
    throw new AppError('VALIDATION', 'identityMismatch', { fields: { lastName: 'identityMismatch' } });
  }
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
