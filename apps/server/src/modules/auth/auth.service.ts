import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  PASSWORD_RESET_TTL_MINUTES,
  SIGN_IN_MAX_FAILURES_PER_ACCOUNT,
  SIGN_IN_MAX_FAILURES_PER_IP,
  SIGN_IN_WINDOW_MINUTES,
  SIGNUP_CONFIRM_TTL_HOURS,
  TWO_FACTOR_CODE_TTL_MINUTES,
  WELCOME_LINK_TTL_HOURS,
} from '@pathwell/contracts/constants';
import { RoleCode, roleFromCode } from '@pathwell/contracts/roles';
import type {
  ChangePassword,
  SetPassword,
  SignIn,
  SignInResult,
  SignUp,
  UpdateMyAccount,
  UserProfile,
} from '@pathwell/contracts/users';
import type { ServiceContext, SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { instances, oneTimeTokens, sessions, signInFailures, userInstances, users, type TokenPurpose } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { reencodeImageDataUrl } from '../../lib/image-type';
import { hashPassword, newSixDigitCode, newToken, sha256, sameHash, verifyPassword } from '../../lib/secrets';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { queueMessage } from '../outbox/outbox.service';
import { accountEmails } from './auth.emails';
import { publicLink } from '../../lib/public-url';

const TWO_FACTOR_MAX_ATTEMPTS = 5;

type UserRow = typeof users.$inferSelect;

export function toProfile(user: UserRow): UserProfile {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    profileImage: user.profileImage,
    role: roleFromCode(user.role),
    isParent: user.isParent,
    isChild: user.isChild,
    twoFactorEnabled: user.twoFactorEnabled,
  };
}

async function findUserByEmail(db: Database, email: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, isNull(users.deletedAt)));
  return user;
}

async function findUser(db: Database, id: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)));
  return user;
}

async function issueToken(db: Database, userId: string, purpose: TokenPurpose, ttlMs: number, secret = newToken()) {
  // A new link replaces any earlier one of the same purpose: only the newest works.
  await db
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)));
  const [row] = await db
    .insert(oneTimeTokens)
    .values({ userId, purpose, tokenHash: sha256(secret), expiresAt: new Date(Date.now() + ttlMs) })
    .returning({ id: oneTimeTokens.id });
  return { id: row!.id, secret };
}

/** Finds a live token of one of the purposes for the user; marks nothing. */
async function findLiveToken(db: Database, userId: string, purposes: TokenPurpose[], secret: string) {
  const rows = await db
    .select()
    .from(oneTimeTokens)
    .where(and(eq(oneTimeTokens.userId, userId), isNull(oneTimeTokens.usedAt), gt(oneTimeTokens.expiresAt, new Date())));
  const hash = sha256(secret);
  return rows.find((row) => purposes.includes(row.purpose) && sameHash(row.tokenHash, hash));
}

function link(ctx: ServiceContext, path: string, params: Record<string, string>) {
  return publicLink(ctx.config, `${path}?${new URLSearchParams(params).toString()}`);
}

async function sendAccountEmail(
  ctx: ServiceContext,
  log: FastifyBaseLogger,
  db: Database,
  user: Pick<UserRow, 'email' | 'instanceId'>,
  template: string,
  content: { subject: string; body: string },
) {
  await queueMessage(ctx, db, {
    instanceId: user.instanceId,
    channel: 'email',
    to: user.email,
    template,
    subject: content.subject,
    body: content.body,
  });
}

function splitName(name: string) {
  const parts = name.trim().split(/\s+/);
  return { firstName: parts[0] ?? name, lastName: parts.slice(1).join(' ') };
}

const SIGN_UP_MESSAGE = 'Please check your email to confirm your account.';

