import { and, eq } from 'drizzle-orm';
import { formProblems } from '@pathwell/contracts/form-logic';
import type { Answers, RenderableForm } from '@pathwell/contracts/forms';
import type { Draft, LinkForm, SubmitLink } from '@pathwell/contracts/patient-links';
import { FORM_RESPONSE_ADDED } from '@pathwell/contracts/patient-links';
import { responseHasFindings } from '../critical-findings/critical-findings.service';
import type { ServiceContext } from '../../context';
import { formResponses, intakeEntries, patientLinks } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import {
  accessExpiry,
  findLinkPatient,
  gone,
  linkNotFound,
  requireAccess,
  requireOpen,
  type LinkRow,
} from '../patient-contact/link-access.service';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';
import { loadForm, requireLanguage, storeSubmittedResponse } from '../patient-links/link-forms.service';
import { findIntakeLink, lockOpenIntake, needsAttention, requireReadable } from './intake-link';
import { completeIfDone, planForms } from './intake-progress';

/* The forms inside the intake (history, check-in questions, PROs): opened, drafted and submitted as a form link's are. */

function formOf(link: LinkRow, key: string) {
  const form = planForms(link.intakePlan!).find((candidate) => candidate.key === key.toLowerCase());
  if (!form) throw linkNotFound();
  return form;
}

export async function intakeForm(ctx: ServiceContext, token: string, bearer: string | undefined, key: string): Promise<LinkForm> {
  return ctx.db.transaction(async (tx) => {
    const link = await findIntakeLink(tx, token);
    requireAccess(link, bearer);
    requireReadable(link);
    const planned = formOf(link, key);
    const patient = await findLinkPatient(tx, link);
    const { form } = await loadForm(tx, {
      instanceId: link.instanceId,
      formCode: planned.formCode,
      customFormId: planned.customFormId,
    });
    const [entry] = await tx
      .select()
      .from(intakeEntries)
      .where(
        and(eq(intakeEntries.linkId, link.id), eq(intakeEntries.step, planned.step), eq(intakeEntries.formKey, planned.key)),
      );
    if (!link.completedAt) {
      await tx.update(patientLinks).set({ accessExpiresAt: accessExpiry() }).where(eq(patientLinks.id, link.id));
    }
    return {
      patientFirstName: patient.firstName,
      clinicName: await clinicDisplayName(tx, link.instanceId),
      form,
      draft: entry ? { answers: entry.data as Answers, position: entry.position, language: entry.language } : null,
    };
  });
}

export async function saveIntakeFormDraft(
  ctx: ServiceContext,
  token: string,
  bearer: string | undefined,
  key: string,
  input: Draft,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const link = await lockOpenIntake(tx, token, bearer);
    const planned = formOf(link, key);
    const [entry] = await tx
      .select({ completedAt: intakeEntries.completedAt })
      .from(intakeEntries)
      .where(
        and(eq(intakeEntries.linkId, link.id), eq(intakeEntries.step, planned.step), eq(intakeEntries.formKey, planned.key)),
      );
    if (entry?.completedAt) return;
    requireOpen(link);
    const { form } = await loadForm(tx, {
      instanceId: link.instanceId,
      formCode: planned.formCode,
      customFormId: planned.customFormId,
    });
    requireLanguage(form, input.language);
    const values = { data: input.answers, position: input.position, language: input.language, updatedAt: new Date() };
    await tx
      .insert(intakeEntries)
      .values({ linkId: link.id, instanceId: link.instanceId, step: planned.step, formKey: planned.key, ...values })
      .onConflictDoUpdate({ target: [intakeEntries.linkId, intakeEntries.step, intakeEntries.formKey], set: values });
    await tx.update(patientLinks).set({ accessExpiresAt: accessExpiry() }).where(eq(patientLinks.id, link.id));
  });
}

/** As a form link's submission (decision 0016): scored on the server, once per idempotency key. */
export async function submitIntakeForm(
  ctx: ServiceContext,
  token: string,
  bearer: string | undefined,
  key: string,
  input: SubmitLink,
): Promise<{ replay: boolean; body: { message: string; responseId: string; crisisResources: boolean } }> {
  const answered = (responseId: string, replay: boolean, crisisResources: boolean) => ({
    replay,
    body: { message: FORM_RESPONSE_ADDED, responseId, crisisResources },
  });
  return ctx.db.transaction(async (tx) => {
    const link = await lockOpenIntake(tx, token, bearer);
    const planned = formOf(link, key);
    const [earlier] = await tx
      .select({ id: formResponses.id, linkId: formResponses.linkId })
      .from(formResponses)
      .where(and(eq(formResponses.instanceId, link.instanceId), eq(formResponses.idempotencyKey, input.idempotencyKey)));
    if (earlier) {
      if (earlier.linkId === link.id)
        return answered(earlier.id, true, await responseHasFindings(tx, link.instanceId, earlier.id));
      throw new AppError('CONFLICT', 'submissionKeyUsed');
    }
    const [entry] = await tx
      .select()
      .from(intakeEntries)
      .where(
        and(eq(intakeEntries.linkId, link.id), eq(intakeEntries.step, planned.step), eq(intakeEntries.formKey, planned.key)),
      );
    if (entry?.completedAt) throw gone('completed');
    requireOpen(link);
    const { form, customFormVersionId } = await loadForm(tx, {
      instanceId: link.instanceId,
      formCode: planned.formCode,
      customFormId: planned.customFormId,
    });
    requireLanguage(form, input.language);
    const problems = formProblems(form as RenderableForm, input.answers);
    if (Object.keys(problems).length > 0) throw needsAttention(problems);
    const stored = await storeSubmittedResponse(ctx, tx, {
      link,
      form,
      formCode: planned.formCode,
      customFormVersionId,
      input,
      via: 'in the intake',
    });
    // The link row is locked, so only another link's request can have taken this key meanwhile.
    if (!stored) throw new AppError('CONFLICT', 'submissionKeyUsed');
    const values = {
      data: {},
      position: 0,
      language: input.language,
      responseId: stored.id,
      completedAt: new Date(),
      updatedAt: new Date(),
    };
    await tx
      .insert(intakeEntries)
      .values({ linkId: link.id, instanceId: link.instanceId, step: planned.step, formKey: planned.key, ...values })
      .onConflictDoUpdate({ target: [intakeEntries.linkId, intakeEntries.step, intakeEntries.formKey], set: values });
    await completeIfDone(ctx, tx, link);
    return answered(stored.id, false, stored.crisisResources);
  });
}
