import { and, asc, eq, gt, ilike, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { RoleCode, roleFromCode, roleRank, type Role } from '@pathwell/contracts/roles';
import {
  clinicalProviderTypes,
  PIN_MAX_FAILURES,
  PIN_WINDOW_MINUTES,
  type ClinicalProviderType,
  type CreateUserParsed,
  type SystemUser,
  type SystemUserDetail,
  type UserFilterParsed,
  type UserPage,
} from '@pathwell/contracts/user-admin';
import { withSystemContext, type SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { activityLogs, oneTimeTokens, sessions, userInstances, users } from '../../db/schema';
import { listTotal } from '../../lib/list-total';
import { AppError, notFound } from '../../lib/app-error';
import type { ServerMessageKey } from '@pathwell/contracts/server-messages';
import { hashPassword, verifyPassword } from '../../lib/secrets';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { profileImageToStore } from '../auth/my-account.service';
import { queueWelcomeEmail } from '../auth/passwords.service';
import { listClinics } from '../session/session.service';

type UserRow = typeof users.$inferSelect;

/** Account states an administrator manages; sign-up accounts still without a clinic are not listed. */
const listedStatuses = ['active', 'invited', 'inactive'] as const;
type ListedStatus = (typeof listedStatuses)[number];

const PIN_TARGET = 'admin PIN';

const cannot = (messageKey: ServerMessageKey) => new AppError('FORBIDDEN', messageKey);
const emailTaken = () => new AppError('CONFLICT', 'emailInUse', { fields: { email: 'emailTaken' } });

/** The clinics a request looks at: the acting clinic, or every clinic of a parent user's all-clinics view. */
const scopeOf = (ctx: SignedInContext) => (ctx.allClinics ? ctx.instanceIds : [ctx.instanceId]);

/** Clinics the actor may act for: home and memberships, every clinic for a System Manager. */
async function actorClinicIds(ctx: SignedInContext, db: Database = ctx.db): Promise<Set<string>> {
  // Inside a transaction every query must use it: PGlite has one connection, so ctx.db would wait forever.
  return new Set((await listClinics({ ...ctx, db })).map((clinic) => clinic.id));
}

/** A user belongs to a clinic through the home clinic or a membership. */
function belongsTo(instanceIds: string[]): SQL {
  return sql`(${inArray(users.instanceId, instanceIds)} or exists (select 1 from ${userInstances} where ${userInstances.userId} = ${users.id} and ${inArray(userInstances.instanceId, instanceIds)}))`;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (match) => `\\${match}`);

function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { code?: string; cause?: { code?: string } } | null;
  return candidate?.code === '23505' || candidate?.cause?.code === '23505';
}

function toProviderType(value: string | null): ClinicalProviderType | null {
  return (clinicalProviderTypes as readonly string[]).includes(value ?? '') ? (value as ClinicalProviderType) : null;
}

/** Rank and home clinic decide whether the actor may change a user (docs/decisions/0009). */
function mayManage(ctx: SignedInContext, target: UserRow, actorClinics: Set<string>): boolean {
  if (ctx.actor.role !== 'Admin' && ctx.actor.role !== 'SystemManager') return false;
  if (roleRank[roleFromCode(target.role)] > roleRank[ctx.actor.role]) return false;
  return target.instanceId !== null && actorClinics.has(target.instanceId);
}

function toSystemUser(row: UserRow, memberIds: string[], actorClinics: Set<string>, ctx: SignedInContext): SystemUser {
  const clinicIds = [...new Set([...(row.instanceId ? [row.instanceId] : []), ...memberIds])].filter((id) =>
    actorClinics.has(id),
  );
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    role: roleFromCode(row.role),
    status: row.status as ListedStatus,
    isActive: row.status !== 'inactive',
    isParent: row.isParent,
    isChild: row.isChild,
    twoFactorEnabled: row.twoFactorEnabled,
    credentials: row.credentials,
    npi: row.npi,
    clinicalProviderType: toProviderType(row.clinicalProviderType),
    hasPin: row.pinHash !== null,
    homeClinicId: row.instanceId,
    clinicIds,
    canManage: mayManage(ctx, row, actorClinics),
    createdAt: row.createdAt.toISOString(),
  };
}