export async function signUp(ctx: ServiceContext, log: FastifyBaseLogger, input: SignUp) {
  // Hashed whether or not the address has an account: both paths then do the same slow work (the
  // hash) and write one email, so the time of the answer does not tell which it was (issue #9: the
  // new-account path took 25 ms longer).
  const passwordHash = await hashPassword(input.password);
  await ctx.db.transaction(async (tx) => {
    const existing = await findUserByEmail(tx, input.email);
    if (existing) {
      return sendAccountEmail(
        ctx,
        log,
        tx,
        existing,
        'already-registered',
        accountEmails.alreadyRegistered(publicLink(ctx.config, '/signin')),
      );
    }
    const [user] = await tx
      .insert(users)
      .values({
        email: input.email,
        ...splitName(input.name),
        role: RoleCode.Staff,
        passwordHash,
        status: 'pending_confirmation',
      })
      .returning();
    const token = await issueToken(tx, user!.id, 'confirm_signup', SIGNUP_CONFIRM_TTL_HOURS * 3_600_000);
    const confirmLink = link(ctx, '/confirm-signup', { id: user!.id, token: token.secret });
    return sendAccountEmail(ctx, log, tx, user!, 'confirm-signup', accountEmails.confirmSignUp(confirmLink));
  });
  // The same answer whether or not the address had an account, so sign-up reveals nothing.
  return { message: SIGN_UP_MESSAGE };
}

export async function confirmSignUp(ctx: ServiceContext, input: { id: string; token: string }) {
  return ctx.db.transaction(async (tx) => {
    const user = await findUser(tx, input.id);
    const token = user && (await findLiveToken(tx, user.id, ['confirm_signup'], input.token));
    if (!user || !token || user.status !== 'pending_confirmation') {
      throw new AppError('VALIDATION', 'confirmationLinkInvalid', { fields: { token: 'invalid' } });
    }
    await tx.update(oneTimeTokens).set({ usedAt: new Date() }).where(eq(oneTimeTokens.id, token.id));
    await tx.update(users).set({ status: 'awaiting_access', updatedAt: new Date() }).where(eq(users.id, user.id));
    return { message: 'Your email is confirmed. A clinic administrator will give you access.' };
  });
}

async function assertNotThrottled(db: Database, email: string, ip: string) {
  const since = new Date(Date.now() - SIGN_IN_WINDOW_MINUTES * 60_000);
  const [counts] = await db
    .select({
      byAccount: sql<number>`count(*) filter (where ${signInFailures.email} = ${email})::int`,
      byIp: sql<number>`count(*) filter (where ${signInFailures.ip} = ${ip})::int`,
      oldest: sql<string | null>`min(${signInFailures.createdAt})`,
    })
    .from(signInFailures)
    .where(and(gt(signInFailures.createdAt, since), sql`(${signInFailures.email} = ${email} or ${signInFailures.ip} = ${ip})`));
  if (!counts) return;
  if (counts.byAccount >= SIGN_IN_MAX_FAILURES_PER_ACCOUNT || counts.byIp >= SIGN_IN_MAX_FAILURES_PER_IP) {
    const oldest = counts.oldest ? new Date(counts.oldest).getTime() : Date.now();
    const retryAfterSeconds = Math.max(1, Math.ceil((oldest + SIGN_IN_WINDOW_MINUTES * 60_000 - Date.now()) / 1000));
    throw new AppError('RATE_LIMITED', 'signInLocked', { retryAfterSeconds });
  }
}

async function createSession(ctx: ServiceContext, tx: Database, user: UserRow, how: string): Promise<SignInResult> {
  const token = newToken();
  const [session] = await tx
    .insert(sessions)
    .values({ userId: user.id, tokenHash: sha256(token), ip: ctx.ip, userAgent: ctx.userAgent })
    .returning({ id: sessions.id });
  await recordActivity(tx, {
    instanceId: user.instanceId,
    actorUserId: user.id,
    actorEmail: user.email,
    area: 'Login Activity',
    action: 'Created',
    targetType: 'session',
    // The session id lets login details show the browser (user agent) the session was opened from.
    targetId: session!.id,
    description: how,
    ip: ctx.ip,
  });
  return {
    twoFactorRequired: false,
    token,
    id: user.id,
    role: roleFromCode(user.role),
    isParent: user.isParent,
    isChild: user.isChild,
  };
}

