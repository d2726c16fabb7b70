import { z } from 'zod';
import { answersSchema, formLanguageSchema, notScoredSchema, renderableFormSchema, scoresSchema } from './forms.js';
import { criticalFindingSchema } from './critical-findings.js';
import { DATE_MDY_PATTERN, idSchema, mdyDateProblem, mdyDateSchema } from './validation.js';

/**
 * Patient links (decision 0016). A link is a random token (256 bits, base64url, 43 characters) stored
 * hashed and scoped to one patient, optionally one appointment, and one form: an outcome instrument
 * (formCode 1..15) or a custom form. The token is the `{id}` segment of the section 2 routes:
 *   /patients/{slug}/{token}/{appointmentId?}      outcome instruments
 *   /customform/{token}/surveryform                custom forms
 * Nothing personal is answered before the patient confirms date of birth and last name; the
 * verification returns a short-lived access token sent as `Authorization: Bearer` on the calls below.
 */

export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const linkTokenSchema = z.string().regex(LINK_TOKEN_PATTERN, 'linkInvalid');

/** Days a link stays usable by default, and the most staff may choose. */
export const LINK_DEFAULT_DAYS = 7;
export const LINK_MAX_DAYS = 30;
/** Minutes an identity verification lasts; each draft save extends it (no time limit on the quiz itself). */
export const LINK_ACCESS_MINUTES = 60;
/** Wrong identity answers before the link locks, and for how long. */
export const LINK_VERIFY_MAX_FAILURES = 5;
export const LINK_LOCK_MINUTES = 15;
/**
 * Wrong answers after which the link stays locked until it expires (staff send a new one): without it,
 * 5 guesses every 15 minutes would allow thousands of date-of-birth guesses over a 30-day link.
 */
export const LINK_VERIFY_FAILURES_BEFORE_CLOSED = 15;

/** URL slug of each outcome form in the section 2 routes. */
export const instrumentSlugs = {
  1: 'sf36',
  2: 'odi',
  3: 'ndi',
  4: 'pdi',
  5: 'hoosjr',
  6: 'koosjr',
  7: 'promisglobal10',
  8: 'vr12',
  9: 'ort',
  10: 'phq2',
  11: 'phq9',
  12: 'gad7',
  13: 'soappr',
  14: 'auditc',
  15: 'cesdr',
} as const satisfies Record<number, string>;
export type InstrumentSlug = (typeof instrumentSlugs)[keyof typeof instrumentSlugs];
export const formCodeSchema = z.number().int().min(1, 'invalid').max(15, 'invalid');

export function instrumentPath(formCode: keyof typeof instrumentSlugs, token: string, appointmentId?: string | null): string {
  return `/patients/${instrumentSlugs[formCode]}/${token}${appointmentId ? `/${appointmentId}` : ''}`;
}
export function customFormPath(token: string): string {
  return `/customform/${token}/surveryform`;
}

export const linkStatuses = ['active', 'completed', 'expired', 'revoked', 'locked'] as const;
export type LinkStatus = (typeof linkStatuses)[number];

// ---- staff side (signed in) ------------------------------------------------------------------

export const createPatientLinkSchema = z
  .object({
    patientId: idSchema,
    appointmentId: idSchema.nullish(),
    formCode: formCodeSchema.nullish(),
    customFormId: idSchema.nullish(),
    expiresInDays: z.number().int().min(1, 'invalid').max(LINK_MAX_DAYS, 'invalid').default(LINK_DEFAULT_DAYS),
    /** 'email' also queues the link to the patient's email (outbox); 'none' only returns it to copy. */
    send: z.enum(['none', 'email']).default('none'),
    language: formLanguageSchema.optional(),
  })
  .refine((value) => Boolean(value.formCode) !== Boolean(value.customFormId), {
    message: 'formRequired',
    path: ['formCode'],
  });
export type CreatePatientLink = z.input<typeof createPatientLinkSchema>;