async function membershipsOf(db: Database, userIds: string[]): Promise<Map<string, string[]>> {
  const byUser = new Map<string, string[]>();
  if (userIds.length === 0) return byUser;
  const rows = await db.select().from(userInstances).where(inArray(userInstances.userId, userIds));
  for (const row of rows) byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row.instanceId]);
  return byUser;
}

async function toDetail(ctx: SignedInContext, db: Database, row: UserRow, actorClinics: Set<string>): Promise<SystemUserDetail> {
  const memberships = await membershipsOf(db, [row.id]);
  return { ...toSystemUser(row, memberships.get(row.id) ?? [], actorClinics, ctx), profileImage: row.profileImage };
}

/** A user of the clinics in view; another clinic's user is not found (404), never forbidden. */
async function findVisibleUser(ctx: SignedInContext, db: Database, id: string): Promise<UserRow> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt), inArray(users.status, [...listedStatuses]), belongsTo(scopeOf(ctx))));
  if (!row) throw notFound('userNotFound');
  return row;
}

function assertMayGrant(ctx: SignedInContext, role: Role) {
  if (roleRank[role] > roleRank[ctx.actor.role]) throw cannot('roleAboveOwn');
}

async function loadManageable(ctx: SignedInContext, db: Database, id: string) {
  const target = await findVisibleUser(ctx, db, id);
  const actorClinics = await actorClinicIds(ctx, db);
  if (!mayManage(ctx, target, actorClinics)) throw cannot('userNotManageable');
  return { target, actorClinics };
}

async function revokeSessions(db: Database, userId: string) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

async function emailInUse(db: Database, email: string, exceptId?: string) {
  const [row] = await db
    .select({ id: users.id, status: users.status, instanceId: users.instanceId, deletedAt: users.deletedAt })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return row && row.id !== exceptId ? row : undefined;
}

/**
 * Memberships after a change: clinics outside the actor's reach stay as they were (the actor cannot
 * see them), the actor's own clinics follow the request for parent users, and the home clinic stays.
 */
function nextMemberships(
  input: { isParent: boolean; clinicIds: string[] },
  home: string,
  existing: string[],
  actorClinics: Set<string>,
) {
  if (input.isParent) {
    const outside = input.clinicIds.filter((id) => !actorClinics.has(id));
    if (outside.length > 0) {
      throw new AppError('VALIDATION', 'clinicsNotYours', { fields: { clinicIds: 'invalid' } });
    }
  }
  const kept = existing.filter((id) => !actorClinics.has(id));
  return [...new Set([home, ...kept, ...(input.isParent ? input.clinicIds : [])])];
}

async function replaceMemberships(db: Database, userId: string, instanceIds: string[]) {
  await db.delete(userInstances).where(eq(userInstances.userId, userId));
  if (instanceIds.length > 0) {
    await db.insert(userInstances).values(instanceIds.map((instanceId) => ({ userId, instanceId })));
  }
}

function doctorDetails(input: CreateUserParsed) {
  // Doctor details only mean something for a Doctor; other roles never keep stale ones.
  const isDoctor = input.role === 'Doctor';
  return {
    credentials: isDoctor ? input.credentials : null,
    npi: isDoctor ? input.npi : null,
    clinicalProviderType: isDoctor ? (input.clinicalProviderType ?? null) : null,
  };
}

function activity(
  ctx: SignedInContext,
  action: 'Created' | 'Updated' | 'Deleted' | 'Sent' | 'Failed',
  target: string,
  description: string,
) {
  return staffActivity(ctx, 'System Users', action, { type: 'user', id: target, description: description });
}

