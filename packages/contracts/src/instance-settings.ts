import { z } from 'zod';
import { isValidationMessageKey, type ValidationMessageKey } from './messages';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN, ID_PATTERN, isAllowedPublicUrl, isValidMdyDate } from './validation';

/**
 * Instance settings (specification section 3): one typed catalogue of every key, in the order the
 * `configurationValues` wire list uses. Everything else (zod schemas, defaults, the wire format, the
 * admin page's sections) is derived from it. See docs/decisions/0007-instance-settings.md.
 */

export const generalSettingGroups = [
  'identity',
  'files',
  'featureFlags',
  'ratesAndDefaults',
  'extendedPatientQuestions',
  'appointmentReasonQuestions',
  'demo',
  'notificationLists',
  'legalTexts',
] as const;

/** One group per integration; its first key is always its use-flag. */
export const integrationGroups = [
  'reactiv',
  'mainstay',
  'lucidLane',
  'nevro',
  'athena',
  'modMed',
  'greenway',
  'drChrono',
  'advancedMd',
  'eClinicalWorks',
  'clickup',
  'twilio',
] as const;

export const settingGroups = [...generalSettingGroups, ...integrationGroups] as const;
export type SettingGroup = (typeof settingGroups)[number];
export type IntegrationGroup = (typeof integrationGroups)[number];

export const settingTypes = [
  'text',
  'longText',
  'document',
  'email',
  'emailList',
  'phone',
  'usState',
  'timeZone',
  'date',
  'number',
  'integer',
  'boolean',
  'formId',
  'formIds',
  'reference',
  'referenceList',
  'codeList',
  'url',
  'secret',
  'file',
] as const;
export type SettingType = (typeof settingTypes)[number];

type StringType = 'text' | 'longText' | 'document' | 'email' | 'phone' | 'usState' | 'timeZone' | 'date' | 'reference' | 'url';
type ListType = 'emailList' | 'referenceList' | 'codeList';
/**
 * A `document` setting is a page patients read (the clinic's terms and privacy policy): plain text, no
 * markup, a blank line between paragraphs; empty means the page shows Pathwell's default text.
 */
export const DOCUMENT_MAX_LENGTH = 20_000;

/** An issue #24 §5 case: five pathway emails in 15 minutes. Three a day leaves room for a step and its reminders. */
export const MAX_PATIENT_MESSAGES_PER_DAY_DEFAULT = 3;
export const MAX_PATIENT_MESSAGES_PER_DAY_LIMIT = 50;

/** GET/PUT /api/instancesettings/dailycap: the one setting Admins change themselves (decision 0066). */
export const dailyCapSchema = z.object({
  maxPatientMessagesPerDay: z
    .number({ error: 'invalid' })
    .int('invalid')
    .min(1, 'numberOutOfRange')
    .max(MAX_PATIENT_MESSAGES_PER_DAY_LIMIT, 'numberOutOfRange')
    .nullable(),
});
export type DailyCap = z.infer<typeof dailyCapSchema>;

export type SettingUnit = 'minutes' | 'hours' | 'days' | 'currency' | 'messagesPerPatientDay';
export type FileKind = 'logo' | 'agreement' | 'privateKey';
/** An outcome form (1 to 15) or a custom form's UUID. */
export type FormId = number | string;

interface Base {
  key: string;
  group: SettingGroup;
}
export type SettingDefinition =
  | (Base & { type: 'boolean'; default: boolean })
  | (Base & {
      type: 'number' | 'integer';
      default: number | null;
      /** A required number always has a value; the others may be left empty (null). */
      required: boolean;
      min: number;
      max: number;
      step?: number;
      unit?: SettingUnit;
    })
  | (Base & { type: StringType; default: string })
  | (Base & { type: ListType; default: readonly string[] })
  | (Base & { type: 'formId'; default: FormId | null })
  | (Base & { type: 'formIds'; default: readonly FormId[] })
  | (Base & { type: 'secret' })
  | (Base & { type: 'file'; fileKind: FileKind });

const flag = <K extends string, G extends SettingGroup>(key: K, group: G, byDefault = false) =>
  ({ key, group, type: 'boolean', default: byDefault }) as const;
const str = <K extends string, G extends SettingGroup, T extends StringType>(key: K, group: G, type: T, byDefault = '') =>
  ({ key, group, type, default: byDefault }) as const;
const list = <K extends string, G extends SettingGroup, T extends ListType>(key: K, group: G, type: T) =>
  ({ key, group, type, default: [] as readonly string[] }) as const;
const secret = <K extends string, G extends SettingGroup>(key: K, group: G) => ({ key, group, type: 'secret' }) as const;
const file = <K extends string, G extends SettingGroup>(key: K, group: G, fileKind: FileKind) =>
  ({ key, group, type: 'file', fileKind }) as const;
