import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  unique,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { instances } from './core';
import { sameClinic } from './same-clinic';

export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Every managed list of a clinic (medicines, rooms, body locations, cohorts, custom field values, …) in
 * one table: `list_type` names the list, `attributes` holds the list's own typed fields, validated by
 * the list's zod schema in contracts (docs/decisions/0005-managed-lists.md).
 */
export const managedItems = pgTable(
  'managed_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => instances.id),
    listType: text('list_type').notNull(),
    name: text('name').notNull(),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    isActive: boolean('is_active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [
    index('managed_items_list_idx').on(table.instanceId, table.listType, table.sortOrder),
    uniqueIndex('managed_items_name_key')
      .on(table.instanceId, table.listType, sql`lower(${table.name})`)
      .where(sql`${table.deletedAt} is null`),
    unique('managed_items_instance_id_key').on(table.instanceId, table.id),
  ],
);

/** Perioperative message templates (id, codes) and their timed messages. */
export const perioperativeTemplates = pgTable(
  'perioperative_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => instances.id),
    name: text('name').notNull(),
    /** Procedure codes (CPT) that select this template. */
    codes: text('codes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [
    index('perioperative_templates_instance_idx').on(table.instanceId),
    unique('perioperative_templates_instance_id_key').on(table.instanceId, table.id),
  ],
);

export const perioperativeTemplateDetails = pgTable(
  'perioperative_template_details',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => instances.id),
    templateId: uuid('template_id').notNull(),
    /** Days relative to the procedure date: negative before, positive after. */
    dayOffset: integer('day_offset').notNull(),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    subject: text('subject'),
    messageEn: text('message_en').notNull(),
    messageEs: text('message_es'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('perioperative_template_details_template_idx').on(table.templateId),
    sameClinic(
      'perioperative_template_details_template_fk',
      { instanceId: table.instanceId, column: table.templateId },
      perioperativeTemplates,
    ).onDelete('cascade'),
  ],
);

/** Uploaded instance files: logos, new-patient agreements, the eClinicalWorks private key (encrypted). */
export const instanceFiles = pgTable(
  'instance_files',
  {
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => instances.id),
    fileKey: text('file_key').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    content: bytea('content').notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.instanceId, table.fileKey] })],
);