export async function fetchAllUsers(ctx: SignedInContext, filter: UserFilterParsed): Promise<UserPage> {
  const { pageSize, pageNumber } = filter.paginationFilter;
  const conditions = [isNull(users.deletedAt), belongsTo(scopeOf(ctx))];
  if (filter.status === 1) conditions.push(eq(users.status, 'active'));
  else if (filter.status === 0) conditions.push(eq(users.status, 'inactive'));
  else conditions.push(inArray(users.status, [...listedStatuses]));
  if (filter.firstName) conditions.push(ilike(users.firstName, `%${escapeLike(filter.firstName)}%`));
  if (filter.lastName) conditions.push(ilike(users.lastName, `%${escapeLike(filter.lastName)}%`));
  if (filter.email) conditions.push(ilike(users.email, `%${escapeLike(filter.email)}%`));
  if (filter.role) conditions.push(eq(users.role, RoleCode[filter.role]));
  const where = and(...conditions);

  const rows = await ctx.db
    .select()
    .from(users)
    .where(where)
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(pageSize)
    .offset(pageNumber * pageSize);
  const memberships = await membershipsOf(
    ctx.db,
    rows.map((row) => row.id),
  );
  const actorClinics = await actorClinicIds(ctx);
  const total = await listTotal(ctx.db, ctx.db.select({ id: users.id }).from(users).where(where), {
    pageNumber,
    pageSize,
    rowsOnPage: rows.length,
    exact: filter.paginationFilter.exactTotal,
  });
  return {
    ...total,
    pageNumber,
    pageSize,
    data: rows.map((row) => toSystemUser(row, memberships.get(row.id) ?? [], actorClinics, ctx)),
  };
}

export async function getUserDetail(ctx: SignedInContext, id: string): Promise<SystemUserDetail> {
  const row = await findVisibleUser(ctx, ctx.db, id);
  return toDetail(ctx, ctx.db, row, await actorClinicIds(ctx));
}

/**
 * Creates a user of the acting clinic, invited by email to set a password (link valid 72 hours).
 * An account that signed up itself and waits for a clinic (0003) is taken in instead: it keeps its
 * password and becomes active.
 */
export async function registerUser(ctx: SignedInContext, log: FastifyBaseLogger, input: CreateUserParsed) {
  assertMayGrant(ctx, input.role);
  const actorClinics = await actorClinicIds(ctx);
  const memberships = nextMemberships(input, ctx.instanceId, [], actorClinics);
  const profileImage = input.profileImage === undefined ? undefined : await profileImageToStore(input.profileImage, null);
  return ctx.db
    .transaction(async (tx) => {
      const existing = await emailInUse(tx, input.email);
      const waiting = existing && !existing.deletedAt && existing.status === 'awaiting_access' && !existing.instanceId;
      if (existing && !waiting) throw emailTaken();
      const values = {
        instanceId: ctx.instanceId,
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        role: RoleCode[input.role],
        isParent: input.isParent,
        isChild: input.isChild,
        twoFactorEnabled: input.twoFactorEnabled,
        ...doctorDetails(input),
        ...(profileImage !== undefined ? { profileImage } : {}),
        updatedAt: new Date(),
      };
      const [row] = waiting
        ? await tx
            .update(users)
            .set({ ...values, status: input.isActive ? 'active' : 'inactive' })
            .where(eq(users.id, existing.id))
            .returning()
        : await tx
            .insert(users)
            .values({ ...values, status: input.isActive ? 'invited' : 'inactive' })
            .returning();
      const user = row!;
      await replaceMemberships(tx, user.id, memberships);
      await recordActivity(
        tx,
        activity(
          ctx,
          waiting ? 'Updated' : 'Created',
          user.id,
          waiting ? `Gave clinic access to ${user.email} as ${input.role}` : `Created ${user.email} as ${input.role}`,
        ),
      );
      if (user.status === 'invited') await queueWelcomeEmail(ctx, log, tx, user);
      return toDetail(ctx, tx, user, actorClinics);
    })
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? emailTaken() : error;
    });
}

