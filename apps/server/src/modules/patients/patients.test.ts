import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PatientPage, PatientPayloadInput, PatientSearchResult, PatientView } from '@pathwell/contracts/patients';
import { activityLogs, instances, managedItems, patients } from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
let riverside: string;
let lakeside: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const who of ['admin', 'manager', 'doctor', 'staff', 'admin2']) {
    tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  }
});
afterAll(async () => {
  await t?.close();
});

type Who = keyof typeof tokens;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, as: Who, payload?: unknown) =>
  t.app.inject({ method, url, headers: tokens[as]!.headers, payload: payload as object | undefined, remoteAddress: nextIp() });

let counter = 0;
/** A last name no other test (or the demo seed) uses, so list assertions see only their own rows. */
const unique = (base = 'Testname') => `${base}${Date.now().toString(36)}x${++counter}`;

const payload = (extra: Partial<PatientPayloadInput> = {}): PatientPayloadInput => ({
  firstName: 'Ana',
  lastName: unique(),
  dateOfBirth: '1980-04-12',
  patientPhoneNumbers: [{ phoneType: 7, number: '(555) 201-3344', isPrimary: true }],
  ...extra,
});

async function create(as: Who, extra: Partial<PatientPayloadInput> = {}) {
  const response = await call('POST', '/api/patients/create', as, payload(extra));
  expect(response.statusCode, response.body).toBe(201);
  return response.json<PatientView>();
}

const filtered = async (as: Who, body: Record<string, unknown>) => {
  const response = await call('POST', '/api/patients/filtered', as, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PatientPage>();
};

const search = (as: Who, term: string) => call('GET', `/api/patients/search?searchParam=${encodeURIComponent(term)}`, as);

async function itemOf(listType: string, instanceId = riverside) {
  const [item] = await t.db
    .select()
    .from(managedItems)
    .where(and(eq(managedItems.instanceId, instanceId), eq(managedItems.listType, listType)))
    .limit(1);
  return item!;
}

describe('creating a patient', () => {
  it('stores every field, derives the height and answers the allow-listed view', async () => {
    const gender = await itemOf('customfield:gender');
    const body = payload({
      middleName: 'Lucía',
      email: 'Ana.Patient@Example.com',
      streetAddress1: '1 Main St',
      city: 'Austin',
      state: 'TX',
      zip: '78701-1234',
      heightFeet: 5,
      heightInches: 6,
      genderId: gender.id,
      nicotineStatusId: 4,
      currentLawSuit: 'no',
      historySubstanceAbuse: null,
      agreementSignedDate: '2026-01-02',
      doctorId: tokens.doctor!.id,
      enableText: false,
      preferredLanguage: 'es',
      patientPhoneNumbers: [
        { phoneType: 7, number: '555-201-3344' },
        { phoneType: 3, number: '(555) 777-8899', contactName: 'Luis', relation: 'Brother', isPrimary: true },
      ],
    });
    const response = await call('POST', '/api/patients/create', 'staff', body);
    expect(response.statusCode, response.body).toBe(201);
    const view = response.json<PatientView & Record<string, unknown>>();
    expect(view).toMatchObject({
      email: 'ana.patient@example.com',
      zip: '78701-1234',
      height: 66,
      weight: 0,
      genderId: gender.id,
      nicotineStatusId: 4,
      currentLawSuit: 'no',
      historySubstanceAbuse: null,
      doctorId: tokens.doctor!.id,
      enableText: false,
      preferredLanguage: 'es',
      status: 'active',
    });
    expect(view.patientPhoneNumbers.filter((phone) => phone.isPrimary)).toHaveLength(1);
    expect(view.patientPhoneNumbers.find((phone) => phone.isPrimary)?.contactName).toBe('Luis');
    expect(view).not.toHaveProperty('instanceId');
    expect(view).not.toHaveProperty('searchName');

    const read = await call('GET', `/api/patients/${view.id}`, 'staff');
    expect(read.statusCode).toBe(200);
    expect(read.json<PatientView>().lastName).toBe(body.lastName);
  });

  it.each([
    ['firstName', { firstName: '' }, 'nameRequired'],
    ['dateOfBirth', { dateOfBirth: '02/30/1980' }, 'dateInvalid'],
    ['dateOfBirth', { dateOfBirth: '1980-02-30' }, 'dateInvalid'],
    ['email', { email: 'not an email' }, 'emailInvalid'],
    ['zip', { zip: '1234' }, 'zipInvalid'],
    ['heightInches', { heightInches: 12 }, 'numberOutOfRange'],
    ['nicotineStatusId', { nicotineStatusId: 99 }, 'invalid'],
    ['patientPhoneNumbers.0.number', { patientPhoneNumbers: [{ phoneType: 7, number: '12345' }] }, 'phoneInvalid'],
    ['patientPhoneNumbers.0.number', { patientPhoneNumbers: [{ phoneType: 7, number: ' ' }] }, 'phoneRequired'],
    ['patientPhoneNumbers.0.phoneType', { patientPhoneNumbers: [{ phoneType: 9, number: '555-201-3344' }] }, 'invalid'],
  ] as const)('refuses a bad %s with its message key', async (field, extra, key) => {
    const response = await call('POST', '/api/patients/create', 'staff', payload(extra as Partial<PatientPayloadInput>));
    expect(response.statusCode).toBe(400);
    expect(response.json<{ fields: Record<string, string> }>().fields[field]).toBe(key);
  });

  it('refuses list items of another list or another clinic and a doctor who is not a Doctor of the clinic', async () => {
    const ethnicity = await itemOf('customfield:ethnicity');
    const lakesideGender = await itemOf('customfield:gender', lakeside);
    const response = await call(
      'POST',
      '/api/patients/create',
      'staff',
      payload({ genderId: ethnicity.id, maritalStatusId: lakesideGender.id, doctorId: tokens.staff!.id }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json<{ fields: Record<string, string> }>().fields).toMatchObject({
      genderId: 'invalid',
      maritalStatusId: 'invalid',
      doctorId: 'invalid',
    });
  });

  it('keeps extended answers only when the clinic asks the question', async () => {
    const view = await create('staff', { extended: { sexualOrientation: 2, preferredPronouns: 1 } });
    expect(view.extended).toEqual({});
  });

  it('writes a Patient Profile Created entry naming the record by id', async () => {
    const view = await create('staff');
    const rows = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, view.id), eq(activityLogs.area, 'Patient Profile')));
    expect(rows.map((row) => row.action)).toContain('Created');
    expect(rows.every((row) => !(row.description ?? '').includes(view.lastName))).toBe(true);
  });

  it("makes a Doctor's new patient their own", async () => {
    const view = await create('doctor', { doctorId: null });
    expect(view.doctorId).toBe(tokens.doctor!.id);
  });
});

