import { z } from 'zod';
import { paginationFilterSchema } from './activity';
import { listTotalShape } from './paging';
import { LANGUAGES, PAGE_NUMBER_DEFAULT, PAGE_SIZE_DEFAULT, type Language } from './constants';
import { AppointmentStatus } from './enums';
import { idSchema, isValidInstant, optionalMdyDaySchema } from './validation';

/** Appointment status codes of section 3; names as in `enums.ts` and `GET /api/enums?type=appointmentStatus`. */
export type AppointmentStatusCode = (typeof AppointmentStatus)[keyof typeof AppointmentStatus];
export const appointmentStatusCodes = [1, 2, 3, 4] as const satisfies readonly AppointmentStatusCode[];
export const appointmentStatusSchema = z.union(
  appointmentStatusCodes.map((code) => z.literal(code)),
  'invalid',
);

export const appointmentReasons = ['new_patient', 'follow_up'] as const;
export type AppointmentReason = (typeof appointmentReasons)[number];

/**
 * Values of the `dateFilterPresets` enumeration (`enumerations.ts`): 1–9 as published, 10 and 11
 * appended for the appointment list. Section 9 makes 1 (today) the default.
 */
export const DateFilterPreset = {
  Today: 1,
  Yesterday: 2,
  ThisWeek: 3,
  LastWeek: 4,
  ThisMonth: 5,
  LastMonth: 6,
  ThisYear: 7,
  LastYear: 8,
  CustomRange: 9,
  Tomorrow: 10,
  FixedDate: 11,
} as const;
export type DateFilterPresetValue = (typeof DateFilterPreset)[keyof typeof DateFilterPreset];
const presetValues = Object.values(DateFilterPreset);

export const PAIN_SCORE_MIN = 0;
export const PAIN_SCORE_MAX = 10;
export const APPOINTMENT_DURATION_MAX = 480;
/** The day schedule shows one clinic day; past this the page would be no use anyway. */
export const DAY_SCHEDULE_MAX_ROWS = 500;
export const APPOINTMENT_EXPORT_MAX_ROWS = 50_000;

/** What a client may see of an appointment: an allow-list. */
export const appointmentSchema = z.object({
  id: idSchema,
  patient: z.object({ id: idSchema, fullName: z.string(), /** YYYY-MM-DD */ birthDate: z.string() }),
  doctor: z.object({ id: idSchema, name: z.string() }).nullable(),
  appointmentType: z.object({ id: idSchema, name: z.string() }).nullable(),
  room: z.object({ id: idSchema, name: z.string() }).nullable(),
  /** UTC instant, ISO 8601; clients show it in the clinic's time zone. */
  startsAt: z.string(),
  durationMinutes: z.number().int(),
  status: appointmentStatusSchema,
  reason: z.enum(appointmentReasons).nullable(),
  notes: z.string().nullable(),
  externalId: z.string().nullable(),
  painScore: z.number().int().nullable(),
  bodyLocationIds: z.array(idSchema),
  checkedInAt: z.string().nullable(),
  checkInDelayedUntil: z.string().nullable(),
});
export type Appointment = z.infer<typeof appointmentSchema>;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, 'tooLong')
    .nullish()
    .transform((value) => value || null);

const optionalId = z
  .union([idSchema, z.literal(''), z.null()])
  .optional()
  .transform((value) => value || null);

/** ISO 8601 with an offset or Z; the server stores UTC. */
const instantSchema = z.string({ error: 'required' }).max(40, 'dateInvalid').refine(isValidInstant, 'dateInvalid');

const painScoreSchema = z.coerce
  .number('numberInvalid')
  .int('numberInvalid')
  .min(PAIN_SCORE_MIN, 'numberOutOfRange')
  .max(PAIN_SCORE_MAX, 'numberOutOfRange');