export async function updateUser(ctx: SignedInContext, id: string, input: CreateUserParsed) {
  const isSelf = id === ctx.actor.userId;
  return ctx.db
    .transaction(async (tx) => {
      const { target, actorClinics } = await loadManageable(ctx, tx, id);
      const currentRole = roleFromCode(target.role);
      assertMayGrant(ctx, input.role);
      if (isSelf && input.role !== currentRole) throw cannot('ownRole');
      if (isSelf && !input.isActive) throw cannot('ownAccountOff');
      if (input.email !== target.email.toLowerCase() && (await emailInUse(tx, input.email, target.id))) throw emailTaken();
      const profileImage =
        input.profileImage === undefined ? undefined : await profileImageToStore(input.profileImage, target.profileImage);

      const existing = (await membershipsOf(tx, [target.id])).get(target.id) ?? [];
      const memberships = nextMemberships(input, target.instanceId!, existing, actorClinics);
      const status = statusAfter(target, input.isActive);
      const [row] = await tx
        .update(users)
        .set({
          email: input.email,
          firstName: input.firstName,
          lastName: input.lastName,
          role: RoleCode[input.role],
          isParent: input.isParent,
          isChild: input.isChild,
          twoFactorEnabled: input.twoFactorEnabled,
          status,
          ...doctorDetails(input),
          ...(profileImage !== undefined ? { profileImage } : {}),
          updatedAt: new Date(),
        })
        .where(eq(users.id, target.id))
        .returning();
      await replaceMemberships(tx, target.id, memberships);
      if (status === 'inactive' && target.status !== 'inactive') await revokeSessions(tx, target.id);
      const changes = [
        input.role !== currentRole ? `role ${currentRole} → ${input.role}` : null,
        status !== target.status ? `status ${target.status} → ${status}` : null,
        input.email !== target.email.toLowerCase() ? 'email changed' : null,
      ].filter(Boolean);
      await recordActivity(
        tx,
        activity(ctx, 'Updated', target.id, `Updated ${row!.email}${changes.length ? `: ${changes.join(', ')}` : ''}`),
      );
      return { ...(await toDetail(ctx, tx, row!, actorClinics)), isSuccess: true as const };
    })
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? emailTaken() : error;
    });
}

/** Switching a user back on returns them to where they were: active with a password, else invited. */
function statusAfter(target: UserRow, isActive: boolean): UserRow['status'] {
  if (!isActive) return 'inactive';
  if (target.status !== 'inactive') return target.status;
  return target.passwordHash ? 'active' : 'invited';
}

/**
 * Soft delete: the account keeps its history but can no longer sign in, and its sessions end. A user
 * whose home is a clinic the actor does not run only leaves the actor's clinics.
 */
export async function deleteUser(ctx: SignedInContext, id: string): Promise<void> {
  if (id === ctx.actor.userId) throw cannot('ownAccountDelete');
  await ctx.db.transaction(async (tx) => {
    const target = await findVisibleUser(ctx, tx, id);
    const actorClinics = await actorClinicIds(ctx, tx);
    if (roleRank[roleFromCode(target.role)] > roleRank[ctx.actor.role]) throw cannot('userNotManageable');
    if (!target.instanceId || !actorClinics.has(target.instanceId)) {
      await tx
        .delete(userInstances)
        .where(and(eq(userInstances.userId, target.id), inArray(userInstances.instanceId, [...actorClinics])));
      await recordActivity(tx, activity(ctx, 'Deleted', target.id, `Removed ${target.email} from the clinic`));
      return;
    }
    const now = new Date();
    await tx.update(users).set({ deletedAt: now, updatedAt: now }).where(eq(users.id, target.id));
    await revokeSessions(tx, target.id);
    await tx
      .update(oneTimeTokens)
      .set({ usedAt: now })
      .where(and(eq(oneTimeTokens.userId, target.id), isNull(oneTimeTokens.usedAt)));
    await recordActivity(tx, activity(ctx, 'Deleted', target.id, `Deleted ${target.email}`));
  });
}

/** Sends the set-password email again; only for users who have not set up their account. */
export async function resendWelcomeEmail(ctx: SignedInContext, log: FastifyBaseLogger, id: string) {
  await ctx.db.transaction(async (tx) => {
    const { target } = await loadManageable(ctx, tx, id);
    if (target.status !== 'invited') {
      throw new AppError('CONFLICT', 'accountAlreadySetUp');
    }
    await queueWelcomeEmail(ctx, log, tx, target);
    await recordActivity(tx, activity(ctx, 'Sent', target.id, `Sent the welcome email to ${target.email}`));
  });
  return { message: 'The welcome email has been sent.' };
}

export async function setUserTwoFactor(ctx: SignedInContext, id: string, enabled: boolean) {
  return ctx.db.transaction(async (tx) => {
    const { target, actorClinics } = await loadManageable(ctx, tx, id);
    const [row] = await tx
      .update(users)
      .set({ twoFactorEnabled: enabled, updatedAt: new Date() })
      .where(eq(users.id, target.id))
      .returning();
    await recordActivity(
      tx,
      activity(ctx, 'Updated', target.id, `Two-factor sign-in turned ${enabled ? 'on' : 'off'} for ${target.email}`),
    );
    return toDetail(ctx, tx, row!, actorClinics);
  });
}

