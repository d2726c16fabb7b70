import { z } from 'zod';
import { formLanguageSchema, localizedTextSchema, signatureAnswerSchema } from './forms.js';
import { consentSchema } from './intake.js';
import { idSchema } from './validation.js';

/**
 * Consents signed on their own, outside a whole intake (decision 0036): the injection ("shot") consent
 * on /patients/digitalconsentform/{token} when the clinic signs it digitally, and an expired consent
 * signed again on /patients/resignconsent/{token}. The patient passes the same identity check as on
 * every link; each signature is stored with the exact text, language and version, as in the intake.
 */
export const CONSENT_LINK_DAYS = 7;
export const CONSENT_LINK_TITLE = { en: 'Consent to sign', es: 'Consentimiento para firmar' } as const;

export const signableConsentKinds = ['newPatientAgreement', 'shotConsent'] as const;
export type SignableConsentKind = (typeof signableConsentKinds)[number];

export const consentLinkChannels = ['email', 'sms'] as const;
export const createConsentLinkSchema = z.object({
  patientId: idSchema,
  appointmentId: idSchema.optional(),
  kinds: z.array(z.enum(signableConsentKinds, 'invalid')).min(1, 'required').max(signableConsentKinds.length, 'tooLong'),
  send: z.array(z.enum(consentLinkChannels, 'invalid')).max(2).default([]),
  language: formLanguageSchema.optional(),
});
export type CreateConsentLink = z.input<typeof createConsentLinkSchema>;

export const createdConsentLinkSchema = z.object({
  linkId: idSchema,
  /** /patients/digitalconsentform/{token} when it holds the injection consent, else /patients/resignconsent/{token}. */
  url: z.string(),
  expiresAt: z.string(),
  sent: z.array(z.object({ channel: z.enum(consentLinkChannels), status: z.string() })),
});
export type CreatedConsentLink = z.infer<typeof createdConsentLinkSchema>;

export const consentDocumentSchema = z.object({
  kind: z.enum(signableConsentKinds),
  title: localizedTextSchema,
  text: localizedTextSchema,
  version: z.string(),
  /** The clinic's own PDF of the document, when it uploaded one (read beside the text). */
  fileUrl: z.string().nullable(),
  signed: z.boolean(),
});
export type ConsentDocument = z.infer<typeof consentDocumentSchema>;

export const consentLinkViewSchema = z.object({
  patientFirstName: z.string(),
  clinicName: z.string(),
  documents: z.array(consentDocumentSchema),
  completedAt: z.string().nullable(),
});
export type ConsentLinkView = z.infer<typeof consentLinkViewSchema>;

export const signConsentSchema = z.object({
  kind: z.enum(signableConsentKinds, 'invalid'),
  signature: signatureAnswerSchema,
  language: formLanguageSchema,
});
export type SignConsent = z.infer<typeof signConsentSchema>;
export const signedConsentSchema = z.object({ signed: z.boolean(), completed: z.boolean() });

/** The consents panel of the patient dashboard: the latest of each kind, and what staff may send. */
export const patientConsentsSchema = z.object({
  latest: z.array(consentSchema),
  /** The clinic signs injection consents digitally (`enableShotConsent` and `enableDigitalShotConsent`). */
  shotConsentEnabled: z.boolean(),
  /** Consent links sent and not yet finished, newest first. */
  pending: z.array(
    z.object({ linkId: idSchema, kinds: z.array(z.enum(signableConsentKinds)), createdAt: z.string(), expiresAt: z.string() }),
  ),
});
export type PatientConsents = z.infer<typeof patientConsentsSchema>;