async function recordFailedSignIn(
  ctx: ServiceContext,
  email: string,
  user: UserRow | undefined,
  reason: string,
  { countsTowardsLock = true } = {},
) {
  await ctx.db.transaction(async (tx) => {
    if (countsTowardsLock) await tx.insert(signInFailures).values({ email, ip: ctx.ip });
    await recordActivity(tx, {
      instanceId: user?.instanceId ?? null,
      actorUserId: user?.id ?? null,
      actorEmail: email,
      area: 'Login Activity',
      action: 'Failed',
      targetType: 'session',
      description: reason,
      ip: ctx.ip,
    });
  });
}

export async function authenticate(ctx: ServiceContext, log: FastifyBaseLogger, input: SignIn): Promise<SignInResult> {
  await assertNotThrottled(ctx.db, input.email, ctx.ip);
  const user = await findUserByEmail(ctx.db, input.email);
  const passwordOk = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !passwordOk || user.status === 'inactive' || user.status === 'invited') {
    await recordFailedSignIn(ctx, input.email, user, 'Sign-in failed');
    // One message for unknown email and wrong password alike (section 8), so nothing is revealed.
    throw new AppError('UNAUTHENTICATED', 'loginFailed');
  }
  // The right password on an account that may not sign in yet: a refusal worth logging, not a guess to lock out.
  if (user.status === 'pending_confirmation') {
    await recordFailedSignIn(ctx, input.email, user, 'Sign-in refused: email not confirmed', { countsTowardsLock: false });
    throw new AppError('FORBIDDEN', 'emailNotConfirmed');
  }
  if (user.status === 'awaiting_access' || !user.instanceId) {
    await recordFailedSignIn(ctx, input.email, user, 'Sign-in refused: no clinic access yet', { countsTowardsLock: false });
    throw new AppError('FORBIDDEN', 'accountAwaitingAccess');
  }
  const [home] = await ctx.db.select({ isActive: instances.isActive }).from(instances).where(eq(instances.id, user.instanceId));
  if (!home?.isActive && user.role !== RoleCode.SystemManager) {
    await recordFailedSignIn(ctx, input.email, user, 'Sign-in refused: clinic switched off', { countsTowardsLock: false });
    throw new AppError('FORBIDDEN', 'clinicInactive');
  }
  await ctx.db.delete(signInFailures).where(eq(signInFailures.email, input.email));
  if (!user.twoFactorEnabled) return ctx.db.transaction((tx) => createSession(ctx, tx, user, 'Signed in'));

  const { challengeId } = await ctx.db.transaction(async (tx) => {
    const code = newSixDigitCode();
    const token = await issueToken(tx, user.id, 'two_factor', TWO_FACTOR_CODE_TTL_MINUTES * 60_000, code);
    await sendAccountEmail(ctx, log, tx, user, 'two-factor-code', accountEmails.twoFactorCode(code));
    await recordActivity(tx, {
      instanceId: user.instanceId,
      actorUserId: user.id,
      actorEmail: user.email,
      area: 'Login Activity',
      action: 'Sent',
      targetType: 'two-factor code',
      targetId: token.id,
      description: 'Sign-in code sent',
      ip: ctx.ip,
    });
    return { challengeId: token.id };
  });
  return { twoFactorRequired: true, challengeId };
}

async function liveChallenge(db: Database, challengeId: string) {
  const [challenge] = await db
    .select()
    .from(oneTimeTokens)
    .where(
      and(
        eq(oneTimeTokens.id, challengeId),
        eq(oneTimeTokens.purpose, 'two_factor'),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, new Date()),
      ),
    );
  return challenge && challenge.attempts < TWO_FACTOR_MAX_ATTEMPTS ? challenge : undefined;
}

/** A code typed for a challenge that expired or ran out of attempts is still a failed step of that user. */
async function recordSpentChallenge(ctx: ServiceContext, challengeId: string) {
  const [spent] = await ctx.db
    .select({ user: users })
    .from(oneTimeTokens)
    .innerJoin(users, eq(users.id, oneTimeTokens.userId))
    .where(and(eq(oneTimeTokens.id, challengeId), eq(oneTimeTokens.purpose, 'two_factor')));
  if (!spent) return;
  await recordActivity(ctx.db, {
    instanceId: spent.user.instanceId,
    actorUserId: spent.user.id,
    actorEmail: spent.user.email,
    area: 'Login Activity',
    action: 'Failed',
    targetType: 'two-factor code',
    targetId: challengeId,
    description: 'Sign-in code expired, used or out of attempts',
    ip: ctx.ip,
  });
}

