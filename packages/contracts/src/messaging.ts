import { z } from 'zod';
import { listTotalShape, paginationFilterSchemaOf } from './paging';
import { idSchema, isValidMdyDate, optionalMdyDaySchema } from './validation';

/** Issue #11: outbound messages, the communication dashboard, staff notifications and staff messages. */

export const outboxChannels = ['email', 'sms'] as const;
export type OutboxChannel = (typeof outboxChannels)[number];

/**
 * stored: no provider configured (kept, never dropped); scheduled: waits for its time; queued: a
 * delivery job exists (also between retries); sent: the provider accepted it; delivered / undelivered:
 * the provider's later report; failed: the last try failed; suppressed: not sent on purpose, with the
 * reason.
 */
export const outboxStatuses = [
  'stored',
  'scheduled',
  'queued',
  'sent',
  'delivered',
  'undelivered',
  'failed',
  'suppressed',
] as const;
export type OutboxStatus = (typeof outboxStatuses)[number];

/** Why a message was not sent on purpose; staff see it translated. */
export const suppressionReasons = [
  'optedOut',
  'clinicSmsOff',
  'clinicEmailOff',
  'patientEmailOff',
  'patientTextOff',
  'patientOptionalOff',
] as const;
export type SuppressionReason = (typeof suppressionReasons)[number];
export const isSuppressionReason = (value: string | null): value is SuppressionReason =>
  (suppressionReasons as readonly string[]).includes(value ?? '');

/**
 * Why a message waits longer than asked (decision 0066): the patient already had the clinic's daily
 * number of automatic messages (`maxPatientMessagesPerDay`) on that clinic day, so it goes the next
 * morning. Kept in the message's `error` like a suppression reason; staff see it in words.
 */
export const heldReasons = ['heldDailyCap'] as const;
export type HeldReason = (typeof heldReasons)[number];
/** A suppression or held reason: words for staff, not a provider's error. */
export const isMessageReason = (value: string | null): value is SuppressionReason | HeldReason =>
  isSuppressionReason(value) || (heldReasons as readonly string[]).includes(value ?? '');

/**
 * Optional messages: what the clinic chooses to send (campaigns), apart from care messages (the
 * patient's own forms, appointments, sign-in). A patient who declined them on the opt-in page
 * (`outreachEmail` / `outreachText`) still gets every care message (decision 0065).
 */
export const optionalMessageTemplates: readonly string[] = ['campaign'];

/** Templates the product sends; the dashboard filters by them. */
export const messageTemplates = [
  'patient-link',
  'intake',
  'perioperative',
  'support-request',
  'welcome',
  'reset-password',
  'two-factor-code',
  'confirm-signup',
  'already-registered',
] as const;
export type MessageTemplate = (typeof messageTemplates)[number];

/** Statuses a message may be sent again from (communication dashboard: resend). */
export const resendableStatuses: readonly OutboxStatus[] = ['failed', 'undelivered', 'stored'];

/** Communication dashboard page size (specification section 9: default page size 15). */
export const COMMUNICATION_PAGE_SIZE = 15;

const optionalDay = optionalMdyDaySchema;

const emptyToUndefined = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((value) => (value === '' || value === null ? undefined : value), schema.optional());

export const communicationFilterSchema = z.object({
  /** MM/DD/YYYY clinic days, both included. */
  startDate: optionalDay,
  endDate: optionalDay,
  channel: emptyToUndefined(z.enum(outboxChannels, 'invalid')),
  status: emptyToUndefined(z.enum(outboxStatuses, 'invalid')),
  template: emptyToUndefined(z.string().max(60, 'tooLong')),
  patientId: emptyToUndefined(idSchema),
  paginationFilter: paginationFilterSchemaOf({ maxPageSize: 100 }).default({
    pageSize: COMMUNICATION_PAGE_SIZE,
    pageNumber: 0,
  }),
});
export type CommunicationFilter = z.input<typeof communicationFilterSchema>;
export type CommunicationFilterParsed = z.output<typeof communicationFilterSchema>;

/** A file sent with a message (a support request's screenshot): what the dashboard lists to open it. */
export const communicationAttachmentSchema = z.object({
  id: idSchema,
  fileName: z.string(),
  contentType: z.string(),
  /** Bytes of the file as sent. */
  size: z.number().int(),
});
export type CommunicationAttachment = z.infer<typeof communicationAttachmentSchema>;

