import { z } from 'zod';
import { idSchema } from './validation';
import { appointmentStatusCodes } from './appointments';

/**
 * The two patient dashboards of issue #4: one patient's record at a glance
 * (/patients/patientdashboard/{id}, `GET /api/patients/{id}/dashboard`) and the clinic's day
 * (/patients/dashboard, `GET /api/patients/dashboard`), plus a patient's notes. Times are UTC ISO
 * instants; the web shows them on the clinic's clock. A Doctor only ever sees their own patients.
 */

export const PATIENT_TIMELINE_LIMIT = 100;
export const PAIN_TREND_LIMIT = 200;
export const NOTE_MAX_LENGTH = 5000;
export const CLINIC_DAY_LIST_LIMIT = 200;
export const UPCOMING_DAYS = 7;
export const UPCOMING_LIST_LIMIT = 15;
export const CHECKING_IN_LIST_LIMIT = 50;
export const RECENT_COMPLETIONS_LIMIT = 10;

export const patientIdParamsSchema = z.object({ id: idSchema });
export const patientNoteParamsSchema = z.object({ id: idSchema, noteId: idSchema });

/** Appointment status codes of section 3: Checking_In 1, Upcoming 2, Completed 3, No_Show 4. */
export const appointmentStatusCodeSchema = z.literal(appointmentStatusCodes);

const personRefSchema = z.object({ id: idSchema, name: z.string() });

export const patientPhoneSchema = z.object({
  id: idSchema,
  /** `patientPhoneTypes` enumeration: MOBILE 7, HOME 1, WORK 2, emergency contact 3, guarantor 4, next of kin 5. */
  phoneType: z.number().int(),
  number: z.string(),
  contactName: z.string().nullable(),
  relation: z.string().nullable(),
  isPrimary: z.boolean(),
});
export type PatientPhone = z.infer<typeof patientPhoneSchema>;

export const patientDemographicsSchema = z.object({
  id: idSchema,
  firstName: z.string(),
  middleName: z.string().nullable(),
  lastName: z.string(),
  /** YYYY-MM-DD. */
  dateOfBirth: z.string(),
  /** Whole years on the clinic's calendar today. */
  age: z.number().int(),
  /** Name of the gender custom-field value, as the clinic wrote it. */
  genderName: z.string().nullable(),
  email: z.string().nullable(),
  streetAddress1: z.string().nullable(),
  streetAddress2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string().nullable(),
  enableEmail: z.boolean(),
  enableText: z.boolean(),
  /** Optional messages (campaigns) the patient agreed to (decision 0065); optional for older servers. */
  optionalMessages: z.object({ email: z.boolean(), text: z.boolean() }).optional(),
  preferredLanguage: z.enum(['en', 'es']),
  doctor: personRefSchema.nullable(),
  status: z.enum(['active', 'inactive']),
  archived: z.boolean(),
  archiveReason: z.string().nullable(),
  accountClosed: z.boolean(),
  phones: z.array(patientPhoneSchema),
  /** `referralSources` code and the referring provider's name (issue #14); optional for older servers. */
  referralSource: z.number().nullable().optional(),
  referringProviderName: z.string().nullable().optional(),
  /** Codes of the `diseaseStates`, `psychiatricHistory` and `surgicalHistory` enumerations. */
  diseaseStates: z.array(z.number()).optional(),
  psychiatricHistory: z.array(z.number()).optional(),
  surgicalHistory: z.array(z.number()).optional(),
});
export type PatientDemographics = z.infer<typeof patientDemographicsSchema>;

export const timelineAppointmentSchema = z.object({
  id: idSchema,
  startsAt: z.string(),
  durationMinutes: z.number().int(),
  status: appointmentStatusCodeSchema,
  typeName: z.string().nullable(),
  roomName: z.string().nullable(),
  doctor: personRefSchema.nullable(),
  /** VAS 0 (no pain) to 10 (worst possible). */
  painScore: z.number().int().nullable(),
  reason: z.enum(['new_patient', 'follow_up']).nullable(),
});
export type TimelineAppointment = z.infer<typeof timelineAppointmentSchema>;

export const painTrendPointSchema = z.object({
  appointmentId: idSchema,
  startsAt: z.string(),
  painScore: z.number().int().min(0).max(10),
});
export type PainTrendPoint = z.infer<typeof painTrendPointSchema>;

export const patientNoteSchema = z.object({
  id: idSchema,
  body: z.string(),
  author: personRefSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The author or an Admin may change or delete a note. */
  canEdit: z.boolean(),
});
export type PatientNote = z.infer<typeof patientNoteSchema>;

export const patientNoteListSchema = z.object({ data: z.array(patientNoteSchema) });

export const patientNoteInputSchema = z.object({
  body: z.string({ error: 'required' }).trim().min(1, 'required').max(NOTE_MAX_LENGTH, 'tooLong'),
});
export type PatientNoteInput = z.input<typeof patientNoteInputSchema>;

/** GET /api/patients/{id}/dashboard: one patient's record at a glance. */
export const patientDashboardSchema = z.object({
  demographics: patientDemographicsSchema,
  /** Past and upcoming visits, newest first; at most PATIENT_TIMELINE_LIMIT of them. */
  appointments: z.array(timelineAppointmentSchema),
  appointmentsTotal: z.number().int(),
  /** VAS per completed visit with a score, oldest first (the latest PAIN_TREND_LIMIT). */
  painTrend: z.array(painTrendPointSchema),
  /** Newest first. */
  notes: z.array(patientNoteSchema),
});
export type PatientDashboard = z.infer<typeof patientDashboardSchema>;

/** `doctorId` narrows to one doctor (top-bar selector); a Doctor always gets their own, whatever is sent. */
export const clinicDashboardQuerySchema = z.object({
  doctorId: z.preprocess((value) => (value === '' ? undefined : value), idSchema.optional()),
});

export const dashboardAppointmentSchema = timelineAppointmentSchema.extend({
  patient: z.object({ id: idSchema, name: z.string(), dateOfBirth: z.string() }),
  checkedInAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});
export type DashboardAppointment = z.infer<typeof dashboardAppointmentSchema>;

/**
 * GET /api/patients/dashboard (section 7 "Patient dashboard fetchAll(doctorId)"). "Today" is the
 * clinic day of the setting timeZoneOffsetHours; "upcoming" the UPCOMING_DAYS clinic days after it;
 * a week starts on Sunday.
 */
export const clinicDashboardSchema = z.object({
  counts: z.object({
    /** Active, not archived, account open. */
    activePatients: z.number().int(),
    appointmentsToday: z.number().int(),
    checkedInNow: z.number().int(),
    noShowsThisWeek: z.number().int(),
    upcoming: z.number().int(),
  }),
  /** Every status, by start time. */
  today: z.array(dashboardAppointmentSchema),
  /** Status Upcoming in the next UPCOMING_DAYS days, the first UPCOMING_LIST_LIMIT. */
  upcoming: z.array(dashboardAppointmentSchema),
  /** Status Checking_In, any day, longest waiting first. */
  checkingIn: z.array(dashboardAppointmentSchema),
  /** The latest RECENT_COMPLETIONS_LIMIT completed visits, newest first. */
  recentCompletions: z.array(dashboardAppointmentSchema),
});
export type ClinicDashboard = z.infer<typeof clinicDashboardSchema>;
