import { and, desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type FormLanguage, type LocalizedText } from '@pathwell/contracts/forms';
import { INTAKE_LINK_TITLE } from '@pathwell/contracts/intake';
import { PAIN_JOURNAL_LINK_TITLE } from '@pathwell/contracts/pain-journal';
import { customFormPath, instrumentPath, type CreatedPatientLink, type PatientLink } from '@pathwell/contracts/patient-links';
import { isFormCode } from '@pathwell/instruments';
import { type SignedInContext } from '../../context';
import { customForms, formDrafts, formResponses, patientLinks } from '../../db/schema';
import { AppError, fieldError, notFound } from '../../lib/app-error';
import { newToken, sha256 } from '../../lib/secrets';
import { requireFormsWorded } from '../form-responses/wording-availability.service';
import { findVisibleAppointment } from '../appointments/appointments.service';
import { findVisiblePatient } from '../patients/patient-visibility.service';
import { clinicTimeZone, isOn, readSettings } from '../settings/settings.service';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { queueMessage } from '../outbox/outbox.service';
import { linkEmail } from './patient-links.emails';
import { publicLink } from '../../lib/public-url';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';
import { LINK_TARGET, linkStatusOf, type LinkRow } from '../patient-contact/link-access.service';
import { instrumentTitle, loadForm, titleIn } from './link-forms.service';

/* Form links as staff make, list and revoke them (the patient's side is form-link.service.ts). */

type CreateInput = {
  patientId: string;
  appointmentId?: string | null;
  formCode?: number | null;
  customFormId?: string | null;
  expiresInDays: number;
  send: 'none' | 'email';
  language?: FormLanguage;
};

const DAY_MS = 86_400_000;

// ---- staff side ------------------------------------------------------------------------------------

const activity = (ctx: SignedInContext, action: 'Created' | 'Sent' | 'Deleted', targetId: string, description: string) =>
  staffActivity(ctx, 'Form Submission', action, { type: LINK_TARGET, id: targetId, description: description });

function toPatientLink(row: LinkRow, formTitle: string, responseId: string | null, now = new Date()): PatientLink {
  return {
    id: row.id,
    patientId: row.patientId,
    appointmentId: row.appointmentId,
    formCode: row.formCode,
    customFormId: row.customFormId,
    formTitle,
    status: linkStatusOf(row, now),
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    responseId,
  };
}

