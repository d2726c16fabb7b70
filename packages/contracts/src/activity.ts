import { z } from 'zod';
import { LANGUAGES, PAGE_NUMBER_DEFAULT, PAGE_SIZE_DEFAULT, type Language } from './constants';
import { activityActions, activityAreas, type ActivityAction, type ActivityArea } from './enums';
import { idSchema, optionalMdyDaySchema } from './validation';
import { listTotalShape, paginationFilterSchemaOf } from './paging';

/** An export larger than this is refused: past it a spreadsheet is the wrong tool and the file gets huge. */
export const ACTIVITY_EXPORT_MAX_ROWS = 50_000;

/** Clinic-day in the specification's date format (section 5), read in the clinic's time zone. */
const optionalDaySchema = optionalMdyDaySchema;

/** Select boxes send null when cleared; the filter treats null, '' and absent alike. */
const optionalOf = <T extends z.ZodType<string>>(schema: T) =>
  z
    .union([schema, z.literal(''), z.null()])
    .optional()
    .transform((value) => (value ? (value as z.output<T>) : undefined));

export const paginationFilterSchema = paginationFilterSchemaOf({ maxPageSize: 100, coerce: true });
export type PaginationFilter = z.infer<typeof paginationFilterSchema>;

/** MM/DD/YYYY → a number that sorts like the calendar. */
const dayNumber = (mdy: string) => {
  const [month, day, year] = mdy.split('/').map(Number) as [number, number, number];
  return year * 10_000 + month * 100 + day;
};

const filterFields = {
  /** First clinic day included, MM/DD/YYYY. */
  from: optionalDaySchema,
  /** Last clinic day included, MM/DD/YYYY. */
  to: optionalDaySchema,
  /** The acting user (an id from GET /api/activitylogs/actors). */
  userId: optionalOf(idSchema),
  area: optionalOf(z.enum(activityAreas, 'invalid')),
  action: optionalOf(z.enum(activityActions, 'invalid')),
  /** Free text matched against the target and the description. */
  search: z
    .string()
    .trim()
    .max(200, 'tooLong')
    .nullish()
    .transform((value) => value || undefined),
};

const rangeInOrder = (value: { from?: string; to?: string }) =>
  !value.from || !value.to || dayNumber(value.from) <= dayNumber(value.to);
const rangeIssue = { message: 'dateRangeInvalid', path: ['to'] };

/** Filters shared by the activity log and its export. */
export const activityFilterFieldsSchema = z.object(filterFields).refine(rangeInOrder, rangeIssue);
export type ActivityFilterFields = z.infer<typeof activityFilterFieldsSchema>;

/** POST /api/activitylogs/filtered: filters plus the spec's paginationFilter (15 per page, page 0). */
export const activityFilterSchema = z
  .object({
    ...filterFields,
    paginationFilter: paginationFilterSchema.default({ pageSize: PAGE_SIZE_DEFAULT, pageNumber: PAGE_NUMBER_DEFAULT }),
  })
  .refine(rangeInOrder, rangeIssue);
export type ActivityFilter = z.infer<typeof activityFilterSchema>;
export type ActivityFilterInput = z.input<typeof activityFilterSchema>;

/** POST /api/activitylogs/export: the same filters, no paging; the file's headers follow the language. */
export const activityExportSchema = z
  .object({ ...filterFields, language: z.enum(LANGUAGES).default('en') })
  .refine(rangeInOrder, rangeIssue);
export type ActivityExport = z.infer<typeof activityExportSchema>;
export type ActivityExportInput = z.input<typeof activityExportSchema>;

/** Login details: the 'Login Activity' area only, so no area filter. */
const { area: _area, ...loginFilterFields } = filterFields;
export const loginDetailsFilterSchema = z
  .object({
    ...loginFilterFields,
    paginationFilter: paginationFilterSchema.default({ pageSize: PAGE_SIZE_DEFAULT, pageNumber: PAGE_NUMBER_DEFAULT }),
  })
  .refine(rangeInOrder, rangeIssue);
export type LoginDetailsFilter = z.infer<typeof loginDetailsFilterSchema>;
export type LoginDetailsFilterInput = z.input<typeof loginDetailsFilterSchema>;

export const loginDetailsExportSchema = z
  .object({ ...loginFilterFields, language: z.enum(LANGUAGES).default('en') })
  .refine(rangeInOrder, rangeIssue);
export type LoginDetailsExport = z.infer<typeof loginDetailsExportSchema>;
export type LoginDetailsExportInput = z.input<typeof loginDetailsExportSchema>;