function num<K extends string, G extends SettingGroup, R extends boolean>(
  key: K,
  group: G,
  options: {
    integer?: boolean;
    required: R;
    default: R extends true ? number : number | null;
    min: number;
    max: number;
    step?: number;
    unit?: SettingUnit;
  },
) {
  const { integer = true, ...rest } = options;
  return { key, group, type: integer ? ('integer' as const) : ('number' as const), ...rest };
}

export const settingsCatalogue = [
  // Identity
  str('clinicName', 'identity', 'text'),
  str('clinicAddress', 'identity', 'text'),
  str('clinicEmail', 'identity', 'email'),
  str('clinicPhoneNumber', 'identity', 'phone'),
  str('defaultEmailSender', 'identity', 'email'),
  str('defaultSmsNumber', 'identity', 'phone'),
  str('defaultState', 'identity', 'usState'),
  str('timeZoneId', 'identity', 'timeZone'),
  num('timeZoneOffsetHours', 'identity', {
    integer: false,
    required: true,
    default: 0,
    min: -12,
    max: 14,
    step: 0.25,
    unit: 'hours',
  }),
  str('deploymentDate', 'identity', 'date'),
  num('autoLogoutTime', 'identity', { required: true, default: 30, min: 1, max: 1440, unit: 'minutes' }),
  str('therapyManagerNumber', 'identity', 'phone'),
  list('skipPaymentDepartments', 'identity', 'referenceList'),
  str('upsideAppointmentId', 'identity', 'reference'),
  str('mappedAlgosClinicInstanceId', 'identity', 'reference'),

  // Files (each file keeps its file name beside it in instance_files)
  file('clinicLogoPrimary', 'files', 'logo'),
  file('clinicLogoSecondary', 'files', 'logo'),
  file('practiceLogo', 'files', 'logo'),
  file('newPatientAgreementEn', 'files', 'agreement'),
  file('newPatientAgreementEs', 'files', 'agreement'),

  // Feature flags
  flag('enableSms', 'featureFlags'),
  flag('enableEmail', 'featureFlags', true),
  flag('enablePatientSelfCheckin', 'featureFlags'),
  flag('useRpm', 'featureFlags'),
  flag('enablePaymentCollection', 'featureFlags'),
  flag('enableDemoDashboard', 'featureFlags'),
  flag('enableEducationalVideosPage', 'featureFlags'),
  flag('enableUdsStatusReminder', 'featureFlags'),
  flag('enableHomeCheckin', 'featureFlags'),
  flag('enableProcedureNote', 'featureFlags'),
  flag('enableShotConsent', 'featureFlags'),
  flag('enableDigitalShotConsent', 'featureFlags'),
  flag('welcomeScreenEnabled', 'featureFlags'),
  flag('isPharmacyRequired', 'featureFlags'),
  flag('hideExitPro', 'featureFlags'),
  flag('checkinConfirmationPage', 'featureFlags'),
  flag('enableProviderAppointmentDashboard', 'featureFlags'),
  flag('newAppointmentDashboard', 'featureFlags'),
  flag('enableMrnLookup', 'featureFlags'),
  flag('enablePsycEval', 'featureFlags'),
  flag('enablePortalPro', 'featureFlags'),
  flag('isPortalProClinic', 'featureFlags'),
  flag('useCodePull', 'featureFlags'),
  flag('campaignOnly', 'featureFlags'),
  flag('appLinkToggle', 'featureFlags'),
  flag('showBmiFilterOnSandbox', 'featureFlags'),
  flag('showIntakeFormForNewPatients', 'featureFlags'),
  flag('showOptInToConsentPage', 'featureFlags'),
  flag('preferAthenaFHIR', 'featureFlags'),
  flag('sendSchedulingDataToSalesforce', 'featureFlags'),
  // The white-label device-partner brand (docs/decisions/0004-menu-visibility.md).
  flag('devicePartnerMode', 'featureFlags'),

  // Rates and defaults
  num('proRate', 'ratesAndDefaults', {
    integer: false,
    required: false,
    default: null,
    min: 0,
    max: 100_000,
    step: 0.01,
    unit: 'currency',
  }),
  num('rpmRate', 'ratesAndDefaults', {
    integer: false,
    required: false,
    default: null,
    min: 0,
    max: 100_000,
    step: 0.01,
    unit: 'currency',
  }),
  { key: 'defaultRandForm', group: 'ratesAndDefaults', type: 'formId', default: null },
  { key: 'applicableForms', group: 'ratesAndDefaults', type: 'formIds', default: [] as readonly FormId[] },
  num('defaultPainScore', 'ratesAndDefaults', { required: true, default: 0, min: 0, max: 10 }),
  num('intakeFormNotificationHours', 'ratesAndDefaults', { required: false, default: 24, min: 0, max: 720, unit: 'hours' }),
  // Automatic messages to one patient per clinic day and channel; the rest wait for the next morning (decision 0066).
  num('maxPatientMessagesPerDay', 'ratesAndDefaults', {
    required: false,
    default: MAX_PATIENT_MESSAGES_PER_DAY_DEFAULT,
    min: 1,
    max: MAX_PATIENT_MESSAGES_PER_DAY_LIMIT,
    unit: 'messagesPerPatientDay',
  }),
  num('consentExpiration', 'ratesAndDefaults', { required: false, default: 365, min: 1, max: 3650, unit: 'days' }),
  num('healthHistoryReconsiliation', 'ratesAndDefaults', { required: false, default: null, min: 1, max: 3650, unit: 'days' }),

  // Extended patient questions
  flag('extendedPatientAskSexualOrientation', 'extendedPatientQuestions'),
  flag('extendedPatientAskAssignedSexAtBirth', 'extendedPatientQuestions'),
  flag('extendedPatientAskPreferredPronouns', 'extendedPatientQuestions'),
  flag('extendedPatientAskCommunicationPreferences', 'extendedPatientQuestions'),

  // Appointment-reason questions
  str('patientAppointmentReasonAdditionalQuestionId', 'appointmentReasonQuestions', 'reference'),
  str('patientAppointmentReasonNewPatientAdditionalQuestionOptionId', 'appointmentReasonQuestions', 'reference'),
  str('patientAppointmentReasonFollowUpAdditionalQuestionOptionId', 'appointmentReasonQuestions', 'reference'),
  list('additionalQuestionIdsToOnlyShowForNewPatientPatientAppointmentReason', 'appointmentReasonQuestions', 'referenceList'),
  list('customQuestionDepartmentIds', 'appointmentReasonQuestions', 'referenceList'),

  // Demo
  str('demoPatientId', 'demo', 'reference'),
  str('demoPatientAppointmentId', 'demo', 'reference'),
  str('demoPatientExternalId', 'demo', 'reference'),

  // Notification lists
  list('apptCancelEmails', 'notificationLists', 'emailList'),
  str('apptCancelEmailBody', 'notificationLists', 'longText'),
  list('customFormSubmissionEmails', 'notificationLists', 'emailList'),
  list('campaignEmails', 'notificationLists', 'emailList'),
  list('nevroExceptionEmailRecipients', 'notificationLists', 'emailList'),
  str('lucidLaneNotificationEmail', 'notificationLists', 'email'),
  list('reactivEmailRecipients', 'notificationLists', 'emailList'),

  // Reactiv
  flag('useReactiv', 'reactiv'),
  list('reactivDiagnosisCodes', 'reactiv', 'codeList'),
  str('reactivOverrideDate', 'reactiv', 'date'),
  list('reactivProviders', 'reactiv', 'referenceList'),

  // Mainstay
  flag('useMainstay', 'mainstay'),

  // Lucid Lane
  flag('useLucidLane', 'lucidLane'),
  str('lucidLaneOrderTypeId', 'lucidLane', 'reference'),

  // Nevro (the device maker's case programme) and its Salesforce connection
  flag('useNevro', 'nevro'),
  str('nevroSalesforceApiVersion', 'nevro', 'text'),
  str('nevroSalesforceClientId', 'nevro', 'text'),
  secret('nevroSalesforceClientSecret', 'nevro'),
  str('nevroSalesforceTokenUrl', 'nevro', 'url'),
  str('nevroSalesforceIntrospectUrl', 'nevro', 'url'),

  // Athena
  flag('useAthena', 'athena'),
  str('athenaPracticeId', 'athena', 'reference'),
  list('athenaDepartmentIds', 'athena', 'referenceList'),
  list('athenaProviderIds', 'athena', 'referenceList'),
  list('athenaTherapistIds', 'athena', 'referenceList'),
  list('athenaOrthopedicIds', 'athena', 'referenceList'),

  // ModMed
  flag('useModMed', 'modMed'),
  str('modMedAccessTokenUrl', 'modMed', 'url'),
  str('modMedResourceUrl', 'modMed', 'url'),
  str('modMedUsername', 'modMed', 'text'),
  secret('modMedPassword', 'modMed'),
  secret('modMedApiKey', 'modMed'),
  str('modMedDocumentMappingDefault', 'modMed', 'reference'),
  str('modMedDocumentMappingPatientAgreement', 'modMed', 'reference'),
  str('modMedDocumentMappingOnePager', 'modMed', 'reference'),
  str('modMedDocumentMappingScreener', 'modMed', 'reference'),

  // Greenway
  flag('useGreenway', 'greenway'),
  secret('greenwayApiKey', 'greenway'),
  str('greenwayPracticeId', 'greenway', 'reference'),
  list('greenwayServiceCenterIds', 'greenway', 'referenceList'),
  list('greenwayProviderIds', 'greenway', 'referenceList'),
  str('greenwayUsername', 'greenway', 'text'),
  secret('greenwayPassword', 'greenway'),
  str('greenwayLicenseId', 'greenway', 'reference'),
  str('greenwayUserLogon', 'greenway', 'text'),
  str('greenwayApplicationName', 'greenway', 'text'),
  str('greenwayMachineName', 'greenway', 'text'),
  str('greenwayDocumentMappingDefault', 'greenway', 'reference'),
  str('greenwayDocumentMappingPatientAgreement', 'greenway', 'reference'),
  str('greenwayDocumentMappingOnePager', 'greenway', 'reference'),
  str('greenwayDocumentMappingScreener', 'greenway', 'reference'),

  // DrChrono
  flag('useDrChrono', 'drChrono'),
  str('drChronoClientId', 'drChrono', 'text'),
  secret('drChronoClientSecret', 'drChrono'),
  str('drChronoRedirectUrl', 'drChrono', 'url'),
  secret('drChronoWebhookSecret', 'drChrono'),

  // AdvancedMD
  flag('useAdvancedMD', 'advancedMd'),
  str('advancedMdUsername', 'advancedMd', 'text'),
  secret('advancedMdPassword', 'advancedMd'),
  str('advancedMdOfficeCode', 'advancedMd', 'reference'),
  str('advancedMdAppName', 'advancedMd', 'text'),
  str('advancedMdInitialUrl', 'advancedMd', 'url'),
  // Token details hold the live session token AdvancedMD hands out: a credential like the password.
  secret('advancedMdTokenDetails', 'advancedMd'),

  // eClinicalWorks
  flag('useEClinicalWorks', 'eClinicalWorks'),
  str('eClinicalWorksClientId', 'eClinicalWorks', 'text'),
  secret('eClinicalWorksClientSecret', 'eClinicalWorks'),
  str('eClinicalWorksResourceUrl', 'eClinicalWorks', 'url'),
  str('eClinicalWorksRedirectUrl', 'eClinicalWorks', 'url'),
  str('eClinicalWorksCodeChallenge', 'eClinicalWorks', 'text'),
  str('eClinicalWorksBulkClientId', 'eClinicalWorks', 'text'),
  str('eClinicalWorksBulkGroupId', 'eClinicalWorks', 'reference'),
  file('eClinicalWorksBulkPrivateKey', 'eClinicalWorks', 'privateKey'),

  // Clickup (the task tool)
  flag('useClickup', 'clickup'),
  str('clickupSpaceId', 'clickup', 'reference'),
  list('clickupFolderIds', 'clickup', 'referenceList'),
  list('clickupListIds', 'clickup', 'referenceList'),

  // Twilio (text messages; issue #11). The sending number is defaultSmsNumber.
  flag('useTwilio', 'twilio'),
  str('twilioAccountSid', 'twilio', 'text'),
  secret('twilioAuthToken', 'twilio'),

  // Terms and privacy pages (issue #12; legal-texts.ts holds the defaults). Last in the catalogue, so the
  // wire positions of the keys above stay where they were.
  str('termsAndConditionsEn', 'legalTexts', 'document'),
  str('termsAndConditionsEs', 'legalTexts', 'document'),
  str('privacyPolicyEn', 'legalTexts', 'document'),
  str('privacyPolicyEs', 'legalTexts', 'document'),
  // The injection consent's wording (decision 0036); empty: Pathwell's default.
  str('shotConsentEn', 'legalTexts', 'document'),
  str('shotConsentEs', 'legalTexts', 'document'),
] as const satisfies readonly SettingDefinition[];