export const communicationMessageSchema = z.object({
  id: idSchema,
  createdAt: z.string(),
  channel: z.enum(outboxChannels),
  /** Masked: the last 4 digits of a number, the first letter and domain of an address. */
  recipient: z.string(),
  template: z.string(),
  patient: z.object({ id: idSchema, name: z.string() }).nullable(),
  status: z.enum(outboxStatuses),
  /** The provider's error, or a suppression reason (see suppressionReasons). */
  error: z.string().nullable(),
  attempts: z.number().int(),
  sendAfter: z.string().nullable(),
  sentAt: z.string().nullable(),
  resendable: z.boolean(),
  attachments: z.array(communicationAttachmentSchema),
});
export type CommunicationMessage = z.infer<typeof communicationMessageSchema>;

export const communicationPageSchema = z.object({
  ...listTotalShape,
  data: z.array(communicationMessageSchema),
  /** Whether each channel has a provider; without one messages stay stored (the dashboard says so). */
  providers: z.object({ email: z.boolean(), sms: z.boolean() }),
});
export type CommunicationPage = z.infer<typeof communicationPageSchema>;

export const communicationDaySchema = z.object({
  /** MM/DD/YYYY clinic day. */
  day: z.string(),
  counts: z.record(z.enum(outboxStatuses), z.number().int()),
});
export const communicationCountsSchema = z.object({ days: z.array(communicationDaySchema) });
export type CommunicationCounts = z.infer<typeof communicationCountsSchema>;

export const batchProgressSchema = z.object({
  batchId: idSchema,
  total: z.number().int(),
  /** Settled: sent, delivered, undelivered, failed, suppressed or stored. */
  done: z.number().int(),
  failed: z.number().int(),
});
export type BatchProgress = z.infer<typeof batchProgressSchema>;

// Notifications (specification sections 2, 3, 4 and 9)

/** Latest notifications in the bell's list (section 9). */
export const NOTIFICATION_LIST_SIZE = 50;
/** How long a new notification's popup stays (section 9). */
export const NOTIFICATION_POPUP_MS = 10_000;

/**
 * formsCompleted: the patient finished the intake (section 3); accessRequest: someone whose identity check
 * did not match asks for access to a link (issue #12); accountClosed: the patient closed their account;
 * criticalFinding: a response has a safety item answered (PHQ-9 item 9 above 0, decision 0058), urgent,
 * for the patient's Doctor and the clinic's Admins only.
 */
export const notificationKinds = ['formsCompleted', 'accessRequest', 'accountClosed', 'pathwayTask', 'criticalFinding'] as const;
export type NotificationKind = (typeof notificationKinds)[number];
export const notificationSchema = z.object({
  id: idSchema,
  kind: z.enum(notificationKinds),
  /** ISO instant: the client renders the spec's '{timestamp}: {first} {last} has submitted…' text. */
  createdAt: z.string(),
  patientId: idSchema,
  patientFirstName: z.string(),
  patientLastName: z.string(),
  seen: z.boolean(),
  notified: z.boolean(),
  /** The response a criticalFinding is about (its page has the Acknowledge action); null for the other kinds. */
  responseId: idSchema.nullable(),
  /** A criticalFinding whose finding nobody has acknowledged yet: shown red. */
  urgent: z.boolean(),
});
export type StaffNotification = z.infer<typeof notificationSchema>;

