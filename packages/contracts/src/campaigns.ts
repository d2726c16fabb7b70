import { z } from 'zod';
import { idSchema } from './validation';
import {
  campaignChannels,
  campaignMergeFields,
  campaignStatuses,
  recipientChannelStatuses,
  type CampaignMergeField,
} from './outreach';
import { outboxStatuses } from './messaging';
import { audiencePatientSchema, audiencePreviewSchema } from './outreach';

/*
 * Campaigns (issue #15 §3, decision 0051): a bilingual text and/or email to a code pull audience,
 * approved by a System Manager or Admin, sent at a throttled pace inside the clinic's daytime hours.
 */

export const CAMPAIGN_TEXT_MAX = 640;
export const CAMPAIGN_EMAIL_MAX = 5000;
export const CAMPAIGN_THROTTLE_DEFAULT = 60;
export const CAMPAIGN_THROTTLE_MAX = 600;
export const CAMPAIGN_ATTRIBUTION_DAYS_DEFAULT = 30;
export const CAMPAIGN_ATTRIBUTION_DAYS_MAX = 180;

/** `{firstName}`-style fields of a message, in order of appearance. */
export function mergeFieldsIn(message: string): string[] {
  return [...message.matchAll(/\{([A-Za-z]+)\}/g)].map((match) => match[1]!);
}

export function unknownMergeFields(message: string): string[] {
  return mergeFieldsIn(message).filter((field) => !(campaignMergeFields as readonly string[]).includes(field));
}

/** Fills a message's merge fields; a field without a value becomes empty text. */
export function fillMergeFields(message: string, values: Partial<Record<CampaignMergeField, string | null>>): string {
  return message
    .replace(/\{([A-Za-z]+)\}/g, (whole, field: string) =>
      (campaignMergeFields as readonly string[]).includes(field) ? (values[field as CampaignMergeField] ?? '') : whole,
    )
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

const messageText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'required')
    .max(max, 'tooLong')
    .refine((text) => unknownMergeFields(text).length === 0, 'mergeFieldUnknown');
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, 'tooLong')
    .refine((text) => unknownMergeFields(text).length === 0, 'mergeFieldUnknown')
    .nullish()
    .transform((value) => value || null);

export const campaignInputSchema = z
  .object({
    name: z.string().trim().min(1, 'nameRequired').max(120, 'tooLong'),
    templateId: idSchema,
    channels: z
      .array(z.enum(campaignChannels, { error: 'invalid' }))
      .min(1, 'channelRequired')
      .max(2, 'invalid')
      .transform((channels) => [...new Set(channels)]),
    /** The text, or the email body when only email is chosen. */
    messageEn: messageText(CAMPAIGN_EMAIL_MAX),
    messageEs: messageText(CAMPAIGN_EMAIL_MAX),
    subjectEn: optionalText(200),
    subjectEs: optionalText(200),
    /** The booking or reply instruction ({instruction}): "Reply YES or call 555-0100 to book". */
    instructionEn: optionalText(300),
    instructionEs: optionalText(300),
    /** Where {link} leads: the clinic's booking page (https). */
    linkUrl: z
      .string()
      .trim()
      .max(500, 'tooLong')
      .nullish()
      .transform((value) => value || null)
      .refine((url) => url === null || /^https:\/\/[^\s]+$/i.test(url), 'urlInvalid'),
    /** ISO date-time; null sends as soon as it is approved (inside daytime hours). */
    scheduledAt: z.iso
      .datetime({ offset: true, error: 'dateInvalid' })
      .max(40, 'dateInvalid')
      .nullish()
      .transform((value) => value ?? null),
    throttlePerMinute: z
      .number()
      .int('invalid')
      .min(1, 'invalid')
      .max(CAMPAIGN_THROTTLE_MAX, 'invalid')
      .default(CAMPAIGN_THROTTLE_DEFAULT),
    attributionDays: z
      .number()
      .int('invalid')
      .min(1, 'invalid')
      .max(CAMPAIGN_ATTRIBUTION_DAYS_MAX, 'invalid')
      .default(CAMPAIGN_ATTRIBUTION_DAYS_DEFAULT),
  })
  .superRefine((input, issues) => {
    if (input.channels.includes('sms')) {
      for (const field of ['messageEn', 'messageEs'] as const) {
        if (input[field].length > CAMPAIGN_TEXT_MAX) issues.addIssue({ code: 'custom', path: [field], message: 'tooLong' });
      }
    }
    if (input.channels.includes('email')) {
      if (!input.subjectEn) issues.addIssue({ code: 'custom', path: ['subjectEn'], message: 'required' });
      if (!input.subjectEs) issues.addIssue({ code: 'custom', path: ['subjectEs'], message: 'required' });
    }
    const usesLink = [input.messageEn, input.messageEs].some((text) => mergeFieldsIn(text).includes('link'));
    if (usesLink && !input.linkUrl) issues.addIssue({ code: 'custom', path: ['linkUrl'], message: 'required' });
  });
