import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  SIGN_IN_MAX_FAILURES_PER_ACCOUNT,
  SIGN_IN_MAX_FAILURES_PER_IP,
  SIGN_IN_WINDOW_MINUTES,
  TWO_FACTOR_CODE_TTL_MINUTES,
} from '@pathwell/contracts/constants';
import { RoleCode, roleFromCode } from '@pathwell/contracts/roles';
import type { SignIn, SignInResult } from '@pathwell/contracts/users';
import type { ServiceContext, SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { instances, oneTimeTokens, sessions, signInFailures, users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newSixDigitCode, newToken, sha256, sameHash, verifyPassword } from '../../lib/secrets';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { accountEmails } from './auth.emails';
import {
  findUser,
  findUserByEmail,
  issueToken,
  sendAccountEmail,
  type UserRow,
  recordOwnAccountActivity,
} from './account-records';

const TWO_FACTOR_MAX_ATTEMPTS = 5;

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
  await recordOwnAccountActivity(tx, ctx, user, {
    area: 'Login Activity',
    action: 'Created',
    targetType: 'session',
    // The session id lets login details show the browser (user agent) the session was opened from.
    targetId: session!.id,
    description: how,
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
    await recordOwnAccountActivity(tx, ctx, user, {
      area: 'Login Activity',
      action: 'Sent',
      targetType: 'two-factor code',
      targetId: token.id,
      description: 'Sign-in code sent',
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
      await recordOwnAccountActivity(tx, ctx, user, {
        area: 'Login Activity',
        action: 'Failed',
        targetType: 'two-factor code',
        targetId: challenge.id,
        description: 'Wrong sign-in code',
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
    await recordOwnAccountActivity(tx, ctx, user, {
      area: 'Login Activity',
      action: 'Sent',
      targetType: 'two-factor code',
      targetId: challenge.id,
      description: 'Sign-in code sent again',
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