describe('reading, updating and deleting', () => {
  it('updates fields and replaces phone numbers, writing Updated; a get writes Viewed', async () => {
    const view = await create('staff');
    const response = await call('PUT', `/api/patients/${view.id}`, 'staff', {
      ...payload({ lastName: view.lastName, weight: 180.5 }),
      patientPhoneNumbers: [{ phoneType: 1, number: '555 300 4000' }],
    });
    expect(response.statusCode, response.body).toBe(200);
    const updated = response.json<PatientView>();
    expect(updated.weight).toBe(180.5);
    expect(updated.patientPhoneNumbers).toMatchObject([{ phoneType: 1, number: '555 300 4000', isPrimary: true }]);
    await call('GET', `/api/patients/${view.id}`, 'admin');
    const actions = (await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, view.id))).map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(['Created', 'Updated', 'Viewed']));
  });

  it("answers 404 to another clinic's patient on get, update and delete", async () => {
    const view = await create('staff');
    expect((await call('GET', `/api/patients/${view.id}`, 'admin2')).statusCode).toBe(404);
    expect((await call('PUT', `/api/patients/${view.id}`, 'admin2', payload())).statusCode).toBe(404);
    expect((await call('DELETE', `/api/patients/${view.id}`, 'admin2')).statusCode).toBe(404);
    expect((await call('POST', `/api/patients/${view.id}/archive?reason=x`, 'admin2')).statusCode).toBe(404);
  });

  it('lets only Admin and System Manager delete, softly', async () => {
    const view = await create('staff');
    expect((await call('DELETE', `/api/patients/${view.id}`, 'staff')).statusCode).toBe(403);
    expect((await call('DELETE', `/api/patients/${view.id}`, 'doctor')).statusCode).toBe(403);
    expect((await call('DELETE', `/api/patients/${view.id}`, 'admin')).statusCode).toBe(204);
    expect((await call('GET', `/api/patients/${view.id}`, 'admin')).statusCode).toBe(404);
    const [row] = await t.db.select().from(patients).where(eq(patients.id, view.id));
    expect(row?.deletedAt).not.toBeNull();
  });

  it('sets inactive, archives with a reason, unarchives, closes and reopens the account', async () => {
    const view = await create('staff');
    const inactive = await call('POST', `/api/patients/updateactiveinactive/${view.id}`, 'staff', { isActive: false });
    expect(inactive.json<PatientView>().status).toBe('inactive');
    expect((await call('POST', `/api/patients/${view.id}/archive`, 'staff')).statusCode).toBe(400);
    const archived = await call('POST', `/api/patients/${view.id}/archive?reason=Moved%20away`, 'staff');
    expect(archived.json<PatientView>()).toMatchObject({ archiveReason: 'Moved away' });
    const unarchived = await call('POST', `/api/patients/unarchive/${view.id}`, 'staff');
    expect(unarchived.json<PatientView>().archivedAt).toBeNull();
    const closed = await call('POST', '/api/patients/closeaccount', 'staff', { id: view.id });
    expect(closed.json<PatientView>().accountClosedAt).not.toBeNull();
    const reopened = await call('POST', `/api/patients/reopenaccount/${view.id}`, 'staff');
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(reopened.json<PatientView>().accountClosedAt).toBeNull();
    expect((await call('POST', `/api/patients/reopenaccount/${view.id}`, 'admin2')).statusCode).toBe(404);
  });
});

