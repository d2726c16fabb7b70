import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceContext } from '../../context';
import type { Database } from '../../db/client';
import { oneTimeTokens, users, type TokenPurpose } from '../../db/schema';
import { newToken, sha256, sameHash } from '../../lib/secrets';
import { recordActivity, type ActivityEntry } from '../audit/audit.service';
import { queueMessage } from '../outbox/outbox.service';
import { publicLink } from '../../lib/public-url';

/** What every account flow reads and writes: the user row, one-time tokens, links and account emails. */

export type UserRow = typeof users.$inferSelect;

export async function findUserByEmail(db: Database, email: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, isNull(users.deletedAt)));
  return user;
}

export async function findUser(db: Database, id: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)));
  return user;
}

export async function issueToken(db: Database, userId: string, purpose: TokenPurpose, ttlMs: number, secret = newToken()) {
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
export async function findLiveToken(db: Database, userId: string, purposes: TokenPurpose[], secret: string) {
  const rows = await db
    .select()
    .from(oneTimeTokens)
    .where(and(eq(oneTimeTokens.userId, userId), isNull(oneTimeTokens.usedAt), gt(oneTimeTokens.expiresAt, new Date())));
  const hash = sha256(secret);
  return rows.find((row) => purposes.includes(row.purpose) && sameHash(row.tokenHash, hash));
}

export function link(ctx: ServiceContext, path: string, params: Record<string, string>) {
  return publicLink(ctx.config, `${path}?${new URLSearchParams(params).toString()}`);
}

export async function sendAccountEmail(
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

/**
 * The audit entry a user's own account step leaves (sign-in, codes, passwords, own profile): the user
 * is the actor, in their home clinic unless the step acts for another.
 */
export function recordOwnAccountActivity(
  tx: Database,
  ctx: ServiceContext,
  user: Pick<UserRow, 'id' | 'email' | 'instanceId'>,
  entry: Pick<ActivityEntry, 'area' | 'action' | 'targetType' | 'targetId' | 'description'>,
  instanceId: string | null = user.instanceId,
) {
  return recordActivity(tx, { instanceId, actorUserId: user.id, actorEmail: user.email, ...entry, ip: ctx.ip });
}
