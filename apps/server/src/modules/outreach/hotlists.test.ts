import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HotlistDashboard, HotlistDetail, HotlistNext, HotlistQueue, HotlistSummary } from '@pathwell/contracts/hotlists';
import { audienceRuleSchema } from '@pathwell/contracts/outreach';
import { RoleCode } from '@pathwell/contracts/roles';
import {
  activityLogs,
  audienceTemplates,
  codedVisitCodes,
  codedVisits,
  hotlistCalls,
  hotlistEntries,
  instances,
  patientPhoneNumbers,
  patients,
  users,
} from '../../db/schema';
import { DEMO_PASSWORD } from '../../db/seed/demo';
import { hashPassword } from '../../lib/secrets';
import { createTestApp, nextIp, setInstanceSetting, signIn, type TestApp } from '../../../test/test-app';
import { nextClinicDayMorning } from './hotlist-calls.service';

/**
 * Six hand-built Riverside patients coded Q76.49 (a code no demo patient has): Ana, Ben, Cy, Dee and Eve
 * Hotlist have a phone and are on every list made from the template, in name order; Fay has no phone
 * and never is. Two staff members (Sam of the demo and Kim made here) work the lists.
 */
const CODE = 'Q76.49';
let t: TestApp;
let riverside: string;
let lakeside: string;
let template: string;
let campaignTemplate: string;
const patientIds: Record<string, string> = {};
const headers: Record<string, Record<string, string>> = {};
const userIds: Record<string, string> = {};

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, as: string, payload?: object) =>
  t.app.inject({ method, url, headers: headers[as], remoteAddress: nextIp(), ...(payload ? { payload } : {}) });

async function createList(name: string, as = 'admin') {
  const response = await call('POST', '/api/hotlists', as, { name, templateId: template, reason: 'Lumbar follow-up' });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<HotlistSummary>();
}

async function next(listId: string, as: string) {
  const response = await call('POST', `/api/hotlists/${listId}/next`, as, {});
  expect(response.statusCode, response.body).toBe(200);
  return response.json<HotlistNext>();
}

async function outcome(listId: string, entryId: string, as: string, body: object) {
  return call('POST', `/api/hotlists/${listId}/entries/${entryId}/outcome`, as, body);
}

async function detail(listId: string, as = 'admin', query = '') {
  const response = await call('GET', `/api/hotlists/${listId}${query}`, as);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<HotlistDetail>();
}

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const clinic of [riverside, lakeside]) await setInstanceSetting(t.db, clinic, 'useCodePull', 'true');

  const [kim] = await t.db
    .insert(users)
    .values({
      email: 'kim.hotlist@pathwell.test',
      firstName: 'Kim',
      lastName: 'Nguyen',
      role: RoleCode.Staff,
      instanceId: riverside,
      passwordHash: await hashPassword(DEMO_PASSWORD),
    })
    .returning({ id: users.id });
  userIds.kim = kim!.id;
  for (const who of ['admin', 'manager', 'doctor', 'staff', 'admin2']) {
    const session = await signIn(t.app, `${who}@pathwell.demo`);
    headers[who] = session.headers;
    userIds[who] = session.id;
  }
  headers.kim = (await signIn(t.app, 'kim.hotlist@pathwell.test')).headers;

  for (const [index, first] of ['Ana', 'Ben', 'Cy', 'Dee', 'Eve', 'Fay'].entries()) {
    const [patient] = await t.db
      .insert(patients)
      .values({ instanceId: riverside, firstName: first, lastName: 'Hotlist', dateOfBirth: '1960-05-0' + (index + 1) })
      .returning({ id: patients.id });
    patientIds[first] = patient!.id;
    const [visit] = await t.db
      .insert(codedVisits)
      .values({
        instanceId: riverside,
        patientId: patient!.id,
        visitDate: '2024-03-1' + index,
        source: 'import',
        dedupeKey: `hotlist-test-${first}`,
        codes: [CODE],
      })
      .returning({ id: codedVisits.id });
    await t.db.insert(codedVisitCodes).values({
      instanceId: riverside,
      codedVisitId: visit!.id,
      code: CODE,
      kind: 'diagnosis',
      patientId: patient!.id,
      visitDate: '2024-03-1' + index,
    });
    if (first !== 'Fay') {
      await t.db.insert(patientPhoneNumbers).values([
        {
          instanceId: riverside,
          patientId: patient!.id,
          phoneType: 7,
          number: `(512) 555-010${index}`,
          digits: `512555010${index}`,
          isPrimary: true,
        },
        ...(first === 'Ana'
          ? [{ instanceId: riverside, patientId: patient!.id, phoneType: 1, number: '(512) 555-0199', digits: '5125550199' }]
          : []),
      ]);
    }
  }
  const rule = audienceRuleSchema.parse({ codes: [CODE] });
  const [hot, campaign] = await t.db
    .insert(audienceTemplates)
    .values([
      { instanceId: riverside, kind: 'hotlist', name: 'Congenital spine', rule },
      { instanceId: riverside, kind: 'campaign', name: 'Congenital spine (campaign)', rule },
    ])
    .returning({ id: audienceTemplates.id });
  template = hot!.id;
  campaignTemplate = campaign!.id;
});
afterAll(async () => {
  await t?.close();
});

