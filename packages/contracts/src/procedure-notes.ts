import { z } from 'zod';
import { idSchema } from './validation';

/**
 * Procedure notes (issue #13, decision 0040): a clinic's templates per procedure type, with
 * `{{placeholders}}` filled from the intervention record; the provider edits, signs and amends the note.
 */

export const procedureNoteKinds = ['procedure', 'injection', 'pump'] as const;
export type ProcedureNoteKind = (typeof procedureNoteKinds)[number];
export const procedureNoteStatuses = ['draft', 'signed', 'superseded'] as const;
export type ProcedureNoteStatus = (typeof procedureNoteStatuses)[number];

export const PROCEDURE_NOTE_BODY_MAX = 20000;

/** Every placeholder a template may use, in the order the admin page lists them. */
export const procedureNotePlaceholders = [
  { name: 'clinicName', en: 'Clinic name', es: 'Nombre de la clínica' },
  { name: 'patientName', en: 'Patient name', es: 'Nombre del paciente' },
  { name: 'dateOfBirth', en: 'Date of birth', es: 'Fecha de nacimiento' },
  { name: 'datePerformed', en: 'Date performed', es: 'Fecha de realización' },
  { name: 'procedure', en: 'Procedure or injection', es: 'Procedimiento o inyección' },
  { name: 'cptCode', en: 'CPT code', es: 'Código CPT' },
  { name: 'bodyPart', en: 'Body part', es: 'Parte del cuerpo' },
  { name: 'side', en: 'Side', es: 'Lado' },
  { name: 'levels', en: 'Levels', es: 'Niveles' },
  { name: 'direction', en: 'Direction', es: 'Dirección' },
  { name: 'location', en: 'Location', es: 'Localización' },
  { name: 'adaLocation', en: 'ADA location', es: 'Localización ADA' },
  { name: 'guidance', en: 'Guidance', es: 'Guía de imagen' },
  { name: 'medicines', en: 'Medicines given', es: 'Medicamentos administrados' },
  { name: 'provider', en: 'Provider', es: 'Profesional' },
  { name: 'providerType', en: 'Provider type', es: 'Tipo de profesional' },
  { name: 'completion', en: 'Completion', es: 'Realización' },
  { name: 'outcome', en: 'Outcome', es: 'Resultado' },
  { name: 'followUpPlan', en: 'Follow-up plan', es: 'Plan de seguimiento' },
  { name: 'pumpProcedure', en: 'Pump procedure', es: 'Procedimiento de la bomba' },
  { name: 'reservoirVolume', en: 'Reservoir volume (mL)', es: 'Volumen del reservorio (mL)' },
  { name: 'pumpRefills', en: 'Pump medicines filled', es: 'Medicamentos de la bomba' },
  { name: 'nextRefillDate', en: 'Next refill date', es: 'Próxima recarga' },
] as const;
export type ProcedureNotePlaceholder = (typeof procedureNotePlaceholders)[number]['name'];
export const procedureNotePlaceholderNames: readonly string[] = procedureNotePlaceholders.map((p) => p.name);

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/** The placeholders a body names that are not in the catalogue, each once. */
export function unknownPlaceholders(body: string): string[] {
  const names = [...body.matchAll(PLACEHOLDER)].map((match) => match[1]!);
  return [...new Set(names.filter((name) => !procedureNotePlaceholderNames.includes(name)))];
}

/** Fills `{{name}}` from `values`; a placeholder without a value becomes '—' so the gap is visible. */
export function fillPlaceholders(body: string, values: Partial<Record<ProcedureNotePlaceholder, string>>): string {
  return body.replace(PLACEHOLDER, (whole, name: string) => {
    if (!procedureNotePlaceholderNames.includes(name)) return whole;
    const value = values[name as ProcedureNotePlaceholder];
    return value && value.trim() ? value : '—';
  });
}

/**
 * What a template leaves for the provider to write: the example templates (decision 0040) mark it
 * "[to be completed by the provider]"; a clinic's own template may write any "[to be completed …]" or,
 * in Spanish, "[a completar …]" / "[por completar …]". A note is not signed while one is left.
 */
export const PROVIDER_FILL_IN = '[to be completed by the provider]';
const FILL_IN = /\[\s*(?:to be completed|a completar|por completar)[^\]\n]*\]/i;

/**
 * The places a note still has to be written (issue #24): each "[to be completed …]" named by the line
 * that heads it ("Indication", "Description"; the marker itself when nothing does), and any `{{placeholder}}`
 * left unfilled (by its name), each once, in the order they appear. Signing refuses a note while this is not empty.
 */
