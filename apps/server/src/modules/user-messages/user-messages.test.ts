import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  USER_MESSAGE_MAX_LENGTH,
  type ConversationList,
  type ConversationThread,
  type MessageContact,
  type UserMessage,
} from '@pathwell/contracts/messaging';
import { activityLogs, instances, userMessages, users } from '../../db/schema';
import type { StaffEvent } from '../events/event-hub';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
let riverside: string;
let lakeside: string;
const who = ['admin', 'doctor', 'staff', 'admin2', 'manager', 'parent'] as const;
type Who = (typeof who)[number];
const tokens = {} as Record<Who, Record<string, string>>;
const ids = {} as Record<Who, string>;

const call = (method: 'GET' | 'POST', url: string, as: Who, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method,
    url,
    headers: { ...tokens[as], ...headers },
    payload: payload as object | undefined,
    remoteAddress: nextIp(),
  });

const send = (as: Who, to: string, text: string, headers?: Record<string, string>) =>
  call('POST', `/api/usermessages/${to}`, as, { text }, headers);
const conversations = async (as: Who, headers?: Record<string, string>) => {
  const response = await call('GET', '/api/usermessages/users', as, undefined, headers);
  expect(response.statusCode).toBe(200);
  return response.json<ConversationList>();
};

beforeAll(async () => {
  t = await createTestApp();
  // The demo clinic comes with a conversation; these tests count from none.
  await t.db.delete(userMessages);
  const clinics = await t.db.select().from(instances);
  riverside = clinics.find((clinic) => clinic.name.startsWith('Riverside'))!.id;
  lakeside = clinics.find((clinic) => clinic.name.startsWith('Lakeside'))!.id;
  for (const user of who) {
    const session = await signIn(t.app, `${user}@pathwell.demo`);
    tokens[user] = session.headers;
    ids[user] = session.id;
  }
});
afterAll(async () => {
  await t?.close();
});

