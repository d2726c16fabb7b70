import { z } from 'zod';
import { formCodeSchema, formResponseSummarySchema } from './patient-links.js';
import { formLanguageSchema } from './forms.js';
import { idSchema } from './validation.js';

/**
 * What staff read about questionnaire results (decision 0020): a patient's responses with their score
 * series, the outcome forms assigned to an appointment, the instrument catalogue with each clinic's
 * licensed wording, and the FHIR R4 export. The response summary and detail live in patient-links.ts.
 */

/** The most responses one patient's list returns (newest first); a patient rarely has more than a few dozen. */
export const FORM_RESPONSE_LIST_LIMIT = 500;

export const formResponseIdParamsSchema = z.object({ id: idSchema });

export const scorePointSchema = z.object({ responseId: idSchema, submittedAt: z.string(), score: z.number() });
export type ScorePoint = z.infer<typeof scorePointSchema>;

/** One form's headline scores over time, oldest first, for the dashboard's chart. */
export const formScoreSeriesSchema = z.object({
  formCode: z.number().int().nullable(),
  customFormId: idSchema.nullable(),
  title: z.string(),
  /** The headline's maximum (section 9 / decision 0017); null for custom forms. */
  maximum: z.number().nullable(),
  /** null where the form's direction is unknown (custom forms). */
  higherIsBetter: z.boolean().nullable(),
  points: z.array(scorePointSchema),
});
export type FormScoreSeries = z.infer<typeof formScoreSeriesSchema>;

export const patientFormResponsesSchema = z.object({
  /** Newest first. */
  data: z.array(formResponseSummarySchema),
  series: z.array(formScoreSeriesSchema),
});
export type PatientFormResponses = z.infer<typeof patientFormResponsesSchema>;

// ---- assigned PROs of an appointment ------------------------------------------------------------

export const assignedProQuerySchema = z.object({ appointmentId: idSchema });

export const assignedProSchema = z.object({
  appointmentId: idSchema,
  formCodes: z.array(z.number().int()),
  /** true: nobody chose for this appointment, so the clinic's applicable forms apply. */
  isDefault: z.boolean(),
});
export type AssignedPro = z.infer<typeof assignedProSchema>;

export const updateAssignedProSchema = z.object({
  appointmentId: idSchema,
  /** Outcome forms 1..15, each once; an empty list means "no questionnaires for this visit". */
  formCodes: z
    .array(formCodeSchema, { error: 'formIdsInvalid' })
    .max(15, 'formIdsInvalid')
    .refine((codes) => new Set(codes).size === codes.length, 'formIdsInvalid'),
});
export type UpdateAssignedPro = z.infer<typeof updateAssignedProSchema>;

export const unfilledFormSchema = z.object({ formCode: z.number().int(), title: z.string(), slug: z.string() });
export const unfilledFormsSchema = z.array(unfilledFormSchema);
export type UnfilledForm = z.infer<typeof unfilledFormSchema>;

export const appointmentIdParamsSchema = z.object({ id: idSchema });

// ---- instrument catalogue and licensed wording ----------------------------------------------------

export const instrumentParamsSchema = z.object({
  formCode: z.coerce.number({ error: 'invalid' }).pipe(formCodeSchema),
});

export const instrumentSummarySchema = z.object({
  formCode: z.number().int(),
  slug: z.string(),
  name: z.string(),
  version: z.string(),
  /** 'licensed': shipped with neutral labels; the clinic may import the licensed wording. */
  wording: z.enum(['shipped', 'licensed']),
  languages: z.array(formLanguageSchema),
  importedForClinic: z.boolean(),
  importedAt: z.string().nullable(),
});
export type InstrumentSummary = z.infer<typeof instrumentSummarySchema>;
export const instrumentListSchema = z.object({ data: z.array(instrumentSummarySchema) });

/**
 * Which outcome forms this clinic can give to patients, for every picker (issue #24 §1, decision
 * 0061): a licensed form without the clinic's imported wording is listed as not available.
 */
export const instrumentAvailabilitySchema = z.object({
  data: z.array(z.object({ formCode: z.number().int(), available: z.boolean(), languages: z.array(formLanguageSchema) })),
});
export type InstrumentAvailability = z.infer<typeof instrumentAvailabilitySchema>['data'][number];

