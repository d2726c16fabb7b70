import { z } from 'zod';
import { PAGE_NUMBER_DEFAULT, PAGE_SIZE_DEFAULT } from './constants';
import { enumerations, referralSources, type EnumOption } from './enumerations';
import {
  EMAIL_PATTERN,
  idSchema,
  isValidMdyDate,
  isYearInRange,
  mdyDateProblem,
  US_PHONE_PATTERN,
  US_ZIP_PATTERN,
} from './validation';
import { listTotalShape, paginationFilterSchemaOf } from './paging';

/**
 * Patients of specification sections 3 and 7 (docs/decisions/0012-patients.md). Dates travel as ISO
 * yyyy-mm-dd; forms show and accept MM/DD/YYYY and convert with `mdyToIso` / `isoToMdy`.
 */

export const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export function isValidIsoDate(value: string): boolean {
  if (!ISO_DATE_PATTERN.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return isYearInRange(year) && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** MM/DD/YYYY → yyyy-mm-dd; null when the text is not a calendar date. */
export function mdyToIso(value: string): string | null {
  if (!isValidMdyDate(value)) return null;
  const [month, day, year] = value.split('/');
  return `${year}-${month}-${day}`;
}

/** yyyy-mm-dd → MM/DD/YYYY (empty for empty). */
export function isoToMdy(value: string | null | undefined): string {
  if (!value || !ISO_DATE_PATTERN.test(value)) return '';
  const [year, month, day] = value.split('-');
  return `${month}/${day}/${year}`;
}

/** Phone types of section 3 (MOBILE 7, HOME 1, WORK 2) and the three contact kinds of enumerations.ts. */
export const PatientPhoneType = {
  MOBILE: 7,
  HOME: 1,
  WORK: 2,
  EMERGENCY_CONTACT: 3,
  GUARANTOR: 4,
  NEXT_OF_KIN: 5,
} as const;
export const patientPhoneTypeValues = Object.values(PatientPhoneType);
/** Kinds whose number belongs to somebody else: they carry a contact name and relation. */
export const contactPhoneTypes: readonly number[] = [
  PatientPhoneType.EMERGENCY_CONTACT,
  PatientPhoneType.GUARANTOR,
  PatientPhoneType.NEXT_OF_KIN,
];

export { US_PHONE_PATTERN };
export const phoneDigits = (value: string) => value.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');

const trimmedOrNull = (max: number) =>
  z
    .string()
    .trim()
    .max(max, 'tooLong')
    .nullish()
    .transform((value) => (value ? value : null));

const nameSchema = z.string({ error: 'nameRequired' }).trim().min(1, 'nameRequired').max(100, 'tooLong');

export const isoDateSchema = z.string({ error: 'dateInvalid' }).max(10, 'dateInvalid').refine(isValidIsoDate, 'dateInvalid');

const yesNoSchema = z
  .enum(['yes', 'no'])
  .nullish()
  .transform((value) => value ?? null);

const nicotineValues = new Set(enumerations.nicotineStatus.map((option) => option.value));
const referralSourceValues = new Set(referralSources.map((option) => option.value));

/** The clinical-history lists the data sandbox filters on (issue #14), each an enumeration with a "None". */
export const clinicalHistoryFields = ['diseaseStates', 'psychiatricHistory', 'surgicalHistory'] as const;
export type ClinicalHistoryField = (typeof clinicalHistoryFields)[number];

/** The value of an enumeration's "None" entry: chosen, it is the only entry. */
export function noneCodeOf(options: readonly EnumOption[]): number | undefined {
  const none = options.find((option) => option.label.en === 'None')?.value;
  return typeof none === 'number' ? none : undefined;
}

/** Codes of one clinical-history enumeration, each once, sorted; "None" alone. Left out, a change keeps what is stored. */
const historyCodesSchema = (options: readonly EnumOption[]) => {
  const values = new Set(options.map((option) => option.value));
  const none = noneCodeOf(options);
  return z
    .array(z.number({ error: 'invalid' }).int('invalid'), { error: 'invalid' })
    .max(options.length, 'tooLong')
    .refine((codes) => codes.every((code) => values.has(code)), 'invalid')
    .refine((codes) => none === undefined || !codes.includes(none) || new Set(codes).size === 1, 'invalid')
    .transform((codes) => [...new Set(codes)].sort((a, b) => a - b))
    .optional();
};

export const patientPhoneInputSchema = z.object({
  phoneType: z
    .number({ error: 'invalid' })
    .int('invalid')
    .refine((value) => (patientPhoneTypeValues as number[]).includes(value), 'invalid'),
  number: z
    .string({ error: 'phoneRequired' })
    .trim()
    .min(1, 'phoneRequired')
    .max(30, 'tooLong')
    .regex(US_PHONE_PATTERN, 'phoneInvalid'),
  contactName: trimmedOrNull(200),
  relation: trimmedOrNull(100),
  isPrimary: z.boolean().default(false),
});
export type PatientPhoneInput = z.input<typeof patientPhoneInputSchema>;

/** Extended patient questions, kept only for the questions the clinic's settings ask. */
export const patientExtendedSchema = z.object({
  sexualOrientation: z.number().int().nullish(),
  assignedSexAtBirth: z.string().max(10, 'tooLong').nullish(),
  preferredPronouns: z.number().int().nullish(),
  communicationPreferences: z.array(z.number().int()).max(10, 'tooLong').nullish(),
});
export type PatientExtended = z.infer<typeof patientExtendedSchema>;
export const extendedQuestionSetting = {
  sexualOrientation: 'extendedPatientAskSexualOrientation',
  assignedSexAtBirth: 'extendedPatientAskAssignedSexAtBirth',
  preferredPronouns: 'extendedPatientAskPreferredPronouns',
  communicationPreferences: 'extendedPatientAskCommunicationPreferences',
} as const satisfies Record<keyof PatientExtended, string>;

/** The create/update payload of section 3 "Patient (create/update payload)". */
export const patientPayloadSchema = z.object({
  firstName: nameSchema,
  middleName: trimmedOrNull(100),
  lastName: nameSchema,
  dateOfBirth: isoDateSchema,
  email: z
    .string()
    .trim()
    .max(254, { error: 'tooLong', abort: true })
    .nullish()
    .refine((value) => !value || EMAIL_PATTERN.test(value), 'emailInvalid')
    .transform((value) => (value ? value.toLowerCase() : null)),
  rpmKey: trimmedOrNull(100),
  streetAddress1: trimmedOrNull(200),
  streetAddress2: trimmedOrNull(200),
  city: trimmedOrNull(100),
  state: trimmedOrNull(2),
  zip: z
    .string()
    .trim()
    .max(10, 'zipInvalid')
    .nullish()
    .refine((value) => !value || US_ZIP_PATTERN.test(value), 'zipInvalid')
    .transform((value) => (value ? value : null)),
  /** Pounds; empty means 0 (section 3). */
  weight: z
    .number({ error: 'numberInvalid' })
    .min(0, 'numberOutOfRange')
    .max(1500, 'numberOutOfRange')
    .nullish()
    .transform((value) => value ?? 0),
  heightFeet: z
    .number({ error: 'numberInvalid' })
    .int('numberInvalid')
    .min(0, 'numberOutOfRange')
    .max(9, 'numberOutOfRange')
    .nullish(),
  heightInches: z
    .number({ error: 'numberInvalid' })
    .int('numberInvalid')
    .min(0, 'numberOutOfRange')
    .max(11, 'numberOutOfRange')
    .nullish(),
  genderId: idSchema.nullish(),
  maritalStatusId: idSchema.nullish(),
  ethnicityId: idSchema.nullish(),
  occupationId: idSchema.nullish(),
  payorStatusId: idSchema.nullish(),
  nicotineStatusId: z
    .number({ error: 'invalid' })
    .int('invalid')
    .refine((value) => nicotineValues.has(value), 'invalid')
    .nullish(),
  currentLawSuit: yesNoSchema,
  historySubstanceAbuse: yesNoSchema,
  agreementSignedDate: isoDateSchema.nullish(),
  doctorId: idSchema.nullish(),
  enableEmail: z.boolean().default(true),
  enableText: z.boolean().default(true),
  preferredLanguage: z.enum(['en', 'es']).default('en'),
  patientPhoneNumbers: z.array(patientPhoneInputSchema).max(20, 'tooLong').default([]),
  extended: patientExtendedSchema.default({}),
  /*
   * Referral and clinical history (issue #14): optional, so clients that predate them keep working; left
   * out on a change, the stored values stay; null (or []) clears them.
   */
  referralSource: z
    .number({ error: 'invalid' })
    .int('invalid')
    .refine((value) => referralSourceValues.has(value), 'invalid')
    .nullish(),
  /** An entry of the clinic's Referrals list. */
  referringProviderId: idSchema.nullish(),
  diseaseStates: historyCodesSchema(enumerations.diseaseStates),
  psychiatricHistory: historyCodesSchema(enumerations.psychiatricHistory),
  surgicalHistory: historyCodesSchema(enumerations.surgicalHistory),
});
export type PatientPayloadInput = z.input<typeof patientPayloadSchema>;
export type PatientPayload = z.output<typeof patientPayloadSchema>;

/**
 * The patient's choice of optional messages (campaigns; decision 0065) as staff record it when the patient
 * tells the clinic: agreed or withdrew, by email and by text. Care messages do not depend on it.
 */
export const optionalMessagesSchema = z.object({
  email: z.boolean({ error: 'required' }),
  text: z.boolean({ error: 'required' }),
});
export type OptionalMessages = z.infer<typeof optionalMessagesSchema>;

export const patientPhoneSchema = z.object({
  id: idSchema,
  phoneType: z.number(),
  number: z.string(),
  contactName: z.string().nullable(),
  relation: z.string().nullable(),
  isPrimary: z.boolean(),
});
export type PatientPhone = z.infer<typeof patientPhoneSchema>;

export const patientRecordStatuses = ['active', 'inactive'] as const;

/** What a patient read answers: an allow-list, nothing else of the row leaves the server. */
export const patientViewSchema = z.object({
  id: idSchema,
  firstName: z.string(),
  middleName: z.string().nullable(),
  lastName: z.string(),
  fullName: z.string(),
  dateOfBirth: z.string(),
  email: z.string().nullable(),
  rpmKey: z.string().nullable(),
  streetAddress1: z.string().nullable(),
  streetAddress2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string().nullable(),
  weight: z.number(),
  heightFeet: z.number().nullable(),
  heightInches: z.number().nullable(),
  /** Total inches, derived on the server. */
  height: z.number().nullable(),
  genderId: idSchema.nullable(),
  maritalStatusId: idSchema.nullable(),
  ethnicityId: idSchema.nullable(),
  occupationId: idSchema.nullable(),
  payorStatusId: idSchema.nullable(),
  nicotineStatusId: z.number().nullable(),
  currentLawSuit: z.enum(['yes', 'no']).nullable(),
  historySubstanceAbuse: z.enum(['yes', 'no']).nullable(),
  agreementSignedDate: z.string().nullable(),
  doctorId: idSchema.nullable(),
  enableEmail: z.boolean(),
  enableText: z.boolean(),
  preferredLanguage: z.enum(['en', 'es']),
  extended: patientExtendedSchema,
  patientPhoneNumbers: z.array(patientPhoneSchema),
  referralSource: z.number().nullable(),
  referringProviderId: idSchema.nullable(),
  diseaseStates: z.array(z.number()),
  psychiatricHistory: z.array(z.number()),
  surgicalHistory: z.array(z.number()),
  /** Read-only here: the patient's own words, set through PATCH patients/hassuccessstorybeenshared. */
  successStory: z.string().nullable(),
  /** When the patient agreed to share the story (null: not shared). */
  successStorySharedAt: z.string().nullable(),
  status: z.enum(patientRecordStatuses),
  archivedAt: z.string().nullable(),
  archiveReason: z.string().nullable(),
  accountClosedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PatientView = z.infer<typeof patientViewSchema>;

/** Record-status filter of the list (section 4: default Active). */
export const patientStatusFilters = ['Active', 'Inactive', 'Archived', 'Closed', 'All'] as const;
export type PatientStatusFilter = (typeof patientStatusFilters)[number];

/** Sort fields the list accepts (anything else is a 400, never raw SQL). */
export const patientSortFields = ['CreationStamp', 'FirstName', 'LastName', 'DateOfBirth', 'Email'] as const;
export type PatientSortField = (typeof patientSortFields)[number];

const filterText = z
  .string()
  .trim()
  .max(100, 'tooLong')
  .nullish()
  .transform((value) => (value ? value : undefined));

export const paginationFilterSchema = paginationFilterSchemaOf({ maxPageSize: 100 });

/** Body of POST patients/filtered (section 7). */
export const patientFilterSchema = z
  .object({
    /** Case-portal option and case status of the device-partner program: accepted, not applied (decision 0012). */
    option: z.number().int().nullish(),
    status: z.union([z.string().max(60), z.number()]).nullish(),
    patientStatus: z.enum(patientStatusFilters).default('Active'),
    sortBy: z.enum(patientSortFields).default('CreationStamp'),
    sortDirection: z.enum(['asc', 'desc']).default('desc'),
    firstName: filterText,
    lastName: filterText,
    email: filterText,
    phone: filterText,
    ageMin: z.number().int('invalid').min(0, 'numberOutOfRange').max(150, 'numberOutOfRange').nullish(),
    ageMax: z.number().int('invalid').min(0, 'numberOutOfRange').max(150, 'numberOutOfRange').nullish(),
    /** Cohort ids: members of any of them (decision 0038); numbers are accepted and ignored. */
    selectedStudyGroups: z
      .array(z.union([idSchema, z.number()]))
      .max(100)
      .nullish(),
    paginationFilter: paginationFilterSchema.default({ pageSize: PAGE_SIZE_DEFAULT, pageNumber: PAGE_NUMBER_DEFAULT }),
    doctorId: idSchema.nullish(),
    dateOfBirth: isoDateSchema.nullish(),
  })
  .refine((value) => value.ageMin == null || value.ageMax == null || value.ageMin <= value.ageMax, {
    message: 'numberOutOfRange',
    path: ['ageMax'],
  });
export type PatientFilterInput = z.input<typeof patientFilterSchema>;
export type PatientFilter = z.output<typeof patientFilterSchema>;

export const patientPagedQuerySchema = z.object({
  pageSize: z.coerce.number().int('invalid').min(1, 'numberOutOfRange').max(100, 'numberOutOfRange').default(PAGE_SIZE_DEFAULT),
  pageNumber: z.coerce.number().int('invalid').min(0, 'numberOutOfRange').default(PAGE_NUMBER_DEFAULT),
});

export const patientListItemSchema = z.object({
  id: idSchema,
  firstName: z.string(),
  middleName: z.string().nullable(),
  lastName: z.string(),
  fullName: z.string(),
  dateOfBirth: z.string(),
  email: z.string().nullable(),
  /** The primary (else first) phone number. */
  phone: z.string().nullable(),
  doctorId: idSchema.nullable(),
  doctorName: z.string().nullable(),
  status: z.enum(patientRecordStatuses),
  archived: z.boolean(),
  accountClosed: z.boolean(),
  createdAt: z.string(),
});
export type PatientListItem = z.infer<typeof patientListItemSchema>;

export const patientPageSchema = z.object({
  ...listTotalShape,
  pageNumber: z.number(),
  pageSize: z.number(),
  data: z.array(patientListItemSchema),
  message: z.string(),
  portalStatuses: z.array(z.object({ status: z.string(), count: z.number() })),
});
export type PatientPage = z.infer<typeof patientPageSchema>;

export const patientSearchQuerySchema = z.object({
  searchParam: z.string({ error: 'required' }).trim().min(3, 'invalid').max(100, 'tooLong'),
  pageSize: z.coerce.number().int().min(1).max(300).optional(),
  pageNumber: z.coerce.number().int().min(0).optional(),
  doctorId: idSchema.optional().or(z.literal('').transform(() => undefined)),
});
export const patientSearchResultSchema = z.object({ id: idSchema, fullName: z.string(), birthDate: z.string() });
export type PatientSearchResult = z.infer<typeof patientSearchResultSchema>;

export const duplicateCheckSchema = z.object({
  lastName: z.string().trim().max(100, 'tooLong').nullish(),
  dateOfBirth: isoDateSchema.nullish(),
  email: z.string().trim().max(254, 'tooLong').nullish(),
  /** When editing, the record itself is not its own duplicate. */
  excludeId: idSchema.nullish(),
});
export type DuplicateCheck = z.input<typeof duplicateCheckSchema>;
export const duplicateMatchSchema = z.object({
  id: idSchema,
  fullName: z.string(),
  birthDate: z.string(),
  matchedOn: z.enum(['lastNameAndDateOfBirth', 'email']),
});
export type DuplicateMatch = z.infer<typeof duplicateMatchSchema>;

export const activeInactiveSchema = z.object({ isActive: z.boolean({ error: 'required' }) });
export const archiveQuerySchema = z.object({
  reason: z.string({ error: 'required' }).trim().min(1, 'required').max(500, 'tooLong'),
});
export const closeAccountSchema = z.object({ id: idSchema });

/** The same payload as the form edits it: dates typed as MM/DD/YYYY, sent as ISO (decision 0012). */
export const patientFormSchema = patientPayloadSchema.extend({
  dateOfBirth: z
    .string({ error: 'dateInvalid' })
    .trim()
    .max(10, 'dateInvalid')
    .refine((value) => mdyDateProblem(value) !== 'dateInvalid', 'dateInvalid')
    .refine((value) => mdyDateProblem(value) !== 'dateNotReal', 'dateNotReal')
    .transform((value) => mdyToIso(value)!),
  agreementSignedDate: z
    .string()
    .trim()
    .max(10, 'dateInvalid')
    .nullish()
    .refine((value) => !value || isValidMdyDate(value), 'dateInvalid')
    .transform((value) => (value ? mdyToIso(value) : null)),
});
export type PatientFormValues = z.input<typeof patientFormSchema>;
