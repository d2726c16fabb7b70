import { and, asc, count, desc, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { menuAccessFor } from '@pathwell/contracts/menu';
import type {
  Conversation,
  ConversationList,
  ConversationThread,
  MessageContact,
  UserMessage,
} from '@pathwell/contracts/messaging';
import { RoleCode, roleFromCode } from '@pathwell/contracts/roles';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { userInstances, userMessages, users } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';

/** The latest messages a thread shows (issue #11 §5). */
export const THREAD_SIZE = 200;
/** The conversation list shows an excerpt of the last message; the page clamps it further. */
const EXCERPT_LENGTH = 200;

/** Only roles that can open the messages page are offered as contacts and may receive a message. */
const MESSAGING_ROLE_CODES = (menuAccessFor('/user-messages') ?? []).map((role) => RoleCode[role]);

type UserRow = Pick<typeof users.$inferSelect, 'id' | 'firstName' | 'lastName' | 'role' | 'email'>;

const userColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  role: users.role,
  email: users.email,
};

const nameOf = (row: Pick<UserRow, 'firstName' | 'lastName'>) => `${row.firstName} ${row.lastName}`.trim();

/**
 * A user of the acting clinic: its home clinic or a membership (parent users). Row-level security
 * already hides other clinics' accounts; the condition says so on purpose and narrows a parent
 * user's request to the one clinic it acts for.
 */
function ofClinic(instanceId: string): SQL {
  return sql`(${eq(users.instanceId, instanceId)} or exists (select 1 from ${userInstances} where ${userInstances.userId} = ${users.id} and ${eq(userInstances.instanceId, instanceId)}))`;
}

/** Messages between the actor and another user, in the acting clinic. */
function between(ctx: SignedInContext, otherId: string): SQL {
  const me = ctx.actor.userId;
  return and(
    eq(userMessages.instanceId, ctx.instanceId),
    or(
      and(eq(userMessages.fromUserId, me), eq(userMessages.toUserId, otherId)),
      and(eq(userMessages.fromUserId, otherId), eq(userMessages.toUserId, me)),
    ),
  )!;
}

const toMessage = (row: typeof userMessages.$inferSelect): UserMessage => ({
  id: row.id,
  fromUserId: row.fromUserId,
  toUserId: row.toUserId,
  text: row.body,
  createdAt: row.createdAt.toISOString(),
  seenAt: row.seenAt?.toISOString() ?? null,
});

const excerpt = (body: string) => (body.length > EXCERPT_LENGTH ? `${body.slice(0, EXCERPT_LENGTH - 1)}…` : body);

/**
 * The other side of a conversation. Reading a thread needs a user of the clinic (a switched-off or
 * deleted colleague's history stays readable); writing needs an active account whose role has the
 * messages page. Anyone else is not found (404), never forbidden.
 */
async function findCounterpart(ctx: SignedInContext, db: Database, userId: string, purpose: 'read' | 'write'): Promise<UserRow> {
  if (userId === ctx.actor.userId) throw new AppError('CONFLICT', 'messageToSelf');
  const conditions = [eq(users.id, userId), ofClinic(ctx.instanceId)];
  if (purpose === 'write') {
    conditions.push(isNull(users.deletedAt), eq(users.status, 'active'), inArray(users.role, MESSAGING_ROLE_CODES));
  }
  const [row] = await db
    .select(userColumns)
    .from(users)
    .where(and(...conditions));
  if (!row) throw notFound('userNotFound');
  return row;
}

/**
 * Users of the acting clinic who exchanged messages with the actor there: the last message, how many
 * of theirs the actor has not seen, newest conversation first; `unread` is the sum over them.
 */
export async function listConversations(ctx: SignedInContext): Promise<ConversationList> {
  const me = ctx.actor.userId;
  const otherId = sql<string>`case when ${userMessages.fromUserId} = ${me} then ${userMessages.toUserId} else ${userMessages.fromUserId} end`;
  const mine = and(
    eq(userMessages.instanceId, ctx.instanceId),
    or(eq(userMessages.fromUserId, me), eq(userMessages.toUserId, me)),
  );

  // DISTINCT ON and ORDER BY name the output column: the expression repeated would bind its parameter
  // twice, and PostgreSQL would not see the two as the same expression.
  const byOther = sql`"other_id"`;
  const lastMessages = await ctx.db
    .selectDistinctOn([byOther], {
      otherId: otherId.as('other_id'),
      body: userMessages.body,
      createdAt: userMessages.createdAt,
      fromUserId: userMessages.fromUserId,
    })
    .from(userMessages)
    .where(mine)
    .orderBy(byOther, desc(userMessages.createdAt), desc(userMessages.id));
  if (lastMessages.length === 0) return { currentUserId: me, unread: 0, data: [] };

  const unreadRows = await ctx.db
    .select({ fromUserId: userMessages.fromUserId, unread: count() })
    .from(userMessages)
    .where(and(eq(userMessages.instanceId, ctx.instanceId), eq(userMessages.toUserId, me), isNull(userMessages.seenAt)))
    .groupBy(userMessages.fromUserId);
  const unreadBy = new Map(unreadRows.map((row) => [row.fromUserId, Number(row.unread)]));

  const people = await ctx.db
    .select(userColumns)
    .from(users)
    .where(
      and(
        inArray(
          users.id,
          lastMessages.map((row) => row.otherId),
        ),
        ofClinic(ctx.instanceId),
      ),
    );
  const personBy = new Map(people.map((row) => [row.id, row]));

  // A colleague who has left the clinic is no longer a user of it: their conversation goes, and so do
  // its unread messages from the total, so the badge never counts what the list cannot show.
  const data = lastMessages
    .flatMap((row): Conversation[] => {
      const person = personBy.get(row.otherId);
      if (!person) return [];
      return [
        {
          userId: person.id,
          name: nameOf(person),
          role: roleFromCode(person.role),
          lastMessage: excerpt(row.body),
          lastMessageAt: row.createdAt.toISOString(),
          lastFromMe: row.fromUserId === me,
          unread: unreadBy.get(person.id) ?? 0,
        },
      ];
    })
    .sort((a, b) => b.lastMessageAt.localeCompare(a.lastMessageAt));
  return { currentUserId: me, unread: data.reduce((sum, row) => sum + row.unread, 0), data };
}