/** One row of the activity log as a client may see it (an allow-list: no hashes, no chain numbers). */
export const activityEntrySchema = z.object({
  id: idSchema,
  /** UTC instant, ISO 8601; clients show it in the clinic's time zone. */
  createdAt: z.string(),
  userId: idSchema.nullable(),
  /** The actor's current name; null for rows without a known user (a failed sign-in of an unknown email). */
  userName: z.string().nullable(),
  /** The email the actor had, or typed, when the row was written. */
  email: z.string().nullable(),
  area: z.enum(activityAreas),
  action: z.enum(activityActions),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  description: z.string().nullable(),
  ip: z.string().nullable(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

export const activityPageSchema = z.object({ ...listTotalShape, data: z.array(activityEntrySchema) });
export type ActivityPage = z.infer<typeof activityPageSchema>;

export const loginResults = ['Succeeded', 'Failed'] as const;
export type LoginResult = (typeof loginResults)[number];

export const loginDetailSchema = z.object({
  id: idSchema,
  createdAt: z.string(),
  userId: idSchema.nullable(),
  userName: z.string().nullable(),
  email: z.string().nullable(),
  action: z.enum(activityActions),
  /** What happened: the log's description, else its target type ('session', 'two-factor code', 'password'…). */
  event: z.string(),
  result: z.enum(loginResults),
  ip: z.string().nullable(),
  /** Known for sign-ins and sign-outs, from their session; null for the other steps. */
  userAgent: z.string().nullable(),
});
export type LoginDetail = z.infer<typeof loginDetailSchema>;

export const loginDetailsPageSchema = z.object({ ...listTotalShape, data: z.array(loginDetailSchema) });
export type LoginDetailsPage = z.infer<typeof loginDetailsPageSchema>;

/** GET /api/activitylogs/actors: users who appear in the acting clinic's log, for the user filter. */
export const activityActorsQuerySchema = z.object({ area: z.enum(activityAreas, 'invalid').optional() });
export const activityActorSchema = z.object({ id: idSchema, name: z.string() });
export type ActivityActor = z.infer<typeof activityActorSchema>;
export const activityActorsSchema = z.array(activityActorSchema);

/**
 * Area and action names in both languages. The stored values stay English (they are the spec's
 * enumeration); these labels serve the web and the CSV export, which is written in the user's language.
 */
export const activityAreaLabels: Record<ActivityArea, Record<Language, string>> = {
  'Admin Configuration': { en: 'Admin Configuration', es: 'Configuración de administración' },
  'Patient Profile': { en: 'Patient Profile', es: 'Perfil del paciente' },
  'Appointment Schedules': { en: 'Appointment Schedules', es: 'Agendas de citas' },
  Checkins: { en: 'Check-ins', es: 'Registros de llegada' },
  Interventions: { en: 'Interventions', es: 'Intervenciones' },
  'System Users': { en: 'System Users', es: 'Usuarios del sistema' },
  'Patient List': { en: 'Patient List', es: 'Lista de pacientes' },
  'Patient Dashboard': { en: 'Patient Dashboard', es: 'Panel del paciente' },
  'Patient Sign-In': { en: 'Patient Sign-In', es: 'Acceso del paciente' },
  'Intake Information': { en: 'Intake Information', es: 'Información de admisión' },
  'Form Submission': { en: 'Form Submission', es: 'Envío de formularios' },
  Appointments: { en: 'Appointments', es: 'Citas' },
  'Patient Study Group': { en: 'Patient Study Group', es: 'Grupo de estudio del paciente' },
  'Login Activity': { en: 'Login Activity', es: 'Actividad de inicio de sesión' },
};

export const activityActionLabels: Record<ActivityAction, Record<Language, string>> = {
  Created: { en: 'Created', es: 'Creado' },
  Updated: { en: 'Updated', es: 'Actualizado' },
  Deleted: { en: 'Deleted', es: 'Eliminado' },
  Viewed: { en: 'Viewed', es: 'Consultado' },
  Sent: { en: 'Sent', es: 'Enviado' },
  Failed: { en: 'Failed', es: 'Fallido' },
};

export const loginResultLabels: Record<LoginResult, Record<Language, string>> = {
  Succeeded: { en: 'Succeeded', es: 'Correcto' },
  Failed: { en: 'Failed', es: 'Fallido' },
};

/** Column headers of the two CSV files, in order. */
export const activityCsvHeaders: Record<Language, string[]> = {
  en: ['Time', 'User', 'Email', 'Area', 'Action', 'Target', 'Description', 'IP'],
  es: ['Fecha y hora', 'Usuario', 'Correo electrónico', 'Área', 'Acción', 'Objeto', 'Descripción', 'IP'],
};

export const loginDetailsCsvHeaders: Record<Language, string[]> = {
  en: ['Time', 'User', 'Email', 'Event', 'Result', 'IP', 'User agent'],
  es: ['Fecha y hora', 'Usuario', 'Correo electrónico', 'Evento', 'Resultado', 'IP', 'Agente de usuario'],
};