type Entry = (typeof settingsCatalogue)[number];
export type SettingKey = Entry['key'];
type ValueEntry = Exclude<Entry, { type: 'secret' | 'file' }>;
export type ValueKey = ValueEntry['key'];
export type SecretKey = Extract<Entry, { type: 'secret' }>['key'];
export type FileKey = Extract<Entry, { type: 'file' }>['key'];
export type BooleanKey = Extract<Entry, { type: 'boolean' }>['key'];

type ValueOf<E> = E extends { type: 'boolean' }
  ? boolean
  : E extends { type: 'number' | 'integer'; required: true }
    ? number
    : E extends { type: 'number' | 'integer' }
      ? number | null
      : E extends { type: 'formId' }
        ? FormId | null
        : E extends { type: 'formIds' }
          ? FormId[]
          : E extends { type: ListType }
            ? string[]
            : string;

/** The typed settings object: every key except secrets (write-only) and files (uploaded separately). */
export type InstanceSettingsValues = { [E in ValueEntry as E['key']]: ValueOf<E> };

const definitions: readonly SettingDefinition[] = settingsCatalogue;
export const settingDefinitions: ReadonlyMap<string, SettingDefinition> = new Map(definitions.map((d) => [d.key, d]));
export const settingKeys = definitions.map((d) => d.key) as SettingKey[];
export const valueKeys = definitions.filter((d) => d.type !== 'secret' && d.type !== 'file').map((d) => d.key) as ValueKey[];
export const secretKeys = definitions.filter((d) => d.type === 'secret').map((d) => d.key) as SecretKey[];
export const fileKeys = definitions.filter((d) => d.type === 'file').map((d) => d.key) as FileKey[];
/** The `configurationValues` wire list: every key but the files, in catalogue order. */
export const configurationKeys = definitions.filter((d) => d.type !== 'file').map((d) => d.key) as (ValueKey | SecretKey)[];

