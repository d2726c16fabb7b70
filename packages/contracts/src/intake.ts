import { z } from 'zod';
import { bodyMapSchema } from './body-map.js';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN, idSchema, US_PHONE_PATTERN, US_ZIP_PATTERN } from './validation.js';
import { criticalFindingSchema } from './critical-findings.js';
import { formLanguageSchema, localizedTextSchema, notScoredSchema, signatureAnswerSchema } from './forms.js';
import { verifyLinkSchema } from './patient-links.js';
import { suppressionReasons } from './messaging.js';

/**
 * Patient intake (issue #12, decision 0032). One link per appointment runs the patient through the
 * steps of section 3 in this order; the link itself is a patient link of kind 'intake' (decision 0016
 * for the token, identity check and access token).
 */
export const IntakeStep = {
  NewPatientPaperwork: 1,
  HealthHistoryForms: 2,
  CheckInQuestions: 3,
  VasScores: 4,
  BodyMap: 5,
  Pro: 6,
  Payment: 7,
  Completed: 8,
} as const;
export type IntakeStepCode = (typeof IntakeStep)[keyof typeof IntakeStep];
/** Steps a patient does (Completed is the state after the last of them). */
export const intakeWorkSteps = [1, 2, 3, 4, 5, 6, 7] as const;
export type IntakeWorkStep = (typeof intakeWorkSteps)[number];
export const intakeWorkStepSchema = z
  .number()
  .int()
  .refine((value): value is IntakeWorkStep => (intakeWorkSteps as readonly number[]).includes(value), 'invalid');

/** How long an intake link stays open after the appointment starts, unless staff set another end date. */
export const INTAKE_OPEN_HOURS_AFTER_START = 12;
/** A link sent long before the visit still works up to this many days. */
export const INTAKE_MAX_DAYS = 60;

export const INTAKE_LINK_TITLE = { en: 'Visit check-in', es: 'Registro para su cita' } as const;

const text = (max: number) => z.string().trim().max(max, 'tooLong');
const optionalText = (max: number) => text(max).optional();
const phone = z.string().trim().max(30, 'phoneInvalid').regex(US_PHONE_PATTERN, 'phoneInvalid');
/** Blank, or matching the pattern: a patient may leave an optional field empty. */
const blankOr = (pattern: RegExp, max: number, key: 'phoneInvalid' | 'emailInvalid' | 'zipInvalid' | 'invalid') =>
  z
    .string()
    .trim()
    .max(max, key)
    .refine((value) => value === '' || pattern.test(value), key)
    .optional();
const optionalPhone = blankOr(US_PHONE_PATTERN, 30, 'phoneInvalid');

export const intakePhoneTypes = ['MOBILE', 'HOME', 'WORK'] as const;
export const contactRoles = ['emergency', 'guarantor', 'nextOfKin'] as const;

const insuranceSchema = z.object({
  payer: optionalText(120),
  memberId: optionalText(60),
  groupNumber: optionalText(60),
  subscriberName: optionalText(120),
  relationshipToInsured: z.enum(['self', 'spouse', 'child', 'other']).optional(),
});

/**
 * Photos of the insurance cards in the paperwork step (issue #12): front and back of the primary and
 * the secondary card, one image per side, sent as the raw body of `PUT /api/intake/{token}/insurance-card/{side}`.
 */
export const insuranceCardSides = ['primaryFront', 'primaryBack', 'secondaryFront', 'secondaryBack'] as const;
export type InsuranceCardSide = (typeof insuranceCardSides)[number];
export const insuranceCardSideSchema = z.enum(insuranceCardSides);
export const insuranceCardTypes = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type InsuranceCardType = (typeof insuranceCardTypes)[number];
/** The browser shrinks a photo to 1600 px JPEG first (a few hundred KB); this bounds what the server takes. */
export const INSURANCE_CARD_MAX_BYTES = 2 * 1024 * 1024;
export const insuranceCardSavedSchema = z.object({
  side: insuranceCardSideSchema,
  contentType: z.enum(insuranceCardTypes),
  size: z.number().int(),
});
export type InsuranceCardSaved = z.infer<typeof insuranceCardSavedSchema>;
/** A card photo as staff see it on the patient's intake; `url` answers the image to a signed-in session. */
export const insuranceCardPhotoSchema = z.object({
  id: idSchema,
  side: insuranceCardSideSchema,
  createdAt: z.string(),
  url: z.string(),
});
export type InsuranceCardPhoto = z.infer<typeof insuranceCardPhotoSchema>;