describe('sending, listing and reading', () => {
  it('a Doctor messages an Admin; both lists show the conversation, the Admin with one unread', async () => {
    const sent = await send('doctor', ids.admin, '  Can you check room 3?  ');
    expect(sent.statusCode).toBe(201);
    const message = sent.json<UserMessage>();
    expect(message).toMatchObject({ fromUserId: ids.doctor, toUserId: ids.admin, text: 'Can you check room 3?', seenAt: null });

    const [row] = await t.db.select().from(userMessages).where(eq(userMessages.id, message.id));
    expect(row).toMatchObject({ instanceId: riverside, body: 'Can you check room 3?' });

    const adminList = await conversations('admin');
    expect(adminList.currentUserId).toBe(ids.admin);
    expect(adminList.unread).toBe(1);
    expect(adminList.data).toEqual([
      expect.objectContaining({
        userId: ids.doctor,
        name: 'Daniela Ortiz',
        role: 'Doctor',
        lastMessage: 'Can you check room 3?',
        lastMessageAt: message.createdAt,
        lastFromMe: false,
        unread: 1,
      }),
    ]);

    const doctorList = await conversations('doctor');
    expect(doctorList.unread).toBe(0);
    expect(doctorList.data).toEqual([
      expect.objectContaining({ userId: ids.admin, name: 'Alex Carter', role: 'Admin', lastFromMe: true, unread: 0 }),
    ]);
  });

  it('the thread holds both sides, oldest first, and the view is in the activity log', async () => {
    expect((await send('admin', ids.doctor, 'Done.\nAnything else?')).statusCode).toBe(201);
    const response = await call('GET', `/api/usermessages/${ids.doctor}`, 'admin');
    expect(response.statusCode).toBe(200);
    const thread = response.json<ConversationThread>();
    expect(thread.currentUserId).toBe(ids.admin);
    expect(thread.other).toEqual({ id: ids.doctor, name: 'Daniela Ortiz', role: 'Doctor' });
    expect(thread.data.map((message) => [message.fromUserId, message.text])).toEqual([
      [ids.doctor, 'Can you check room 3?'],
      [ids.admin, 'Done.\nAnything else?'],
    ]);

    const viewed = await t.db
      .select()
      .from(activityLogs)
      .where(
        and(eq(activityLogs.area, 'System Users'), eq(activityLogs.action, 'Viewed'), eq(activityLogs.actorUserId, ids.admin)),
      );
    expect(viewed).toEqual([expect.objectContaining({ instanceId: riverside, targetType: 'user', targetId: ids.doctor })]);
  });

  it('sending is in the activity log, without the text', async () => {
    const sent = await t.db
      .select()
      .from(activityLogs)
      .where(
        and(eq(activityLogs.area, 'System Users'), eq(activityLogs.action, 'Sent'), eq(activityLogs.actorUserId, ids.doctor)),
      );
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ instanceId: riverside, targetType: 'userMessage', actorEmail: 'doctor@pathwell.demo' });
    expect(sent[0]!.description).toContain('admin@pathwell.demo');
    expect(sent[0]!.description).not.toContain('room 3');
  });

  it('mark seen clears the unread count once, and the sender sees it seen', async () => {
    const first = await call('POST', `/api/usermessages/markseen/${ids.doctor}`, 'admin');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ marked: 1 });
    expect((await call('POST', `/api/usermessages/markseen/${ids.doctor}`, 'admin')).json()).toEqual({ marked: 0 });

    const adminList = await conversations('admin');
    expect(adminList.unread).toBe(0);
    expect(adminList.data[0]).toMatchObject({ userId: ids.doctor, unread: 0, lastFromMe: true });

    const thread = (await call('GET', `/api/usermessages/${ids.admin}`, 'doctor')).json<ConversationThread>();
    expect(thread.data[0]!.seenAt).not.toBeNull();
    // The Admin's own message to the Doctor is still unseen by the Doctor.
    expect(thread.data[1]!.seenAt).toBeNull();
    expect((await conversations('doctor')).unread).toBe(1);
  });

  it('counts unread per conversation and in total, newest conversation first', async () => {
    await send('doctor', ids.admin, 'One more thing');
    await send('doctor', ids.admin, 'And another');
    await send('manager', ids.admin, 'Staff meeting at 5');
    const list = await conversations('admin');
    expect(list.unread).toBe(3);
    expect(list.data.map((row) => [row.userId, row.unread, row.lastMessage])).toEqual([
      [ids.manager, 1, 'Staff meeting at 5'],
      [ids.doctor, 2, 'And another'],
    ]);
    expect(list.data[0]).toMatchObject({ name: 'Morgan Reyes', role: 'SystemManager' });
  });

  it('shows a long last message as an excerpt, and the thread keeps the whole text', async () => {
    const long = 'x'.repeat(USER_MESSAGE_MAX_LENGTH);
    expect((await send('manager', ids.doctor, long)).statusCode).toBe(201);
    const list = await conversations('doctor');
    const row = list.data.find((conversation) => conversation.userId === ids.manager)!;
    expect(row.lastMessage.length).toBeLessThan(long.length);
    expect(row.lastMessage.endsWith('…')).toBe(true);
    const thread = (await call('GET', `/api/usermessages/${ids.manager}`, 'doctor')).json<ConversationThread>();
    expect(thread.data.at(-1)!.text).toBe(long);
  });

  it('tells both users when a message is sent or seen', async () => {
    const heard: { user: string; event: StaffEvent }[] = [];
    const stops = (['admin', 'doctor', 'manager'] as const).map((user) =>
      t.app.events.subscribe(ids[user], [riverside], (event) => heard.push({ user, event })),
    );
    try {
      await send('admin', ids.doctor, 'Ping');
      await call('POST', `/api/usermessages/markseen/${ids.admin}`, 'doctor');
      await expect.poll(() => heard.length).toBeGreaterThanOrEqual(4);
      expect(heard.every(({ event }) => event.kind === 'message' && event.instanceId === riverside)).toBe(true);
      expect(heard.map(({ user }) => user).sort()).toEqual(['admin', 'admin', 'doctor', 'doctor']);
    } finally {
      for (const stop of stops) stop();
    }
  });
});

describe('contacts', () => {
  it('lists active users of the clinic who can use messages, never oneself', async () => {
    const response = await call('GET', '/api/usermessages/contacts', 'admin');
    expect(response.statusCode).toBe(200);
    const contacts = response.json<MessageContact[]>();
    const contactIds = contacts.map((contact) => contact.id);
    expect(contactIds).toEqual(expect.arrayContaining([ids.doctor, ids.manager, ids.parent]));
    expect(contactIds).not.toContain(ids.admin);
    expect(contactIds).not.toContain(ids.staff);
    expect(contactIds).not.toContain(ids.admin2);
    expect(contacts.find((contact) => contact.id === ids.doctor)).toEqual({
      id: ids.doctor,
      name: 'Daniela Ortiz',
      role: 'Doctor',
    });
  });

  it('a switched-off user is no contact and cannot be written to, but their history stays readable', async () => {
    const [quiet] = await t.db
      .insert(users)
      .values({
        instanceId: riverside,
        email: 'quiet.doctor@pathwell.demo',
        firstName: 'Quinn',
        lastName: 'Hale',
        role: 3,
        status: 'active',
      })
      .returning();
    expect((await send('admin', quiet!.id, 'Welcome')).statusCode).toBe(201);
    await t.db.update(users).set({ status: 'inactive' }).where(eq(users.id, quiet!.id));

    const contacts = (await call('GET', '/api/usermessages/contacts', 'admin')).json<MessageContact[]>();
    expect(contacts.map((contact) => contact.id)).not.toContain(quiet!.id);
    const refused = await send('admin', quiet!.id, 'Are you there?');
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ messageKey: 'userNotFound' });
    const thread = await call('GET', `/api/usermessages/${quiet!.id}`, 'admin');
    expect(thread.statusCode).toBe(200);
    expect(thread.json<ConversationThread>().data).toHaveLength(1);
  });
});