export const isSecretKey = (key: string): key is SecretKey => settingDefinitions.get(key)?.type === 'secret';
export const isFileKey = (key: string): key is FileKey => settingDefinitions.get(key)?.type === 'file';
export const isValueKey = (key: string): key is ValueKey => {
  const type = settingDefinitions.get(key)?.type;
  return type !== undefined && type !== 'secret' && type !== 'file';
};

export const keysOfGroup = (group: SettingGroup): SettingKey[] =>
  definitions.filter((d) => d.group === group).map((d) => d.key) as SettingKey[];

/** The use-flag of an integration: the first key of its group. */
export const integrationUseFlag = (group: IntegrationGroup): BooleanKey => keysOfGroup(group)[0] as BooleanKey;

// ---------------------------------------------------------------------------------------------------
// Outcome forms and form ids

/** Outcome forms 1 to 15 (specification section 3). */
export const outcomeForms = [
  { id: 1, name: 'SF36' },
  { id: 2, name: 'ODI' },
  { id: 3, name: 'NDI' },
  { id: 4, name: 'PDI' },
  { id: 5, name: 'HOOS JR' },
  { id: 6, name: 'KOOS JR' },
  { id: 7, name: 'PROMIS Global-10' },
  { id: 8, name: 'VR-12' },
  { id: 9, name: 'ORT' },
  { id: 10, name: 'PHQ2' },
  { id: 11, name: 'PHQ9' },
  { id: 12, name: 'GAD7' },
  { id: 13, name: 'SOAPPR' },
  { id: 14, name: 'AUDITC' },
  { id: 15, name: 'CESDR' },
] as const;