// ---- FHIR R4 (allow-lists of the elements Pathwell writes) ---------------------------------------

export const FHIR_CONTENT_TYPE = 'application/fhir+json';

const codingSchema = z.object({ system: z.string().optional(), code: z.string(), display: z.string().optional() });
const referenceSchema = z.object({ reference: z.string(), display: z.string().optional() });
const codeableConceptSchema = z.object({ coding: z.array(codingSchema), text: z.string().optional() });

export const fhirQuestionnaireItemSchema = z.object({
  linkId: z.string(),
  prefix: z.string().optional(),
  text: z.string().optional(),
  type: z.enum(['display', 'boolean', 'decimal', 'integer', 'date', 'string', 'text', 'choice', 'attachment']),
  required: z.boolean().optional(),
  repeats: z.boolean().optional(),
  answerOption: z.array(z.object({ valueCoding: codingSchema })).optional(),
});

export const fhirQuestionnaireSchema = z.object({
  resourceType: z.literal('Questionnaire'),
  id: z.string(),
  url: z.string(),
  version: z.string(),
  name: z.string(),
  title: z.string(),
  status: z.literal('active'),
  subjectType: z.array(z.string()),
  language: z.string().optional(),
  copyright: z.string().optional(),
  item: z.array(fhirQuestionnaireItemSchema),
});
export type FhirQuestionnaire = z.infer<typeof fhirQuestionnaireSchema>;

const fhirAnswerSchema = z.object({
  valueCoding: codingSchema.optional(),
  valueString: z.string().optional(),
  valueInteger: z.number().int().optional(),
  valueDecimal: z.number().optional(),
  valueBoolean: z.boolean().optional(),
  valueDate: z.string().optional(),
  valueAttachment: z.object({ contentType: z.string(), data: z.string(), creation: z.string().optional() }).optional(),
});

export const fhirQuestionnaireResponseSchema = z.object({
  resourceType: z.literal('QuestionnaireResponse'),
  id: z.string(),
  questionnaire: z.string(),
  status: z.literal('completed'),
  subject: referenceSchema,
  authored: z.string(),
  language: z.string().optional(),
  item: z.array(z.object({ linkId: z.string(), text: z.string().optional(), answer: z.array(fhirAnswerSchema) })),
});
export type FhirQuestionnaireResponse = z.infer<typeof fhirQuestionnaireResponseSchema>;

export const fhirObservationSchema = z.object({
  resourceType: z.literal('Observation'),
  id: z.string(),
  status: z.literal('final'),
  category: z.array(codeableConceptSchema),
  code: codeableConceptSchema,
  subject: referenceSchema,
  effectiveDateTime: z.string(),
  derivedFrom: z.array(referenceSchema),
  valueQuantity: z.object({ value: z.number(), unit: z.string().optional() }).optional(),
  valueInteger: z.number().int().optional(),
});
export type FhirObservation = z.infer<typeof fhirObservationSchema>;

export const fhirObservationBundleSchema = z.object({
  resourceType: z.literal('Bundle'),
  type: z.literal('searchset'),
  total: z.number().int(),
  link: z.array(z.object({ relation: z.string(), url: z.string() })),
  entry: z.array(
    z.object({ fullUrl: z.string(), resource: fhirObservationSchema, search: z.object({ mode: z.literal('match') }) }),
  ),
});
export type FhirObservationBundle = z.infer<typeof fhirObservationBundleSchema>;

const instrumentCodeText = z
  .string()
  .max(2, 'invalid')
  .regex(/^(?:[1-9]|1[0-5])$/, 'invalid');
/** `{formCode}` of an instrument (1..15) or the id of a custom form version. */
export const fhirQuestionnaireParamsSchema = z.object({ id: z.union([instrumentCodeText, idSchema], { error: 'invalid' }) });
export const fhirResponseParamsSchema = z.object({ id: idSchema });
export const fhirObservationQuerySchema = z.object({
  'derived-from': z
    .string({ error: 'required' })
    .max(60, 'invalid')
    .regex(/^QuestionnaireResponse\/[0-9a-fA-F-]{36}$/, 'invalid'),
});