export type CampaignInput = z.output<typeof campaignInputSchema>;
export type CampaignFormValues = z.input<typeof campaignInputSchema>;

/** Sent, delivered, clicked, replied, booked (issue #15 §3): the campaign's funnel. */
export const campaignFunnelSchema = z.object({
  recipients: z.number().int(),
  sent: z.number().int(),
  delivered: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  pending: z.number().int(),
  clicked: z.number().int(),
  replied: z.number().int(),
  optedOut: z.number().int(),
  booked: z.number().int(),
});
export type CampaignFunnel = z.infer<typeof campaignFunnelSchema>;

/**
 * Why a recipient was not reached on a channel (stored on the recipient row, issue #24 §3): no address,
 * the patient's or the clinic's switch off, a STOP, the campaign finished before their turn, or the
 * outbox kept the message back (a suppression, or no provider to send it).
 */
export const campaignSkipReasons = [
  'noAddress',
  'patientTextOff',
  'patientEmailOff',
  'patientOptionalOff',
  'optedOut',
  'clinicSmsOff',
  'clinicEmailOff',
  'finished',
  'noProvider',
  'failed',
] as const;
export type CampaignSkipReason = (typeof campaignSkipReasons)[number];

/**
 * An approved campaign that is not sending now says why (issue #24 §3): its scheduled time has not come,
 * or it is outside the clinic's sending hours (8:00–21:00). `until` is when sending can start.
 */
export const campaignWaitingSchema = z.object({ reason: z.enum(['scheduled', 'sendingHours']), until: z.string() }).nullable();
export type CampaignWaiting = z.infer<typeof campaignWaitingSchema>;

export const campaignSummarySchema = z.object({
  id: idSchema,
  name: z.string(),
  status: z.enum(campaignStatuses),
  channels: z.array(z.enum(campaignChannels)),
  templateName: z.string().nullable(),
  scheduledAt: z.string().nullable(),
  textSending: z.boolean(),
  createdAt: z.string(),
  createdByName: z.string().nullable(),
  approvedAt: z.string().nullable(),
  approvedByName: z.string().nullable(),
  finishedAt: z.string().nullable(),
  funnel: campaignFunnelSchema,
  waiting: campaignWaitingSchema,
});
export type CampaignSummary = z.infer<typeof campaignSummarySchema>;

export const campaignDetailSchema = campaignSummarySchema.extend({
  templateId: idSchema.nullable(),
  messageEn: z.string(),
  messageEs: z.string(),
  subjectEn: z.string().nullable(),
  subjectEs: z.string().nullable(),
  instructionEn: z.string().nullable(),
  instructionEs: z.string().nullable(),
  linkUrl: z.string().nullable(),
  throttlePerMinute: z.number().int(),
  attributionDays: z.number().int(),
  createdBy: idSchema.nullable(),
  /** What the signed-in user may do now. */
  can: z.object({
    edit: z.boolean(),
    approve: z.boolean(),
    toggleText: z.boolean(),
    finish: z.boolean(),
    delete: z.boolean(),
    archive: z.boolean(),
  }),
  /**
   * Why `approve` is false for this user: they wrote or changed the content ('author'), the campaign is
   * past draft ('status'), or a channel it uses is turned off in the clinic ('channelOff').
   */
  approveBlockedReason: z.enum(['author', 'status', 'channelOff']).nullable(),
  /** The campaign's channels the clinic has turned off (texts or emails): it cannot be approved so. */
  channelsOff: z.array(z.enum(campaignChannels)),
  /**
   * A digest of everything the approver reviews (message, subjects, link, channels, schedule, pace and the
   * audience rule): approval sends it back and is refused (409) when the campaign changed since.
   */
  contentHash: z.string(),
  /** A filled-in example for the first recipient (or a sample patient) in each language. */
  preview: z.object({ en: z.string(), es: z.string() }),
});
export type CampaignDetail = z.infer<typeof campaignDetailSchema>;