export const isFormId = (value: unknown): value is FormId =>
  (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= outcomeForms.length) ||
  (typeof value === 'string' && ID_PATTERN.test(value));

// ---------------------------------------------------------------------------------------------------
// Value rules

const PHONE_PATTERN = /^\+?[\d\s().-]{7,20}$/;
const US_STATE_PATTERN = /^[A-Z]{2}$/;
/** Ids of external systems and of other records: numbers, UUIDs, or short codes. */
const REFERENCE_PATTERN = /^[A-Za-z0-9._:-]{1,100}$/;
const CODE_PATTERN = /^[A-Za-z0-9.-]{1,20}$/;
const TIME_ZONE_PATTERN = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

export const isPhoneNumber = (value: string) => PHONE_PATTERN.test(value) && value.replace(/\D/g, '').length >= 7;
export const isEmailAddress = (value: string) => value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value);

/** An IANA time-zone id the runtime knows (offset strings such as "+05:00" are refused). */
export function isTimeZoneId(value: string): boolean {
  if (!TIME_ZONE_PATTERN.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC in hours at a moment (daylight saving included), e.g. -5 or 5.5. */
export function currentOffsetHours(timeZone: string, at: Date = new Date()): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{1,2}):?(\d{2})?/.exec(name ?? '');
  if (!match) return 0;
  const hours = Number(match[2]) + Number(match[3] ?? 0) / 60;
  return match[1] === '-' ? -hours : hours;
}

/** Splits a comma-separated text into its trimmed, non-empty parts. */
export const splitList = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

const optionalPattern = (test: (value: string) => boolean, message: ValidationMessageKey, max = 500) =>
  z
    .string({ error: 'invalid' })
    .trim()
    // Aborts, so that no test (URL parser, time-zone lookup, pattern) reads an over-long text.
    .max(max, { error: 'tooLong', abort: true })
    .refine((value) => value === '' || test(value), message);

const listOf = (test: (value: string) => boolean, message: ValidationMessageKey, max: number) =>
  z
    .array(z.string({ error: message }).trim().max(max, message), { error: message })
    .max(200, 'tooLong')
    .transform((values) => [...new Set(values.filter(Boolean))])
    .refine((values) => values.every(test), message);

/** An outcome form (1 to 15) or a custom form's UUID, as sent. */
const formIdInput = z.union([z.number(), z.string().max(36, 'formIdsInvalid')], { error: 'formIdsInvalid' });

