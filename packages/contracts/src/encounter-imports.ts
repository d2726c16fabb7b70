import { z } from 'zod';
import { idSchema } from './validation';
import { codeGroupSchema, visitCodeKinds } from './outreach';

/*
 * Where the codes come from (issue #15 §1, decision 0050): the encounter CSV import from a clinic's
 * practice-management or EHR system, and the coded visits a patient has (recorded in Pathwell or
 * imported).
 */

export const ENCOUNTER_IMPORT_MAX_BYTES = 20 * 1024 * 1024;
/** Rows the preview shows, and row errors an import keeps (the counts still cover every row). */
export const ENCOUNTER_PREVIEW_ROWS = 20;
export const ENCOUNTER_IMPORT_MAX_ERRORS = 500;

/** The fields an encounter row maps to, in the order the mapping form shows them. */
export const encounterFields = [
  'externalPatientId',
  'firstName',
  'lastName',
  'dateOfBirth',
  'visitDate',
  'provider',
  'diagnosisCodes',
  'procedureCodes',
  'externalVisitId',
] as const;
export type EncounterField = (typeof encounterFields)[number];

const column = z
  .string()
  .max(200, 'tooLong')
  .nullish()
  .transform((value) => value || null);

/**
 * Which CSV column holds each field. A row names its patient by the clinic's external id or by first
 * name, last name and date of birth; it needs a visit date and at least one code column.
 */
export const encounterMappingSchema = z
  .object(Object.fromEntries(encounterFields.map((field) => [field, column])) as Record<EncounterField, typeof column>)
  .superRefine((mapping, issues) => {
    const required = (field: EncounterField) => issues.addIssue({ code: 'custom', path: [field], message: 'required' });
    if (!mapping.visitDate) required('visitDate');
    if (!mapping.externalPatientId) {
      for (const field of ['firstName', 'lastName', 'dateOfBirth'] as const) if (!mapping[field]) required(field);
    }
    if (!mapping.diagnosisCodes && !mapping.procedureCodes) required('diagnosisCodes');
  });
export type EncounterMapping = z.output<typeof encounterMappingSchema>;
export type EncounterMappingInput = z.input<typeof encounterMappingSchema>;

export const encounterPreviewSchema = z.object({
  fileName: z.string(),
  headers: z.array(z.string()),
  /** The first rows, each cell in the order of `headers`. */
  sampleRows: z.array(z.array(z.string())),
  /** The column each field most likely comes from, by header name; null when none looks like it. */
  suggestedMapping: z.record(z.string(), z.string().nullable()),
  rowCount: z.number().int(),
});
export type EncounterPreview = z.infer<typeof encounterPreviewSchema>;

export const encounterImportStatuses = ['queued', 'running', 'done', 'failed'] as const;
export type EncounterImportStatus = (typeof encounterImportStatuses)[number];

/** One row the import could not take: `row` is the CSV's row number (1 = the header), `message` a message key. */
export const encounterRowErrorSchema = z.object({ row: z.number().int(), field: z.string(), message: z.string() });
export type EncounterRowError = z.infer<typeof encounterRowErrorSchema>;

export const encounterImportSummarySchema = z.object({
  id: idSchema,
  fileName: z.string(),
  status: z.enum(encounterImportStatuses),
  totalRows: z.number().int(),
  processedRows: z.number().int(),
  importedRows: z.number().int(),
  duplicateRows: z.number().int(),
  errorRows: z.number().int(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type EncounterImportSummary = z.infer<typeof encounterImportSummarySchema>;

export const encounterImportDetailSchema = encounterImportSummarySchema.extend({
  mapping: z.record(z.string(), z.string().nullable()),
  errors: z.array(encounterRowErrorSchema),
  /** Set when the import stopped on something other than a row (an unreadable file). */
  failure: z.string().nullable(),
});
export type EncounterImportDetail = z.infer<typeof encounterImportDetailSchema>;

export const encounterImportListSchema = z.object({ data: z.array(encounterImportSummarySchema) });
export type EncounterImportList = z.infer<typeof encounterImportListSchema>;

export const encounterImportStartedSchema = z.object({ id: idSchema });

/** One visit of a patient with its codes (`GET /api/appointmentcodes?patientId=`). */
export const codedVisitSchema = z.object({
  id: idSchema,
  visitDate: z.string(),
  providerName: z.string().nullable(),
  /** Recorded on a Pathwell visit record, or imported from the clinic's system. */
  source: z.enum(['pathwell', 'import']),
  diagnosisCodes: z.array(z.string()),
  procedureCodes: z.array(z.string()),
});
export type CodedVisit = z.infer<typeof codedVisitSchema>;

export const appointmentCodesQuerySchema = z.object({ patientId: idSchema });
export const appointmentCodesSchema = z.object({ data: z.array(codedVisitSchema) });
export type AppointmentCodes = z.infer<typeof appointmentCodesSchema>;

export const knownCodesQuerySchema = z.object({
  search: z
    .string()
    .trim()
    .max(20, 'tooLong')
    .optional()
    .transform((value) => value?.toUpperCase() || undefined),
});
export const KNOWN_CODES_LIMIT = 50;
export const knownCodeSchema = z.object({ code: z.string(), kind: z.enum(visitCodeKinds), patients: z.number().int() });
export type KnownCode = z.infer<typeof knownCodeSchema>;
export const knownCodesSchema = z.object({ data: z.array(knownCodeSchema) });
export type KnownCodes = z.infer<typeof knownCodesSchema>;

export const codeGroupListSchema = z.object({ data: z.array(codeGroupSchema) });
