import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PerioperativeDetail, PerioperativeTemplate } from '@pathwell/contracts/managed-lists';
import { activityLogs, perioperativeTemplateDetails, perioperativeTemplates } from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
const who = ['admin', 'manager', 'doctor', 'staff', 'admin2'] as const;
type Who = (typeof who)[number];
const tokens = {} as Record<Who, Record<string, string>>;

beforeAll(async () => {
  t = await createTestApp();
  for (const user of who) tokens[user] = (await signIn(t.app, `${user}@pathwell.demo`)).headers;
});
afterAll(async () => {
  await t?.close();
});

const BASE = '/api/perioperativemessagetemplates';
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, as: Who, payload?: unknown) =>
  t.app.inject({ method, url, headers: tokens[as], payload: payload as object | undefined, remoteAddress: nextIp() });

let counter = 0;
async function newTemplate(as: Who = 'admin', codes = ['64483', '64484']) {
  counter += 1;
  const response = await call('POST', BASE, as, { name: `Epidural steroid injection ${counter}`, codes });
  expect(response.statusCode).toBe(201);
  return response.json<PerioperativeTemplate>();
}
const reminder = {
  dayOffset: -1,
  channel: 'sms',
  messageEn: 'Your procedure is tomorrow.',
  messageEs: 'Su procedimiento es mañana.',
};
const followUp = {
  dayOffset: 2,
  channel: 'email',
  subject: 'How are you feeling?',
  messageEn: 'Please tell us how you feel after your procedure.',
};

