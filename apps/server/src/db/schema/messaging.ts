import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { instances, users } from './core';
import { bytea, perioperativeTemplates } from './admin';
import { appointments, patients } from './patients';
import { formResponses } from './forms';
import { sameClinic } from './same-clinic';
import { notificationKinds, outboxChannels, outboxStatuses } from '@pathwell/contracts/messaging';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export { outboxChannels, outboxStatuses };

/**
 * Every outbound message, whatever the provider. The body is encrypted (it may hold a link token), bound
 * to the row's id, so that a copy of the database holds no working link (issue #11 §2).
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    instanceId: uuid('instance_id').references(() => instances.id),
    channel: text('channel', { enum: outboxChannels }).notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    template: text('template').notNull(),
    status: text('status', { enum: outboxStatuses }).notNull().default('stored'),
    error: text('error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    patientId: uuid('patient_id'),
    perioperativeTemplateId: uuid('perioperative_template_id'),
    /** When it may go out: a scheduled message's time, or the next daytime hour for a non-urgent text. */
    sendAfter: timestamp('send_after', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    /** The provider's id once it accepted the message: a retry that finds one does not send again. */
    providerMessageId: text('provider_message_id'),
    /** One bulk send (intake notifications, a campaign): its progress is the state of its messages. */
    batchId: uuid('batch_id'),
    urgent: boolean('urgent').notNull().default(false),
    /**
     * Sent by a sweep or a campaign, not by a person for this patient (pathway steps, auto-sent intakes,
     * campaigns): counted against, and held by, the clinic's daily cap per patient (decision 0066).
     */
    automatic: boolean('automatic').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('outbox_messages_created_idx').on(table.createdAt),
    index('outbox_messages_instance_created_idx').on(table.instanceId, table.createdAt, table.id),
    index('outbox_messages_patient_idx').on(table.instanceId, table.patientId, table.createdAt),
    index('outbox_messages_batch_idx')
      .on(table.batchId)
      .where(sql`${table.batchId} is not null`),
    uniqueIndex('outbox_messages_provider_id_key')
      .on(table.channel, table.providerMessageId)
      .where(sql`${table.providerMessageId} is not null`),
    // What an attachment's same-clinic key points at (decision 0037).
    unique('outbox_messages_instance_id_key').on(table.instanceId, table.id),
    sameClinic('outbox_messages_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients),
    sameClinic(
      'outbox_messages_perioperative_template_fk',
      { instanceId: table.instanceId, column: table.perioperativeTemplateId },
      perioperativeTemplates,
    ),
  ],
);

/**
 * Files sent with an outbound email (a support request's screenshot, decision 0037). The content is
 * encrypted like the message body (AES-256-GCM under APP_SECRET, bound to the message and the attachment's
 * id); `size` is the plain file's. Only a clinic's own messages carry files, so `instance_id` is required
 * and the same-clinic key to the message is always checked.
 */
export const outboxAttachments = pgTable(
  'outbox_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => instances.id),
    messageId: uuid('message_id').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    content: bytea('content').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('outbox_attachments_message_idx').on(table.instanceId, table.messageId),
    sameClinic(
      'outbox_attachments_message_fk',
      { instanceId: table.instanceId, column: table.messageId },
      outboxMessages,
    ).onDelete('cascade'),
  ],
);

/**
 * A phone number that answered STOP (or PARAR, ALTO…) to a clinic's number: no further texts from that
 * clinic until it answers START. Kept per clinic and number, as the carrier applies it.
 */
export const smsOptOuts = pgTable(
  'sms_opt_outs',
  {
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => instances.id),
    phone: text('phone').notNull(),
    optedOut: boolean('opted_out').notNull(),
    keyword: text('keyword').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ name: 'sms_opt_outs_pkey', columns: [table.instanceId, table.phone] })],
);

/** Staff notifications of a clinic (specification section 3: form-completion notification). */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => instances.id),
    kind: text('kind', { enum: notificationKinds }).notNull(),
    patientId: uuid('patient_id').notNull(),
    appointmentId: uuid('appointment_id'),
    /** The response a critical finding was raised on: its bell item opens that response. */
    responseId: uuid('response_id'),
    createdAt: createdAt(),
  },
  (table) => [
    index('notifications_instance_created_idx').on(table.instanceId, table.createdAt, table.id),
    unique('notifications_instance_id_key').on(table.instanceId, table.id),
    uniqueIndex('notifications_appointment_kind_key')
      .on(table.instanceId, table.appointmentId, table.kind)
      .where(sql`${table.appointmentId} is not null`),
    sameClinic('notifications_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients).onDelete(
      'cascade',
    ),
    sameClinic(
      'notifications_appointment_fk',
      { instanceId: table.instanceId, column: table.appointmentId },
      appointments,
    ).onDelete('cascade'),
    sameClinic('notifications_response_fk', { instanceId: table.instanceId, column: table.responseId }, formResponses).onDelete(
      'cascade',
    ),
  ],
);

/** Per user: seen (clicked or Clear All) and notified (the popup has shown). No row: neither. */
export const notificationReceipts = pgTable(
  'notification_receipts',
  {
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => instances.id),
    notificationId: uuid('notification_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    seenAt: timestamp('seen_at', { withTimezone: true }),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ name: 'notification_receipts_pkey', columns: [table.notificationId, table.userId] }),
    index('notification_receipts_user_idx').on(table.instanceId, table.userId),
    sameClinic(
      'notification_receipts_notification_fk',
      { instanceId: table.instanceId, column: table.notificationId },
      notifications,
    ).onDelete('cascade'),
  ],
);

/** Staff-to-staff messages, inside one clinic (issue #11 §5). */
export const userMessages = pgTable(
  'user_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => instances.id),
    fromUserId: uuid('from_user_id')
      .notNull()
      .references(() => users.id),
    toUserId: uuid('to_user_id')
      .notNull()
      .references(() => users.id),
    body: text('body').notNull(),
    createdAt: createdAt(),
    seenAt: timestamp('seen_at', { withTimezone: true }),
  },
  (table) => [
    index('user_messages_inbox_idx').on(table.instanceId, table.toUserId, table.createdAt),
    index('user_messages_sent_idx').on(table.instanceId, table.fromUserId, table.createdAt),
  ],
);