export async function verifyTwoFactor(ctx: ServiceContext, input: { challengeId: string; code: string }) {
  const challenge = await liveChallenge(ctx.db, input.challengeId);
  const user = challenge && (await findUser(ctx.db, challenge.userId));
  if (!challenge) await recordSpentChallenge(ctx, input.challengeId);
  if (!challenge || !user || user.status !== 'active') throw new AppError('UNAUTHENTICATED', 'codeNotValid');
  if (!sameHash(challenge.tokenHash, sha256(input.code))) {
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(oneTimeTokens)
        .set({ attempts: sql`${oneTimeTokens.attempts} + 1` })
        .where(eq(oneTimeTokens.id, challenge.id));
      await recordActivity(tx, {
        instanceId: user.instanceId,
        actorUserId: user.id,
        actorEmail: user.email,
        area: 'Login Activity',
        action: 'Failed',
        targetType: 'two-factor code',
        targetId: challenge.id,
        description: 'Wrong sign-in code',
        ip: ctx.ip,
      });
    });
    throw new AppError('UNAUTHENTICATED', 'codeNotValid');
  }
  return ctx.db.transaction(async (tx) => {
    // Marking it used only if still unused makes a code work exactly once, even under a race.
    const used = await tx
      .update(oneTimeTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(oneTimeTokens.id, challenge.id), isNull(oneTimeTokens.usedAt)))
      .returning({ id: oneTimeTokens.id });
    if (used.length === 0) throw new AppError('UNAUTHENTICATED', 'codeNotValid');
    return createSession(ctx, tx, user, 'Signed in with two-factor code');
  });
}

export async function resendTwoFactor(ctx: ServiceContext, log: FastifyBaseLogger, input: { challengeId: string }) {
  const challenge = await liveChallenge(ctx.db, input.challengeId);
  const user = challenge && (await findUser(ctx.db, challenge.userId));
  if (!challenge || !user) throw new AppError('UNAUTHENTICATED', 'codeNotValid');
  await ctx.db.transaction(async (tx) => {
    const code = newSixDigitCode();
    await tx
      .update(oneTimeTokens)
      .set({ tokenHash: sha256(code), attempts: 0, expiresAt: new Date(Date.now() + TWO_FACTOR_CODE_TTL_MINUTES * 60_000) })
      .where(eq(oneTimeTokens.id, challenge.id));
    await recordActivity(tx, {
      instanceId: user.instanceId,
      actorUserId: user.id,
      actorEmail: user.email,
      area: 'Login Activity',
      action: 'Sent',
      targetType: 'two-factor code',
      targetId: challenge.id,
      description: 'Sign-in code sent again',
      ip: ctx.ip,
    });
    return sendAccountEmail(ctx, log, tx, user, 'two-factor-code', accountEmails.twoFactorCode(code));
  });
  return { message: 'A new code has been sent to your email.' };
}

export async function signOut(ctx: SignedInContext) {
  await ctx.db.transaction(async (tx) => {
    await tx.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, ctx.actor.sessionId));
    await recordActivity(
      tx,
      staffActivity(ctx, 'Login Activity', 'Deleted', { type: 'session', id: ctx.actor.sessionId, description: 'Signed out' }),
    );
  });
}

/** Oneself, or a user of the acting clinic for those who manage users; anyone else is not found. */
export async function getUser(ctx: SignedInContext, id: string): Promise<UserProfile> {
  if (id === ctx.actor.userId) {
    const self = await findUser(ctx.db, id);
    if (!self) throw notFound('userNotFound');
    return toProfile(self);
  }
  if (ctx.actor.role === 'Staff') throw notFound('userNotFound');
  const [row] = await ctx.db
    .select({ user: users })
    .from(users)
    .leftJoin(userInstances, and(eq(userInstances.userId, users.id), eq(userInstances.instanceId, ctx.instanceId)))
    .where(
      and(
        eq(users.id, id),
        isNull(users.deletedAt),
        sql`(${users.instanceId} = ${ctx.instanceId} or ${userInstances.instanceId} is not null)`,
      ),
    );
  if (!row) throw notFound('userNotFound');
  return toProfile(row.user);
}