/** POST /api/patientappointments, /schedule and PUT /{id}: the whole appointment as staff enter it. */
export const createAppointmentSchema = z.object({
  patientId: idSchema,
  doctorId: idSchema,
  appointmentTypeId: optionalId,
  roomId: optionalId,
  startsAt: instantSchema,
  durationMinutes: z.coerce
    .number('numberInvalid')
    .int('numberInvalid')
    .min(5, 'numberOutOfRange')
    .max(APPOINTMENT_DURATION_MAX, 'numberOutOfRange')
    .default(30),
  reason: z
    .union([z.enum(appointmentReasons, 'invalid'), z.literal(''), z.null()])
    .optional()
    .transform((value) => value || null),
  notes: optionalText(2000),
  externalId: optionalText(100),
  painScore: z
    .union([z.literal(''), z.null(), painScoreSchema])
    .optional()
    .transform((value) => (value === '' || value === undefined ? null : value)),
  bodyLocationIds: z.array(idSchema).max(50, 'invalid').default([]),
});
export type CreateAppointment = z.infer<typeof createAppointmentSchema>;
export type CreateAppointmentInput = z.input<typeof createAppointmentSchema>;
export const updateAppointmentSchema = createAppointmentSchema;
export type UpdateAppointment = CreateAppointment;

/** POST /api/patientappointments/updateschedule: move an appointment (time, doctor, room). */
export const updateScheduleSchema = z.object({
  id: idSchema,
  startsAt: instantSchema,
  durationMinutes: z.coerce
    .number('numberInvalid')
    .int('numberInvalid')
    .min(5, 'numberOutOfRange')
    .max(APPOINTMENT_DURATION_MAX, 'numberOutOfRange')
    .optional(),
  doctorId: idSchema.optional(),
  /** Absent keeps the room; null or '' frees it. */
  roomId: z
    .union([idSchema, z.literal(''), z.null()])
    .optional()
    .transform((value) => (value === '' ? null : value)),
});
export type UpdateSchedule = z.infer<typeof updateScheduleSchema>;

const optionalDay = optionalMdyDaySchema;

const dayNumber = (mdy: string) => {
  const [month, day, year] = mdy.split('/').map(Number) as [number, number, number];
  return year * 10_000 + month * 100 + day;
};

/** Fields of section 3 "Appointment list filter", with the section 9 defaults. */
const filterFields = {
  dateFilter: z.coerce
    .number('invalid')
    .int('invalid')
    .refine((value) => (presetValues as number[]).includes(value), 'invalid')
    .default(DateFilterPreset.Today)
    .transform((value) => value as DateFilterPresetValue),
  /** Custom range (9), MM/DD/YYYY clinic days, both included. */
  startDate: optionalDay,
  endDate: optionalDay,
  /** Fixed date (11), MM/DD/YYYY. */
  fixedDate: optionalDay,
  painScoreMin: painScoreSchema.default(PAIN_SCORE_MIN),
  painScoreMax: painScoreSchema.default(PAIN_SCORE_MAX),
  bodyLocation: optionalId.transform((value) => value ?? undefined),
  status: z
    .union([appointmentStatusSchema, z.literal(''), z.null()])
    .optional()
    .transform((value) => (value === '' || value === null ? undefined : value)),
  doctorId: optionalId.transform((value) => value ?? undefined),
  patientId: optionalId.transform((value) => value ?? undefined),
};

type FilterShape = {
  dateFilter: number;
  startDate?: string;
  endDate?: string;
  fixedDate?: string;
  painScoreMin: number;
  painScoreMax: number;
};

function checkFilter(value: FilterShape, context: z.RefinementCtx) {
  if (value.dateFilter === DateFilterPreset.CustomRange) {
    if (!value.startDate) context.addIssue({ code: 'custom', message: 'required', path: ['startDate'] });
    if (!value.endDate) context.addIssue({ code: 'custom', message: 'required', path: ['endDate'] });
    if (value.startDate && value.endDate && dayNumber(value.startDate) > dayNumber(value.endDate))
      context.addIssue({ code: 'custom', message: 'dateRangeInvalid', path: ['endDate'] });
  }
  if (value.dateFilter === DateFilterPreset.FixedDate && !value.fixedDate)
    context.addIssue({ code: 'custom', message: 'required', path: ['fixedDate'] });
  if (value.painScoreMin > value.painScoreMax)
    context.addIssue({ code: 'custom', message: 'numberOutOfRange', path: ['painScoreMax'] });
}

/** POST /api/patientappointments/filtered. */
export const appointmentFilterSchema = z
  .object({
    ...filterFields,
    paginationFilter: paginationFilterSchema.default({ pageSize: PAGE_SIZE_DEFAULT, pageNumber: PAGE_NUMBER_DEFAULT }),
  })
  .superRefine(checkFilter);
export type AppointmentFilter = z.infer<typeof appointmentFilterSchema>;
export type AppointmentFilterInput = z.input<typeof appointmentFilterSchema>;
export type AppointmentFilterFields = Omit<AppointmentFilter, 'paginationFilter'>;

