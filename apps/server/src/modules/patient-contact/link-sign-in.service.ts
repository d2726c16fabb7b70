import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  LINK_EMAIL_CODE_MAX_ATTEMPTS,
  LINK_EMAIL_CODE_MAX_SENDS,
  LINK_EMAIL_CODE_MINUTES,
  LINK_EMAIL_CODE_RESEND_SECONDS,
  type EmailCodeSent,
  type VerifyLink,
} from '@pathwell/contracts/patient-links';
import type { ServiceContext } from '../../context';
import type { Database } from '../../db/client';
import { patientLinks, patients } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newSixDigitCode, newToken, sameHash, sha256 } from '../../lib/secrets';
import { identityLocked, identityMatches, identityFailureText, identityMismatch, nextIdentityFailure } from './identity-check.service';
import { recordActivity } from '../audit/audit.service';
import { queueMessage } from '../outbox/outbox.service';
import { clinicDisplayName } from './clinic-name.service';
import {
  accessExpiry,
  findLink,
  findLinkPatient,
  gone,
  identityStatus,
  LINK_TARGET,
  linkNotFound,
  patientActivity,
  type LinkRow,
} from './link-access.service';
import { linkCodeEmail } from './sign-in-code.email';

/*
 * The identity check and the emailed sign-in code of every patient link (decisions 0035, 0059): one
 * lockout policy (identity-check.ts), one fresh access token per link on success.
 */

const MINUTE_MS = 60_000;

/** A wrong identity answer or code, counted by the one lockout policy (identity-check.ts). */
async function recordIdentityFailure(ctx: ServiceContext, tx: Database, link: LinkRow, what: string, now: Date) {
  const failure = nextIdentityFailure(link.verifyFailures, now, link.expiresAt);
  await tx
    .update(patientLinks)
    .set(
      failure.lockedUntil
        ? { verifyFailures: failure.failures, lockedUntil: failure.lockedUntil }
        : { verifyFailures: failure.failures },
    )
    .where(eq(patientLinks.id, link.id));
  await recordActivity(
    tx,
    patientActivity(ctx, link, 'Patient Sign-In', 'Failed', {
      type: LINK_TARGET,
      id: link.id,
      description: identityFailureText(what, failure),
    }),
  );
  return failure;
}

