import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { SIGNUP_CONFIRM_TTL_HOURS } from '@pathwell/contracts/constants';
import { RoleCode } from '@pathwell/contracts/roles';
import type { SignUp } from '@pathwell/contracts/users';
import type { ServiceContext } from '../../context';
import { oneTimeTokens, users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { hashPassword } from '../../lib/secrets';
import { accountEmails } from './auth.emails';
import { publicLink } from '../../lib/public-url';
import { findLiveToken, findUser, findUserByEmail, issueToken, link, sendAccountEmail } from './account-records';

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