const formIdsInput = z
  .array(formIdInput, { error: 'formIdsInvalid' })
  .max(200, 'tooLong')
  .refine((values) => values.every(isFormId), 'formIdsInvalid')
  .transform((values) => [...new Set(values as FormId[])]);

/** A list of form ids (outcome forms 1–15 and custom form UUIDs), duplicates dropped. */
export const formIdsSchema = formIdsInput;

function numberInput(def: Extract<SettingDefinition, { type: 'number' | 'integer' }>) {
  const base = z
    .number({ error: (issue) => (issue.input === null || issue.input === undefined ? 'required' : 'numberInvalid') })
    .refine((value) => def.type === 'number' || Number.isInteger(value), 'numberInvalid')
    .refine((value) => value >= def.min && value <= def.max, 'numberOutOfRange');
  return def.required ? base : base.nullable();
}

function inputSchemaFor(def: SettingDefinition): z.ZodType {
  switch (def.type) {
    case 'boolean':
      return z.boolean({ error: 'invalid' });
    case 'number':
    case 'integer':
      return numberInput(def);
    case 'text':
      return optionalPattern(() => true, 'invalid');
    case 'longText':
      return optionalPattern(() => true, 'invalid', 5000);
    case 'document':
      return optionalPattern(() => true, 'invalid', DOCUMENT_MAX_LENGTH);
    case 'email':
      return optionalPattern(isEmailAddress, 'emailInvalid', 254);
    case 'phone':
      return optionalPattern(isPhoneNumber, 'phoneInvalid', 30);
    case 'usState':
      return z
        .string({ error: 'invalid' })
        .trim()
        .toUpperCase()
        .max(2, 'invalid')
        .refine((value) => value === '' || US_STATE_PATTERN.test(value), 'invalid');
    case 'timeZone':
      return optionalPattern(isTimeZoneId, 'timeZoneInvalid', 100);
    case 'date':
      return optionalPattern(isValidMdyDate, 'dateInvalid', 10);
    case 'reference':
      return optionalPattern((value) => REFERENCE_PATTERN.test(value), 'idInvalid', 100);
    case 'url':
      return optionalPattern(isAllowedPublicUrl, 'urlInvalid', 2000);
    case 'emailList':
      return listOf(isEmailAddress, 'emailListInvalid', EMAIL_MAX_LENGTH);
    case 'referenceList':
      return listOf((value) => REFERENCE_PATTERN.test(value), 'idInvalid', 100);
    case 'codeList':
      return listOf((value) => CODE_PATTERN.test(value), 'invalid', 20);
    case 'formId':
      return formIdInput.nullable().refine((value) => value === null || isFormId(value), 'formIdsInvalid');
    case 'formIds':
      return formIdsInput;
    case 'secret':
      // Absent or blank keeps the stored value, null clears it, text replaces it.
      return z.string({ error: 'invalid' }).max(20_000, 'tooLong').nullable().optional();
    case 'file':
      throw new Error(`${def.key} is a file, uploaded on its own`);
  }
}

function outputSchemaFor(def: SettingDefinition): z.ZodType {
  switch (def.type) {
    case 'boolean':
      return z.boolean();
    case 'number':
    case 'integer':
      return def.required ? z.number() : z.number().nullable();
    case 'formId':
      return z.union([z.number(), z.string()]).nullable();
    case 'formIds':
      return z.array(z.union([z.number(), z.string()]));
    case 'emailList':
    case 'referenceList':
    case 'codeList':
      return z.array(z.string());
    case 'text':
    case 'longText':
    case 'document':
    case 'email':
    case 'phone':
    case 'usState':
    case 'timeZone':
    case 'date':
    case 'reference':
    case 'url':
      return z.string();
    case 'secret':
    case 'file':
      throw new Error(`${def.key} has no plain value`);
  }
}

type ValueSchemas = { [K in ValueKey]: z.ZodType<InstanceSettingsValues[K], InstanceSettingsValues[K]> };
type SecretInputs = { [K in SecretKey]: z.ZodOptional<z.ZodNullable<z.ZodString>> };
const valueDefinitions = definitions.filter((d) => d.type !== 'secret' && d.type !== 'file');
const secretDefinitions = definitions.filter((d) => d.type === 'secret');
const valueInputs = new Map(valueDefinitions.map((d) => [d.key, inputSchemaFor(d)]));

/** Validates a complete typed settings object (what the server stores and the page edits). */
export const instanceSettingsValuesSchema = z.object(Object.fromEntries(valueInputs)) as unknown as z.ZodObject<ValueSchemas>;

/** The settings page's form: every value plus a write-only slot per secret. */
export const instanceSettingsFormSchema = z.object({
  ...(Object.fromEntries(valueInputs) as unknown as ValueSchemas),
  ...(Object.fromEntries(secretDefinitions.map((d) => [d.key, inputSchemaFor(d)])) as unknown as SecretInputs),
});
export type InstanceSettingsForm = z.infer<typeof instanceSettingsFormSchema>;