/**
 * New-patient paperwork as the patient fills it in. Every field is optional while it is a draft; the
 * server checks what a finished step needs (`paperworkProblems`), including the clinic's own switches.
 */
export const paperworkSchema = z.object({
  email: blankOr(EMAIL_PATTERN, EMAIL_MAX_LENGTH, 'emailInvalid'),
  streetAddress1: optionalText(200),
  streetAddress2: optionalText(200),
  city: optionalText(100),
  state: blankOr(/^[A-Z]{2}$/, 2, 'invalid'),
  zip: blankOr(US_ZIP_PATTERN, 10, 'zipInvalid'),
  preferredLanguage: formLanguageSchema.optional(),
  phones: z
    .array(z.object({ type: z.enum(intakePhoneTypes), number: phone }))
    .max(3, 'tooLong')
    .optional(),
  contacts: z
    .array(
      z.object({
        role: z.enum(contactRoles),
        name: text(120),
        relationship: optionalText(60),
        phone: optionalPhone,
      }),
    )
    .max(3, 'tooLong')
    .optional(),
  selfPay: z.boolean().optional(),
  primaryInsurance: insuranceSchema.optional(),
  secondaryInsurance: insuranceSchema.optional(),
  pharmacy: z.object({ name: optionalText(120), phone: optionalPhone }).optional(),
  extended: z
    .object({
      sexualOrientation: optionalText(60),
      sexAssignedAtBirth: z.enum(['female', 'male', 'intersex', 'declined']).optional(),
      pronouns: optionalText(40),
      communicationPreference: z.enum(['email', 'text', 'phone', 'mail']).optional(),
    })
    .optional(),
  agreementSignature: signatureAnswerSchema.nullable().optional(),
});
export type Paperwork = z.infer<typeof paperworkSchema>;

export interface PaperworkRules {
  pharmacyRequired: boolean;
}

/** What a finished paperwork step must hold: field path → validation message key. */
export function paperworkProblems(paperwork: Paperwork, rules: PaperworkRules): Record<string, 'required'> {
  const problems: Record<string, 'required'> = {};
  const need = (path: string, value: string | undefined | null) => {
    if (!value || !value.trim()) problems[path] = 'required';
  };
  need('streetAddress1', paperwork.streetAddress1);
  need('city', paperwork.city);
  need('state', paperwork.state);
  need('zip', paperwork.zip);
  if (!paperwork.phones?.length) problems.phones = 'required';
  const emergency = paperwork.contacts?.find((contact) => contact.role === 'emergency');
  need('contacts.emergency.name', emergency?.name);
  need('contacts.emergency.phone', emergency?.phone);
  if (!paperwork.selfPay) {
    need('primaryInsurance.payer', paperwork.primaryInsurance?.payer);
    need('primaryInsurance.memberId', paperwork.primaryInsurance?.memberId);
  }
  if (rules.pharmacyRequired) need('pharmacy.name', paperwork.pharmacy?.name);
  if (!paperwork.agreementSignature) problems.agreementSignature = 'required';
  return problems;
}

export const PAIN_SCALE_MIN = 0;
export const PAIN_SCALE_MAX = 10;
/**
 * A pain score is an answer the patient gives (issue #24 §1): no default, and a missing one is
 * 'painScoreRequired', never 0. 0 is the patient's explicit "no pain".
 */
const painScore = z
  .number({ error: (issue) => (issue.input === undefined ? 'painScoreRequired' : 'numberInvalid') })
  .int('numberInvalid')
  .min(PAIN_SCALE_MIN, 'numberOutOfRange')
  .max(PAIN_SCALE_MAX, 'numberOutOfRange');
/** Section 9: 0 no pain, 5 moderate, 10 worst possible. */
export const vasScoresSchema = z.object({
  current: painScore,
  average: painScore,
  best: painScore,
  worst: painScore,
});
export type VasScores = z.infer<typeof vasScoresSchema>;
export const vasKeys = ['current', 'average', 'best', 'worst'] as const;