const fullList = ['Ana', 'Ben', 'Cy', 'Dee', 'Eve'];

describe('making a hot list', () => {
  it('freezes the template patients with a phone, in name order, with their matched codes', async () => {
    const list = await createList('Spine list');
    expect(list).toMatchObject({
      name: 'Spine list',
      reason: 'Lumbar follow-up',
      status: 'active',
      templateName: 'Congenital spine',
    });
    expect(list.progress).toMatchObject({ total: 5, called: 0, settled: 0, remaining: 5, inCall: 0 });
    const page = await detail(list.id);
    expect(page.entries.data.map((entry) => entry.patientName)).toEqual(fullList.map((name) => `${name} Hotlist`));
    expect(page.entries.data.map((entry) => entry.position)).toEqual([1, 2, 3, 4, 5]);
    expect(page.entries.data[0]!.matchedCodes).toEqual([CODE]);
    const [created] = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, list.id), eq(activityLogs.action, 'Created')));
    expect(created?.description).toContain('5 patients');
  });

  it('answers 400 with field errors', async () => {
    const bad = await call('POST', '/api/hotlists', 'admin', { name: '', templateId: 'nope', reason: 'x'.repeat(501) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({ name: 'nameRequired', templateId: 'idInvalid', reason: 'tooLong' });
    const wrongKind = await call('POST', '/api/hotlists', 'admin', { name: 'X', templateId: campaignTemplate });
    expect(wrongKind.statusCode).toBe(400);
    expect(wrongKind.json().fields).toEqual({ templateId: 'invalid' });
  });

  it('is for System Managers and Admins: Staff work lists but may not make, finish or delete them; Doctors get 403', async () => {
    expect((await call('POST', '/api/hotlists', 'manager', { name: 'By manager', templateId: template })).statusCode).toBe(201);
    const list = await createList('Roles list');
    expect((await call('POST', '/api/hotlists', 'staff', { name: 'By staff', templateId: template })).statusCode).toBe(403);
    expect((await call('POST', `/api/hotlists/${list.id}/finish`, 'staff', {})).statusCode).toBe(403);
    expect((await call('DELETE', `/api/hotlists/${list.id}`, 'staff')).statusCode).toBe(403);
    expect((await call('GET', '/api/hotlists', 'staff')).statusCode).toBe(200);
    expect((await next(list.id, 'staff')).entry).not.toBeNull();
    for (const [method, url] of [
      ['GET', '/api/hotlists'],
      ['GET', `/api/hotlists/${list.id}`],
      ['POST', `/api/hotlists/${list.id}/next`],
      ['POST', '/api/hotlists'],
    ] as const) {
      expect(
        (await call(method, url, 'doctor', method === 'POST' ? { name: 'D', templateId: template } : undefined)).statusCode,
      ).toBe(403);
    }
  });
});