/**
 * `PUT /api/instancesettings`: any subset of keys, typed. A secret that is absent or blank keeps its
 * stored value, `null` clears it. Unknown keys are refused rather than silently dropped.
 */
export const instanceSettingsUpdateSchema = instanceSettingsFormSchema.partial().strict();
export type InstanceSettingsUpdate = z.infer<typeof instanceSettingsUpdateSchema>;

const valuesOutputSchema = z.object(
  Object.fromEntries(valueDefinitions.map((d) => [d.key, outputSchemaFor(d)])),
) as unknown as z.ZodObject<ValueSchemas>;

export const instanceFileSchema = z.object({
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  uploadedAt: z.string(),
  /** Where the file is served; null for the private key, which is never served back. */
  url: z.string().nullable(),
});
export type InstanceFile = z.infer<typeof instanceFileSchema>;

const secretStatusSchema = z.object({ isSet: z.boolean() });
export const instanceSettingsViewSchema = z.object({
  values: valuesOutputSchema,
  secrets: z.object(Object.fromEntries(secretKeys.map((key) => [key, secretStatusSchema]))) as unknown as z.ZodObject<{
    [K in SecretKey]: typeof secretStatusSchema;
  }>,
  files: z.object(Object.fromEntries(fileKeys.map((key) => [key, instanceFileSchema.nullable()]))) as unknown as z.ZodObject<{
    [K in FileKey]: z.ZodNullable<typeof instanceFileSchema>;
  }>,
});
export type InstanceSettingsView = z.infer<typeof instanceSettingsViewSchema>;

/**
 * The specification's wire format (section 3): one string per key of `configurationKeys`, in that
 * order; booleans as "true"/"false", lists comma-separated, an empty number as "". A blank secret
 * keeps its stored value (this format cannot clear a secret; the typed format can).
 */
export const configurationValuesSchema = z.object({
  configurationValues: z.array(z.string({ error: 'invalid' }).max(20_000, 'tooLong'), { error: 'required' }).max(1000, 'tooLong'),
});
export type ConfigurationValues = z.infer<typeof configurationValuesSchema>;

/** The wire format read back: ids and values side by side; secrets always "" (write-only). */
export const configurationValuesViewSchema = z.object({
  configurationIds: z.array(z.string()),
  configurationValues: z.array(z.string()),
});

export const applicableFormsSchema = z.object({ applicableForms: z.array(z.union([z.number(), z.string()])) });

// ---------------------------------------------------------------------------------------------------
// Text form: storage and the wire format

/** The text a typed value is stored and sent as. */
export function serializeSetting(def: SettingDefinition, value: unknown): string {
  switch (def.type) {
    case 'boolean':
      return value === true ? 'true' : 'false';
    case 'number':
    case 'integer':
    case 'formId':
      return value === null || value === undefined ? '' : String(value);
    case 'formIds':
    case 'emailList':
    case 'referenceList':
    case 'codeList':
      return Array.isArray(value) ? value.map(String).join(',') : '';
    case 'text':
    case 'longText':
    case 'document':
    case 'email':
    case 'phone':
    case 'usState':
    case 'timeZone':
    case 'date':
    case 'reference':
    case 'url':
    case 'secret':
      return typeof value === 'string' ? value : '';
    case 'file':
      return '';
  }
}

/** A stored or wire text turned into a typed candidate; the schema decides whether it is valid. */
export function parseSettingText(def: SettingDefinition, text: string): unknown {
  const trimmed = text.trim();
  switch (def.type) {
    case 'boolean':
      if (trimmed === '') return def.default;
      return trimmed.toLowerCase() === 'true' ? true : trimmed.toLowerCase() === 'false' ? false : trimmed;
    case 'number':
    case 'integer':
      return trimmed === '' ? null : Number(trimmed);
    case 'formId':
      return trimmed === '' ? null : /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
    case 'formIds':
      return splitList(trimmed).map((part) => (/^\d+$/.test(part) ? Number(part) : part));
    case 'emailList':
    case 'referenceList':
    case 'codeList':
      return splitList(trimmed);
    case 'text':
    case 'longText':
    case 'document':
    case 'email':
    case 'phone':
    case 'usState':
    case 'timeZone':
    case 'date':
    case 'reference':
    case 'url':
    case 'secret':
      return text;
    case 'file':
      return undefined;
  }
}

export function defaultSettingsValues(): InstanceSettingsValues {
  return Object.fromEntries(
    valueDefinitions.map((d) => {
      const value = 'default' in d ? d.default : null;
      return [d.key, Array.isArray(value) ? [...value] : value];
    }),
  ) as InstanceSettingsValues;
}