export const healthHistorySchema = z.object({
  noKnownAllergies: z.boolean().optional(),
  allergies: z
    .array(z.object({ name: text(120).min(1, 'required'), reaction: optionalText(200) }))
    .max(50, 'tooLong')
    .optional(),
  noMedications: z.boolean().optional(),
  medications: z
    .array(z.object({ name: text(120).min(1, 'required'), dose: optionalText(60), frequency: optionalText(60) }))
    .max(100, 'tooLong')
    .optional(),
});
export type HealthHistory = z.infer<typeof healthHistorySchema>;

export function healthHistoryProblems(history: HealthHistory): Record<string, 'required'> {
  const problems: Record<string, 'required'> = {};
  if (!history.noKnownAllergies && !history.allergies?.length) problems.allergies = 'required';
  if (!history.noMedications && !history.medications?.length) problems.medications = 'required';
  return problems;
}

/** Card payment comes later (payments issue); today the patient chooses to pay at the desk. */
export const paymentChoiceSchema = z.object({ method: z.enum(['desk']) });
export type PaymentChoice = z.infer<typeof paymentChoiceSchema>;

/** A step's answers as sent by the patient: `final` finishes the step, otherwise it is a draft. */
export const intakeStepSaves = {
  paperwork: z.object({ final: z.boolean(), language: formLanguageSchema, data: paperworkSchema }),
  history: z.object({ final: z.boolean(), language: formLanguageSchema, data: healthHistorySchema }),
  vas: z.object({ final: z.boolean(), language: formLanguageSchema, data: vasScoresSchema.partial() }),
  bodymap: z.object({ final: z.boolean(), language: formLanguageSchema, data: bodyMapSchema }),
  payment: z.object({ final: z.boolean(), language: formLanguageSchema, data: paymentChoiceSchema }),
} as const;
export type IntakeStepSlug = keyof typeof intakeStepSaves;
export const intakeStepOfSlug: Record<IntakeStepSlug, IntakeWorkStep> = {
  paperwork: 1,
  history: 2,
  vas: 4,
  bodymap: 5,
  payment: 7,
};

/** A form inside the flow: an outcome form (PRO step) or a clinic's custom form (history, check-in). */
export const intakeFormKeySchema = z
  .string()
  .max(50)
  .regex(/^(pro-([1-9]|1[0-5])|cf-[0-9a-f-]{36})$/i, 'invalid');
export const intakeFormSchema = z.object({
  key: z.string(),
  step: z.union([z.literal(2), z.literal(3), z.literal(6)]),
  title: localizedTextSchema,
  done: z.boolean(),
});
export type IntakeForm = z.infer<typeof intakeFormSchema>;

export const intakeViewSchema = z.object({
  patientFirstName: z.string(),
  clinicName: z.string(),
  appointment: z.object({
    id: idSchema,
    startsAt: z.string(),
    /** Day and time in the clinic's time zone, MM/DD/YYYY h:mm AM. */
    startsAtText: z.string(),
    doctorName: z.string().nullable(),
    newPatient: z.boolean(),
  }),
  steps: z.array(z.object({ step: intakeWorkStepSchema, done: z.boolean() })),
  /** Steps whose own answers are final (a step may still wait for its forms). */
  ownDone: z.array(intakeWorkStepSchema),
  forms: z.array(intakeFormSchema),
  saved: z.object({
    paperwork: paperworkSchema.nullable(),
    history: healthHistorySchema.nullable(),
    vas: vasScoresSchema.partial().nullable(),
    bodymap: bodyMapSchema.nullable(),
    payment: paymentChoiceSchema.nullable(),
  }),
  previousBodyMap: bodyMapSchema.nullable(),
  agreement: z
    .object({ title: localizedTextSchema, text: localizedTextSchema, version: z.string(), fileUrl: z.string().nullable() })
    .nullable(),
  options: z.object({
    welcomeScreen: z.boolean(),
    hideExitPro: z.boolean(),
    checkinConfirmation: z.boolean(),
    pharmacyRequired: z.boolean(),
    /** Ask how the clinic may contact the patient before the steps (`showOptInToConsentPage`). */
    contactOptIn: z.boolean(),
    ask: z.object({
      sexualOrientation: z.boolean(),
      sexAssignedAtBirth: z.boolean(),
      pronouns: z.boolean(),
      communicationPreferences: z.boolean(),
    }),
  }),
  amountDueCents: z.number().int().nullable(),
  /** What the patient chose on the opt-in page of this intake; null until they answer. */
  contactChoice: z.object({ email: z.boolean(), text: z.boolean() }).nullable(),
  /** The patient's mobile number replied STOP: texts stay off until they reply START (shown on the opt-in page). */
  textStopped: z.boolean().optional(),
  completedAt: z.string().nullable(),
  /**
   * Self (at the clinic) or home check-in from the link: offered on the day of the visit when the clinic
   * allows it. `fromHome`: the clinic takes check-in from home (`enableHomeCheckin`), so the page asks
   * where the patient is (decision 0059); otherwise they are at the clinic.
   */
  checkIn: z.object({ offered: z.boolean(), checkedIn: z.boolean(), fromHome: z.boolean() }),
  /** The card sides the patient has photographed in this intake. */
  insuranceCards: z.array(insuranceCardSideSchema),
});
export type IntakeView = z.infer<typeof intakeViewSchema>;