/** Active users of the acting clinic the actor can start a conversation with, by last name. */
export async function listContacts(ctx: SignedInContext): Promise<MessageContact[]> {
  const rows = await ctx.db
    .select(userColumns)
    .from(users)
    .where(
      and(
        ofClinic(ctx.instanceId),
        ne(users.id, ctx.actor.userId),
        isNull(users.deletedAt),
        eq(users.status, 'active'),
        inArray(users.role, MESSAGING_ROLE_CODES),
      ),
    )
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
  return rows.map((row) => ({ id: row.id, name: nameOf(row), role: roleFromCode(row.role) }));
}

/** The latest messages between the actor and one user of the clinic, oldest first. */
export async function getThread(ctx: SignedInContext, userId: string): Promise<ConversationThread> {
  return ctx.db.transaction(async (tx) => {
    const other = await findCounterpart(ctx, tx, userId, 'read');
    const rows = await tx
      .select()
      .from(userMessages)
      .where(between(ctx, other.id))
      .orderBy(desc(userMessages.createdAt), desc(userMessages.id))
      .limit(THREAD_SIZE);
    await recordActivity(
      tx,
      staffActivity(ctx, 'System Users', 'Viewed', {
        type: 'user',
        id: other.id,
        description: `Viewed the conversation with ${other.email}`,
      }),
    );
    return {
      currentUserId: ctx.actor.userId,
      other: { id: other.id, name: nameOf(other), role: roleFromCode(other.role) },
      data: rows.reverse().map(toMessage),
    };
  });
}

/**
 * Sends a message to a user of the acting clinic. The sender must be a user of that clinic too (a
 * System Manager looking at a clinic they do not belong to reads, but does not write there): the
 * recipient could not otherwise see who wrote.
 */
export async function sendMessage(ctx: SignedInContext, userId: string, text: string): Promise<UserMessage> {
  return ctx.db.transaction(async (tx) => {
    const other = await findCounterpart(ctx, tx, userId, 'write');
    const [sender] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, ctx.actor.userId), ofClinic(ctx.instanceId)));
    if (!sender) throw new AppError('FORBIDDEN', 'notInClinic');
    const [row] = await tx
      .insert(userMessages)
      .values({ instanceId: ctx.instanceId, fromUserId: ctx.actor.userId, toUserId: other.id, body: text })
      .returning();
    const message = row!;
    await recordActivity(
      tx,
      staffActivity(ctx, 'System Users', 'Sent', {
        type: 'userMessage',
        id: message.id,
        description: `Sent a message to ${other.email}`,
      }),
    );
    await ctx.events.publish(tx, { instanceId: ctx.instanceId, kind: 'message', userIds: [other.id, ctx.actor.userId] });
    return toMessage(message);
  });
}

/** Marks every unseen message from one user to the actor, in the acting clinic, as seen. */
export async function markSeen(ctx: SignedInContext, fromUserId: string): Promise<{ marked: number }> {
  return ctx.db.transaction(async (tx) => {
    const rows = await tx
      .update(userMessages)
      .set({ seenAt: sql`now()` })
      .where(
        and(
          eq(userMessages.instanceId, ctx.instanceId),
          eq(userMessages.fromUserId, fromUserId),
          eq(userMessages.toUserId, ctx.actor.userId),
          isNull(userMessages.seenAt),
        ),
      )
      .returning({ id: userMessages.id });
    // The sender's open thread shows "seen", and the actor's other tabs drop the badge.
    if (rows.length > 0) {
      await ctx.events.publish(tx, { instanceId: ctx.instanceId, kind: 'message', userIds: [fromUserId, ctx.actor.userId] });
    }
    return { marked: rows.length };
  });
}