/**
 * The profile picture to store: re-encoded like every uploaded image (decision 0057), so no EXIF or GPS
 * position is kept and a file that only starts like an image is refused (400). The picture already stored
 * is kept as it is, so saving a form again does not re-compress it.
 */
export async function profileImageToStore(image: string | null, stored: string | null): Promise<string | null> {
  if (image === null || image === stored) return image;
  const clean = await reencodeImageDataUrl(image);
  if (!clean) {
    throw new AppError('VALIDATION', 'fileTypesAccepted', {
      params: { types: 'PNG, JPEG, WebP' },
      fields: { profileImage: 'invalid' },
    });
  }
  return clean;
}

export async function updateMyAccount(ctx: SignedInContext, input: UpdateMyAccount): Promise<UserProfile> {
  return ctx.db.transaction(async (tx) => {
    const user = await findUser(tx, ctx.actor.userId);
    if (!user) throw notFound('userNotFound');
    const profileImage = await profileImageToStore(input.profileImage, user.profileImage);
    if (input.email !== user.email.toLowerCase()) {
      if (!input.currentPassword || !(await verifyPassword(user.passwordHash, input.currentPassword))) {
        throw new AppError('VALIDATION', 'currentPasswordForEmail', {
          fields: { currentPassword: 'previousPasswordRequired' },
        });
      }
      const taken = await findUserByEmail(tx, input.email);
      if (taken) throw new AppError('CONFLICT', 'emailInUse', { fields: { email: 'emailInvalid' } });
    }
    const [updated] = await tx
      .update(users)
      .set({
        firstName: input.firstName,
        lastName: input.lastName,
        email: input.email,
        profileImage,
        updatedAt: new Date(),
      })
      .where(eq(users.id, user.id))
      .returning();
    await recordActivity(tx, {
      instanceId: ctx.instanceId,
      actorUserId: user.id,
      actorEmail: user.email,
      area: 'System Users',
      action: 'Updated',
      targetType: 'user',
      targetId: user.id,
      description: 'Updated own account',
      ip: ctx.ip,
    });
    return toProfile(updated!);
  });
}

export async function setTwoFactor(ctx: SignedInContext, enabled: boolean): Promise<UserProfile> {
  return ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(users)
      .set({ twoFactorEnabled: enabled, updatedAt: new Date() })
      .where(eq(users.id, ctx.actor.userId))
      .returning();
    await recordActivity(
      tx,
      staffActivity(ctx, 'Login Activity', 'Updated', {
        type: 'two-factor sign-in',
        id: ctx.actor.userId,
        description: enabled ? 'Two-factor sign-in turned on' : 'Two-factor sign-in turned off',
      }),
    );
    return toProfile(updated!);
  });
}

const FORGET_PASSWORD_MESSAGE = 'If an account exists for this email, we have sent a link to reset the password.';

export async function forgetPassword(ctx: ServiceContext, log: FastifyBaseLogger, input: { email: string }) {
  const user = await findUserByEmail(ctx.db, input.email);
  if (user && user.status === 'active') {
    await ctx.db.transaction(async (tx) => {
      const token = await issueToken(tx, user.id, 'reset_password', PASSWORD_RESET_TTL_MINUTES * 60_000);
      const resetLink = link(ctx, '/reset-password', { id: user.id, token: token.secret });
      await recordActivity(tx, {
        instanceId: user.instanceId,
        actorUserId: user.id,
        actorEmail: user.email,
        area: 'Login Activity',
        action: 'Sent',
        targetType: 'password',
        targetId: user.id,
        description: 'Password reset link sent',
        ip: ctx.ip,
      });
      return sendAccountEmail(ctx, log, tx, user, 'reset-password', accountEmails.resetPassword(resetLink));
    });
  }
  return { message: FORGET_PASSWORD_MESSAGE };
}

