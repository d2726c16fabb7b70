import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managedLists } from '@pathwell/contracts/managed-lists';
import { formResponses, managedItems, patients, users } from './db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../test/test-app';

/**
 * A generated sweep of bad input over every operation of the OpenAPI document (issue #9): a NUL
 * character, dates in year 9999, over-long strings and wrong types in every path, query and body
 * field, one at a time, and multipart bodies without a boundary. It runs as the demo clinic's System
 * Manager with the clinic's real ids in the paths, so that the requests get past the 404s. Whatever
 * the input, the answer is never a 5xx; a NUL anywhere is a 400 that names the field.
 */

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  nullable?: boolean;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxLength?: number;
  additionalProperties?: Schema | boolean;
  propertyNames?: Schema;
}
interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: Schema;
}
interface Operation {
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Endpoint {
  method: Method;
  path: string;
  operation: Operation;
}

let t: TestApp;
let headers: Record<string, string> = {};
let endpoints: Endpoint[] = [];
const ids = {
  riverside: '',
  lakeside: '',
  manager: '',
  staff: '',
  doctor: '',
  patient: '',
  appointment: '',
  room: '',
  appointmentType: '',
  bodyLocation: '',
  response: '',
  customForm: '',
  note: '',
  link: '',
  linkToken: '',
  template: '',
  detail: '',
  instance: '',
  organisation: '',
  /** A live item of each managed list's API path, in the demo clinic. */
  listItems: new Map<string, string>(),
};

const signInManager = async () => {
  headers = (await signIn(t.app, 'manager@pathwell.demo')).headers;
};

async function send(request: {
  method: Method;
  url: string;
  query?: Record<string, string | string[]>;
  payload?: unknown;
  /** Sent as it is (multipart bodies); `payload` goes as JSON. */
  raw?: string;
  contentType?: string;
}): Promise<LightMyRequestResponse> {
  const attempt = () => {
    const requestHeaders: Record<string, string> = { ...headers };
    if (request.contentType) requestHeaders['content-type'] = request.contentType;
    else if (request.payload !== undefined) requestHeaders['content-type'] = 'application/json';
    const payload = request.raw ?? (request.payload === undefined ? undefined : JSON.stringify(request.payload));
    return t.app.inject({
      method: request.method,
      url: request.url,
      query: request.query,
      headers: requestHeaders,
      ...(payload === undefined ? {} : { payload }),
      remoteAddress: nextIp(),
    });
  };
  const response = await attempt();
  // Sign-out and account changes among the swept calls may end the session: sign in again and retry once.
  if (response.statusCode === 401) {
    await signInManager();
    return attempt();
  }
  return response;
}

async function created(method: Method, url: string, payload: unknown): Promise<Record<string, unknown>> {
  const response = await send({ method, url, payload });
  if (response.statusCode >= 300) throw new Error(`${method} ${url} failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

beforeAll(async () => {
  t = await createTestApp();
  await signInManager();
  const people = await t.db.select({ id: users.id, email: users.email, instanceId: users.instanceId }).from(users);
  const person = (email: string) => people.find((row) => row.email === email)!;
  ids.riverside = person('manager@pathwell.demo').instanceId!;
  ids.lakeside = person('admin2@pathwell.demo').instanceId!;
  ids.manager = person('manager@pathwell.demo').id;
  ids.staff = person('staff@pathwell.demo').id;
  ids.doctor = person('doctor@pathwell.demo').id;
  const [patient] = await t.db
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.instanceId, ids.riverside), eq(patients.doctorId, ids.doctor), isNull(patients.deletedAt)))
    .orderBy(asc(patients.createdAt))
    .limit(1);
  ids.patient = patient!.id;
  const firstItem = async (listType: string) => {
    const [item] = await t.db
      .select({ id: managedItems.id })
      .from(managedItems)
      .where(and(eq(managedItems.instanceId, ids.riverside), eq(managedItems.listType, listType)))
      .orderBy(asc(managedItems.sortOrder))
      .limit(1);
    if (item) return item.id;
    // A list the demo leaves empty gets one entry, so that its item routes reach an entry.
    const [inserted] = await t.db
      .insert(managedItems)
      .values({ instanceId: ids.riverside, listType, name: `Sweep ${listType}` })
      .returning({ id: managedItems.id });
    return inserted!.id;
  };
  for (const list of managedLists)
    if (!ids.listItems.has(list.apiPath)) ids.listItems.set(list.apiPath, await firstItem(list.listType));
  ids.room = await firstItem('rooms');
  ids.appointmentType = await firstItem('customfield:appointmenttype');
  ids.bodyLocation = await firstItem('bodylocations');
  const [response] = await t.db
    .select({ id: formResponses.id })
    .from(formResponses)
    .where(eq(formResponses.instanceId, ids.riverside))
    .limit(1);
  ids.response = response?.id ?? randomUUID();

  ids.appointment = String(
    (
      await created('POST', '/api/patientappointments/schedule', {
        patientId: ids.patient,
        doctorId: ids.doctor,
        startsAt: '2031-03-03T15:00:00.000Z',
        durationMinutes: 30,
      })
    ).id,
  );
  ids.note = String((await created('POST', `/api/patients/${ids.patient}/notes`, { body: 'Sweep note' })).id);
  const link = await created('POST', '/api/patient-links', { patientId: ids.patient, formCode: 11 });
  ids.link = String(link.id);
  ids.linkToken = String(link.token);
  ids.customForm = String(
    (
      await created('POST', '/api/customforms', {
        title: { en: 'Sweep form' },
        languages: ['en'],
        sections: [],
        questions: [{ id: 'q1', type: 16, text: { en: 'I agree' }, required: false }],
      })
    ).id,
  );
  ids.template = String(
    (await created('POST', '/api/perioperativemessagetemplates', { name: 'Sweep template', codes: ['64483'] })).id,
  );
  ids.detail = String(
    (
      await created('POST', `/api/perioperativemessagetemplates/${ids.template}/details`, {
        dayOffset: -1,
        channel: 'email',
        subject: 'Tomorrow',
        messageEn: 'Your procedure is tomorrow.',
      })
    ).id,
  );
  ids.instance = String((await created('POST', '/api/instances', { name: 'Sweep clinic', timeZoneId: 'America/Chicago' })).id);
  ids.organisation = String((await created('POST', '/api/clinics', { name: 'Sweep organisation', instanceIds: [] })).id);

  const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
    paths: Record<string, Partial<Record<Lowercase<Method>, Operation>>>;
  }>();
  endpoints = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      method: method.toUpperCase() as Method,
      path,
      operation: operation!,
    })),
  );
}, 120_000);
afterAll(async () => {
  await t?.close();
});

// ---- real ids and plausible values ------------------------------------------------------------------

/** The record a path's `{id}` (or a body's `id`) names, by the path's area. */
function recordIdFor(path: string): string {
  const area: [RegExp, () => string][] = [
    [/^\/api\/users\/(changepassword|me)/, () => ids.manager],
    [/^\/api\/users/, () => ids.staff],
    [/^\/api\/instances/, () => ids.instance],
    [/^\/api\/clinics/, () => ids.organisation],
    [/^\/api\/perioperativemessagetemplates/, () => ids.template],
    [/^\/api\/patientappointments/, () => ids.appointment],
    [/^\/api\/patients\/\{id\}\/formresponses/, () => ids.patient],
    [/^\/api\/patients/, () => ids.patient],
    [/^\/api\/customforms/, () => ids.customForm],
    [/^\/api\/patient-links/, () => ids.link],
    [/^\/api\/formresponses/, () => ids.response],
    [/^\/api\/fhir\/QuestionnaireResponse/, () => ids.response],
    [/^\/api\/fhir\/Questionnaire/, () => '2'],
  ];
  for (const [pattern, id] of area) if (pattern.test(path)) return id();
  const list = [...ids.listItems.keys()].find((apiPath) => path.startsWith(`${apiPath}/`));
  return list ? ids.listItems.get(list)! : randomUUID();
}

function pathValue(path: string, name: string): string {
  const byName: Record<string, () => string> = {
    noteId: () => ids.note,
    detailId: () => ids.detail,
    token: () => ids.linkToken,
    fileKey: () => 'clinicLogoPrimary',
    instanceId: () => ids.riverside,
    flag: () => 'athena',
    formCode: () => '2',
    version: () => '1',
  };
  return byName[name]?.() ?? recordIdFor(path);
}

const ID_NAMES: Record<string, () => string> = {
  patientId: () => ids.patient,
  doctorId: () => ids.doctor,
  appointmentId: () => ids.appointment,
  userId: () => ids.staff,
  roomId: () => ids.room,
  appointmentTypeId: () => ids.appointmentType,
  bodyLocation: () => ids.bodyLocation,
  bodyLocationIds: () => ids.bodyLocation,
  customFormId: () => ids.customForm,
  organisationId: () => ids.organisation,
  instanceIds: () => ids.instance,
  clinicIds: () => ids.lakeside,
  excludeId: () => ids.patient,
  ids: () => ids.appointment,
};

/** Baselines the generator cannot guess: rules across fields, enumerations by number, the current settings. */
const baselineBodies: Record<string, () => unknown> = {
  'POST /api/patient-links': () => ({ patientId: ids.patient, formCode: 11 }),
  'POST /api/perioperativemessagetemplates/{id}/details': () => ({
    dayOffset: 1,
    channel: 'email',
    subject: 'After',
    messageEn: 'How are you?',
  }),
  'PUT /api/perioperativemessagetemplates/{id}/details/{detailId}': () => ({
    dayOffset: 2,
    channel: 'email',
    subject: 'After',
    messageEn: 'How are you?',
  }),
  'PUT /api/users/{id}/pin': () => ({ pin: '246810' }),
  'POST /api/users/pin/validate': () => ({ pin: '135790' }),
  'POST /api/users/twofactor/verify': () => ({ challengeId: randomUUID(), code: '123456' }),
  'PUT /api/users/me': () => ({ firstName: 'Morgan', lastName: 'Reyes', email: 'manager@pathwell.demo', profileImage: null }),
  'POST /api/bodylocations': () => ({ name: 'Sweep location', attributes: { bodyRegion: 1 } }),
  'PUT /api/bodylocations/{id}': () => ({ name: 'Sweep location 2', attributes: { bodyRegion: 2 } }),
  'POST /api/painpumpmedicines': () => ({ name: 'Sweep pump', attributes: { concentration: 1, unit: 'mg/mL' } }),
  'PUT /api/painpumpmedicines/{id}': () => ({ name: 'Sweep pump 2', attributes: { concentration: 2, unit: 'mg/mL' } }),
};
const baselineQueries: Record<string, () => Record<string, string>> = {
  'GET /api/enums': () => ({ type: 'roles' }),
  'GET /api/fhir/Observation': () => ({ 'derived-from': `QuestionnaireResponse/${ids.response}` }),
};

const isIdPattern = (schema: Schema) => schema.pattern?.startsWith('^[0-9a-f]{8}') ?? false;

/** Alternatives other than null, in order. */
function variants(schema: Schema): Schema[] {
  const options = schema.anyOf ?? schema.oneOf;
  if (!options) return [schema];
  return options.filter((option) => option.type !== 'null' && option.enum?.[0] !== null);
}

/** The JSON type a schema asks for, `any` when it does not say. */
function typeOf(schema: Schema): string {
  const types = Array.isArray(schema.type) ? schema.type.filter((type) => type !== 'null') : [schema.type];
  return types[0] ?? (schema.properties ? 'object' : 'any');
}

/** A value the schema probably accepts; only required object properties are filled in. */
function example(schema: Schema, name: string, path: string): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum.find((value) => value !== null && value !== '') ?? schema.enum[0];
  if (schema.allOf) return example(schema.allOf[0]!, name, path);
  if (schema.anyOf || schema.oneOf) return example(variants(schema)[0] ?? {}, name, path);
  if (schema.default !== undefined) return schema.default;
  switch (typeOf(schema)) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((key) => [key, example(schema.properties?.[key] ?? {}, key, path)]));
    case 'array':
      return schema.minItems ? Array.from({ length: schema.minItems }, () => example(schema.items ?? {}, name, path)) : [];
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, Math.min(1, schema.maximum ?? 1));
    case 'boolean':
      // false: `true` would, among others, turn on two-factor sign-in for the sweeping user.
      return false;
    case 'string':
      return stringExample(schema, name, path);
    default:
      return 'x';
  }
}

function stringExample(schema: Schema, name: string, path: string): string {
  if (isIdPattern(schema)) return ID_NAMES[name]?.() ?? (name === 'id' ? recordIdFor(path) : randomUUID());
  if (schema.format === 'date-time') return '2031-03-03T15:00:00.000Z';
  if (/email/i.test(name)) return 'sweep@example.com';
  if (name === 'startsAt') return '2031-03-04T15:00:00.000Z';
  if (name === 'dateOfBirth') return path.includes('patient-links') ? '04/09/1980' : '1980-04-09';
  if (/password/i.test(name)) return 'Sweep#Pass1';
  if (name === 'timeZoneId') return 'America/Chicago';
  return 'Sweep';
}

// ---- bad values ---------------------------------------------------------------------------------------

const NUL = 'a\u0000b';
const LONG = 'x'.repeat(10_000);
const YEAR_9999 = ['12/31/9999', '9999-12-31', '9999-12-31T23:59:59.999-12:00'];

function badValues(schema: Schema): { label: string; value: unknown }[] {
  const type = schema.enum ? 'string' : typeOf(variants(schema)[0] ?? schema);
  const anObject = { label: 'an object', value: { a: 1 } };
  switch (type) {
    case 'string':
      return [
        { label: 'NUL', value: NUL },
        ...YEAR_9999.map((value) => ({ label: value, value })),
        { label: '10,000 characters', value: LONG },
        anObject,
      ];
    case 'integer':
    case 'number':
      return [{ label: 'a string', value: 'x' }, { label: '1e308', value: 1e308 }, { label: 'a fraction', value: 1.5 }, anObject];
    case 'boolean':
      return [{ label: 'a string', value: 'x' }, anObject];
    default:
      return [{ label: 'NUL', value: NUL }, { label: 'null', value: null }, anObject];
  }
}

const queryBadValues: { label: string; value: string | string[] }[] = [
  { label: 'NUL', value: NUL },
  ...YEAR_9999.map((value) => ({ label: value, value })),
  { label: '10,000 characters', value: LONG },
  { label: '-1', value: '-1' },
  { label: '1e400', value: '1e400' },
  { label: 'two values', value: ['1', '2'] },
];

const pathBadValues = [
  { label: 'NUL', value: NUL },
  { label: '12/31/9999', value: '12/31/9999' },
  { label: '99 characters', value: 'x'.repeat(99) },
];

/** Every leaf under a schema with the route from the top (`patientPhoneNumbers.0.number`). */
function leaves(schema: Schema, path: (string | number)[] = [], depth = 0): { path: (string | number)[]; schema: Schema }[] {
  const options = variants(schema);
  const chosen = options.find((option) => typeOf(option) === 'object' || typeOf(option) === 'array') ?? options[0] ?? schema;
  if (depth > 6) return [];
  if (typeOf(chosen) === 'object' && chosen.properties) {
    return Object.entries(chosen.properties).flatMap(([key, child]) => leaves(child, [...path, key], depth + 1));
  }
  if (typeOf(chosen) === 'array' && chosen.items) {
    return [{ path, schema }, ...leaves(chosen.items, [...path, 0], depth + 1)];
  }
  return path.length ? [{ path, schema }] : [];
}

/** The baseline body with one leaf replaced; missing parents are filled with their own examples. */
function withLeaf(body: unknown, root: Schema, path: (string | number)[], value: unknown, opPath: string): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(body ?? {}) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = copy;
  let schema: Schema = root;
  path.forEach((key, index) => {
    const options = variants(schema);
    schema = options.find((option) => typeOf(option) === 'object' || typeOf(option) === 'array') ?? options[0] ?? schema;
    const childSchema = (typeof key === 'number' ? schema.items : schema.properties?.[key]) ?? {};
    if (index === path.length - 1) {
      node[key] = value;
      return;
    }
    if (typeof node[key] !== 'object' || node[key] === null) {
      node[key] = typeOf(variants(childSchema)[0] ?? childSchema) === 'array' ? [] : example(childSchema, String(key), opPath);
    }
    const next = node[key] as Record<string | number, unknown>;
    if (Array.isArray(next) && next.length === 0 && typeof path[index + 1] === 'number') {
      next.push(example(childSchema.items ?? {}, String(key), opPath));
    }
    node = next;
    schema = childSchema;
  });
  return copy;
}

const fieldsOf = (response: LightMyRequestResponse): Record<string, string> | undefined =>
  String(response.headers['content-type']).startsWith('application/json')
    ? response.json<{ fields?: Record<string, string> }>().fields
    : undefined;

interface Finding {
  request: string;
  status: number;
  body: string;
}

const describeRequest = (endpoint: Endpoint, where: string, label: string) =>
  `${endpoint.method} ${endpoint.path} with ${label} in ${where}`;

async function sweep(endpoint: Endpoint): Promise<Finding[]> {
  const findings: Finding[] = [];
  const { method, path, operation } = endpoint;
  const parameters = operation.parameters ?? [];
  const pathParams = parameters.filter((parameter) => parameter.in === 'path');
  const queryParams = parameters.filter((parameter) => parameter.in === 'query');
  const bodySchema = operation.requestBody?.content['application/json']?.schema;

  const urlWith = (override?: { name: string; value: string }) =>
    path.replace(/\{([^}]+)\}/g, (_match, name: string) =>
      encodeURIComponent(override?.name === name ? override.value : pathValue(path, name)),
    );
  const key = `${method} ${path}`;
  const baselineQuery =
    baselineQueries[key]?.() ??
    Object.fromEntries(
      queryParams
        .filter((parameter) => parameter.required)
        .map((parameter) => [parameter.name, String(example(parameter.schema, parameter.name, path))]),
    );
  const baselineBody = bodySchema ? (baselineBodies[key]?.() ?? example(bodySchema, 'body', path)) : undefined;

  const check = async (
    where: string,
    label: string,
    request: { url?: string; query?: Record<string, string | string[]>; payload?: unknown },
  ) => {
    const response = await send({
      method,
      url: request.url ?? urlWith(),
      query: request.query ?? baselineQuery,
      payload: 'payload' in request ? request.payload : baselineBody,
    });
    const text = describeRequest(endpoint, where, label);
    if (response.statusCode >= 500)
      findings.push({ request: text, status: response.statusCode, body: response.body.slice(0, 300) });
    // A NUL never reaches a handler: the answer is a 400 naming the field (or the sign-in and role checks first).
    if (label === 'NUL' && ![401, 403].includes(response.statusCode)) {
      if (response.statusCode !== 400 || !fieldsOf(response)) {
        findings.push({
          request: `${text} (NUL not refused with a field error)`,
          status: response.statusCode,
          body: response.body.slice(0, 300),
        });
      }
    }
  };

  await check('nothing', 'the baseline', {});
  for (const parameter of pathParams) {
    for (const bad of pathBadValues) {
      await check(`path ${parameter.name}`, bad.label, { url: urlWith({ name: parameter.name, value: bad.value }) });
    }
  }
  for (const parameter of queryParams) {
    for (const bad of queryBadValues) {
      await check(`query ${parameter.name}`, bad.label, { query: { ...baselineQuery, [parameter.name]: bad.value } });
    }
  }
  if (bodySchema) {
    for (const leaf of leaves(bodySchema)) {
      for (const bad of badValues(leaf.schema)) {
        await check(`body ${leaf.path.join('.')}`, bad.label, {
          payload: withLeaf(baselineBody, bodySchema, leaf.path, bad.value, path),
        });
      }
    }
    for (const [label, payload] of [
      ['an array body', []],
      ['a string body', 'x'],
      ['a NUL key', { ...(baselineBody as object), '\u0000': 1 }],
    ] as const) {
      await check('the body', label === 'a NUL key' ? 'NUL' : label, { payload });
    }
  }
  return findings;
}

const isMultipart = (endpoint: Endpoint) => /multipart/i.test(endpoint.operation.summary ?? '');
/** Destructive calls last: a patient's note or link before the patient, any record before its user or clinic. */
function order(endpoint: Endpoint): number {
  if (endpoint.method !== 'DELETE') return /signout/.test(endpoint.path) ? 1 : 0;
  const parent = /^\/api\/(patients|users|instances|clinics)\/\{id\}$/.test(endpoint.path);
  return (parent ? 200 : 100) - endpoint.path.split('/').length;
}

describe("the security review's examples", () => {
  const fieldsOfAnswer = async (request: Parameters<typeof send>[0]) => {
    const response = await send(request);
    return { status: response.statusCode, fields: fieldsOf(response) };
  };

  it('a NUL in a search, a note, a patient filter or a managed-list name is a 400 naming the field', async () => {
    expect(await fieldsOfAnswer({ method: 'GET', url: '/api/medicines', query: { search: '\u0000' } })).toEqual({
      status: 400,
      fields: { search: 'textInvalid' },
    });
    expect(
      await fieldsOfAnswer({ method: 'POST', url: `/api/patients/${ids.patient}/notes`, payload: { body: 'a\u0000b' } }),
    ).toEqual({ status: 400, fields: { body: 'textInvalid' } });
    expect(await fieldsOfAnswer({ method: 'POST', url: '/api/patients/filtered', payload: { firstName: '\u0000' } })).toEqual({
      status: 400,
      fields: { firstName: 'textInvalid' },
    });
    expect(await fieldsOfAnswer({ method: 'POST', url: '/api/rooms', payload: { name: 'Room\u0000 9' } })).toEqual({
      status: 400,
      fields: { name: 'textInvalid' },
    });
    expect(
      await fieldsOfAnswer({
        method: 'POST',
        url: '/api/patients/create',
        payload: {
          firstName: 'Ana',
          lastName: 'Ruiz',
          dateOfBirth: '1980-04-09',
          patientPhoneNumbers: [{ phoneType: 7, number: '512\u0000' }],
        },
      }),
    ).toEqual({ status: 400, fields: { 'patientPhoneNumbers.0.number': 'textInvalid' } });
  });

  // 'a@' + dots + '@' made the former e-mail pattern work for minutes at this size (see validation.test.ts).
  const craftedEmail = `a@${'.'.repeat(1024 * 1024 - 400)}@`;
  it.each([
    ['POST', '/api/users/register'],
    ['PUT', '/api/users/{staff}'],
    ['PUT', '/api/users/me'],
    ['POST', '/api/patients/create'],
    ['PUT', '/api/patients/{patient}'],
  ] as const)('%s %s with a crafted e-mail of nearly 1 MiB is a 400 naming the field', async (method, path) => {
    const url = path.replace('{staff}', ids.staff).replace('{patient}', ids.patient);
    const response = await send({ method, url, payload: { firstName: 'Ana', lastName: 'Ruiz', email: craftedEmail } });
    expect(response.statusCode).toBe(400);
    expect(fieldsOf(response)).toMatchObject({ email: 'tooLong' });
  });

  it.each(['/api/activitylogs/filtered', '/api/activitylogs/export', '/api/logindetails/filtered', '/api/logindetails/export'])(
    '%s with a date in year 9999 is a 400 naming the field',
    async (url) => {
      expect(await fieldsOfAnswer({ method: 'POST', url, payload: { to: '12/31/9999' } })).toEqual({
        status: 400,
        fields: { to: 'dateInvalid' },
      });
    },
  );

  it('an appointment in year 9999 is a 400 naming the field', async () => {
    const answer = await fieldsOfAnswer({
      method: 'POST',
      url: '/api/patientappointments/schedule',
      payload: { patientId: ids.patient, doctorId: ids.doctor, startsAt: '9999-12-31T23:59:59.999-12:00' },
    });
    expect(answer).toEqual({ status: 400, fields: { startsAt: 'dateInvalid' } });
  });
});

describe('bad input sweep', () => {
  it('every string a client sends has a maximum length', () => {
    const unbounded: string[] = [];
    const walk = (schema: Schema, where: string) => {
      if (schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'))) {
        if (schema.maxLength === undefined && schema.enum === undefined && schema.const === undefined) unbounded.push(where);
      }
      for (const option of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) walk(option, where);
      for (const [key, child] of Object.entries(schema.properties ?? {})) walk(child, `${where}.${key}`);
      if (schema.items) walk(schema.items, `${where}[]`);
      if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties, `${where}{}`);
      if (schema.propertyNames) walk(schema.propertyNames, `${where}{key}`);
    };
    for (const { method, path, operation } of endpoints) {
      for (const parameter of operation.parameters ?? [])
        walk(parameter.schema, `${method} ${path} ${parameter.in} ${parameter.name}`);
      for (const content of Object.values(operation.requestBody?.content ?? {})) walk(content.schema, `${method} ${path} body`);
    }
    expect(unbounded).toEqual([]);
  });

  it('no bad value in any parameter or body field of any operation gets a 5xx, and a NUL is a 400 naming the field', async () => {
    expect(endpoints.length).toBeGreaterThan(150);
    const findings: Finding[] = [];
    // The event stream takes no input and stays open by design (decision 0030): nothing to sweep.
    const sorted = [...endpoints]
      .filter((endpoint) => !isMultipart(endpoint) && endpoint.path !== '/api/events')
      .sort((a, b) => order(a) - order(b));
    for (const endpoint of sorted) findings.push(...(await sweep(endpoint)));
    expect(findings).toEqual([]);
  }, 240_000);

  // Issue #24 §0: one anonymous body of 100,000 nested arrays held the process for over a minute. What
  // each shape costs is measured by `npx tsx bench/hostile-bodies.ts` (a ratio to `{}` on the same
  // route), never timed here; what is asserted is that nesting is refused before it is parsed and that
  // nothing answers 5xx.
  it('deep nesting is refused before parsing, and very long keys or very wide objects in any body get no 5xx', async () => {
    const nested: [string, string][] = [
      ['100,000 nested arrays', '['.repeat(100_000) + ']'.repeat(100_000)],
      ['100,000 nested objects', '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)],
    ];
    const large: [string, string][] = [
      ['a key of 200,000 characters', JSON.stringify({ ['k'.repeat(200_000)]: 'v' })],
      ['an object of 20,000 keys', JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i])))],
    ];
    const findings: Finding[] = [];
    const withBodies = endpoints.filter(
      (endpoint) => !isMultipart(endpoint) && endpoint.operation.requestBody?.content['application/json'],
    );
    expect(withBodies.length).toBeGreaterThan(50);
    for (const endpoint of withBodies) {
      const url = endpoint.path.replace(/\{[^}]+\}/g, randomUUID());
      for (const [label, raw] of [...nested, ...large]) {
        const response = await send({ method: endpoint.method, url, raw, contentType: 'application/json' });
        const text = `${endpoint.method} ${endpoint.path} with ${label}`;
        if (response.statusCode >= 500)
          findings.push({ request: text, status: response.statusCode, body: response.body.slice(0, 300) });
        else if (nested.some(([name]) => name === label) && response.statusCode !== 400)
          findings.push({ request: `${text} was not refused as too deep`, status: response.statusCode, body: response.body.slice(0, 300) });
      }
    }
    expect(findings).toEqual([]);
  }, 240_000);

  it('a multipart upload without a boundary, or with a broken body, is a 400 naming the file', async () => {
    const uploads = endpoints.filter(isMultipart);
    expect(uploads.map((endpoint) => `${endpoint.method} ${endpoint.path}`).sort()).toEqual([
      'POST /api/encounterimports',
      'POST /api/encounterimports/preview',
      'POST /api/instancesettings/files/{fileKey}',
      'POST /api/instancesettings/privatekey',
    ]);
    for (const endpoint of uploads) {
      const url = endpoint.path.replace('{fileKey}', 'clinicLogoPrimary');
      for (const [contentType, payload] of [
        ['multipart/form-data', 'x'],
        ['multipart/form-data; boundary=', 'x'],
        ['multipart/form-data; boundary=zzz', 'not a multipart body'],
        ['multipart/form-data; boundary=zzz', '--zzz\r\nContent-Disposition: form-data; name="file"\r\n\r\nunfinished'],
      ] as const) {
        const response = await send({ method: 'POST', url, contentType, raw: payload });
        expect(response.statusCode, `${endpoint.path} ${contentType}: ${response.body}`).toBe(400);
        expect(fieldsOf(response)).toHaveProperty('file');
      }
    }
  });
});
