import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AudiencePreview, AudienceTemplate } from '@pathwell/contracts/outreach';
import { activityLogs, audienceTemplates, codedVisitCodes, codedVisits, codeGroups, instances, patients } from '../../db/schema';
import { createTestApp, nextIp, setInstanceSetting, signIn, type TestApp } from '../../../test/test-app';

/** Code pull and hot-list templates: CRUD, validation, tenancy, roles and the feature switch (issue #15 §2, §6). */
let t: TestApp;
let riverside: string;
let lakeside: string;
let lakesideGroup: string;
const headers: Record<string, Record<string, string>> = {};
const CODE = 'Z99.82';

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, as: string | null, payload?: object) =>
  t.app.inject({ method, url, headers: as ? headers[as] : {}, payload, remoteAddress: nextIp() });

const input = (overrides: object = {}) => ({
  name: 'Lumbar, not seen in 6 months',
  kind: 'campaign',
  description: 'Radiculopathy patients to bring back',
  rule: { codes: [' z99.82 '], matchMode: 2, lastVisitBefore: '2020-01-01' },
  ...overrides,
});

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const id of [riverside, lakeside]) await setInstanceSetting(t.db, id, 'useCodePull', 'true');
  for (const who of ['admin', 'manager', 'doctor', 'staff', 'admin2'])
    headers[who] = (await signIn(t.app, `${who}@pathwell.demo`)).headers;
  lakesideGroup = (
    await t.db
      .insert(codeGroups)
      .values({ instanceId: lakeside, name: 'Theirs', codes: [CODE] })
      .returning()
  )[0]!.id;
  // One Riverside patient with the code, seen in 2019.
  const [patient] = await t.db
    .insert(patients)
    .values({
      instanceId: riverside,
      firstName: 'Tess',
      lastName: 'Template',
      dateOfBirth: '1960-05-05',
      email: 'tess@template.test',
    })
    .returning({ id: patients.id });
  const [visit] = await t.db
    .insert(codedVisits)
    .values({
      instanceId: riverside,
      patientId: patient!.id,
      visitDate: '2019-06-01',
      source: 'import',
      dedupeKey: 'templates-test',
      codes: [CODE],
    })
    .returning({ id: codedVisits.id });
  await t.db.insert(codedVisitCodes).values({
    instanceId: riverside,
    codedVisitId: visit!.id,
    code: CODE,
    kind: 'diagnosis',
    patientId: patient!.id,
    visitDate: '2019-06-01',
  });
});
afterAll(async () => {
  await t?.close();
});