export function unfilledPlaceholders(body: string): string[] {
  const names: string[] = [];
  const lines = body.split(/\r?\n/);
  let heading: string | null = null;
  lines.forEach((line) => {
    const marker = FILL_IN.exec(line);
    // Named bare: a message cannot carry "{{…}}", which is its own parameter syntax.
    for (const match of line.matchAll(PLACEHOLDER)) names.push(match[1]!);
    if (marker) {
      const before = line
        .slice(0, marker.index)
        .trim()
        .replace(/[:\s]+$/, '');
      names.push(before || heading || marker[0]);
    } else if (line.trim()) heading = line.trim().replace(/[:\s]+$/, '');
  });
  return [...new Set(names)];
}

const bodySchema = z
  .string({ error: 'required' })
  .max(PROCEDURE_NOTE_BODY_MAX, 'tooLong')
  .refine((value) => value.trim().length > 0, 'required');

export const procedureNoteTemplateInputSchema = z.object({
  name: z.string({ error: 'required' }).trim().min(1, 'required').max(200, 'tooLong'),
  kind: z.enum(procedureNoteKinds, { error: 'required' }),
  itemId: idSchema.nullish().transform((value) => value ?? null),
  body: bodySchema.refine((value) => unknownPlaceholders(value).length === 0, 'placeholderUnknown'),
  isActive: z.boolean({ error: 'invalid' }).default(true),
});
export type ProcedureNoteTemplateInput = z.input<typeof procedureNoteTemplateInputSchema>;

export const procedureNoteTemplateSchema = z.object({
  id: idSchema,
  name: z.string(),
  kind: z.enum(procedureNoteKinds),
  itemId: z.string().nullable(),
  itemName: z.string().nullable(),
  body: z.string(),
  isActive: z.boolean(),
  updatedAt: z.string(),
});
export type ProcedureNoteTemplate = z.infer<typeof procedureNoteTemplateSchema>;

export const createProcedureNoteSchema = z.object({
  interventionId: idSchema,
  templateId: idSchema.optional(),
});
export type CreateProcedureNote = z.infer<typeof createProcedureNoteSchema>;

export const updateProcedureNoteSchema = z.object({ body: bodySchema });
export type UpdateProcedureNote = z.infer<typeof updateProcedureNoteSchema>;

export const procedureNoteVersionSchema = z.object({
  id: idSchema,
  version: z.number().int(),
  status: z.enum(procedureNoteStatuses),
  signedAt: z.string().nullable(),
  signedByName: z.string().nullable(),
  updatedAt: z.string(),
});
export type ProcedureNoteVersion = z.infer<typeof procedureNoteVersionSchema>;

export const procedureNoteSchema = procedureNoteVersionSchema.extend({
  interventionId: idSchema,
  patientId: idSchema,
  patientName: z.string(),
  kind: z.enum(procedureNoteKinds),
  procedure: z.string().nullable(),
  performedOn: z.string(),
  templateId: z.string().nullable(),
  /** The template's name; null when the built-in default filled the note. */
  templateName: z.string().nullable(),
  providerId: z.string().nullable(),
  providerName: z.string().nullable(),
  body: z.string(),
  createdAt: z.string(),
  /** Whether the signed-in user may sign this version now. */
  canSign: z.boolean(),
  /** Every version of the intervention's note, newest first. */
  versions: z.array(procedureNoteVersionSchema),
});
export type ProcedureNote = z.infer<typeof procedureNoteSchema>;

export const procedureNoteSummarySchema = z.object({
  id: idSchema,
  interventionId: idSchema,
  patientId: idSchema,
  patientName: z.string(),
  kind: z.enum(procedureNoteKinds),
  procedure: z.string().nullable(),
  performedOn: z.string(),
  version: z.number().int(),
  status: z.enum(procedureNoteStatuses),
  providerId: z.string().nullable(),
  providerName: z.string().nullable(),
  signedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type ProcedureNoteSummary = z.infer<typeof procedureNoteSummarySchema>;

/** Lists answer `enabled: false` (and no rows) when the clinic does not use procedure notes, so cards hide. */
export const procedureNoteListSchema = z.object({
  enabled: z.boolean(),
  data: z.array(procedureNoteSummarySchema),
});
export type ProcedureNoteList = z.infer<typeof procedureNoteListSchema>;