/** Default values as stored text, so that raw readers (`isOn`) agree with the typed ones. */
export const defaultConfigurationTexts: Readonly<Record<ValueKey, string>> = Object.freeze(
  Object.fromEntries(valueDefinitions.map((d) => [d.key, serializeSetting(d, 'default' in d ? d.default : null)])) as Record<
    ValueKey,
    string
  >,
);

/** Stored texts → typed values; a missing or unreadable value falls back to its default. */
export function decodeSettings(stored: Readonly<Record<string, string | undefined>>): InstanceSettingsValues {
  const values = defaultSettingsValues() as Record<string, unknown>;
  for (const def of valueDefinitions) {
    const text = stored[def.key];
    if (text === undefined) continue;
    const parsed = valueInputs.get(def.key)!.safeParse(parseSettingText(def, text));
    if (parsed.success) values[def.key] = parsed.data;
  }
  return values as InstanceSettingsValues;
}

/** Field errors of a failed parse, keyed by setting key, as validation message keys. */
export function settingFieldErrors(error: z.ZodError): Record<string, ValidationMessageKey> {
  const fields: Record<string, ValidationMessageKey> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '_');
    if (!fields[key]) fields[key] = isValidationMessageKey(issue.message) ? issue.message : 'invalid';
  }
  return fields;
}

// ---------------------------------------------------------------------------------------------------
// Files

export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
export const AGREEMENT_MAX_BYTES = 10 * 1024 * 1024;
export const PRIVATE_KEY_MAX_BYTES = 64 * 1024;

export const fileRules: Record<FileKind, { maxBytes: number; contentTypes: readonly string[]; accept: string }> = {
  logo: {
    maxBytes: LOGO_MAX_BYTES,
    contentTypes: ['image/png', 'image/jpeg', 'image/svg+xml'],
    accept: 'image/png,image/jpeg,image/svg+xml',
  },
  agreement: { maxBytes: AGREEMENT_MAX_BYTES, contentTypes: ['application/pdf'], accept: 'application/pdf' },
  privateKey: { maxBytes: PRIVATE_KEY_MAX_BYTES, contentTypes: ['application/x-pem-file'], accept: '.pem,.key,.json' },
};

export const fileKindOf = (key: FileKey): FileKind =>
  (settingDefinitions.get(key) as Extract<SettingDefinition, { type: 'file' }>).fileKind;

export const logoKeys = fileKeys.filter((key) => fileKindOf(key) === 'logo');
/** Files uploaded on the Files section; the private key has its own calls. */
export const uploadableFileKeys = fileKeys.filter((key) => fileKindOf(key) !== 'privateKey');
export const PRIVATE_KEY_FILE: FileKey = 'eClinicalWorksBulkPrivateKey';

export const fileKeyParamsSchema = z.object({ fileKey: z.string().max(60, 'invalid') });

// ---------------------------------------------------------------------------------------------------
// Reads every signed-in role may make (section 7)

/** Single-flag reads: path name → setting key. */
export const settingFlagReads = {
  selfcheckin: 'enablePatientSelfCheckin',
  athena: 'useAthena',
  rpm: 'useRpm',
  nevro: 'useNevro',
  codepull: 'useCodePull',
  modmed: 'useModMed',
  drchrono: 'useDrChrono',
  mainstay: 'useMainstay',
  advancedmd: 'useAdvancedMD',
  greenway: 'useGreenway',
  eclinicalworks: 'useEClinicalWorks',
  portalproclinic: 'isPortalProClinic',
  campaignonly: 'campaignOnly',
  bmifilter: 'showBmiFilterOnSandbox',
} as const satisfies Record<string, BooleanKey>;
export type SettingFlagRead = keyof typeof settingFlagReads;
export const settingFlagReadNames = Object.keys(settingFlagReads) as SettingFlagRead[];

export const settingFlagParamsSchema = z.object({
  flag: z.enum(settingFlagReadNames as [SettingFlagRead, ...SettingFlagRead[]]),
});
export const settingFlagSchema = z.object({ flag: z.string(), key: z.string(), enabled: z.boolean() });

export const extendedPatientQuestionKeys = keysOfGroup('extendedPatientQuestions') as BooleanKey[];
export const extendedPatientQuestionsSchema = z.object({
  enabled: z.boolean(),
  extendedPatientAskSexualOrientation: z.boolean(),
  extendedPatientAskAssignedSexAtBirth: z.boolean(),
  extendedPatientAskPreferredPronouns: z.boolean(),
  extendedPatientAskCommunicationPreferences: z.boolean(),
});

export const timeZoneOffsetSchema = z.object({ timeZoneId: z.string(), timeZoneOffsetHours: z.number() });
export const autoLogoutTimeSchema = z.object({ autoLogoutTime: z.number().int() });
export const primaryLogoUrlSchema = z.object({ url: z.string().nullable() });