describe('duplicate check', () => {
  it('finds the same last name and date of birth, or the same email, and nothing else', async () => {
    const email = `${unique('dup')}@example.com`.toLowerCase();
    const view = await create('staff', { email });
    const check = (body: unknown) => call('POST', '/api/patients/checkifpatientalreadyexists', 'staff', body);
    const byName = await check({ lastName: view.lastName.toUpperCase(), dateOfBirth: '1980-04-12' });
    expect(byName.json()).toEqual([
      { id: view.id, fullName: `Ana ${view.lastName}`, birthDate: '1980-04-12', matchedOn: 'lastNameAndDateOfBirth' },
    ]);
    expect((await check({ email: email.toUpperCase() })).json()).toMatchObject([{ id: view.id, matchedOn: 'email' }]);
    expect((await check({ lastName: view.lastName, dateOfBirth: '1980-04-13' })).json()).toEqual([]);
    expect((await check({ lastName: view.lastName, dateOfBirth: '1980-04-12', excludeId: view.id })).json()).toEqual([]);
    expect((await check({ dateOfBirth: 'yesterday' })).statusCode).toBe(400);
    const other = await call('POST', '/api/patients/checkifpatientalreadyexists', 'admin2', { email });
    expect(other.json()).toEqual([]);
  });
});

