import { and, eq, isNull } from 'drizzle-orm';
import { clinicIsoDate } from '@pathwell/contracts/clinic-time';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { LINK_ACCESS_MINUTES, LINK_TOKEN_PATTERN, type LinkStatus } from '@pathwell/contracts/patient-links';
import { enterClinicOf, withSystemContext, type ServiceContext } from '../../context';
import type { Database } from '../../db/client';
import { appointments, patientLinks, patients } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { sameHash, sha256 } from '../../lib/secrets';
import { clinicTimeZoneFrom, isOn, readSettings } from '../settings/settings.service';

/*
 * The patient link core (issue #25 §1, decision 0069): every open patient route (form, intake, consent,
 * pain journal) finds its link by the token's hash, checks the access token and the link's status here,
 * and names the patient in the audit log the same way.
 */

export type LinkRow = typeof patientLinks.$inferSelect;

const MINUTE_MS = 60_000;
export const LINK_TARGET = 'patient link';

export const linkNotFound = () => new AppError('NOT_FOUND', 'linkNotFound');
export const gone = (status: LinkStatus) => new AppError('GONE', 'linkGone', { params: { status } });
const noAccess = () => new AppError('UNAUTHENTICATED', 'identityAgain');

/** Precedence: what can never change again first, then what the clinic did, then what time did. */
export function linkStatusOf(
  link: Pick<LinkRow, 'completedAt' | 'revokedAt' | 'expiresAt' | 'lockedUntil'>,
  now = new Date(),
): LinkStatus {
  if (link.completedAt) return 'completed';
  if (link.revokedAt) return 'revoked';
  if (link.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (link.lockedUntil && link.lockedUntil.getTime() > now.getTime()) return 'locked';
  return 'active';
}

/**
 * An open link route starts with no clinic. The link's clinic is read by the token's hash through the
 * 'patient-link-token' door; from then on the request sees that clinic's rows only. An unknown token
 * leaves it with none, and the lookups below answer 404.
 */
export async function enterLinkClinic(ctx: ServiceContext, token: string): Promise<ServiceContext> {
  if (!LINK_TOKEN_PATTERN.test(token)) return ctx;
  const [link] = await withSystemContext(ctx, 'patient-link-token', (system) =>
    system.db
      .select({ instanceId: patientLinks.instanceId })
      .from(patientLinks)
      .where(eq(patientLinks.tokenHash, sha256(token))),
  );
  return link ? enterClinicOf(ctx, link.instanceId) : ctx;
}

/**
 * The links a patient opens with the identity check. A close-account confirmation link is not one of
 * them: it only confirms the closure it was emailed for (close-account.service.ts).
 */
const identityLinkKinds: readonly LinkRow['kind'][] = ['form', 'intake', 'consent'];

export async function findLink(
  db: Database,
  token: string,
  forUpdate = false,
  kinds: readonly LinkRow['kind'][] = identityLinkKinds,
): Promise<LinkRow> {
  if (!LINK_TOKEN_PATTERN.test(token)) throw linkNotFound();
  const query = db
    .select()
    .from(patientLinks)
    .where(eq(patientLinks.tokenHash, sha256(token)));
  const [link] = forUpdate ? await query.for('update') : await query;
  if (!link || !kinds.includes(link.kind)) throw linkNotFound();
  return link;
}

export async function findLinkPatient(db: Database, link: LinkRow) {
  const [patient] = await db
    .select({
      id: patients.id,
      firstName: patients.firstName,
      lastName: patients.lastName,
      dateOfBirth: patients.dateOfBirth,
    })
    .from(patients)
    .where(and(eq(patients.id, link.patientId), eq(patients.instanceId, link.instanceId), isNull(patients.deletedAt)));
  // A patient removed since the link was sent: the link leads nowhere.
  if (!patient) throw linkNotFound();
  return patient;
}

/** The access token must be the one issued for THIS link, and still fresh. */
export function requireAccess(link: LinkRow, bearer: string | undefined, now = new Date()) {
  if (!bearer || !link.accessTokenHash || !link.accessExpiresAt) throw noAccess();
  if (!sameHash(link.accessTokenHash, sha256(bearer))) throw noAccess();
  if (link.accessExpiresAt.getTime() <= now.getTime()) throw noAccess();
}

/** Open links only; a lock matters to identity checks, not to a patient already verified. */
export function requireOpen(link: LinkRow, now = new Date()) {
  const status = linkStatusOf(link, now);
  if (status !== 'active' && status !== 'locked') throw gone(status);
}

export const accessExpiry = (now = new Date()) => new Date(now.getTime() + LINK_ACCESS_MINUTES * MINUTE_MS);

/** The patient has no user account: the row names no actor, the link or response is the target. */
export const patientActivity = (
  ctx: ServiceContext,
  link: Pick<LinkRow, 'instanceId'>,
  area: 'Patient Sign-In' | 'Form Submission' | 'Intake Information' | 'Checkins' | 'Patient Profile',
  action: 'Created' | 'Updated' | 'Failed',
  target: { type: string; id: string; description: string },
) => ({
  instanceId: link.instanceId,
  actorUserId: null,
  actorEmail: null,
  area,
  action,
  targetType: target.type,
  targetId: target.id,
  description: target.description,
  ip: ctx.ip,
});

/**
 * A link's status at the identity check. A finished intake stays open on its visit's day (clinic time)
 * while the clinic offers check-in and the visit is not past check-in, so a patient who did the
 * paperwork at home checks in with the same link on arrival (issue 24 §5); the intake itself stays
 * read-only (intake-link.ts, requireReadable).
 */
export async function identityStatus(db: Database, link: LinkRow, now = new Date()): Promise<LinkStatus> {
  const status = linkStatusOf(link, now);
  if (status !== 'completed' || link.kind !== 'intake' || !link.appointmentId) return status;
  if (link.revokedAt || link.expiresAt.getTime() <= now.getTime()) return status;
  if (link.lockedUntil && link.lockedUntil.getTime() > now.getTime()) return 'locked';
  return (await checkInOpenFor(db, link, now)) ? 'active' : status;
}

async function checkInOpenFor(db: Database, link: LinkRow, now: Date) {
  const [visit] = await db
    .select({ startsAt: appointments.startsAt, status: appointments.status })
    .from(appointments)
    .where(
      and(eq(appointments.id, link.appointmentId!), eq(appointments.instanceId, link.instanceId), isNull(appointments.deletedAt)),
    );
  if (!visit) return false;
  if (visit.status !== AppointmentStatus.Upcoming && visit.status !== AppointmentStatus.Checking_In) return false;
  const settings = await readSettings(db, link.instanceId);
  if (!isOn(settings, 'enablePatientSelfCheckin') && !isOn(settings, 'enableHomeCheckin')) return false;
  const timeZone = clinicTimeZoneFrom(settings);
  return clinicIsoDate(visit.startsAt, timeZone) === clinicIsoDate(now, timeZone);
}