export const patientCheckInResponseSchema = z.object({
  checkedIn: z.boolean(),
  confirmationPage: z.boolean(),
  /**
   * Self check-in only (decision 0034): the visit's intake is not finished, so the patient, who has just
   * proved who they are, can go on with it on this phone. The link gets a new address (the emailed one
   * stops working) and an access token, so the intake opens without a second identity check.
   */
  continueIntake: z.object({ token: z.string(), appointmentId: idSchema, accessToken: z.string() }).optional(),
});
export type PatientCheckInResponse = z.infer<typeof patientCheckInResponseSchema>;

/**
 * Self check-in at the clinic from a QR code (decision 0034): the page names the patient and the
 * appointment, and the patient proves who they are with last name and date of birth.
 */
export const selfCheckInParamsSchema = z.object({ patientId: idSchema, appointmentId: idSchema });
export const selfCheckInStateSchema = z.object({
  clinicName: z.string(),
  /** ready: the patient can check in now; checkedIn: already done; notToday: the visit is another day; locked: too many wrong answers. */
  state: z.enum(['ready', 'checkedIn', 'notToday', 'locked']),
  lockedMinutes: z.number().int().nullable(),
});
export type SelfCheckInState = z.infer<typeof selfCheckInStateSchema>;
export const selfCheckInSchema = verifyLinkSchema;
export type SelfCheckIn = z.infer<typeof selfCheckInSchema>;

/** The opt-in page: care messages by email and by text, each chosen by the patient (unchecked until they do). */
export const contactChoiceSchema = z.object({ email: z.boolean(), text: z.boolean() });
export type ContactChoice = z.infer<typeof contactChoiceSchema>;

export const intakeSaveResponseSchema = z.object({ done: z.boolean(), completed: z.boolean() });
export type IntakeSaveResponse = z.infer<typeof intakeSaveResponseSchema>;

// ---- staff side ------------------------------------------------------------------------------------

export const intakeSendChannels = ['email', 'sms'] as const;
export const createIntakeSchema = z.object({
  patientId: idSchema,
  appointmentId: idSchema,
  /** Which of steps 1–7 the link asks for; empty or absent: what the clinic's settings and the patient need. */
  steps: z.array(intakeWorkStepSchema).max(7).optional(),
  /** Outcome forms of the PRO step; absent: the appointment's assigned forms. */
  formCodes: z.array(z.number().int().min(1, 'invalid').max(15, 'invalid')).max(15).optional(),
  historyFormIds: z.array(idSchema).max(10).optional(),
  checkInFormIds: z.array(idSchema).max(10).optional(),
  amountDueCents: z.number().int().min(0, 'numberOutOfRange').max(10_000_000, 'numberOutOfRange').nullish(),
  send: z.array(z.enum(intakeSendChannels)).max(2).default([]),
  language: formLanguageSchema.optional(),
});
export type CreateIntake = z.input<typeof createIntakeSchema>;

export const intakeSendResultSchema = z.object({
  channel: z.enum(intakeSendChannels),
  status: z.string(),
  /** Why it did not go (a suppression, or no address on file), shown in words where staff sent it. */
  reason: z.enum([...suppressionReasons, 'noAddress']).nullable().optional(),
});
export const createdIntakeSchema = z.object({
  linkId: idSchema,
  url: z.string(),
  steps: z.array(intakeWorkStepSchema),
  expiresAt: z.string(),
  sent: z.array(intakeSendResultSchema),
});
export type CreatedIntake = z.infer<typeof createdIntakeSchema>;

