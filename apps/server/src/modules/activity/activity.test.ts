import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityExportSchema, type ActivityEntry, type ActivityPage, type LoginDetailsPage } from '@pathwell/contracts/activity';
import type { SignedInContext } from '../../context';
import { activityLogs, instances, users } from '../../db/schema';
import { createTestApp, signIn, type TestApp } from '../../../test/test-app';
import { exportActivity } from './activity.service';

let t: TestApp;
let riverside: string;
let lakeside: string;
let admin: Awaited<ReturnType<typeof signIn>>;
let admin2: Awaited<ReturnType<typeof signIn>>;
let manager: Awaited<ReturnType<typeof signIn>>;
let parent: Awaited<ReturnType<typeof signIn>>;
let doctor: Awaited<ReturnType<typeof signIn>>;
let staff: Awaited<ReturnType<typeof signIn>>;
let doctorId: string;

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) PathwellTest/1.0';

/** Rows written straight into the log with a chosen time; the chain trigger still numbers and hashes them. */
async function addRow(values: Partial<typeof activityLogs.$inferInsert> & { instanceId: string }) {
  await t.db.insert(activityLogs).values({ area: 'Admin Configuration', action: 'Updated', ip: '10.1.1.1', ...values });
}

const post = (
  url: string,
  who: { headers: Record<string, string> },
  payload: object = {},
  headers: Record<string, string> = {},
) => t.app.inject({ method: 'POST', url, headers: { ...who.headers, ...headers }, payload });

const filtered = async (who: { headers: Record<string, string> }, payload: object = {}, headers: Record<string, string> = {}) => {
  const response = await post('/api/activitylogs/filtered', who, payload, headers);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ActivityPage>();
};

/** Every row of the filter, walking the pages. */
async function allRows(who: { headers: Record<string, string> }, payload: object = {}) {
  const rows: ActivityEntry[] = [];
  for (let pageNumber = 0; ; pageNumber++) {
    const page = await filtered(who, { ...payload, paginationFilter: { pageSize: 100, pageNumber } });
    rows.push(...page.data);
    if (rows.length >= page.totalRecords || page.data.length === 0) return rows;
  }
}

