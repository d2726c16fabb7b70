import { and, count, eq, gt, isNull, ne } from 'drizzle-orm';
import {
  CLOSE_ACCOUNT_LINK_HOURS,
  CLOSE_ACCOUNT_REQUESTS_PER_DAY,
  type CloseAccountRequested,
  type CloseAccountState,
} from '@pathwell/contracts/close-account';
import type { FormLanguage } from '@pathwell/contracts/forms';
import type { ServiceContext } from '../../context';
import type { Database } from '../../db/client';
import { patientLinks, patients } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newToken, sha256 } from '../../lib/secrets';
import { recordActivity } from '../audit/audit.service';
import { raiseNotification } from '../notifications/notifications.service';
import { queueMessage } from '../outbox/outbox.service';
import { enterLinkClinic, findLink, linkNotFound, linkStatusOf, patientActivity } from '../patient-contact/link-access.service';
import { maskEmail } from '../patient-contact/link-sign-in.service';
import { lockOpenIntake } from './intake-link';
import { publicLink } from '../../lib/public-url';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';

const HOUR_MS = 3_600_000;

function requestEmail(language: FormLanguage, input: { firstName: string; clinicName: string; url: string }) {
  if (language === 'es') {
    return {
      subject: `${input.clinicName}: confirme el cierre de su cuenta`,
      body:
        `Hola, ${input.firstName}:\n\n` +
        `Pidió cerrar su cuenta de paciente en ${input.clinicName}. Para confirmarlo, abra este enlace ` +
        `(válido durante ${CLOSE_ACCOUNT_LINK_HOURS} horas):\n${input.url}\n\n` +
        'Si no lo pidió usted, ignore este mensaje: su cuenta sigue abierta.',
    };
  }
  return {
    subject: `${input.clinicName}: confirm closing your account`,
    body:
      `Hello ${input.firstName},\n\n` +
      `You asked to close your patient account with ${input.clinicName}. To confirm, open this link ` +
      `(good for ${CLOSE_ACCOUNT_LINK_HOURS} hours):\n${input.url}\n\n` +
      'If you did not ask for this, ignore this message: your account stays open.',
  };
}

function closedEmail(language: FormLanguage, input: { firstName: string; clinicName: string }) {
  if (language === 'es') {
    return {
      subject: `${input.clinicName}: su cuenta está cerrada`,
      body:
        `Hola, ${input.firstName}:\n\n` +
        `Su cuenta de paciente en ${input.clinicName} está cerrada. No recibirá más correos ni mensajes de texto de la clínica ` +
        'y sus enlaces a formularios ya no funcionan. Sus expedientes médicos se conservan como exige la ley, y sus citas ' +
        'no se han cancelado: llame a la clínica para cambiarlas o para volver a abrir su cuenta.',
    };
  }
  return {
    subject: `${input.clinicName}: your account is closed`,
    body:
      `Hello ${input.firstName},\n\n` +
      `Your patient account with ${input.clinicName} is closed. You will get no more emails or text messages from the clinic ` +
      'and your form links no longer work. Your medical records are kept as the law requires, and your appointments have ' +
      'not been cancelled: call the clinic to change them or to open your account again.',
  };
}

async function patientOf(db: Database, instanceId: string, patientId: string) {
  const [patient] = await db
    .select({
      firstName: patients.firstName,
      email: patients.email,
      preferredLanguage: patients.preferredLanguage,
      accountClosedAt: patients.accountClosedAt,
    })
    .from(patients)
    .where(and(eq(patients.instanceId, instanceId), eq(patients.id, patientId), isNull(patients.deletedAt)));
  if (!patient) throw linkNotFound();
  return patient;
}

/**
 * From the intake (identity confirmed), the patient asks to close their account: a confirmation link
 * goes to the email on file, so that someone else holding the phone cannot close it alone.
 */
