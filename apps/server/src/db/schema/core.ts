import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const id = () => uuid('id').primaryKey().defaultRandom();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const organisations = pgTable('organisations', {
  id: id(),
  name: text('name').notNull(),
  createdAt: createdAt(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
});

/** One clinic: the tenant. */
export const instances = pgTable('instances', {
  id: id(),
  name: text('name').notNull(),
  organisationId: uuid('organisation_id').references(() => organisations.id),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: createdAt(),
});

export const userStatuses = ['active', 'invited', 'pending_confirmation', 'awaiting_access', 'inactive'] as const;
export type UserStatus = (typeof userStatuses)[number];

export const users = pgTable(
  'users',
  {
    id: id(),
    /** Home clinic; null only for a self-signed-up account that no clinic has taken in yet. */
    instanceId: uuid('instance_id').references(() => instances.id),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull().default(''),
    role: smallint('role').notNull(),
    isParent: boolean('is_parent').notNull().default(false),
    isChild: boolean('is_child').notNull().default(false),
    passwordHash: text('password_hash'),
    status: text('status', { enum: userStatuses }).notNull().default('active'),
    twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
    profileImage: text('profile_image'),
    /** Doctor details: credentials (e.g. MD, DO), National Provider Identifier, clinical provider type. */
    credentials: text('credentials'),
    npi: text('npi'),
    clinicalProviderType: text('clinical_provider_type'),
    /** Admin PIN for cash collection, argon2id-hashed like a password. */
    pinHash: text('pin_hash'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('users_email_key')
      .on(sql`lower(${table.email})`)
      .where(sql`${table.deletedAt} is null`),
    index('users_instance_idx').on(table.instanceId),
  ],
);

/** Clinics a user may act for besides the home clinic: parent users belong to several. */
export const userInstances = pgTable(
  'user_instances',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => instances.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.instanceId] }),
    index('user_instances_instance_idx').on(table.instanceId),
  ],
);

/** Instance settings as configuration records (specification section 3). */
export const instanceSettings = pgTable(
  'instance_settings',
  {
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => instances.id, { onDelete: 'cascade' }),
    configurationId: text('configuration_id').notNull(),
    configurationValue: text('configuration_value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.instanceId, table.configurationId] })],
);

export const tokenPurposes = ['set_password', 'reset_password', 'confirm_signup', 'two_factor'] as const;
export type TokenPurpose = (typeof tokenPurposes)[number];

/** One-time secrets sent to a user; only their SHA-256 hash is stored. */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: tokenPurposes }).notNull(),
    tokenHash: text('token_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('one_time_tokens_user_idx').on(table.userId, table.purpose)],
);

/** Bearer-token sessions; the token itself is never stored, only its SHA-256 hash. */
export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('sessions_token_hash_key').on(table.tokenHash), index('sessions_user_idx').on(table.userId)],
);

export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: id(),
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('sign_in_failures_email_idx').on(table.email, table.createdAt),
    index('sign_in_failures_ip_idx').on(table.ip, table.createdAt),
  ],
);

export const activityLogs = pgTable(
  'activity_logs',
  {
    id: id(),
    instanceId: uuid('instance_id').references(() => instances.id),
    actorUserId: uuid('actor_user_id').references(() => users.id),
    actorEmail: text('actor_email'),
    area: text('area').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    description: text('description'),
    ip: text('ip'),
    createdAt: createdAt(),
    /** Set by the database trigger: position in the clinic's chain, previous row's hash, this row's hash. */
    chainSeq: bigint('chain_seq', { mode: 'number' }).notNull().default(0),
    prevHash: text('prev_hash').notNull().default(''),
    hash: text('hash').notNull().default(''),
  },
  (table) => [
    index('activity_logs_instance_idx').on(table.instanceId, table.createdAt),
    index('activity_logs_chain_idx').on(table.instanceId, table.chainSeq),
  ],
);