describe('working a hot list', () => {
  it('two staff members asking in turn never get the same patient; asking again gives back the one held', async () => {
    const list = await createList('Interleaved');
    const seen: string[] = [];
    const sam1 = (await next(list.id, 'staff')).entry!;
    const kim1 = (await next(list.id, 'kim')).entry!;
    expect(kim1.patientId).not.toBe(sam1.patientId);
    // Asking again while holding a patient gives the same one back (claim renewed).
    expect((await next(list.id, 'staff')).entry!.entryId).toBe(sam1.entryId);
    expect(sam1).toMatchObject({ firstName: 'Ana', lastName: 'Hotlist', reason: 'Lumbar follow-up', matchedCodes: [CODE] });
    expect(sam1.phones).toEqual([
      { number: '(512) 555-0100', phoneType: 7, isPrimary: true, contactName: null, relation: null },
      { number: '(512) 555-0199', phoneType: 1, isPrimary: false, contactName: null, relation: null },
    ]);
    expect(sam1.lastVisit).toBe('2024-03-10');
    expect(sam1.preferredLanguage).toBe('en');
    seen.push(sam1.patientId, kim1.patientId);
    expect((await outcome(list.id, sam1.entryId, 'staff', { outcome: 'reachedBooked', note: 'Booked Tuesday' })).statusCode).toBe(
      200,
    );
    expect((await outcome(list.id, kim1.entryId, 'kim', { outcome: 'reachedDeclined' })).statusCode).toBe(200);
    // The three left, asked for at the same moment by both: two different patients, then the last one
    // to exactly one of them, then nobody. On PostgreSQL the two requests run on two connections and
    // race for the rows (FOR UPDATE SKIP LOCKED); PGlite has one connection, so there they take turns.
    const together = async () => {
      const [sam, kim] = await Promise.all([next(list.id, 'staff'), next(list.id, 'kim')]);
      const held = (
        [
          ['staff', sam.entry],
          ['kim', kim.entry],
        ] as const
      ).filter((pair): pair is readonly ['staff' | 'kim', NonNullable<HotlistNext['entry']>] => pair[1] !== null);
      for (const [who, entry] of held) {
        seen.push(entry.patientId);
        expect((await outcome(list.id, entry.entryId, who, { outcome: 'wrongNumber' })).statusCode).toBe(200);
      }
      return held.map(([, entry]) => entry.patientId);
    };
    const first = await together();
    expect(first).toHaveLength(2);
    expect(first[0]).not.toBe(first[1]);
    expect(await together()).toHaveLength(1);
    expect(await together()).toEqual([]);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    const done = await detail(list.id);
    expect(done.progress).toMatchObject({
      total: 5,
      called: 5,
      settled: 5,
      booked: 1,
      declined: 1,
      wrongNumber: 3,
      remaining: 0,
    });
    const sam = done.staff.find((row) => row.userId === userIds.staff)!;
    const kim = done.staff.find((row) => row.userId === userIds.kim)!;
    expect(sam.calls + kim.calls).toBe(5);
    expect(sam).toMatchObject({ name: 'Sam Lee', booked: 1 });
    expect(kim).toMatchObject({ name: 'Kim Nguyen', booked: 0 });
    expect(done.entries.data[0]).toMatchObject({ outcome: 'reachedBooked', outcomeByName: 'Sam Lee', attempts: 1 });
    // The dashboard shows the list and the per-staff rows.
    const dashboard = (await call('GET', '/api/hotlists', 'admin')).json<HotlistDashboard>();
    expect(dashboard.data.find((row) => row.id === list.id)!.progress.settled).toBe(5);
    expect(dashboard.staff.find((row) => row.userId === userIds.kim)!.calls).toBeGreaterThanOrEqual(kim.calls);
    // Each outcome was audited as a contact with the patient.
    const audited = await t.db
      .select()
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.targetId, sam1.patientId),
          eq(activityLogs.area, 'Patient Profile'),
          eq(activityLogs.action, 'Created'),
        ),
      );
    expect(audited.some((row) => row.description?.includes('reachedBooked'))).toBe(true);
    expect((await next(list.id, 'staff')).entry).toBeNull();
  });

  it('a claim that ran out goes to the next person; the first holder may then not record an outcome (409)', async () => {
    const list = await createList('Expiry');
    const first = (await next(list.id, 'staff')).entry!;
    const kimFirst = (await next(list.id, 'kim')).entry!;
    expect(kimFirst.entryId).not.toBe(first.entryId);
    expect((await outcome(list.id, kimFirst.entryId, 'kim', { outcome: 'wrongNumber' })).statusCode).toBe(200);
    await t.db
      .update(hotlistEntries)
      .set({ claimedUntil: sql`now() - interval '1 minute'` })
      .where(eq(hotlistEntries.id, first.entryId));
    const kimSecond = (await next(list.id, 'kim')).entry!;
    expect(kimSecond.entryId).toBe(first.entryId);
    const refused = await outcome(list.id, first.entryId, 'staff', { outcome: 'reachedBooked' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().messageKey).toBe('hotlistNotClaimed');
    // Release hands it back: Sam then gets it.
    expect((await call('POST', `/api/hotlists/${list.id}/entries/${first.entryId}/release`, 'staff', {})).statusCode).toBe(409);
    expect((await call('POST', `/api/hotlists/${list.id}/entries/${first.entryId}/release`, 'kim', {})).statusCode).toBe(204);
    expect((await next(list.id, 'staff')).entry!.entryId).toBe(first.entryId);
  });

  it('a voicemail comes back at its call-back time, with the earlier call shown; by default the next weekday at 9:00', async () => {
    const list = await createList('Call-backs');
    const ana = (await next(list.id, 'staff')).entry!;
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const saved = await outcome(list.id, ana.entryId, 'staff', {
      outcome: 'voicemail',
      callbackAt: later,
      note: 'Left a message',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<HotlistQueue>()).toEqual({ remaining: 4, nextCallbackAt: later });
    const ben = (await next(list.id, 'staff')).entry!;
    expect(ben.firstName).toBe('Ben');
    const defaulted = await outcome(list.id, ben.entryId, 'staff', { outcome: 'voicemail' });
    expect(defaulted.statusCode).toBe(200);
    const [benRow] = await t.db.select().from(hotlistEntries).where(eq(hotlistEntries.id, ben.entryId));
    const expected = nextClinicDayMorning(new Date(), 'America/Chicago');
    expect(benRow!.callbackAt!.toISOString()).toBe(expected.toISOString());
    let progress = (await detail(list.id)).progress;
    expect(progress).toMatchObject({ voicemail: 2, callbacks: 2, remaining: 3, settled: 0 });

    // Ana's time comes: she is handed out before the patients not called yet.
    await t.db
      .update(hotlistEntries)
      .set({ callbackAt: sql`now() - interval '1 minute'` })
      .where(eq(hotlistEntries.id, ana.entryId));
    const again = (await next(list.id, 'kim')).entry!;
    expect(again.entryId).toBe(ana.entryId);
    expect(again.callbackAt).not.toBeNull();
    expect(again.previousCalls).toHaveLength(1);
    expect(again.previousCalls[0]).toMatchObject({
      outcome: 'voicemail',
      note: 'Left a message',
      userName: 'Sam Lee',
      callbackAt: later,
    });
    expect((await outcome(list.id, again.entryId, 'kim', { outcome: 'reachedBooked' })).statusCode).toBe(200);
    progress = (await detail(list.id)).progress;
    expect(progress).toMatchObject({ booked: 1, voicemail: 1, callbacks: 1, settled: 1, remaining: 3 });
    const [anaRow] = await t.db.select().from(hotlistEntries).where(eq(hotlistEntries.id, ana.entryId));
    expect(anaRow).toMatchObject({ outcome: 'reachedBooked', callbackAt: null, attempts: 2 });
  });

  it('a patient who said "do not call" is left out of a new list', async () => {
    const list = await createList('Do not call');
    const ana = (await next(list.id, 'staff')).entry!;
    expect((await outcome(list.id, ana.entryId, 'staff', { outcome: 'doNotCall' })).statusCode).toBe(200);
    const calls = await t.db.select().from(hotlistCalls).where(eq(hotlistCalls.entryId, ana.entryId));
    expect(calls).toMatchObject([{ outcome: 'doNotCall', userId: userIds.staff, patientId: patientIds.Ana }]);
    const fresh = await createList('After do not call');
    expect(fresh.progress.total).toBe(4);
    const page = await detail(fresh.id);
    expect(page.entries.data.map((entry) => entry.patientId)).not.toContain(patientIds.Ana);
  });

  it('answers 400 with field errors for a bad outcome', async () => {
    const list = await createList('Bad outcomes');
    const entry = (await next(list.id, 'staff')).entry!;
    const bad = await outcome(list.id, entry.entryId, 'staff', { outcome: 'maybe', note: 'x'.repeat(1001) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({ outcome: 'required', note: 'tooLong' });
    const final = await outcome(list.id, entry.entryId, 'staff', {
      outcome: 'reachedBooked',
      callbackAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(final.json().fields).toEqual({ callbackAt: 'invalid' });
    const past = await outcome(list.id, entry.entryId, 'staff', {
      outcome: 'voicemail',
      callbackAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().fields).toEqual({ callbackAt: 'callbackInPast' });
    expect((await call('GET', `/api/hotlists/${list.id}?pageSize=500`, 'staff')).json().fields).toEqual({
      pageSize: 'numberOutOfRange',
    });
  });

  it('pages the entries and filters them by outcome', async () => {
    const list = await createList('Paging');
    const first = await detail(list.id, 'staff', '?pageSize=2&pageNumber=1');
    expect(first.entries.totalRecords).toBe(4);
    expect(first.entries.data.map((entry) => entry.position)).toEqual([3, 4]);
    const held = (await next(list.id, 'staff')).entry!;
    const open = await detail(list.id, 'staff', '?filter=open');
    expect(open.entries.data.find((entry) => entry.id === held.entryId)!.inCallWith).toBe('Sam Lee');
    expect(open.myClaimEntryId).toBe(held.entryId);
    const past = await detail(list.id, 'staff', '?pageNumber=9');
    expect(past.entries).toEqual({ totalRecords: 4, data: [] });
  });

  it('a finished list cannot be worked (409); a deleted one is gone (404)', async () => {
    const list = await createList('Finish me');
    const finished = await call('POST', `/api/hotlists/${list.id}/finish`, 'manager', {});
    expect(finished.statusCode).toBe(200);
    expect(finished.json<HotlistSummary>().status).toBe('finished');
    const refused = await call('POST', `/api/hotlists/${list.id}/next`, 'staff', {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().messageKey).toBe('hotlistFinished');
    expect((await call('DELETE', `/api/hotlists/${list.id}`, 'admin')).statusCode).toBe(204);
    expect((await call('GET', `/api/hotlists/${list.id}`, 'admin')).statusCode).toBe(404);
    const dashboard = (await call('GET', '/api/hotlists', 'admin')).json<HotlistDashboard>();
    expect(dashboard.data.some((row) => row.id === list.id)).toBe(false);
  });
});

describe('tenancy and the clinic setting', () => {
  it("another clinic's user gets 404 for this clinic's lists and entries", async () => {
    const list = await createList('Tenant');
    const entry = (await next(list.id, 'staff')).entry!;
    for (const [method, url, payload] of [
      ['GET', `/api/hotlists/${list.id}`, undefined],
      ['POST', `/api/hotlists/${list.id}/next`, {}],
      ['POST', `/api/hotlists/${list.id}/entries/${entry.entryId}/outcome`, { outcome: 'wrongNumber' }],
      ['POST', `/api/hotlists/${list.id}/entries/${entry.entryId}/release`, {}],
      ['POST', `/api/hotlists/${list.id}/finish`, {}],
      ['DELETE', `/api/hotlists/${list.id}`, undefined],
    ] as const) {
      const response = await call(method, url, 'admin2', payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    const lakesideTemplate = await call('POST', '/api/hotlists', 'admin2', { name: 'Steal', templateId: template });
    expect(lakesideTemplate.statusCode).toBe(400);
    expect((await call('GET', '/api/hotlists', 'admin2')).json<HotlistDashboard>().data).toEqual([]);
  });

  it('answers 403 featureOff when the clinic does not use campaigns', async () => {
    await setInstanceSetting(t.db, riverside, 'useCodePull', 'false');
    try {
      const response = await call('GET', '/api/hotlists', 'staff');
      expect(response.statusCode).toBe(403);
      expect(response.json().messageKey).toBe('featureOff');
      expect((await call('POST', '/api/hotlists', 'admin', { name: 'Off', templateId: template })).statusCode).toBe(403);
    } finally {
      await setInstanceSetting(t.db, riverside, 'useCodePull', 'true');
    }
  });
});

describe('nextClinicDayMorning', () => {
  it('is the next weekday at 9:00 on the clinic clock', () => {
    // Friday 2026-03-06 15:00 in Chicago → Monday 2026-03-09 09:00 CDT (14:00 UTC; daylight saving began on the 8th).
    expect(nextClinicDayMorning(new Date('2026-03-06T21:00:00Z'), 'America/Chicago').toISOString()).toBe(
      '2026-03-09T14:00:00.000Z',
    );
    // Tuesday evening → Wednesday 9:00 CST.
    expect(nextClinicDayMorning(new Date('2026-01-06T23:00:00Z'), 'America/Chicago').toISOString()).toBe(
      '2026-01-07T15:00:00.000Z',
    );
  });
});