export async function changePassword(ctx: SignedInContext, input: ChangePassword) {
  if (input.id !== ctx.actor.userId) throw notFound('userNotFound');
  const user = await findUser(ctx.db, input.id);
  if (!user || !(await verifyPassword(user.passwordHash, input.currentPassword))) {
    await recordActivity(
      ctx.db,
      staffActivity(ctx, 'Login Activity', 'Failed', {
        type: 'password',
        id: ctx.actor.userId,
        description: 'Password change refused: current password not correct',
      }),
    );
    throw new AppError('VALIDATION', 'currentPasswordWrong', { fields: { currentPassword: 'invalid' } });
  }
  const passwordHash = await hashPassword(input.newPassword);
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, user.id));
    // Other devices signed in with the old password lose their sessions; this one stays.
    await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, user.id), ne(sessions.id, ctx.actor.sessionId), isNull(sessions.revokedAt)));
    await recordActivity(tx, {
      instanceId: ctx.instanceId,
      actorUserId: user.id,
      actorEmail: user.email,
      area: 'Login Activity',
      action: 'Updated',
      targetType: 'password',
      targetId: user.id,
      description: 'Password changed',
      ip: ctx.ip,
    });
  });
  return { message: 'Password updated successfully' };
}

export async function setPassword(ctx: ServiceContext, input: SetPassword) {
  const user = await findUser(ctx.db, input.id);
  const token = user && (await findLiveToken(ctx.db, user.id, ['set_password', 'reset_password'], input.token));
  if (!user || !token || user.status === 'inactive') {
    if (user) {
      await recordActivity(ctx.db, {
        instanceId: user.instanceId,
        actorUserId: user.id,
        actorEmail: user.email,
        area: 'Login Activity',
        action: 'Failed',
        targetType: 'password',
        targetId: user.id,
        description: 'Set-password link not valid or expired',
        ip: ctx.ip,
      });
    }
    throw new AppError('VALIDATION', 'linkInvalidOrExpired', { fields: { token: 'invalid' } });
  }
  const passwordHash = await hashPassword(input.newPassword);
  await ctx.db.transaction(async (tx) => {
    const used = await tx
      .update(oneTimeTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(oneTimeTokens.id, token.id), isNull(oneTimeTokens.usedAt)))
      .returning({ id: oneTimeTokens.id });
    if (used.length === 0) throw new AppError('VALIDATION', 'linkInvalidOrExpired', { fields: { token: 'invalid' } });
    await tx
      .update(users)
      .set({ passwordHash, status: user.status === 'invited' ? 'active' : user.status, updatedAt: new Date() })
      .where(eq(users.id, user.id));
    await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)));
    await recordActivity(tx, {
      instanceId: user.instanceId,
      actorUserId: user.id,
      actorEmail: user.email,
      area: 'Login Activity',
      action: 'Updated',
      targetType: 'password',
      targetId: user.id,
      description: token.purpose === 'set_password' ? 'Account set up' : 'Password reset',
      ip: ctx.ip,
    });
  });
  return { message: 'Your password has been set. You can sign in now.' };
}

/**
 * Writes the welcome email (set-password link) to the outbox inside the caller's transaction, so an
 * account created by an administrator and its email land together (its delivery job too).
 */
export async function queueWelcomeEmail(
  ctx: ServiceContext,
  log: FastifyBaseLogger,
  tx: Database,
  user: Pick<UserRow, 'id' | 'email' | 'instanceId'>,
) {
  const token = await issueToken(tx, user.id, 'set_password', WELCOME_LINK_TTL_HOURS * 3_600_000);
  const setLink = link(ctx, '/set-password', { id: user.id, token: token.secret });
  return sendAccountEmail(ctx, log, tx, user, 'welcome', accountEmails.welcome(setLink));
}

/** Sends the set-password link to a user who has not set one yet (welcome email). */
export async function sendWelcomeEmail(ctx: ServiceContext, log: FastifyBaseLogger, userId: string) {
  const user = await findUser(ctx.db, userId);
  if (user && user.status === 'invited') {
    await ctx.db.transaction((tx) => queueWelcomeEmail(ctx, log, tx, user));
  }
  return { message: 'If the account still needs setting up, we have sent the email again.' };
}