export const consentKinds = ['newPatientAgreement', 'shotConsent'] as const;
export type ConsentKind = (typeof consentKinds)[number];
export const consentSchema = z.object({
  id: idSchema,
  kind: z.enum(consentKinds),
  title: z.string(),
  language: formLanguageSchema,
  version: z.string(),
  signedAt: z.string(),
  expiresAt: z.string().nullable(),
  expired: z.boolean(),
  pdfUrl: z.string(),
});
export type Consent = z.infer<typeof consentSchema>;

export const staffIntakeSchema = z.object({
  linkId: idSchema,
  appointmentId: idSchema,
  appointmentStartsAt: z.string(),
  status: z.enum(['active', 'completed', 'expired', 'revoked', 'locked']),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  steps: z.array(z.object({ step: intakeWorkStepSchema, done: z.boolean() })),
  forms: z.array(
    intakeFormSchema.extend({ responseId: idSchema.nullable(), headlineScore: z.number().nullable(), notScored: notScoredSchema }),
  ),
  saved: intakeViewSchema.shape.saved,
  previousBodyMap: bodyMapSchema.nullable(),
  consents: z.array(consentSchema),
  insuranceCards: z.array(insuranceCardPhotoSchema),
});
export type StaffIntake = z.infer<typeof staffIntakeSchema>;

export const appointmentDashboardQuerySchema = z.object({
  /** MM/DD/YYYY in clinic time; absent: today. */
  date: z.string().max(10).optional(),
  doctorId: idSchema.optional(),
  roomId: idSchema.optional(),
});
export const appointmentDashboardRowSchema = z.object({
  appointmentId: idSchema,
  patientId: idSchema,
  patientName: z.string(),
  startsAt: z.string(),
  timeText: z.string(),
  doctorName: z.string().nullable(),
  roomName: z.string().nullable(),
  status: z.number().int(),
  checkedIn: z.boolean(),
  /** Raised in this appointment, and the patient's still unacknowledged ones (decision 0058): red until acknowledged. */
  criticalFindings: z.array(criticalFindingSchema),
  intake: z
    .object({
      linkStatus: z.enum(['active', 'completed', 'expired', 'revoked', 'locked']),
      steps: z.array(z.object({ step: intakeWorkStepSchema, done: z.boolean() })),
    })
    .nullable(),
});
export const appointmentDashboardSchema = z.object({
  date: z.string(),
  /** The clinic offers self check-in from a QR code (`enablePatientSelfCheckin`, decision 0034). */
  selfCheckIn: z.boolean(),
  rows: z.array(appointmentDashboardRowSchema),
});
export type AppointmentDashboard = z.infer<typeof appointmentDashboardSchema>;

export const bulkIntakeQuerySchema = z.object({
  date: z.string().max(10),
  doctorIds: z.array(idSchema).max(200).default([]),
  send: z.array(z.enum(intakeSendChannels)).min(1, 'required').max(2).default(['email', 'sms']),
});
export const bulkIntakeCandidateSchema = z.object({
  appointmentId: idSchema,
  patientId: idSchema,
  patientName: z.string(),
  timeText: z.string(),
  doctorName: z.string().nullable(),
  channels: z.array(z.enum(intakeSendChannels)),
  /** Why nobody can be reached, when channels is empty. */
  reason: z.enum(['noContact', 'optedOut', 'alreadySent', 'completed']).nullable(),
});
export const bulkIntakePreviewSchema = z.object({ candidates: z.array(bulkIntakeCandidateSchema) });
export const bulkIntakeStartedSchema = z.object({ batchId: idSchema, links: z.number().int(), messages: z.number().int() });
export const bulkIntakeProgressSchema = z.object({
  batchId: idSchema,
  total: z.number().int(),
  waiting: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  notSent: z.number().int(),
});
export type BulkIntakeProgress = z.infer<typeof bulkIntakeProgressSchema>;

// ---- the doctor's one-pager ----------------------------------------------------------------------------

export const onePagerQuerySchema = z.object({ appointmentId: idSchema });

/** Pain now minus pain then, score by score (negative: less pain than last time). */
const painChangeSchema = z.object({
  current: z.number().int(),
  average: z.number().int(),
  best: z.number().int(),
  worst: z.number().int(),
});