describe('refusals', () => {
  it('refuses an empty, blank or too long text with a field error', async () => {
    for (const [text, key] of [
      ['', 'required'],
      ['   \n ', 'required'],
      ['y'.repeat(USER_MESSAGE_MAX_LENGTH + 1), 'tooLong'],
    ] as const) {
      const response = await send('doctor', ids.admin, text);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION', fields: { text: key } });
    }
    const missing = await call('POST', `/api/usermessages/${ids.admin}`, 'doctor', {});
    expect(missing.statusCode).toBe(400);
  });

  it('refuses an id that is not an id', async () => {
    expect((await call('GET', '/api/usermessages/not-an-id', 'admin')).statusCode).toBe(400);
    expect((await call('POST', '/api/usermessages/markseen/not-an-id', 'admin')).statusCode).toBe(400);
  });

  it('cannot message oneself', async () => {
    const response = await send('admin', ids.admin, 'Note to self');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'CONFLICT', messageKey: 'messageToSelf' });
    expect((await call('GET', `/api/usermessages/${ids.admin}`, 'admin')).statusCode).toBe(409);
  });

  it("another clinic's user does not find this clinic's users", async () => {
    const thread = await call('GET', `/api/usermessages/${ids.doctor}`, 'admin2');
    expect(thread.statusCode).toBe(404);
    expect(thread.json()).toMatchObject({ messageKey: 'userNotFound' });
    const sent = await send('admin2', ids.doctor, 'Hello from Lakeside');
    expect(sent.statusCode).toBe(404);
    expect(sent.json()).toMatchObject({ messageKey: 'userNotFound' });
    const list = await conversations('admin2');
    expect(list.data).toEqual([]);
    // Mark seen only touches messages to the actor in the acting clinic.
    expect((await call('POST', `/api/usermessages/markseen/${ids.doctor}`, 'admin2')).json()).toEqual({ marked: 0 });
  });

  it('cannot write to a Staff user, who has no messages page', async () => {
    const response = await send('admin', ids.staff, 'Hello');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ messageKey: 'userNotFound' });
  });

  it('Staff may not use messages (403)', async () => {
    for (const [method, url] of [
      ['GET', '/api/usermessages/users'],
      ['GET', '/api/usermessages/contacts'],
      ['GET', `/api/usermessages/${ids.admin}`],
      ['POST', `/api/usermessages/${ids.admin}`],
      ['POST', `/api/usermessages/markseen/${ids.admin}`],
    ] as const) {
      const response = await call(method, url, 'staff', method === 'POST' ? { text: 'Hi' } : undefined);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json()).toMatchObject({ messageKey: 'notAllowed' });
    }
  });

  it('a signed-out request is refused (401)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/usermessages/users', remoteAddress: nextIp() });
    expect(response.statusCode).toBe(401);
  });
});

describe('clinics', () => {
  it("a parent user acting for Lakeside talks to Lakeside's users, and the conversation stays there", async () => {
    const atLakeside = { clinicid: lakeside };
    const sent = await send('parent', ids.admin2, 'Lakeside numbers?', atLakeside);
    expect(sent.statusCode).toBe(201);
    const [row] = await t.db.select().from(userMessages).where(eq(userMessages.id, sent.json<UserMessage>().id));
    expect(row!.instanceId).toBe(lakeside);

    expect((await send('parent', ids.doctor, 'Wrong clinic', atLakeside)).statusCode).toBe(404);
    expect((await conversations('parent', atLakeside)).data.map((conversation) => conversation.userId)).toEqual([ids.admin2]);
    expect((await conversations('parent')).data).toEqual([]);

    const admin2List = await conversations('admin2');
    expect(admin2List).toMatchObject({ unread: 1, data: [{ userId: ids.parent, name: 'Priya Shah', unread: 1 }] });
    const contacts = (await call('GET', '/api/usermessages/contacts', 'parent', undefined, atLakeside)).json<MessageContact[]>();
    expect(contacts.map((contact) => contact.id)).toContain(ids.admin2);
    expect(contacts.map((contact) => contact.id)).not.toContain(ids.doctor);
  });

  it('the all-clinics view is not accepted: messages need one clinic', async () => {
    const response = await call('GET', '/api/usermessages/users', 'parent', undefined, { clinicid: 'all' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ messageKey: 'oneClinicNeeded' });
  });

  it('a System Manager looking at a clinic they do not belong to cannot write there', async () => {
    const response = await send('manager', ids.admin2, 'Hello', { clinicid: lakeside });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ messageKey: 'notInClinic' });
  });
});