export const campaignRecipientSchema = z.object({
  id: idSchema,
  patientId: idSchema,
  patientName: z.string(),
  language: z.enum(['en', 'es']),
  phoneMasked: z.string().nullable(),
  emailMasked: z.string().nullable(),
  smsStatus: z.enum(recipientChannelStatuses),
  emailStatus: z.enum(recipientChannelStatuses),
  smsDelivery: z.enum(outboxStatuses).nullable(),
  emailDelivery: z.enum(outboxStatuses).nullable(),
  skipReason: z.string().nullable(),
  /** Why each channel did not reach the patient (null: reached, waiting, or not used). */
  smsReason: z.enum(campaignSkipReasons).nullable(),
  emailReason: z.enum(campaignSkipReasons).nullable(),
  queuedAt: z.string().nullable(),
  clickedAt: z.string().nullable(),
  repliedAt: z.string().nullable(),
  optedOutAt: z.string().nullable(),
  bookedAt: z.string().nullable(),
});
export type CampaignRecipient = z.infer<typeof campaignRecipientSchema>;

export const campaignResponseKinds = ['reply', 'optOut', 'click', 'booked'] as const;
export type CampaignResponseKind = (typeof campaignResponseKinds)[number];

export const campaignResponseSchema = z.object({
  kind: z.enum(campaignResponseKinds),
  at: z.string(),
  patientId: idSchema,
  patientName: z.string(),
  /** The reply's text (reply and optOut); the appointment's date for booked. */
  detail: z.string().nullable(),
});
export type CampaignResponse = z.infer<typeof campaignResponseSchema>;

export const campaignListQuerySchema = z.object({
  status: z.enum(campaignStatuses).optional(),
  pageNumber: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export const textSendingInputSchema = z.object({ enabled: z.boolean() });

/** `POST /api/campaigns/{id}/approve`: the content digest of the campaign as the approver reviewed it. */
export const campaignApproveInputSchema = z.object({
  contentHash: z
    .string({ error: 'required' })
    .max(64, 'invalid')
    .regex(/^[0-9a-f]{64}$/, 'invalid'),
});

/** `GET /api/campaigns/{id}/audience`: who approval would message now, a page at a time, by name. */
export const campaignApprovalAudienceQuerySchema = z.object({
  pageNumber: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export const campaignApprovalAudienceSchema = z.object({
  totalRecords: z.number().int(),
  data: z.array(audiencePatientSchema),
});

/** The audience preview of the campaign form, with the chosen channels the clinic has turned off. */
export const campaignAudiencePreviewSchema = audiencePreviewSchema.extend({
  channelsOff: z.array(z.enum(campaignChannels)),
});
export type CampaignAudiencePreview = z.infer<typeof campaignAudiencePreviewSchema>;

/** `POST /api/campaigns/audience`: who the campaign would reach now (count and the first 25 by name). */
export const campaignAudienceInputSchema = z.object({
  templateId: idSchema,
  channels: z
    .array(z.enum(campaignChannels, { error: 'invalid' }))
    .min(1, 'channelRequired')
    .max(2, 'invalid'),
});

/** `GET /api/patients/patientscontrollist`: a campaign's frozen recipients, by send order. */
export const campaignRecipientFilters = ['pending', 'queued', 'skipped'] as const;
export const campaignRecipientsQuerySchema = z.object({
  campaignId: idSchema,
  /** pending or queued: on any channel; skipped: reached on no channel. */
  status: z.enum(campaignRecipientFilters, { error: 'invalid' }).optional(),
  pageNumber: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});

export const campaignResponsesQuerySchema = z.object({
  kind: z.enum(campaignResponseKinds, { error: 'invalid' }).optional(),
  pageNumber: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});

/** `GET /api/campaigns/results`: campaigns approved between two clinic dates (both optional, inclusive). */
export const campaignResultsQuerySchema = z
  .object({
    from: z
      .string()
      .max(10, 'dateInvalid')
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'dateInvalid')
      .optional(),
    to: z
      .string()
      .max(10, 'dateInvalid')
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'dateInvalid')
      .optional(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, { message: 'dateRangeInvalid', path: ['to'] });

/** `POST /api/outbox/inbound-simulation` (demo mode): a text as if the patient had sent it to the clinic's number. */
export const inboundSimulationInputSchema = z.object({
  from: z.string().trim().min(7, 'phoneInvalid').max(20, 'phoneInvalid'),
  body: z.string().trim().min(1, 'required').max(1600, 'tooLong'),
});
export const inboundSimulationResultSchema = z.object({
  /** What Pathwell answers the patient (HELP, PARAR), or null. */
  answer: z.string().nullable(),
  patientId: idSchema.nullable(),
  campaignId: idSchema.nullable(),
});
