import { and, eq, isNull, ne } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { PASSWORD_RESET_TTL_MINUTES, WELCOME_LINK_TTL_HOURS } from '@pathwell/contracts/constants';
import type { ChangePassword, SetPassword } from '@pathwell/contracts/users';
import type { ServiceContext, SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { oneTimeTokens, sessions, users } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { hashPassword, verifyPassword } from '../../lib/secrets';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { accountEmails } from './auth.emails';
import {
  findLiveToken,
  findUser,
  findUserByEmail,
  issueToken,
  link,
  sendAccountEmail,
  type UserRow,
  recordOwnAccountActivity,
} from './account-records';

const FORGET_PASSWORD_MESSAGE = 'If an account exists for this email, we have sent a link to reset the password.';

export async function forgetPassword(ctx: ServiceContext, log: FastifyBaseLogger, input: { email: string }) {
  const user = await findUserByEmail(ctx.db, input.email);
  if (user && user.status === 'active') {
    await ctx.db.transaction(async (tx) => {
      const token = await issueToken(tx, user.id, 'reset_password', PASSWORD_RESET_TTL_MINUTES * 60_000);
      const resetLink = link(ctx, '/reset-password', { id: user.id, token: token.secret });
      await recordOwnAccountActivity(tx, ctx, user, {
        area: 'Login Activity',
        action: 'Sent',
        targetType: 'password',
        targetId: user.id,
        description: 'Password reset link sent',
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
    await recordOwnAccountActivity(
      tx,
      ctx,
      user,
      {
        area: 'Login Activity',
        action: 'Updated',
        targetType: 'password',
        targetId: user.id,
        description: 'Password changed',
      },
      ctx.instanceId,
    );
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
    await recordOwnAccountActivity(tx, ctx, user, {
      area: 'Login Activity',
      action: 'Updated',
      targetType: 'password',
      targetId: user.id,
      description: token.purpose === 'set_password' ? 'Account set up' : 'Password reset',
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