beforeAll(async () => {
  t = await createTestApp();
  const clinics = await t.db.select().from(instances);
  riverside = clinics.find((clinic) => clinic.name.startsWith('Riverside'))!.id;
  lakeside = clinics.find((clinic) => clinic.name.startsWith('Lakeside'))!.id;
  const [doctorRow] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  doctorId = doctorRow!.id;

  admin = await signIn(t.app, 'admin@pathwell.demo');
  admin2 = await signIn(t.app, 'admin2@pathwell.demo');
  manager = await signIn(t.app, 'manager@pathwell.demo');
  parent = await signIn(t.app, 'parent@pathwell.demo');
  doctor = await signIn(t.app, 'doctor@pathwell.demo');
  staff = await signIn(t.app, 'staff@pathwell.demo');
  // A sign-in with a known browser, and a failed one, for login details.
  await t.app.inject({
    method: 'POST',
    url: '/api/users/authenticate',
    payload: { email: 'doctor@pathwell.demo', password: 'Pathwell#2026' },
    headers: { 'user-agent': BROWSER },
    remoteAddress: '10.7.7.7',
  });
  await t.app.inject({
    method: 'POST',
    url: '/api/users/authenticate',
    payload: { email: 'doctor@pathwell.demo', password: 'Wrong#00000' },
    remoteAddress: '10.7.7.8',
  });

  // Riverside keeps its clock at UTC-6 (demo seed). 05:30 UTC on 03/10 is 11:30 PM on 03/09 there.
  // Riverside runs on Chicago time. Sunday 03/09/2025 is the spring change: a 23-hour day from
  // 06:00Z (CST) to 05:00Z (CDT); from then on the clinic is at UTC−5.
  await addRow({ instanceId: riverside, description: 'Late on the ninth', createdAt: new Date('2025-03-10T04:30:00Z') });
  await addRow({ instanceId: riverside, description: 'Early on the tenth', createdAt: new Date('2025-03-10T05:30:00Z') });
  await addRow({ instanceId: riverside, description: 'Late on the tenth', createdAt: new Date('2025-03-11T04:59:00Z') });
  await addRow({
    instanceId: riverside,
    actorUserId: doctorId,
    actorEmail: 'doctor@pathwell.demo',
    area: 'Patient Profile',
    action: 'Viewed',
    targetType: 'patient',
    targetId: 'MRN-4471',
    description: 'Opened the chart',
    createdAt: new Date('2025-03-12T15:00:00Z'),
  });
  await addRow({
    instanceId: riverside,
    description: '=HYPERLINK("http://evil.example","click")',
    targetType: '+SUM(A1:A2)',
    createdAt: new Date('2025-04-01T15:00:00Z'),
  });
  await addRow({ instanceId: riverside, description: '-2+3', targetType: '@cmd', createdAt: new Date('2025-04-01T15:01:00Z') });
  await addRow({
    instanceId: riverside,
    description: 'Name with "quotes", comma\nand a line',
    createdAt: new Date('2025-04-01T15:02:00Z'),
  });
  for (let i = 0; i < 14; i++) {
    await addRow({
      instanceId: riverside,
      description: `Filler ${i} 100%_done`,
      createdAt: new Date(Date.UTC(2025, 0, 1, 12, i)),
    });
  }
  await addRow({
    instanceId: lakeside,
    description: 'Lakeside secret change',
    targetType: 'room',
    createdAt: new Date('2025-03-10T12:00:00Z'),
  });
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/activitylogs/filtered', () => {
  it('an admin gets the clinic’s log newest first, 15 per page, with the total', async () => {
    const page = await filtered(admin);
    expect(page.data).toHaveLength(15);
    expect(page.totalRecords).toBeGreaterThan(15);
    const times = page.data.map((row) => Date.parse(row.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(page.data[0]).toMatchObject({ area: 'Login Activity', action: 'Failed', email: 'doctor@pathwell.demo' });
    expect(Object.keys(page.data[0]!).sort()).toEqual(
      ['action', 'area', 'createdAt', 'description', 'email', 'id', 'ip', 'targetId', 'targetType', 'userId', 'userName'].sort(),
    );
  });

  it('the next page continues where the first stopped, without repeating a row', async () => {
    const first = await filtered(admin, { paginationFilter: { pageSize: 5, pageNumber: 0 } });
    const second = await filtered(admin, { paginationFilter: { pageSize: 5, pageNumber: 1 } });
    const both = await filtered(admin, { paginationFilter: { pageSize: 10, pageNumber: 0 } });
    expect([...first.data, ...second.data].map((row) => row.id)).toEqual(both.data.map((row) => row.id));
  });

  it('names the acting user from the users table', async () => {
    const rows = await allRows(admin, { search: 'Opened the chart' });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: doctorId, userName: 'Daniela Ortiz', email: 'doctor@pathwell.demo' });
  });

  it('the user filter keeps only that user’s rows', async () => {
    const rows = await allRows(admin, { userId: doctorId });
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.every((row) => row.userId === doctorId)).toBe(true);
  });

  it('the area filter keeps only that area', async () => {
    const rows = await allRows(admin, { area: 'Patient Profile' });
    expect(rows.map((row) => row.description)).toEqual(['Opened the chart']);
  });

  it('the action filter keeps only that action', async () => {
    const rows = await allRows(admin, { action: 'Failed' });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.action === 'Failed')).toBe(true);
  });

  it('free text matches the target or the description, case-insensitively, with % and _ taken literally', async () => {
    expect((await allRows(admin, { search: 'mrn-4471' })).map((row) => row.description)).toEqual(['Opened the chart']);
    expect((await allRows(admin, { search: 'OPENED THE' })).map((row) => row.targetId)).toEqual(['MRN-4471']);
    expect(await allRows(admin, { search: '100%_done' })).toHaveLength(14);
    expect(await allRows(admin, { search: '0%' })).toHaveLength(14);
    expect(await allRows(admin, { search: 'x_y' })).toHaveLength(0);
  });

  it('a date range is read as whole days on the clinic’s clock', async () => {
    const ninth = await allRows(admin, { from: '03/09/2025', to: '03/09/2025' });
    expect(ninth.map((row) => row.description)).toEqual(['Late on the ninth']);
    const tenth = await allRows(admin, { from: '03/10/2025', to: '03/10/2025' });
    expect(tenth.map((row) => row.description)).toEqual(['Late on the tenth', 'Early on the tenth']);
    const fromTenth = await allRows(admin, { from: '03/10/2025', to: '03/12/2025' });
    expect(fromTenth.map((row) => row.description)).toEqual(['Opened the chart', 'Late on the tenth', 'Early on the tenth']);
  });

  it('the clinic’s time-zone setting moves the day boundaries', async () => {
    await t.db.execute(
      // Lakeside is not involved; Riverside moves to UTC and back.
      sqlSetZone(riverside, 'UTC'),
    );
    try {
      const tenth = await allRows(admin, { from: '03/10/2025', to: '03/10/2025' });
      expect(tenth.map((row) => row.description)).toEqual(['Early on the tenth', 'Late on the ninth']);
    } finally {
      await t.db.execute(sqlSetZone(riverside, 'America/Chicago'));
    }
  });

  it('filters combine', async () => {
    const rows = await allRows(admin, {
      from: '03/12/2025',
      to: '03/12/2025',
      userId: doctorId,
      area: 'Patient Profile',
      action: 'Viewed',
    });
    expect(rows).toHaveLength(1);
    expect(await allRows(admin, { from: '03/12/2025', to: '03/12/2025', action: 'Deleted' })).toHaveLength(0);
  });

  it('another clinic’s rows never appear, whatever the filter', async () => {
    expect(await allRows(admin, { search: 'Lakeside secret' })).toHaveLength(0);
    const all = await allRows(admin);
    const riversideIds = new Set(
      (await t.db.select().from(activityLogs).where(eq(activityLogs.instanceId, riverside))).map((r) => r.id),
    );
    expect(all.every((row) => riversideIds.has(row.id))).toBe(true);
    const lakesideView = await allRows(admin2);
    expect(lakesideView.map((row) => row.description)).toContain('Lakeside secret change');
    expect(lakesideView.some((row) => riversideIds.has(row.id))).toBe(false);
  });

  it('a System Manager sees the clinic they act for', async () => {
    const own = await filtered(manager, { search: 'Lakeside secret' });
    expect(own.totalRecords).toBe(0);
    const actingForLakeside = await filtered(manager, { search: 'Lakeside secret' }, { clinicid: lakeside });
    expect(actingForLakeside.data.map((row) => row.description)).toEqual(['Lakeside secret change']);
  });

  it('a parent user sees the clinic they act for, and the all-clinics view is refused', async () => {
    const forLakeside = await filtered(parent, { search: 'Lakeside secret' }, { clinicid: lakeside });
    expect(forLakeside.totalRecords).toBe(1);
    const all = await post('/api/activitylogs/filtered', parent, {}, { clinicid: 'all' });
    expect(all.statusCode).toBe(400);
  });

  it('reading the log does not add to it', async () => {
    const before = (await filtered(admin)).totalRecords;
    await filtered(admin, { search: 'anything' });
    expect((await filtered(admin)).totalRecords).toBe(before);
  });

  it.each([
    [{ from: '2025-03-10' }, { from: 'dateInvalid' }],
    [{ to: '02/30/2025' }, { to: 'dateInvalid' }],
    [{ from: '03/11/2025', to: '03/10/2025' }, { to: 'dateRangeInvalid' }],
    [{ area: 'Parking' }, { area: 'invalid' }],
    [{ action: 'Printed' }, { action: 'invalid' }],
    [{ userId: 'not-an-id' }, { userId: 'idInvalid' }],
    [{ search: 'x'.repeat(201) }, { search: 'tooLong' }],
    [{ paginationFilter: { pageSize: 0, pageNumber: 0 } }, { 'paginationFilter.pageSize': 'numberOutOfRange' }],
    [{ paginationFilter: { pageSize: 15, pageNumber: -1 } }, { 'paginationFilter.pageNumber': 'numberOutOfRange' }],
  ])('bad filter %j answers 400 with field messages', async (payload, fields) => {
    const response = await post('/api/activitylogs/filtered', admin, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION', fields });
  });

  it('empty and cleared filters mean no filter', async () => {
    const plain = await filtered(admin);
    const cleared = await filtered(admin, { from: '', to: '', userId: null, area: null, action: '', search: '' });
    expect(cleared.totalRecords).toBe(plain.totalRecords);
  });
});