export async function requestAccountClosure(
  ctx: ServiceContext,
  token: string,
  bearer: string | undefined,
  language: FormLanguage,
): Promise<CloseAccountRequested> {
  return ctx.db.transaction(async (tx) => {
    const link = await lockOpenIntake(tx, token, bearer);
    const patient = await patientOf(tx, link.instanceId, link.patientId);
    if (!patient.email) throw new AppError('CONFLICT', 'noEmailOnFile');
    const [recent] = await tx
      .select({ n: count() })
      .from(patientLinks)
      .where(
        and(
          eq(patientLinks.instanceId, link.instanceId),
          eq(patientLinks.patientId, link.patientId),
          eq(patientLinks.kind, 'closeAccount'),
          gt(patientLinks.createdAt, new Date(Date.now() - 24 * HOUR_MS)),
        ),
      );
    if ((recent?.n ?? 0) >= CLOSE_ACCOUNT_REQUESTS_PER_DAY) throw new AppError('RATE_LIMITED', 'closeAccountTooMany');
    const closeToken = newToken();
    const [closeLink] = await tx
      .insert(patientLinks)
      .values({
        instanceId: link.instanceId,
        patientId: link.patientId,
        kind: 'closeAccount',
        tokenHash: sha256(closeToken),
        language,
        expiresAt: new Date(Date.now() + CLOSE_ACCOUNT_LINK_HOURS * HOUR_MS),
      })
      .returning({ id: patientLinks.id });
    const message = requestEmail(language, {
      firstName: patient.firstName,
      clinicName: await clinicDisplayName(tx, link.instanceId),
      url: publicLink(ctx.config, `/patients/closeaccount/${link.patientId}/${closeToken}`),
    });
    await queueMessage(ctx, tx, {
      instanceId: link.instanceId,
      channel: 'email',
      to: patient.email,
      template: 'close-account',
      // No patientId: like the sign-in code, it must reach a patient who turned care emails off.
      subject: message.subject,
      body: message.body,
    });
    await recordActivity(
      tx,
      patientActivity(ctx, link, 'Patient Profile', 'Created', {
        type: 'patient link',
        id: closeLink!.id,
        description: 'Patient asked to close their account; confirmation emailed',
      }),
    );
    return { sentTo: maskEmail(patient.email), expiresInHours: CLOSE_ACCOUNT_LINK_HOURS };
  });
}

async function findCloseLink(db: Database, patientId: string, token: string, forUpdate = false) {
  const link = await findLink(db, token, forUpdate, ['closeAccount']);
  if (link.patientId !== patientId) throw linkNotFound();
  return link;
}

/** What the emailed page shows before the patient confirms; nothing about the patient but the clinic. */
export async function closeAccountState(ctx: ServiceContext, patientId: string, token: string): Promise<CloseAccountState> {
  const scoped = await enterLinkClinic(ctx, token);
  const link = await findCloseLink(scoped.db, patientId, token);
  const patient = await patientOf(scoped.db, link.instanceId, link.patientId);
  const status = linkStatusOf(link);
  return {
    clinicName: await clinicDisplayName(scoped.db, link.instanceId),
    state: patient.accountClosedAt ? 'closed' : status === 'active' ? 'ready' : 'expired',
    language: link.language ?? patient.preferredLanguage,
  };
}

/**
 * The patient confirms (`closeaccountconfirmation`): the account is closed, the clinic's emails and texts
 * to the patient stop, every open link of the patient closes, staff are told, and a last email confirms
 * it. Appointments are left for staff to handle; the record itself is kept. Confirming twice is harmless.
 */
export async function confirmAccountClosure(ctx: ServiceContext, patientId: string, token: string): Promise<CloseAccountState> {
  const scoped = await enterLinkClinic(ctx, token);
  return scoped.db.transaction(async (tx) => {
    const link = await findCloseLink(tx, patientId, token, true);
    const patient = await patientOf(tx, link.instanceId, link.patientId);
    const name = await clinicDisplayName(tx, link.instanceId);
    const language = link.language ?? patient.preferredLanguage;
    if (patient.accountClosedAt) return { clinicName: name, state: 'closed' as const, language };
    if (linkStatusOf(link) !== 'active') return { clinicName: name, state: 'expired' as const, language };
    const now = new Date();
    await tx
      .update(patients)
      .set({ accountClosedAt: now, enableEmail: false, enableText: false, updatedAt: now })
      .where(and(eq(patients.instanceId, link.instanceId), eq(patients.id, link.patientId)));
    await tx.update(patientLinks).set({ completedAt: now }).where(eq(patientLinks.id, link.id));
    await tx
      .update(patientLinks)
      .set({ revokedAt: now })
      .where(
        and(
          eq(patientLinks.instanceId, link.instanceId),
          eq(patientLinks.patientId, link.patientId),
          ne(patientLinks.id, link.id),
          isNull(patientLinks.completedAt),
          isNull(patientLinks.revokedAt),
          gt(patientLinks.expiresAt, now),
        ),
      );
    await raiseNotification(ctx, tx, {
      instanceId: link.instanceId,
      kind: 'accountClosed',
      patientId: link.patientId,
      appointmentId: null,
    });
    await recordActivity(
      tx,
      patientActivity(ctx, link, 'Patient Profile', 'Updated', {
        type: 'patient',
        id: link.patientId,
        description: 'Patient closed their account from the emailed confirmation link',
      }),
    );
    if (patient.email) {
      const message = closedEmail(language, { firstName: patient.firstName, clinicName: name });
      await queueMessage(ctx, tx, {
        instanceId: link.instanceId,
        channel: 'email',
        to: patient.email,
        template: 'account-closed',
        subject: message.subject,
        body: message.body,
      });
    }
    return { clinicName: name, state: 'closed' as const, language };
  });
}