describe('the filtered list', () => {
  const family = unique('Family');
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    ids.young = (
      await create('staff', { firstName: 'Zoe', lastName: family, dateOfBirth: '2010-01-01', email: `zoe.${family}@x.com` })
    ).id;
    ids.old = (
      await create('staff', {
        firstName: 'Abel',
        lastName: family,
        dateOfBirth: '1950-06-15',
        doctorId: tokens.doctor!.id,
        patientPhoneNumbers: [{ phoneType: 1, number: '(555) 909-1111' }],
      })
    ).id;
    ids.mid = (await create('staff', { firstName: 'Marta', lastName: family, dateOfBirth: '1985-03-03' })).id;
    ids.inactive = (await create('staff', { firstName: 'Ines', lastName: family, dateOfBirth: '1990-01-01' })).id;
    await call('POST', `/api/patients/updateactiveinactive/${ids.inactive}`, 'staff', { isActive: false });
  });
  const namesOf = (page: PatientPage) => page.data.map((row) => row.firstName);

  it('defaults to Active, newest first, 15 per page, with the spec response fields', async () => {
    const page = await filtered('staff', { lastName: family });
    expect(page).toMatchObject({ totalRecords: 3, pageNumber: 0, pageSize: 15, message: expect.any(String) });
    expect(namesOf(page)).toEqual(['Marta', 'Abel', 'Zoe']);
    expect(page.data.find((row) => row.firstName === 'Abel')?.phone).toBe('(555) 909-1111');
  });

  it.each([
    [{ patientStatus: 'Inactive' }, ['Ines']],
    [{ patientStatus: 'All', sortBy: 'FirstName', sortDirection: 'asc' }, ['Abel', 'Ines', 'Marta', 'Zoe']],
    [{ sortBy: 'DateOfBirth', sortDirection: 'asc' }, ['Abel', 'Marta', 'Zoe']],
    [{ firstName: 'ZO' }, ['Zoe']],
    [{ email: `zoe.${family}`.toLowerCase() }, ['Zoe']],
    [{ phone: '909-11' }, ['Abel']],
    [{ ageMin: 30, ageMax: 60, sortBy: 'FirstName', sortDirection: 'asc' }, ['Marta']],
    [{ ageMin: 70 }, ['Abel']],
    [{ dateOfBirth: '2010-01-01' }, ['Zoe']],
    [{ doctorId: '00000000-0000-4000-8000-000000000000' }, []],
    [{ selectedStudyGroups: [1], option: 2, status: 'x' }, ['Marta', 'Abel', 'Zoe']],
  ])('filters by %j', async (extra, expected) => {
    const page = await filtered('staff', { lastName: family, ...extra });
    expect(namesOf(page)).toEqual(expected);
  });

  it('pages with pageSize and pageNumber and keeps the total', async () => {
    const page = await filtered('staff', {
      lastName: family,
      sortBy: 'FirstName',
      sortDirection: 'asc',
      paginationFilter: { pageSize: 2, pageNumber: 1 },
    });
    expect(page.totalRecords).toBe(3);
    expect(namesOf(page)).toEqual(['Zoe']);
    const beyond = await filtered('staff', { lastName: family, paginationFilter: { pageSize: 2, pageNumber: 9 } });
    expect(beyond).toMatchObject({ totalRecords: 3, data: [] });
  });

  it('refuses sort fields outside the allow-list and a reversed age range', async () => {
    const bad = await call('POST', '/api/patients/filtered', 'staff', { sortBy: 'password_hash' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ fields: Record<string, string> }>().fields).toHaveProperty('sortBy');
    const range = await call('POST', '/api/patients/filtered', 'staff', { ageMin: 50, ageMax: 20 });
    expect(range.statusCode).toBe(400);
  });

  it('shows a Doctor only their own patients whatever doctorId they send', async () => {
    const page = await filtered('doctor', { lastName: family, doctorId: null, patientStatus: 'All' });
    expect(namesOf(page)).toEqual(['Abel']);
  });

  it("never lists another clinic's patients", async () => {
    expect((await filtered('admin2', { lastName: family, patientStatus: 'All' })).totalRecords).toBe(0);
  });

  it('writes a Patient List Viewed entry', async () => {
    const before = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.area, 'Patient List'), eq(activityLogs.actorUserId, tokens.manager!.id)));
    await filtered('manager', { lastName: family });
    const after = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.area, 'Patient List'), eq(activityLogs.actorUserId, tokens.manager!.id)));
    expect(after.length).toBe(before.length + 1);
    expect(after.at(-1)?.action ?? after[0]?.action).toBe('Viewed');
  });

  it('GET paged answers active patients in the same page shape', async () => {
    const response = await call('GET', '/api/patients/paged?pageSize=5&pageNumber=0', 'staff');
    expect(response.statusCode).toBe(200);
    expect(response.json<PatientPage>()).toMatchObject({ pageSize: 5, pageNumber: 0 });
    expect(response.json<PatientPage>().data.length).toBeLessThanOrEqual(5);
    expect((await call('GET', '/api/patients/paged?pageSize=0', 'staff')).statusCode).toBe(400);
  });

  it('exports the filtered list as CSV with the byte-order mark and the visible columns', async () => {
    const response = await call('POST', '/api/patients/exporttocsv', 'staff', {
      lastName: family,
      sortBy: 'FirstName',
      sortDirection: 'asc',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const raw = response.rawPayload;
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = raw.toString('utf8').slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('First name,Middle name,Last name,Date of birth,Email,Phone,Doctor,Status,Created');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(['Abel', 'Marta', 'Zoe']);
    expect(lines[1]).toContain('06/15/1950');
  });

  it('exports the same list as an XLSX workbook whose cells are text, never formulas', async () => {
    const response = await call('POST', '/api/patients/exporttoxlsx', 'staff', {
      lastName: family,
      sortBy: 'FirstName',
      sortDirection: 'asc',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Patients')!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      ...'First name,Middle name,Last name,Date of birth,Email,Phone,Doctor,Status,Created'.split(','),
    ]);
    expect([2, 3, 4].map((row) => sheet.getRow(row).getCell(1).value)).toEqual(['Abel', 'Marta', 'Zoe']);
  });

  it('guards exported cells against formula injection', async () => {
    const name = unique('Inj');
    await create('staff', { firstName: '=HYPERLINK("x")', lastName: name });
    const response = await call('POST', '/api/patients/exporttocsv', 'staff', { lastName: name });
    expect(response.rawPayload.toString('utf8')).toContain(`"'=HYPERLINK(""x"")"`);
  });
});