/** The section 9 defaults, as the web sends them first. */
export const appointmentFilterDefaults = {
  dateFilter: DateFilterPreset.Today,
  startDate: '',
  endDate: '',
  fixedDate: '',
  painScoreMin: PAIN_SCORE_MIN,
  painScoreMax: PAIN_SCORE_MAX,
  bodyLocation: '',
  status: '',
  paginationFilter: { pageSize: PAGE_SIZE_DEFAULT, pageNumber: PAGE_NUMBER_DEFAULT },
} satisfies AppointmentFilterInput;

/** POST exporttocsv / exportnoshowappointments: the same filters, no paging; headers in the user's language. */
export const appointmentExportSchema = z
  .object({ ...filterFields, language: z.enum(LANGUAGES).default('en') })
  .superRefine(checkFilter);
export type AppointmentExport = z.infer<typeof appointmentExportSchema>;
export type AppointmentExportInput = z.input<typeof appointmentExportSchema>;

export const appointmentPageSchema = z.object({
  ...listTotalShape,
  pageNumber: z.number().int(),
  pageSize: z.number().int(),
  data: z.array(appointmentSchema),
  message: z.string(),
});
export type AppointmentPage = z.infer<typeof appointmentPageSchema>;

/** GET /api/patientappointments/all?pageSize&pageNumber&doctorId */
export const appointmentPagedQuerySchema = z.object({
  pageSize: paginationFilterSchema.shape.pageSize,
  pageNumber: paginationFilterSchema.shape.pageNumber,
  doctorId: optionalId.transform((value) => value ?? undefined),
});

/** GET /api/patientappointments/day?date=MM/DD/YYYY&doctorId: one clinic day, for the staff schedule. */
export const dayScheduleQuerySchema = z.object({
  date: optionalDay,
  doctorId: optionalId.transform((value) => value ?? undefined),
});
export const dayScheduleSchema = z.object({ date: z.string(), data: z.array(appointmentSchema) });
export type DaySchedule = z.infer<typeof dayScheduleSchema>;

export const appointmentIdParamsSchema = z.object({ id: idSchema });
export const checkInSchema = z.object({ id: idSchema });
export const delayedCheckInSchema = z.object({
  minutes: z.coerce.number('numberInvalid').int('numberInvalid').min(1, 'numberOutOfRange').max(240, 'numberOutOfRange'),
});
export const appointmentNoteSchema = z.object({ notes: optionalText(2000) });
export const appointmentStatusQuerySchema = z.object({ ids: z.array(idSchema).min(1, 'required').max(200, 'invalid') });
export const appointmentStatusesSchema = z.array(z.object({ id: idSchema, status: appointmentStatusSchema }));
export type AppointmentStatuses = z.infer<typeof appointmentStatusesSchema>;
/** PATCH /api/patientappointments/{id}/status: the end states staff set by hand. */
export const setAppointmentStatusSchema = z.object({
  status: z.union([z.literal(AppointmentStatus.Completed), z.literal(AppointmentStatus.No_Show)], 'invalid'),
});
export const nextAppointmentQuerySchema = z.object({ patientId: idSchema });
export const nextAppointmentSchema = z.object({ appointment: appointmentSchema.nullable() });

export const appointmentStatusLabels: Record<AppointmentStatusCode, Record<Language, string>> = {
  1: { en: 'Checking in', es: 'Registrando llegada' },
  2: { en: 'Upcoming', es: 'Próxima' },
  3: { en: 'Completed', es: 'Completada' },
  4: { en: 'No show', es: 'No se presentó' },
};

export const appointmentReasonLabels: Record<AppointmentReason, Record<Language, string>> = {
  new_patient: { en: 'New patient', es: 'Paciente nuevo' },
  follow_up: { en: 'Follow-up', es: 'Seguimiento' },
};

export const appointmentCsvHeaders: Record<Language, string[]> = {
  en: [
    'Patient',
    'Date of birth',
    'Doctor',
    'Appointment type',
    'Room',
    'Start',
    'Duration (min)',
    'Status',
    'Reason',
    'Pain score',
    'External id',
  ],
  es: [
    'Paciente',
    'Fecha de nacimiento',
    'Médico',
    'Tipo de cita',
    'Sala',
    'Inicio',
    'Duración (min)',
    'Estado',
    'Motivo',
    'Dolor',
    'Id externo',
  ],
};