describe('audience templates', () => {
  let created: AudienceTemplate;

  it('creates, lists by kind, reads, changes and deletes a template, and audits each change', async () => {
    const response = await call('POST', '/api/audiencetemplates', 'admin', input());
    expect(response.statusCode, response.body).toBe(201);
    created = response.json<AudienceTemplate>();
    expect(created).toMatchObject({
      kind: 'campaign',
      name: 'Lumbar, not seen in 6 months',
      description: 'Radiculopathy patients to bring back',
      createdByName: 'Alex Carter',
    });
    // The rule is stored normalised: codes upper-cased and trimmed, defaults filled in.
    expect(created.rule).toMatchObject({ codes: [CODE], matchMode: 2, lastVisitBefore: '2020-01-01', codeGroupIds: [] });

    const hot = await call('POST', '/api/audiencetemplates', 'manager', input({ kind: 'hotlist', name: 'Call back' }));
    expect(hot.statusCode, hot.body).toBe(201);
    const campaignsOnly = (await call('GET', '/api/audiencetemplates?kind=campaign', 'admin')).json<{
      data: AudienceTemplate[];
    }>();
    // (The demo clinic has templates of its own.)
    expect(campaignsOnly.data.map((row) => row.name)).toContain('Lumbar, not seen in 6 months');
    expect(campaignsOnly.data.map((row) => row.name)).not.toContain('Call back');
    expect(campaignsOnly.data.every((row) => row.kind === 'campaign')).toBe(true);
    const hotOnly = (await call('GET', '/api/audiencetemplates?kind=hotlist', 'admin')).json<{ data: AudienceTemplate[] }>();
    expect(hotOnly.data.map((row) => row.name)).toContain('Call back');
    expect(hotOnly.data.every((row) => row.kind === 'hotlist')).toBe(true);
    const names = (await call('GET', '/api/audiencetemplates', 'admin'))
      .json<{ data: AudienceTemplate[] }>()
      .data.map((row) => row.name);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));

    const one = await call('GET', `/api/audiencetemplates/${created.id}`, 'admin');
    expect(one.json<AudienceTemplate>()).toEqual(created);

    const changed = await call('PUT', `/api/audiencetemplates/${created.id}`, 'admin', input({ name: 'Lumbar (renamed)' }));
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<AudienceTemplate>().name).toBe('Lumbar (renamed)');

    const deleted = await call('DELETE', `/api/audiencetemplates/${hot.json<AudienceTemplate>().id}`, 'admin');
    expect(deleted.statusCode).toBe(204);
    const left = (await call('GET', '/api/audiencetemplates?kind=hotlist', 'admin')).json<{ data: AudienceTemplate[] }>().data;
    expect(left.map((row) => row.name)).not.toContain('Call back');
    const [row] = await t.db.select().from(audienceTemplates).where(eq(audienceTemplates.id, hot.json<AudienceTemplate>().id));
    expect(row!.deletedAt).not.toBeNull();

    const audit = await t.db
      .select({ action: activityLogs.action })
      .from(activityLogs)
      .where(and(eq(activityLogs.instanceId, riverside), eq(activityLogs.targetType, 'audienceTemplate')));
    expect(audit.map((entry) => entry.action).sort()).toEqual(['Created', 'Created', 'Deleted', 'Updated']);
  });

  it('previews a saved template or a rule being built, and audits the read', async () => {
    const saved = await call('POST', '/api/patients/patientscontrollistfortemplate', 'admin', { templateId: created.id });
    expect(saved.statusCode, saved.body).toBe(200);
    const body = saved.json<AudiencePreview>();
    expect(body.count).toBe(1);
    expect(body.sample).toEqual([
      expect.objectContaining({
        firstName: 'Tess',
        lastName: 'Template',
        dateOfBirth: '1960-05-05',
        lastVisit: '2019-06-01',
        matchedCodes: [CODE],
      }),
    ]);
    const building = await call('POST', '/api/patients/patientscontrollistfortemplate', 'admin', {
      kind: 'campaign',
      rule: { codes: [CODE], matchMode: 2, lastVisitBefore: '2019-06-01' },
    });
    expect(building.json<AudiencePreview>()).toEqual({ count: 0, sample: [] });
    const audit = await t.db
      .select({ description: activityLogs.description })
      .from(activityLogs)
      .where(
        and(eq(activityLogs.instanceId, riverside), eq(activityLogs.area, 'Patient List'), eq(activityLogs.action, 'Viewed')),
      );
    expect(audit.some((entry) => entry.description?.includes('Lumbar (renamed)'))).toBe(true);
  });

  it('rejects bad input with field errors', async () => {
    const bad = await call('POST', '/api/audiencetemplates', 'admin', {
      name: '',
      kind: 'mailing',
      rule: { codes: ['NOT-A-CODE'], matchMode: 3, ageMin: 70, ageMax: 40, excludeContactedWithinDays: 0 },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json<{ fields: Record<string, string> }>().fields)).toEqual(
      expect.arrayContaining(['name', 'kind', 'rule.codes.0', 'rule.excludeContactedWithinDays']),
    );
    const noCodes = await call(
      'POST',
      '/api/audiencetemplates',
      'admin',
      input({ rule: { codes: [], matchMode: 3, codedFrom: '2024-02-01', codedTo: '2024-01-01' } }),
    );
    expect(noCodes.statusCode).toBe(400);
    expect(noCodes.json<{ fields: Record<string, string> }>().fields).toMatchObject({
      'rule.codes': 'codesRequired',
      'rule.codedTo': 'dateRangeInvalid',
    });
    // Another clinic's code group is refused by name of the field.
    const theirs = await call('POST', '/api/audiencetemplates', 'admin', input({ rule: { codeGroupIds: [lakesideGroup] } }));
    expect(theirs.statusCode).toBe(400);
    expect(theirs.json<{ fields: Record<string, string> }>().fields).toEqual({ 'rule.codeGroupIds.0': 'invalid' });
    // A second live template of the same kind and name.
    const twice = await call('POST', '/api/audiencetemplates', 'admin', input({ name: 'LUMBAR (renamed)' }));
    expect(twice.statusCode).toBe(409);
    // A template keeps its kind.
    const kind = await call('PUT', `/api/audiencetemplates/${created.id}`, 'admin', input({ kind: 'hotlist' }));
    expect(kind.statusCode).toBe(400);
    const preview = await call('POST', '/api/patients/patientscontrollistfortemplate', 'admin', { kind: 'campaign' });
    expect(preview.statusCode).toBe(400);
    expect(preview.json<{ fields: Record<string, string> }>().fields).toMatchObject({ rule: 'required' });
  });

  it("answers 404 to another clinic's user for this clinic's templates", async () => {
    for (const [method, url, payload] of [
      ['GET', `/api/audiencetemplates/${created.id}`],
      ['PUT', `/api/audiencetemplates/${created.id}`, input()],
      ['DELETE', `/api/audiencetemplates/${created.id}`],
      ['POST', '/api/patients/patientscontrollistfortemplate', { templateId: created.id }],
    ] as const) {
      expect((await call(method, url, 'admin2', payload)).statusCode, `${method} ${url}`).toBe(404);
    }
    const theirs = (await call('GET', '/api/audiencetemplates', 'admin2')).json<{ data: AudienceTemplate[] }>().data;
    expect(theirs.map((row) => row.id)).not.toContain(created.id);
  });

  it('is for System Managers and Admins: Doctors and Staff get 403, nobody signed in 401', async () => {
    for (const who of ['doctor', 'staff']) {
      expect((await call('GET', '/api/audiencetemplates', who)).statusCode).toBe(403);
      expect((await call('POST', '/api/audiencetemplates', who, input())).statusCode).toBe(403);
      expect(
        (await call('POST', '/api/patients/patientscontrollistfortemplate', who, { templateId: created.id })).statusCode,
      ).toBe(403);
    }
    expect((await call('GET', '/api/audiencetemplates', null)).statusCode).toBe(401);
  });

  it('answers 403 featureOff when the clinic does not use code pulls', async () => {
    await setInstanceSetting(t.db, riverside, 'useCodePull', 'false');
    try {
      const list = await call('GET', '/api/audiencetemplates', 'admin');
      expect(list.statusCode).toBe(403);
      expect(list.json<{ messageKey: string }>().messageKey).toBe('featureOff');
      expect(
        (await call('POST', '/api/patients/patientscontrollistfortemplate', 'admin', { templateId: created.id })).statusCode,
      ).toBe(403);
      // A campaign-only clinic uses them whatever useCodePull says.
      await setInstanceSetting(t.db, riverside, 'campaignOnly', 'true');
      expect((await call('GET', '/api/audiencetemplates', 'admin')).statusCode).toBe(200);
    } finally {
      await setInstanceSetting(t.db, riverside, 'campaignOnly', 'false');
      await setInstanceSetting(t.db, riverside, 'useCodePull', 'true');
    }
  });
});