describe('top-bar search', () => {
  const surname = unique('González');
  let id: string;
  beforeAll(async () => {
    id = (
      await create('staff', { firstName: 'María', lastName: surname, dateOfBirth: '1975-09-30', doctorId: tokens.doctor!.id })
    ).id;
  });
  const found = async (as: Who, term: string) => {
    const response = await search(as, term);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PatientSearchResult[]>();
  };

  it('matches case- and accent-insensitively, terms in any order', async () => {
    const folded = surname.toLowerCase().replace('á', 'a');
    expect(await found('staff', folded)).toEqual([{ id, fullName: `María ${surname}`, birthDate: '1975-09-30' }]);
    expect((await found('staff', `${folded.slice(0, 12)} MARIA`)).map((row) => row.id)).toContain(id);
    expect((await found('staff', `mar ${surname}`)).map((row) => row.id)).toContain(id);
    expect((await found('staff', 'gonzal')).map((row) => row.id)).toContain(id);
  });

  it('needs all terms to match', async () => {
    expect(await found('staff', `${surname} zzzq`)).toEqual([]);
  });

  it('treats % and _ as plain characters', async () => {
    expect(await found('staff', '%%%')).toEqual([]);
  });

  it('refuses fewer than 3 characters with 400', async () => {
    const response = await search('staff', 'go');
    expect(response.statusCode).toBe(400);
    expect(response.json<{ fields: Record<string, string> }>().fields).toHaveProperty('searchParam');
  });

  it("finds nothing of another clinic and only a Doctor's own patients", async () => {
    expect(await found('admin2', surname)).toEqual([]);
    expect((await found('doctor', surname)).map((row) => row.id)).toEqual([id]);
    const other = await create('staff', { firstName: 'Mario', lastName: surname, doctorId: null });
    expect((await found('doctor', surname)).map((row) => row.id)).not.toContain(other.id);
    expect((await found('staff', surname)).map((row) => row.id)).toContain(other.id);
  });
});

describe('extended patient questions', () => {
  it('keeps the answers of the questions the clinic asks, and leaves the others alone on update', async () => {
    const put = (values: object) => call('PUT', '/api/instancesettings', 'manager', values);
    expect((await put({ extendedPatientAskPreferredPronouns: true })).statusCode).toBe(200);
    try {
      const view = await create('staff', { extended: { sexualOrientation: 2, preferredPronouns: 1 } });
      expect(view.extended).toEqual({ preferredPronouns: 1 });
      const updated = await call('PUT', `/api/patients/${view.id}`, 'staff', {
        ...payload({ lastName: view.lastName }),
        extended: { preferredPronouns: 3 },
      });
      expect(updated.json<PatientView>().extended).toEqual({ preferredPronouns: 3 });
      await put({ extendedPatientAskPreferredPronouns: false });
      const unchanged = await call('PUT', `/api/patients/${view.id}`, 'staff', {
        ...payload({ lastName: view.lastName }),
        extended: {},
      });
      expect(unchanged.json<PatientView>().extended).toEqual({ preferredPronouns: 3 });
    } finally {
      await put({ extendedPatientAskPreferredPronouns: false });
    }
  });
});

describe('doctor scope and the all-clinics view', () => {
  it("answers 404 to a Doctor opening or changing another doctor's patient", async () => {
    const view = await create('staff', { doctorId: null });
    expect((await call('GET', `/api/patients/${view.id}`, 'doctor')).statusCode).toBe(404);
    expect((await call('PUT', `/api/patients/${view.id}`, 'doctor', payload())).statusCode).toBe(404);
    const own = await create('staff', { doctorId: tokens.doctor!.id });
    expect((await call('GET', `/api/patients/${own.id}`, 'doctor')).statusCode).toBe(200);
  });

  it("lists both clinics' patients to a parent user in the all-clinics view, but refuses changes there", async () => {
    const parent = await signIn(t.app, 'parent@pathwell.demo');
    const family = unique('Parent');
    await create('staff', { lastName: family });
    await create('admin2', { lastName: family });
    const headers = { ...parent.headers, clinicid: 'all' };
    const list = await t.app.inject({
      method: 'POST',
      url: '/api/patients/filtered',
      headers,
      payload: { lastName: family },
      remoteAddress: nextIp(),
    });
    expect(list.json<PatientPage>().totalRecords).toBe(2);
    const write = await t.app.inject({
      method: 'POST',
      url: '/api/patients/create',
      headers,
      payload: payload(),
      remoteAddress: nextIp(),
    });
    expect(write.statusCode).toBe(400);
  });
});