/**
 * `GET /api/patientappointments/one-pager` (section 7 "GET one-pager", issue #12): what a doctor reads
 * in half a minute before the visit, printable. Everything comes from the appointment's intake and the
 * patient's record; a part the patient has not finished is null or empty, never an error. Answers count
 * only once their step is finished (a draft the patient may still change is not shown as an answer).
 */
export const onePagerSchema = z.object({
  patient: z.object({
    id: idSchema,
    name: z.string(),
    /** YYYY-MM-DD. */
    dateOfBirth: z.string(),
    /** Whole years on the day of the visit (clinic calendar). */
    age: z.number().int(),
    /** The gender custom-field value, as the clinic wrote it. */
    sex: z.string().nullable(),
  }),
  appointment: z.object({
    id: idSchema,
    startsAt: z.string(),
    /** Day and time in the clinic's time zone, MM/DD/YYYY hh:mm AM. */
    startsAtText: z.string(),
    reason: z.enum(['new_patient', 'follow_up']).nullable(),
    typeName: z.string().nullable(),
    roomName: z.string().nullable(),
    doctorName: z.string().nullable(),
    /** Appointment status code (Checking_In 1, Upcoming 2, Completed 3, No_Show 4). */
    status: z.number().int(),
    checkedInAt: z.string().nullable(),
  }),
  /** The appointment's intake (its latest finished link, else its latest link); null when none was made. */
  intake: z
    .object({
      linkId: idSchema,
      status: z.enum(['active', 'completed', 'expired', 'revoked', 'locked']),
      steps: z.array(z.object({ step: intakeWorkStepSchema, done: z.boolean() })),
      stepsDone: z.number().int(),
      stepsPlanned: z.number().int(),
      completedAt: z.string().nullable(),
    })
    .nullable(),
  pain: z.object({
    current: vasScoresSchema.nullable(),
    /** The latest earlier visit whose intake has finished pain scores. */
    previous: z.object({ appointmentId: idSchema, startsAt: z.string(), scores: vasScoresSchema }).nullable(),
    /** current minus previous; null unless both are there. */
    change: painChangeSchema.nullable(),
  }),
  bodyMap: z.object({
    /** Marked areas, most painful first; `count` is the widespread figure (decision 0031). */
    current: z
      .object({
        regions: z.array(z.object({ id: z.string(), level: z.number().int() })),
        count: z.number().int(),
      })
      .nullable(),
    /** The latest earlier visit whose intake has a finished body map. */
    previous: z.object({ appointmentId: idSchema, startsAt: z.string(), count: z.number().int() }).nullable(),
  }),
  /** Outcome forms answered for this appointment (the latest response of each form), in form order. */
  pros: z.array(
    z.object({
      responseId: idSchema,
      formCode: z.number().int(),
      title: localizedTextSchema,
      submittedAt: z.string(),
      score: z.number().nullable(),
      /** Why there is no score (decision 0067). */
      notScored: notScoredSchema,
      /** The headline's maximum (section 9). */
      maximum: z.number(),
      band: z.number().int().nullable(),
      bandLabel: localizedTextSchema.nullable(),
      /** The same patient's previous response to the same form, as on the result page. */
      previous: z
        .object({
          responseId: idSchema,
          submittedAt: z.string(),
          score: z.number().nullable(),
          change: z.number().nullable(),
          better: z.boolean().nullable(),
          meetsMcid: z.boolean().nullable(),
        })
        .nullable(),
    }),
  ),
  /** null until the health history step is finished. */
  allergies: z
    .object({
      noneKnown: z.boolean(),
      items: z.array(z.object({ name: z.string(), reaction: z.string().nullable() })),
    })
    .nullable(),
  medications: z
    .object({
      none: z.boolean(),
      items: z.array(z.object({ name: z.string(), dose: z.string().nullable(), frequency: z.string().nullable() })),
    })
    .nullable(),
  /** The clinic's own health history and check-in forms of the intake, answered or not. */
  historyForms: z.array(
    z.object({
      key: z.string(),
      step: z.union([z.literal(2), z.literal(3)]),
      title: localizedTextSchema,
      done: z.boolean(),
      responseId: idSchema.nullable(),
    }),
  ),
  /** The patient's signed consents, newest first. */
  consents: z.array(consentSchema),
});
export type OnePager = z.infer<typeof onePagerSchema>;