describe('perioperative message templates', () => {
  it('an admin creates a template with CPT codes (normalised, duplicates dropped) and the log records it', async () => {
    const response = await call('POST', BASE, 'admin', {
      name: 'Spinal cord stimulator trial',
      codes: ['63650', ' 63650', 'c1778'],
    });
    expect(response.statusCode).toBe(201);
    const created = response.json<PerioperativeTemplate>();
    expect(created).toMatchObject({
      name: 'Spinal cord stimulator trial',
      codes: ['63650', 'C1778'],
      isActive: true,
      details: [],
      detailCount: 0,
    });
    const [log] = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, created.id), eq(activityLogs.action, 'Created')));
    expect(log).toMatchObject({ area: 'Admin Configuration', targetType: 'perioperative_template' });
  });

  it('refuses a code that is not a CPT or HCPCS code, and a missing name, with field errors', async () => {
    const response = await call('POST', BASE, 'admin', { name: '', codes: ['64483', '12'] });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ name: 'nameRequired', 'codes.1': 'cptCodeInvalid' });
  });

  it('refuses a second template with the same name in the clinic (409), but another clinic may use it', async () => {
    const created = await newTemplate();
    const clash = await call('POST', BASE, 'admin', { name: created.name.toLowerCase(), codes: [] });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().fields).toEqual({ name: 'nameTaken' });
    expect((await call('POST', BASE, 'admin2', { name: created.name, codes: [] })).statusCode).toBe(201);
  });

  it('lists templates with search, code filter, detail counts and paging', async () => {
    const withCode = await call('POST', BASE, 'admin', { name: 'Kyphoplasty reminders', codes: ['22513'] });
    const id = withCode.json<PerioperativeTemplate>().id;
    await call('POST', `${BASE}/${id}/details`, 'admin', reminder);
    const byCode = await call('GET', `${BASE}?code=22513`, 'admin');
    expect(byCode.statusCode).toBe(200);
    expect(byCode.json()).toMatchObject({ totalRecords: 1, data: [{ id, detailCount: 1 }] });
    const bySearch = await call('GET', `${BASE}?search=kypho`, 'admin');
    expect(bySearch.json().data.map((row: { id: string }) => row.id)).toEqual([id]);
    await newTemplate();
    const page = await call('GET', `${BASE}?pageSize=1&pageNumber=0&sortBy=name`, 'admin');
    expect(page.json()).toMatchObject({ pageSize: 1, pageNumber: 0 });
    expect(page.json().data).toHaveLength(1);
    expect(page.json().totalRecords).toBeGreaterThan(1);
  });

  it('an admin adds, updates and deletes the timed messages of a template by its id', async () => {
    const template = await newTemplate();
    const added = await call('POST', `${BASE}/${template.id}/details`, 'admin', followUp);
    expect(added.statusCode).toBe(201);
    const detail = added.json<PerioperativeDetail>();
    expect(detail).toMatchObject({
      templateId: template.id,
      dayOffset: 2,
      channel: 'email',
      subject: 'How are you feeling?',
      messageEs: null,
    });
    await call('POST', `${BASE}/${template.id}/details`, 'admin', reminder);

    const read = await call('GET', `${BASE}/${template.id}`, 'admin');
    expect(read.json<PerioperativeTemplate>().details.map((row) => row.dayOffset)).toEqual([-1, 2]);

    const changed = await call('PUT', `${BASE}/${template.id}/details/${detail.id}`, 'admin', {
      ...followUp,
      channel: 'sms',
      dayOffset: 3,
    });
    expect(changed.statusCode).toBe(200);
    // A text message has no subject: the one from the email version is dropped.
    expect(changed.json()).toMatchObject({ dayOffset: 3, channel: 'sms', subject: null });

    const removed = await call('DELETE', `${BASE}/${template.id}/details/${detail.id}`, 'admin');
    expect(removed.statusCode).toBe(204);
    const [row] = await t.db.select().from(perioperativeTemplateDetails).where(eq(perioperativeTemplateDetails.id, detail.id));
    expect(row).toBeUndefined();
    const actions = await t.db
      .select({ action: activityLogs.action })
      .from(activityLogs)
      .where(eq(activityLogs.targetId, detail.id));
    expect(actions.map((entry) => entry.action).sort()).toEqual(['Created', 'Deleted', 'Updated']);
  });

  it('checks a message: an email needs a subject, a text message stays within 1600 characters, the day within a year', async () => {
    const template = await newTemplate();
    const noSubject = await call('POST', `${BASE}/${template.id}/details`, 'admin', { ...followUp, subject: '' });
    expect(noSubject.statusCode).toBe(400);
    expect(noSubject.json().fields).toEqual({ subject: 'required' });
    const longSms = await call('POST', `${BASE}/${template.id}/details`, 'admin', { ...reminder, messageEn: 'x'.repeat(1601) });
    expect(longSms.json().fields).toEqual({ messageEn: 'tooLong' });
    const farAway = await call('POST', `${BASE}/${template.id}/details`, 'admin', {
      ...reminder,
      dayOffset: 400,
      channel: 'fax',
    });
    expect(farAway.statusCode).toBe(400);
    expect(farAway.json().fields).toMatchObject({ dayOffset: 'numberOutOfRange', channel: 'required' });
  });

  it('updates a template and deletes it softly', async () => {
    const template = await newTemplate();
    const updated = await call('PUT', `${BASE}/${template.id}`, 'admin', {
      name: 'Renamed template',
      codes: ['64490'],
      isActive: false,
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Renamed template', codes: ['64490'], isActive: false });
    expect((await call('DELETE', `${BASE}/${template.id}`, 'admin')).statusCode).toBe(204);
    expect((await call('GET', `${BASE}/${template.id}`, 'admin')).statusCode).toBe(404);
    expect((await call('POST', `${BASE}/${template.id}/details`, 'admin', reminder)).statusCode).toBe(404);
    const [row] = await t.db.select().from(perioperativeTemplates).where(eq(perioperativeTemplates.id, template.id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
  });

  it("another clinic's admin gets 404 for the template and its messages and does not list it", async () => {
    const template = await newTemplate();
    const detail = (await call('POST', `${BASE}/${template.id}/details`, 'admin', reminder)).json<PerioperativeDetail>();
    expect((await call('GET', `${BASE}/${template.id}`, 'admin2')).statusCode).toBe(404);
    expect((await call('PUT', `${BASE}/${template.id}`, 'admin2', { name: 'Mine now', codes: [] })).statusCode).toBe(404);
    expect((await call('DELETE', `${BASE}/${template.id}`, 'admin2')).statusCode).toBe(404);
    expect((await call('POST', `${BASE}/${template.id}/details`, 'admin2', reminder)).statusCode).toBe(404);
    expect((await call('PUT', `${BASE}/${template.id}/details/${detail.id}`, 'admin2', reminder)).statusCode).toBe(404);
    expect((await call('DELETE', `${BASE}/${template.id}/details/${detail.id}`, 'admin2')).statusCode).toBe(404);
    const theirs = await call('GET', `${BASE}?search=${encodeURIComponent(template.name)}`, 'admin2');
    expect(theirs.json().totalRecords).toBe(0);
    expect((await call('GET', `${BASE}/${template.id}`, 'admin')).json().details).toHaveLength(1);
  });

  it("a message id under another template's id answers 404", async () => {
    const first = await newTemplate();
    const second = await newTemplate();
    const detail = (await call('POST', `${BASE}/${first.id}/details`, 'admin', reminder)).json<PerioperativeDetail>();
    expect((await call('DELETE', `${BASE}/${second.id}/details/${detail.id}`, 'admin')).statusCode).toBe(404);
  });

  it('Doctors and Staff read templates but cannot change them; a System Manager can', async () => {
    const template = await newTemplate();
    expect((await call('GET', BASE, 'doctor')).statusCode).toBe(200);
    expect((await call('GET', `${BASE}/${template.id}`, 'staff')).statusCode).toBe(200);
    expect((await call('POST', BASE, 'staff', { name: 'Staff template', codes: [] })).statusCode).toBe(403);
    expect((await call('PUT', `${BASE}/${template.id}`, 'doctor', { name: 'Doctor edit', codes: [] })).statusCode).toBe(403);
    expect((await call('DELETE', `${BASE}/${template.id}`, 'staff')).statusCode).toBe(403);
    expect((await call('POST', `${BASE}/${template.id}/details`, 'doctor', reminder)).statusCode).toBe(403);
    expect((await call('POST', BASE, 'manager', { name: 'Manager template', codes: [] })).statusCode).toBe(201);
  });
});