export async function setUserActive(ctx: SignedInContext, id: string, isActive: boolean) {
  if (id === ctx.actor.userId && !isActive) throw cannot('ownAccountOff');
  return ctx.db.transaction(async (tx) => {
    const { target, actorClinics } = await loadManageable(ctx, tx, id);
    const status = statusAfter(target, isActive);
    const [row] = await tx.update(users).set({ status, updatedAt: new Date() }).where(eq(users.id, target.id)).returning();
    if (status === 'inactive') await revokeSessions(tx, target.id);
    await recordActivity(tx, activity(ctx, 'Updated', target.id, `${isActive ? 'Switched on' : 'Switched off'} ${target.email}`));
    return toDetail(ctx, tx, row!, actorClinics);
  });
}

/** Sets the 6-digit PIN an administrator enters to collect cash; stored argon2id-hashed like a password. */
export async function setUserPin(ctx: SignedInContext, id: string, pin: string) {
  const pinHash = await hashPassword(pin);
  return ctx.db.transaction(async (tx) => {
    const { target, actorClinics } = await loadManageable(ctx, tx, id);
    const role = roleFromCode(target.role);
    if (role !== 'Admin' && role !== 'SystemManager') {
      throw new AppError('VALIDATION', 'pinAdminsOnly', { fields: { pin: 'invalid' } });
    }
    const [row] = await tx.update(users).set({ pinHash, updatedAt: new Date() }).where(eq(users.id, target.id)).returning();
    await recordActivity(tx, {
      ...activity(ctx, 'Updated', target.id, `Set the admin PIN of ${target.email}`),
      targetType: PIN_TARGET,
    });
    return toDetail(ctx, tx, row!, actorClinics);
  });
}

/**
 * Checks the signed-in administrator's own PIN. Wrong attempts are written to the activity log and
 * counted from there, so several server processes agree on the limit. They count per user across
 * every clinic the user may act for: counted per acting clinic, a parent user locked out in one
 * clinic got five more guesses by naming another in the ClinicId header (issue #9). The clinic list
 * only lets the count use the log's (instance, time) index.
 */
export async function validatePin(ctx: SignedInContext, pin: string) {
  const since = new Date(Date.now() - PIN_WINDOW_MINUTES * 60_000);
  // The user's own failures in every clinic they may act for: across clinics by nature ('staff-account').
  const [failures] = await withSystemContext(ctx, 'staff-account', async (own) => {
    const clinics = [...new Set([...(await actorClinicIds(own)), ctx.instanceId])];
    return own.db
      .select({ count: sql<number>`count(*)::int`, oldest: sql<string | null>`min(${activityLogs.createdAt})` })
      .from(activityLogs)
      .where(
        and(
          inArray(activityLogs.instanceId, clinics),
          gt(activityLogs.createdAt, since),
          eq(activityLogs.actorUserId, ctx.actor.userId),
          eq(activityLogs.targetType, PIN_TARGET),
          eq(activityLogs.action, 'Failed'),
        ),
      );
  });
  if (Number(failures?.count ?? 0) >= PIN_MAX_FAILURES) {
    const oldest = failures?.oldest ? new Date(failures.oldest).getTime() : Date.now();
    const retryAfterSeconds = Math.max(1, Math.ceil((oldest + PIN_WINDOW_MINUTES * 60_000 - Date.now()) / 1000));
    throw new AppError('RATE_LIMITED', 'pinLocked', { retryAfterSeconds });
  }
  const [self] = await ctx.db.select({ pinHash: users.pinHash }).from(users).where(eq(users.id, ctx.actor.userId));
  const isValid = await verifyPassword(self?.pinHash ?? null, pin);
  if (!isValid) {
    await ctx.db.transaction((tx) =>
      recordActivity(tx, { ...activity(ctx, 'Failed', ctx.actor.userId, 'Wrong admin PIN'), targetType: PIN_TARGET }),
    );
  }
  return { isValid };
}