export const patientLinkSchema = z.object({
  id: idSchema,
  patientId: idSchema,
  appointmentId: idSchema.nullable(),
  formCode: z.number().int().nullable(),
  customFormId: idSchema.nullable(),
  formTitle: z.string(),
  status: z.enum(linkStatuses),
  expiresAt: z.string(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  responseId: idSchema.nullable(),
});
export type PatientLink = z.infer<typeof patientLinkSchema>;

/** Only the creation answer carries the token and URL: afterwards nobody can read it back. */
export const createdPatientLinkSchema = patientLinkSchema.extend({ token: z.string(), url: z.string() });
export type CreatedPatientLink = z.infer<typeof createdPatientLinkSchema>;

// ---- patient side (open) ---------------------------------------------------------------------

/** What anyone holding the token may learn before verifying: nothing about the patient. */
export const linkStatusResponseSchema = z.object({
  status: z.enum(linkStatuses),
  clinicName: z.string(),
  formTitle: z.object({ en: z.string(), es: z.string().optional() }),
  languages: z.array(formLanguageSchema),
  suggestedLanguage: formLanguageSchema,
  /**
   * The clinic cannot give this form (its licensed wording is not imported, decision 0061): the page
   * tells the patient the clinic will contact them, and the link takes no answers.
   */
  formUnavailable: z.literal(true).optional(),
});
export type LinkStatusResponse = z.infer<typeof linkStatusResponseSchema>;

export const verifyLinkSchema = z.object({
  lastName: z.string({ error: 'required' }).trim().min(1, 'required').max(100, 'tooLong'),
  /** MM/DD/YYYY as everywhere in the product. */
  dateOfBirth: mdyDateSchema(),
});
export type VerifyLink = z.infer<typeof verifyLinkSchema>;

/** The identity check's alternative (decision 0035): a 6-digit code sent to the email on file. */
export const LINK_EMAIL_CODE_MINUTES = 10;
export const LINK_EMAIL_CODE_RESEND_SECONDS = 60;
export const LINK_EMAIL_CODE_MAX_SENDS = 5;
export const LINK_EMAIL_CODE_MAX_ATTEMPTS = 5;
export const emailCodeSentSchema = z.object({
  /** The address the code went to, masked (a***@example.com): enough to recognise, not to learn. */
  sentTo: z.string(),
  expiresInMinutes: z.number().int(),
});
export type EmailCodeSent = z.infer<typeof emailCodeSentSchema>;
export const verifyEmailCodeSchema = z.object({
  code: z
    .string({ error: 'required' })
    .max(20, 'codeInvalid')
    .trim()
    .regex(/^\d{6}$/, 'codeInvalid'),
});
export const verifyLinkResponseSchema = z.object({ accessToken: z.string(), expiresAt: z.string() });

/**
 * "Request portal access" (issue #12): the identity check did not match, so the person asks the clinic
 * to help. It reaches staff as a notification; the answer never says anything about the record.
 */
export const ACCESS_REQUESTS_PER_LINK = 3;
export const accessRequestSchema = z.object({
  name: z.string({ error: 'required' }).trim().min(1, 'required').max(120, 'tooLong'),
  /** MM/DD/YYYY as the person knows it; optional, staff compare it with the record. */
  dateOfBirth: z
    .string()
    .max(10, 'dateInvalid')
    .trim()
    .refine((value) => value === '' || DATE_MDY_PATTERN.test(value), 'dateInvalid')
    .refine((value) => value === '' || mdyDateProblem(value) !== 'dateNotReal', 'dateNotReal')
    .optional(),
  /** A phone number or email address to call back on. */
  contact: z.string({ error: 'required' }).trim().min(3, 'required').max(120, 'tooLong'),
  message: z.string().trim().max(500, 'tooLong').optional(),
});
export type AccessRequest = z.infer<typeof accessRequestSchema>;
export const accessRequestSentSchema = z.object({ received: z.literal(true) });
/** What staff see on the patient's dashboard: what the person typed, to compare with the record. */
export const staffAccessRequestSchema = z.object({
  id: idSchema,
  createdAt: z.string(),
  appointmentId: idSchema.nullable(),
  name: z.string(),
  dateOfBirth: z.string().nullable(),
  contact: z.string(),
  message: z.string().nullable(),
  handledAt: z.string().nullable(),
  handledByName: z.string().nullable(),
});
export type StaffAccessRequest = z.infer<typeof staffAccessRequestSchema>;

export const draftSchema = z.object({
  answers: answersSchema,
  /** Index into the visible questions, or the review page (= number of visible questions). */
  position: z.number().int().min(0).max(400),
  language: formLanguageSchema,
});
export type Draft = z.infer<typeof draftSchema>;

export const linkFormResponseSchema = z.object({
  patientFirstName: z.string(),
  clinicName: z.string(),
  form: renderableFormSchema,
  draft: draftSchema.nullable(),
});
export type LinkForm = z.infer<typeof linkFormResponseSchema>;

export const submitLinkSchema = z.object({
  /** Chosen by the browser once per attempt (UUID); a retry with the same key returns the first result. */
  idempotencyKey: idSchema,
  answers: answersSchema,
  language: formLanguageSchema,
});
export type SubmitLink = z.infer<typeof submitLinkSchema>;

export const FORM_RESPONSE_ADDED = 'Form Response added successfully';
export const submitLinkResponseSchema = z.object({
  message: z.string(),
  responseId: idSchema,
  /** The answers include a critical item (decision 0058): the patient is shown crisis resources at once. */
  crisisResources: z.boolean(),
});

// ---- responses for staff -----------------------------------------------------------------------

export const formResponseSummarySchema = z.object({
  id: idSchema,
  patientId: idSchema,
  appointmentId: idSchema.nullable(),
  kind: z.enum(['instrument', 'custom']),
  formCode: z.number().int().nullable(),
  customFormId: idSchema.nullable(),
  formTitle: z.string(),
  version: z.string(),
  language: formLanguageSchema,
  headlineScore: z.number().nullable(),
  band: z.number().int().nullable(),
  /** Shown without any score, and why (decisions 0061 and 0067). */
  notScored: notScoredSchema,
  submittedAt: z.string(),
  /** Safety items answered at or above their threshold (decision 0058); red until acknowledged. */
  criticalFindings: z.array(criticalFindingSchema),
});
export type FormResponseSummary = z.infer<typeof formResponseSummarySchema>;

export const formResponseDetailSchema = formResponseSummarySchema.extend({
  patientName: z.string(),
  /** The form exactly as this response answered it (its version). */
  form: renderableFormSchema,
  answers: answersSchema,
  scores: scoresSchema,
  previous: z
    .object({
      id: idSchema,
      submittedAt: z.string(),
      scores: scoresSchema,
      headlineScore: z.number().nullable(),
      /** headline now minus headline then (sign as measured; `better` tells the direction). */
      change: z.number().nullable(),
      better: z.boolean().nullable(),
      /** null where the reference gives no minimal clinically important difference. */
      meetsMcid: z.boolean().nullable(),
    })
    .nullable(),
});
export type FormResponseDetail = z.infer<typeof formResponseDetailSchema>;