export async function createLink(ctx: SignedInContext, log: FastifyBaseLogger, input: CreateInput): Promise<CreatedPatientLink> {
  const token = newToken();
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, input.patientId);
    // A patient who closed their account asked for nothing more to be sent (decision 0036).
    if (patient.accountClosedAt) throw new AppError('CONFLICT', 'accountClosed');
    if (input.appointmentId) {
      const appointment = await findVisibleAppointment(tx, ctx, input.appointmentId);
      if (appointment.patientId !== patient.id) throw notFound('appointmentNotFound');
    }
    let title: LocalizedText;
    if (input.customFormId) {
      const [form] = await tx
        .select({ id: customForms.id, archivedAt: customForms.archivedAt })
        .from(customForms)
        .where(and(eq(customForms.id, input.customFormId), eq(customForms.instanceId, ctx.instanceId)));
      if (!form) throw notFound('customFormNotFound');
      if (form.archivedAt) throw fieldError('customFormId', 'invalid', 'formArchived');
      title = (await loadForm(tx, { instanceId: ctx.instanceId, formCode: null, customFormId: form.id })).title;
    } else {
      title = instrumentTitle(input.formCode!);
      await requireFormsWorded(tx, ctx.instanceId, [input.formCode], 'formCode');
    }
    if (input.send === 'email' && !patient.email) {
      throw fieldError('send', 'patientEmailMissing');
    }
    // The patient's choice not to get email, and the clinic's switch for email, both hold here too.
    if (input.send === 'email' && !patient.enableEmail) {
      throw fieldError('send', 'patientEmailOff');
    }
    if (input.send === 'email' && !isOn(await readSettings(tx, ctx.instanceId), 'enableEmail')) {
      throw fieldError('send', 'clinicEmailOff');
    }
    const language = input.language ?? patient.preferredLanguage;
    const [row] = await tx
      .insert(patientLinks)
      .values({
        instanceId: ctx.instanceId,
        patientId: patient.id,
        appointmentId: input.appointmentId ?? null,
        formCode: input.customFormId ? null : input.formCode!,
        customFormId: input.customFormId ?? null,
        tokenHash: sha256(token),
        language,
        expiresAt: new Date(Date.now() + input.expiresInDays * DAY_MS),
        createdBy: ctx.actor.userId,
      })
      .returning();
    const link = row!;
    const path =
      link.formCode !== null && isFormCode(link.formCode)
        ? instrumentPath(link.formCode, token, link.appointmentId)
        : customFormPath(token);
    const url = publicLink(ctx.config, path);
    await recordActivity(tx, activity(ctx, 'Created', link.id, `Link for patient ${patient.id}: ${title.en}`));
    if (input.send === 'email') {
      const content = linkEmail(language, {
        firstName: patient.firstName,
        clinicName: await clinicDisplayName(tx, ctx.instanceId),
        formTitle: titleIn(title, language),
        url,
        expiresAt: link.expiresAt,
        timeZone: await clinicTimeZone(tx, ctx.instanceId),
      });
      await queueMessage(ctx, tx, {
        instanceId: ctx.instanceId,
        channel: 'email',
        to: patient.email!,
        template: 'patient-link',
        patientId: patient.id,
        subject: content.subject,
        body: content.body,
      });
      await recordActivity(tx, activity(ctx, 'Sent', link.id, `Emailed the link to patient ${patient.id}`));
    }
    return { ...toPatientLink(link, title.en, null), token, url };
  });
}

export async function listLinks(ctx: SignedInContext, patientId: string): Promise<PatientLink[]> {
  await findVisiblePatient(ctx, ctx.db, patientId);
  const rows = await ctx.db
    .select({ link: patientLinks, responseId: formResponses.id, customTitle: customForms.title })
    .from(patientLinks)
    .leftJoin(
      formResponses,
      and(
        eq(formResponses.linkId, patientLinks.id),
        eq(formResponses.instanceId, patientLinks.instanceId),
        eq(patientLinks.kind, 'form'),
      ),
    )
    .leftJoin(customForms, eq(customForms.id, patientLinks.customFormId))
    .where(and(eq(patientLinks.instanceId, ctx.instanceId), eq(patientLinks.patientId, patientId)))
    .orderBy(desc(patientLinks.createdAt), desc(patientLinks.id));
  const now = new Date();
  return rows.map(({ link, responseId, customTitle }) =>
    toPatientLink(
      link,
      link.kind === 'intake'
        ? INTAKE_LINK_TITLE.en
        : link.kind === 'painJournal'
          ? PAIN_JOURNAL_LINK_TITLE.en
          : link.formCode !== null
            ? instrumentTitle(link.formCode).en
            : (customTitle ?? ''),
      responseId,
      now,
    ),
  );
}

/** Revoking a finished link changes nothing: its response stays. */
export async function revokeLink(ctx: SignedInContext, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [link] = await tx
      .select()
      .from(patientLinks)
      .where(and(eq(patientLinks.id, id), eq(patientLinks.instanceId, ctx.instanceId)))
      .for('update');
    if (!link) throw notFound('linkNotFound');
    await findVisiblePatient(ctx, tx, link.patientId);
    if (link.completedAt || link.revokedAt) return;
    await tx
      .update(patientLinks)
      .set({ revokedAt: new Date(), accessTokenHash: null, accessExpiresAt: null })
      .where(eq(patientLinks.id, link.id));
    await tx.delete(formDrafts).where(eq(formDrafts.linkId, link.id));
    await recordActivity(tx, activity(ctx, 'Deleted', link.id, `Revoked the link of patient ${link.patientId}`));
  });
}