export const notificationListSchema = z.object({
  unseen: z.number().int(),
  data: z.array(notificationSchema),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

export const notificationPageSchema = z.object({
  ...listTotalShape,
  unseen: z.number().int(),
  data: z.array(notificationSchema),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;

export const notificationIdsSchema = z.object({ ids: z.array(idSchema).min(1, 'required').max(200, 'numberOutOfRange') });

// Staff messages (issue #11 §5)

export const USER_MESSAGE_MAX_LENGTH = 4000;

export const userMessageInputSchema = z.object({
  text: z.string().trim().min(1, 'required').max(USER_MESSAGE_MAX_LENGTH, 'tooLong'),
});

export const userMessageSchema = z.object({
  id: idSchema,
  fromUserId: idSchema,
  toUserId: idSchema,
  text: z.string(),
  createdAt: z.string(),
  seenAt: z.string().nullable(),
});
export type UserMessage = z.infer<typeof userMessageSchema>;

export const conversationSchema = z.object({
  userId: idSchema,
  name: z.string(),
  role: z.string(),
  lastMessage: z.string(),
  lastMessageAt: z.string(),
  lastFromMe: z.boolean(),
  unread: z.number().int(),
});
export type Conversation = z.infer<typeof conversationSchema>;

export const conversationListSchema = z.object({
  currentUserId: idSchema,
  unread: z.number().int(),
  data: z.array(conversationSchema),
});
export type ConversationList = z.infer<typeof conversationListSchema>;

export const conversationThreadSchema = z.object({
  currentUserId: idSchema,
  other: z.object({ id: idSchema, name: z.string(), role: z.string() }),
  data: z.array(userMessageSchema),
});
export type ConversationThread = z.infer<typeof conversationThreadSchema>;

export const messageContactSchema = z.object({ id: idSchema, name: z.string(), role: z.string() });
export type MessageContact = z.infer<typeof messageContactSchema>;

// Contact support

/** An optional screenshot goes with a support request (decision 0037): PNG, JPEG or WebP, at most 2 MB. */
export const supportScreenshotTypes = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type SupportScreenshotType = (typeof supportScreenshotTypes)[number];
export const SUPPORT_SCREENSHOT_MAX_BYTES = 2 * 1024 * 1024;
/** The longest data URL such a file makes: base64 writes 4 characters for every 3 bytes. */
export const SUPPORT_SCREENSHOT_MAX_CHARS = 'data:image/jpeg;base64,'.length + Math.ceil(SUPPORT_SCREENSHOT_MAX_BYTES / 3) * 4;
/** Linear: one anchored run of base64 characters. The server still checks the bytes themselves. */
const SCREENSHOT_DATA_URL = /^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

export const supportRequestSchema = z.object({
  subject: z.string().trim().min(1, 'required').max(200, 'tooLong'),
  message: z.string().trim().min(1, 'required').max(5000, 'tooLong'),
  /** A `data:image/…;base64,` URL, as FileReader.readAsDataURL makes it. */
  screenshot: z
    .string()
    .max(SUPPORT_SCREENSHOT_MAX_CHARS, 'fileTooLarge')
    .regex(SCREENSHOT_DATA_URL, 'fileTypeInvalid')
    .optional(),
  /** The chosen file's name, shown to support; the server cleans it and falls back to screenshot.<type>. */
  screenshotName: z.string().trim().max(200, 'tooLong').optional(),
});
export type SupportRequest = z.input<typeof supportRequestSchema>;

// Perioperative messages (issue #11 §6)

/** The clinic hour a scheduled perioperative message goes out on its day. */
export const PERIOPERATIVE_SEND_HOUR = 9;

const requiredDay = z
  .string('required')
  .trim()
  .min(1, 'required')
  .max(10, 'dateInvalid')
  .refine((value) => isValidMdyDate(value), 'dateInvalid');

export const perioperativeScheduleSchema = z.object({
  patientId: idSchema,
  templateId: idSchema,
  /** MM/DD/YYYY: the procedure or appointment day the offsets count from. */
  procedureDate: requiredDay,
});
export type PerioperativeSchedule = z.input<typeof perioperativeScheduleSchema>;

export const perioperativeSendNowSchema = z.object({
  patientId: idSchema,
  templateId: idSchema,
  detailId: idSchema,
});
export type PerioperativeSendNow = z.input<typeof perioperativeSendNowSchema>;

/** A message to or for one patient, as the patient dashboard lists it. */
export const patientMessageSchema = z.object({
  id: idSchema,
  channel: z.enum(outboxChannels),
  recipient: z.string(),
  template: z.string(),
  subject: z.string().nullable(),
  status: z.enum(outboxStatuses),
  error: z.string().nullable(),
  createdAt: z.string(),
  sendAfter: z.string().nullable(),
  sentAt: z.string().nullable(),
});
export type PatientMessage = z.infer<typeof patientMessageSchema>;

export const perioperativeScheduleResultSchema = z.object({
  /** Messages created (scheduled, queued, stored or suppressed, each with its reason). */
  messages: z.array(patientMessageSchema),
  /** Details whose day had already passed, or that had no address for their channel. */
  skipped: z.array(z.object({ detailId: idSchema, reason: z.enum(['past', 'noContact']) })),
});
export type PerioperativeScheduleResult = z.infer<typeof perioperativeScheduleResultSchema>;
