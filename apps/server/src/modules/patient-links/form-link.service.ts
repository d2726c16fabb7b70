import { and, eq, sql } from 'drizzle-orm';
import { formLanguages } from '@pathwell/contracts/forms';
import { INTAKE_LINK_TITLE } from '@pathwell/contracts/intake';
import { CONSENT_LINK_TITLE } from '@pathwell/contracts/consent-links';
import { formProblems, keepVisibleAnswers } from '@pathwell/contracts/form-logic';
import type { ValidationMessageKey } from '@pathwell/contracts/messages';
import {
  FORM_RESPONSE_ADDED,
  type Draft,
  type LinkForm,
  type LinkStatusResponse,
  type SubmitLink,
} from '@pathwell/contracts/patient-links';
import type { ServiceContext } from '../../context';
import { formDrafts, formResponses, patientLinks } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { responseHasFindings } from '../critical-findings/critical-findings.service';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';
import {
  accessExpiry,
  findLink,
  findLinkPatient,
  gone,
  identityStatus,
  linkNotFound,
  requireAccess,
  requireOpen,
} from '../patient-contact/link-access.service';
import { loadForm, requireAvailable, requireLanguage, storeSubmittedResponse } from './link-forms.service';
import { announce } from '../../lib/domain-events';

/* A form link as the patient uses it after the identity check: its status page, the form, a draft, the submission. */

export async function linkStatus(ctx: ServiceContext, token: string): Promise<LinkStatusResponse> {
  const link = await findLink(ctx.db, token);
  await findLinkPatient(ctx.db, link);
  const loaded =
    link.kind === 'intake'
      ? { languages: [...formLanguages], title: INTAKE_LINK_TITLE, available: true }
      : link.kind === 'consent'
        ? { languages: [...formLanguages], title: CONSENT_LINK_TITLE, available: true }
        : await loadForm(ctx.db, link).then(({ form, title, available }) => ({ languages: form.languages, title, available }));
  const { languages, title } = loaded;
  return {
    status: await identityStatus(ctx.db, link),
    clinicName: await clinicDisplayName(ctx.db, link.instanceId),
    formTitle: title.es ? { en: title.en, es: title.es } : { en: title.en },
    languages,
    suggestedLanguage: link.language ?? 'en',
    // Before the identity check on purpose: the page says the clinic will call, and asks for nothing.
    ...(loaded.available ? {} : { formUnavailable: true }),
  };
}

export async function linkForm(ctx: ServiceContext, token: string, bearer: string | undefined): Promise<LinkForm> {
  return ctx.db.transaction(async (tx) => {
    const link = await findLink(tx, token);
    if (link.kind !== 'form') throw linkNotFound();
    requireAccess(link, bearer);
    requireOpen(link);
    const patient = await findLinkPatient(tx, link);
    const loaded = await loadForm(tx, link);
    requireAvailable(loaded);
    const { form } = loaded;
    await tx.update(patientLinks).set({ accessExpiresAt: accessExpiry() }).where(eq(patientLinks.id, link.id));
    const [draft] = await tx.select().from(formDrafts).where(eq(formDrafts.linkId, link.id));
    return {
      patientFirstName: patient.firstName,
      clinicName: await clinicDisplayName(tx, link.instanceId),
      form,
      draft: draft ? { answers: draft.answers, position: draft.position, language: draft.language } : null,
    };
  });
}

export async function saveDraft(ctx: ServiceContext, token: string, bearer: string | undefined, input: Draft): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const link = await findLink(tx, token, true);
    if (link.kind !== 'form') throw linkNotFound();
    requireAccess(link, bearer);
    requireOpen(link);
    const loaded = await loadForm(tx, link);
    requireAvailable(loaded);
    const { form } = loaded;
    requireLanguage(form, input.language);
    const answers = keepVisibleAnswers(form, input.answers);
    const values = { answers, position: input.position, language: input.language, updatedAt: new Date() };
    await tx
      .insert(formDrafts)
      .values({ linkId: link.id, instanceId: link.instanceId, ...values })
      .onConflictDoUpdate({ target: formDrafts.linkId, set: values });
    await tx.update(patientLinks).set({ accessExpiresAt: accessExpiry() }).where(eq(patientLinks.id, link.id));
  });
}

export async function submitLink(
  ctx: ServiceContext,
  token: string,
  bearer: string | undefined,
  input: SubmitLink,
): Promise<{ replay: boolean; body: { message: string; responseId: string; crisisResources: boolean } }> {
  const answered = (responseId: string, replay: boolean, crisisResources: boolean) => ({
    replay,
    body: { message: FORM_RESPONSE_ADDED, responseId, crisisResources },
  });
  return ctx.db.transaction(async (tx) => {
    const link = await findLink(tx, token, true);
    if (link.kind !== 'form') throw linkNotFound();
    requireAccess(link, bearer);
    const replayed = async (responseId: string) =>
      answered(responseId, true, await responseHasFindings(tx, link.instanceId, responseId));
    const previous = async () => {
      const [row] = await tx
        .select({ id: formResponses.id, linkId: formResponses.linkId })
        .from(formResponses)
        .where(and(eq(formResponses.instanceId, link.instanceId), eq(formResponses.idempotencyKey, input.idempotencyKey)));
      return row;
    };
    const earlier = await previous();
    if (earlier) {
      if (earlier.linkId === link.id) return replayed(earlier.id);
      throw new AppError('CONFLICT', 'submissionKeyUsed');
    }
    requireOpen(link);
    const loaded = await loadForm(tx, link);
    requireAvailable(loaded);
    const { form, customFormVersionId } = loaded;
    requireLanguage(form, input.language);
    const problems = formProblems(form, input.answers);
    if (Object.keys(problems).length > 0) {
      throw new AppError('VALIDATION', 'answersNeedAttention', {
        fields: problems as Record<string, ValidationMessageKey>,
      });
    }
    const stored = await storeSubmittedResponse(ctx, tx, {
      link,
      form,
      formCode: link.formCode,
      customFormVersionId,
      input,
      via: 'through a link',
    });
    if (!stored) {
      // Another request with the same key won the race: answer as the retry it is.
      const winner = await previous();
      if (winner?.linkId === link.id) return replayed(winner.id);
      throw gone('completed');
    }
    await tx
      .update(patientLinks)
      .set({ completedAt: sql`now()` })
      .where(eq(patientLinks.id, link.id));
    await tx.delete(formDrafts).where(eq(formDrafts.linkId, link.id));
    await announce(ctx, tx, 'patientLinkCompleted', {
      linkId: link.id,
      instanceId: link.instanceId,
      patientId: link.patientId,
      appointmentId: link.appointmentId,
      kind: 'form',
    });
    return answered(stored.id, false, stored.crisisResources);
  });
}