describe('who may read the log', () => {
  const routes: [string, string][] = [
    ['POST', '/api/activitylogs/filtered'],
    ['POST', '/api/activitylogs/export'],
    ['GET', '/api/activitylogs/actors'],
    ['POST', '/api/logindetails/filtered'],
    ['POST', '/api/logindetails/export'],
  ];
  it.each(['doctor', 'staff'] as const)('a %s gets 403 on every activity route', async (role) => {
    const who = role === 'doctor' ? doctor : staff;
    for (const [method, url] of routes) {
      const response = await t.app.inject({
        method: method as 'GET' | 'POST',
        url,
        headers: who.headers,
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      expect(response.statusCode, url).toBe(403);
    }
  });

  it('without a session every activity route answers 401', async () => {
    for (const [method, url] of routes) {
      const response = await t.app.inject({
        method: method as 'GET' | 'POST',
        url,
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      expect(response.statusCode, url).toBe(401);
    }
  });
});

describe('POST /api/activitylogs/export', () => {
  const exportCsv = async (payload: object = {}, who = admin) => {
    const response = await post('/api/activitylogs/export', who, payload);
    expect(response.statusCode, response.body).toBe(200);
    return response;
  };

  it('answers a UTF-8 CSV file that starts with the byte-order mark and a header row', async () => {
    const response = await exportCsv({ from: '03/09/2025', to: '03/12/2025' });
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="activity-log-\d{4}-\d{2}-\d{2}\.csv"; filename\*=UTF-8''activity-log-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    const bytes = response.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('Time,User,Email,Area,Action,Target,Description,IP');
    expect(lines.slice(1, 5)).toEqual([
      // 15:00Z on 03/12/2025 is 10:00 AM in Chicago, already on daylight time (UTC−5).
      '03/12/2025 10:00 AM,Daniela Ortiz,doctor@pathwell.demo,Patient Profile,Viewed,patient MRN-4471,Opened the chart,10.1.1.1',
      '03/10/2025 11:59 PM,,,Admin Configuration,Updated,,Late on the tenth,10.1.1.1',
      '03/10/2025 12:30 AM,,,Admin Configuration,Updated,,Early on the tenth,10.1.1.1',
      '03/09/2025 11:30 PM,,,Admin Configuration,Updated,,Late on the ninth,10.1.1.1',
    ]);
    expect(lines[5]).toBe('');
  });

  it('neutralises cells a spreadsheet would run as formulas, and quotes commas, quotes and line breaks', async () => {
    const text = (await exportCsv({ from: '04/01/2025', to: '04/01/2025' })).rawPayload.subarray(3).toString('utf8');
    expect(text).toContain(`,'+SUM(A1:A2),"'=HYPERLINK(""http://evil.example"",""click"")",`);
    expect(text).toContain(`,'@cmd,'-2+3,`);
    expect(text).toContain(`,"Name with ""quotes"", comma\nand a line",`);
    expect(text).not.toMatch(/,[=+@-]/);
  });

  it('applies the same filters as the page', async () => {
    const text = (await exportCsv({ area: 'Patient Profile' })).rawPayload.toString('utf8');
    expect(text.trim().split('\r\n')).toHaveLength(2);
    expect(text).toContain('Opened the chart');
  });

  it('is written in Spanish when asked', async () => {
    const text = (await exportCsv({ area: 'Patient Profile', language: 'es' })).rawPayload.subarray(3).toString('utf8');
    expect(text.split('\r\n')[0]).toBe('Fecha y hora,Usuario,Correo electrónico,Área,Acción,Objeto,Descripción,IP');
    expect(text).toContain(',Perfil del paciente,Consultado,');
  });

  it('never holds another clinic’s rows', async () => {
    const text = (await exportCsv()).rawPayload.toString('utf8');
    expect(text).not.toContain('Lakeside secret change');
    expect((await exportCsv({}, admin2)).rawPayload.toString('utf8')).toContain('Lakeside secret change');
  });

  it('records that the log was exported, with the number of rows', async () => {
    await exportCsv({ area: 'Patient Profile' });
    const [latest] = (await filtered(admin, { paginationFilter: { pageSize: 1, pageNumber: 0 } })).data;
    expect(latest).toMatchObject({
      area: 'Admin Configuration',
      action: 'Viewed',
      targetType: 'activity log',
      description: 'Exported 1 entry to CSV',
      email: 'admin@pathwell.demo',
    });
  });

  it('refuses bad filters with 400 and field messages', async () => {
    const response = await post('/api/activitylogs/export', admin, { from: '13/01/2025', language: 'fr' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({ from: 'dateInvalid', language: 'invalid' });
  });

  it('refuses an export above the row cap with a message that says what to do', async () => {
    const [actor] = await t.db.select().from(users).where(eq(users.email, 'admin@pathwell.demo'));
    const ctx = {
      db: t.db,
      config: t.config,
      ip: '10.0.0.1',
      userAgent: null,
      actor: {
        userId: actor!.id,
        sessionId: admin.id,
        email: actor!.email,
        role: 'Admin',
        isParent: false,
        isChild: false,
        homeInstanceId: riverside,
      },
      instanceId: riverside,
      allClinics: false,
      instanceIds: [riverside],
    } as unknown as SignedInContext;
    await expect(
      exportActivity(ctx, activityExportSchema.parse({ area: 'Patient Profile' }), { maxRows: 1 }),
    ).resolves.toMatchObject({ fileName: expect.stringMatching(/^activity-log-\d{4}-\d{2}-\d{2}\.csv$/) });
    await expect(exportActivity(ctx, activityExportSchema.parse({ search: 'Filler' }), { maxRows: 13 })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'This export would hold more than 13 entries. Narrow the dates or filters and export again.',
      messageKey: 'activityExportTooLarge',
    });
  });
});

describe('GET /api/activitylogs/actors', () => {
  it('lists the users who appear in the clinic’s log, by name, and nobody from another clinic', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/activitylogs/actors', headers: admin.headers });
    expect(response.statusCode).toBe(200);
    const names = response.json<{ id: string; name: string }[]>().map((actor) => actor.name);
    expect(names).toEqual(['Alex Carter', 'Daniela Ortiz', 'Morgan Reyes', 'Priya Shah', 'Sam Lee']);
    expect(names).not.toContain('Jordan Blake');
  });

  it('narrows to one area when asked, and refuses an unknown area', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/activitylogs/actors?area=${encodeURIComponent('Patient Profile')}`,
      headers: admin.headers,
    });
    expect(response.json()).toEqual([{ id: doctorId, name: 'Daniela Ortiz' }]);
    const bad = await t.app.inject({ method: 'GET', url: '/api/activitylogs/actors?area=Nowhere', headers: admin.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ area: 'invalid' });
  });
});

describe('POST /api/logindetails/filtered', () => {
  const loginDetails = async (payload: object = {}, who = admin) => {
    const response = await post('/api/logindetails/filtered', who, payload);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<LoginDetailsPage>();
  };

  it('shows only Login Activity, with result, IP and the browser of a sign-in', async () => {
    const page = await loginDetails({ paginationFilter: { pageSize: 100, pageNumber: 0 } });
    expect(page.data.length).toBe(page.totalRecords);
    expect(page.data.some((row) => row.event === 'Opened the chart')).toBe(false);
    const [failed, signedIn] = page.data;
    expect(failed).toMatchObject({
      userName: 'Daniela Ortiz',
      event: 'Sign-in failed',
      result: 'Failed',
      ip: '10.7.7.8',
      userAgent: null,
    });
    expect(signedIn).toMatchObject({
      userName: 'Daniela Ortiz',
      event: 'Signed in',
      result: 'Succeeded',
      ip: '10.7.7.7',
      userAgent: BROWSER,
    });
  });

  it('filters by user and action, pages by 15, and keeps to the clinic', async () => {
    const doctorRows = await loginDetails({ userId: doctorId });
    expect(doctorRows.totalRecords).toBe(3);
    const failures = await loginDetails({ action: 'Failed' });
    expect(failures.data.every((row) => row.result === 'Failed')).toBe(true);
    const lakeside = await loginDetails({ paginationFilter: { pageSize: 100, pageNumber: 0 } }, admin2);
    expect(lakeside.data.every((row) => row.email === 'admin2@pathwell.demo')).toBe(true);
    expect(lakeside.data.length).toBeGreaterThan(0);
  });

  it('has no area filter to widen it', async () => {
    const page = await loginDetails({ area: 'Patient Profile', paginationFilter: { pageSize: 100, pageNumber: 0 } });
    expect(page.data.some((row) => row.event === 'Opened the chart')).toBe(false);
  });

  it('refuses bad input with 400 and field messages', async () => {
    const response = await post('/api/logindetails/filtered', admin, { to: 'yesterday' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ to: 'dateInvalid' });
  });

  it('exports a CSV with the byte-order mark, a header row and the user agent', async () => {
    const response = await post('/api/logindetails/export', admin, { userId: doctorId });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/filename="login-details-\d{4}-\d{2}-\d{2}\.csv"/);
    expect([...response.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = response.rawPayload.subarray(3).toString('utf8').trim().split('\r\n');
    expect(lines[0]).toBe('Time,User,Email,Event,Result,IP,User agent');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(
      /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} [AP]M,Daniela Ortiz,doctor@pathwell\.demo,Sign-in failed,Failed,10\.7\.7\.8,$/,
    );
    expect(lines[2]).toContain(`,Signed in,Succeeded,10.7.7.7,${BROWSER}`);
  });
});

function sqlSetZone(instanceId: string, value: string) {
  return sql`update instance_settings set configuration_value = ${value} where instance_id = ${instanceId} and configuration_id = 'timeZoneId'`;
}