/** The identity is confirmed: a fresh access token for this link, and the failures forgotten. */
async function grantAccess(ctx: ServiceContext, tx: Database, link: LinkRow, accessToken: string, how: string, now: Date) {
  const expiresAt = accessExpiry(now);
  await tx
    .update(patientLinks)
    .set({
      verifyFailures: 0,
      lockedUntil: null,
      accessTokenHash: sha256(accessToken),
      accessExpiresAt: expiresAt,
      emailCodeHash: null,
      emailCodeExpiresAt: null,
      emailCodeAttempts: 0,
      // The survey report's "opened" (decision 0047): the patient, not a mail scanner, got in.
      openedAt: sql`coalesce(${patientLinks.openedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(eq(patientLinks.id, link.id));
  await recordActivity(
    tx,
    patientActivity(ctx, link, 'Patient Sign-In', 'Created', { type: LINK_TARGET, id: link.id, description: how }),
  );
  return expiresAt;
}

export async function verifyLink(ctx: ServiceContext, token: string, input: VerifyLink) {
  const accessToken = newToken();
  const outcome = await ctx.db.transaction(async (tx) => {
    const link = await findLink(tx, token, true);
    const now = new Date();
    const status = await identityStatus(tx, link, now);
    if (status === 'locked') return { kind: 'locked' as const, until: link.lockedUntil! };
    if (status !== 'active') return { kind: 'gone' as const, status };
    const patient = await findLinkPatient(tx, link);
    if (!identityMatches(patient, input)) {
      const failure = await recordIdentityFailure(ctx, tx, link, 'Identity', now);
      return failure.lockedUntil
        ? { kind: 'locked' as const, until: failure.lockedUntil }
        : { kind: 'mismatch' as const, attemptsLeft: failure.attemptsLeft };
    }
    const expiresAt = await grantAccess(ctx, tx, link, accessToken, 'Patient confirmed identity on a form link', now);
    return { kind: 'ok' as const, expiresAt };
  });
  if (outcome.kind === 'gone') throw gone(outcome.status);
  if (outcome.kind === 'locked') throw identityLocked(outcome.until, new Date());
  if (outcome.kind === 'mismatch') throw identityMismatch(outcome.attemptsLeft);
  return { accessToken, expiresAt: outcome.expiresAt.toISOString() };
}

/** a***@example.com: the first letter and the domain. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

const codeHash = (linkId: string, code: string) => sha256(`${linkId}:${code}`);

/**
 * Instead of last name and date of birth, the patient asks for a 6-digit code at the email the clinic
 * has on file (decision 0035). One code at a time, good for LINK_EMAIL_CODE_MINUTES and once; a new one
 * no sooner than LINK_EMAIL_CODE_RESEND_SECONDS after the last, at most LINK_EMAIL_CODE_MAX_SENDS per link.
 */
export async function sendEmailCode(ctx: ServiceContext, token: string): Promise<EmailCodeSent> {
  return ctx.db.transaction(async (tx) => {
    const link = await findLink(tx, token, true);
    const status = await identityStatus(tx, link);
    if (status === 'locked') throw identityLocked(link.lockedUntil!, new Date());
    if (status !== 'active') throw gone(status);
    const [patient] = await tx
      .select({ firstName: patients.firstName, email: patients.email, preferredLanguage: patients.preferredLanguage })
      .from(patients)
      .where(and(eq(patients.id, link.patientId), eq(patients.instanceId, link.instanceId), isNull(patients.deletedAt)));
    if (!patient) throw linkNotFound();
    if (!patient.email) throw new AppError('CONFLICT', 'noEmailOnFile');
    const now = new Date();
    if (link.emailCodeSentAt) {
      const waited = (now.getTime() - link.emailCodeSentAt.getTime()) / 1000;
      if (waited < LINK_EMAIL_CODE_RESEND_SECONDS) {
        throw new AppError('RATE_LIMITED', 'codeTooSoon', {
          retryAfterSeconds: Math.ceil(LINK_EMAIL_CODE_RESEND_SECONDS - waited),
        });
      }
    }
    if (link.emailCodeSends >= LINK_EMAIL_CODE_MAX_SENDS) throw new AppError('RATE_LIMITED', 'codeTooMany');
    const code = newSixDigitCode();
    await tx
      .update(patientLinks)
      .set({
        emailCodeHash: codeHash(link.id, code),
        emailCodeExpiresAt: new Date(now.getTime() + LINK_EMAIL_CODE_MINUTES * MINUTE_MS),
        emailCodeSentAt: now,
        emailCodeSends: link.emailCodeSends + 1,
        emailCodeAttempts: 0,
      })
      .where(eq(patientLinks.id, link.id));
    const language = link.language ?? patient.preferredLanguage;
    const message = linkCodeEmail(language, { code, clinicName: await clinicDisplayName(tx, link.instanceId) });
    await queueMessage(ctx, tx, {
      instanceId: link.instanceId,
      channel: 'email',
      to: patient.email,
      template: 'link-code',
      // No patientId: the code is how the patient gets in, so it goes even when care emails are off.
      subject: message.subject,
      body: message.body,
    });
    await recordActivity(
      tx,
      patientActivity(ctx, link, 'Patient Sign-In', 'Created', {
        type: LINK_TARGET,
        id: link.id,
        description: 'Sign-in code emailed to the patient',
      }),
    );
    return { sentTo: maskEmail(patient.email), expiresInMinutes: LINK_EMAIL_CODE_MINUTES };
  });
}

export async function verifyEmailCode(ctx: ServiceContext, token: string, code: string) {
  const accessToken = newToken();
  const outcome = await ctx.db.transaction(async (tx) => {
    const link = await findLink(tx, token, true);
    const now = new Date();
    const status = await identityStatus(tx, link, now);
    if (status === 'locked') return { kind: 'locked' as const, until: link.lockedUntil! };
    if (status !== 'active') return { kind: 'gone' as const, status };
    const live = link.emailCodeHash && link.emailCodeExpiresAt && link.emailCodeExpiresAt.getTime() > now.getTime();
    if (!live) return { kind: 'expired' as const };
    if (!sameHash(link.emailCodeHash!, codeHash(link.id, code))) {
      const attempts = link.emailCodeAttempts + 1;
      // A code guessed at too often is spent; the link's own lockout counts these tries too.
      await tx
        .update(patientLinks)
        .set(
          attempts >= LINK_EMAIL_CODE_MAX_ATTEMPTS
            ? { emailCodeAttempts: attempts, emailCodeHash: null, emailCodeExpiresAt: null }
            : { emailCodeAttempts: attempts },
        )
        .where(eq(patientLinks.id, link.id));
      const failure = await recordIdentityFailure(ctx, tx, link, 'Sign-in code', now);
      return failure.lockedUntil
        ? { kind: 'locked' as const, until: failure.lockedUntil }
        : { kind: 'mismatch' as const, attemptsLeft: failure.attemptsLeft };
    }
    const expiresAt = await grantAccess(ctx, tx, link, accessToken, 'Patient confirmed identity with an emailed code', now);
    return { kind: 'ok' as const, expiresAt };
  });
  if (outcome.kind === 'gone') throw gone(outcome.status);
  if (outcome.kind === 'locked') throw identityLocked(outcome.until, new Date());
  if (outcome.kind === 'expired') throw new AppError('VALIDATION', 'codeNotValid', { fields: { code: 'codeExpired' } });
  if (outcome.kind === 'mismatch') throw identityMismatch(outcome.attemptsLeft, 'code');
  return { accessToken, expiresAt: outcome.expiresAt.toISOString() };
}
