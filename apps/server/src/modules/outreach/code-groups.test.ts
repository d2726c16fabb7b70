import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeGroup } from '@pathwell/contracts/outreach';
import { activityLogs, codeGroups, instances } from '../../db/schema';
import { createTestApp, nextIp, setInstanceSetting, signIn, type TestApp } from '../../../test/test-app';

/** Code groups (issue #15 §1): named code sets, unique per clinic, for System Managers and Admins. */
let t: TestApp;
let riverside: string;
let lakeside: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const who of ['manager', 'admin', 'doctor', 'staff', 'admin2']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, as: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: tokens[as]!.headers, payload: payload as object | undefined, remoteAddress: nextIp() });

const lumbar = { name: 'Test lumbar group', codes: ['m54.16', 'M54.17', ' M51.16 ', 'M54.16'] };

describe('code groups', () => {
  it('creates a group with its codes cleaned up, lists it, renames it and deletes it, each change audited', async () => {
    const created = await call('POST', '/api/codegroups', 'admin', lumbar);
    expect(created.statusCode, created.body).toBe(201);
    const group = created.json<CodeGroup>();
    expect(group.codes).toEqual(['M54.16', 'M54.17', 'M51.16']);

    const list = await call('GET', '/api/codegroups', 'manager');
    expect(list.statusCode).toBe(200);
    expect(list.json<{ data: CodeGroup[] }>().data.map((row) => row.name)).toContain('Test lumbar group');

    const renamed = await call('PUT', `/api/codegroups/${group.id}`, 'admin', {
      name: 'Test lumbar group (all)',
      codes: ['M54.16', '64483'],
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<CodeGroup>()).toMatchObject({ name: 'Test lumbar group (all)', codes: ['M54.16', '64483'] });

    const deleted = await call('DELETE', `/api/codegroups/${group.id}`, 'admin');
    expect(deleted.statusCode).toBe(204);
    const after = await call('GET', '/api/codegroups', 'admin');
    expect(after.json<{ data: CodeGroup[] }>().data.map((row) => row.id)).not.toContain(group.id);
    const [stored] = await t.db.select().from(codeGroups).where(eq(codeGroups.id, group.id));
    expect(stored!.deletedAt).not.toBeNull();

    const audit = await t.db
      .select({ action: activityLogs.action })
      .from(activityLogs)
      .where(and(eq(activityLogs.targetType, 'codeGroup'), eq(activityLogs.targetId, group.id)));
    expect(audit.map((row) => row.action).sort()).toEqual(['Created', 'Deleted', 'Updated']);
  });

  it('refuses a name already used in the clinic, in any case, with a field error (409)', async () => {
    const first = await call('POST', '/api/codegroups', 'admin', { name: 'Facet arthropathy', codes: ['M47.816'] });
    expect(first.statusCode).toBe(201);
    const clash = await call('POST', '/api/codegroups', 'admin', { name: 'FACET arthropathy', codes: ['M47.817'] });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().fields).toEqual({ name: 'codeGroupNameTaken' });
    const other = await call('POST', '/api/codegroups', 'admin', { name: 'Facet (lumbar)', codes: ['M47.816'] });
    const renameClash = await call('PUT', `/api/codegroups/${other.json<CodeGroup>().id}`, 'admin', {
      name: 'facet arthropathy',
      codes: ['M47.816'],
    });
    expect(renameClash.statusCode).toBe(409);
    // Another clinic may use the same name.
    const lakesideSame = await call('POST', '/api/codegroups', 'admin2', { name: 'Facet arthropathy', codes: ['M47.816'] });
    expect(lakesideSame.statusCode).toBe(201);
    // A deleted group's name is free again.
    await call('DELETE', `/api/codegroups/${first.json<CodeGroup>().id}`, 'admin');
    const again = await call('POST', '/api/codegroups', 'admin', { name: 'Facet arthropathy', codes: ['M47.816'] });
    expect(again.statusCode).toBe(201);
  });

  it('answers 400 with field errors for a bad code, no codes or no name', async () => {
    const badCode = await call('POST', '/api/codegroups', 'admin', { name: 'Bad', codes: ['M54.16', 'XYZ'] });
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json().fields).toEqual({ 'codes.1': 'visitCodeInvalid' });
    const empty = await call('POST', '/api/codegroups', 'admin', { name: ' ', codes: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toMatchObject({ name: 'nameRequired', codes: 'codesRequired' });
  });

  it("gives another clinic's admin 404 for this clinic's group", async () => {
    const created = await call('POST', '/api/codegroups', 'admin', { name: 'Cervical radiculopathy', codes: ['M54.12'] });
    const id = created.json<CodeGroup>().id;
    expect((await call('PUT', `/api/codegroups/${id}`, 'admin2', { name: 'Mine now', codes: ['M54.12'] })).statusCode).toBe(404);
    expect((await call('DELETE', `/api/codegroups/${id}`, 'admin2')).statusCode).toBe(404);
    const theirs = await call('GET', '/api/codegroups', 'admin2');
    expect(theirs.json<{ data: CodeGroup[] }>().data.map((row) => row.id)).not.toContain(id);
  });

  it('refuses Doctors and Staff (403)', async () => {
    for (const who of ['doctor', 'staff']) {
      expect((await call('GET', '/api/codegroups', who)).statusCode).toBe(403);
      expect((await call('POST', '/api/codegroups', who, { name: 'Theirs', codes: ['M54.16'] })).statusCode).toBe(403);
    }
  });

  it('refuses with featureOff (403) in a clinic that uses neither code pulls nor campaigns', async () => {
    await setInstanceSetting(t.db, lakeside, 'useCodePull', 'false');
    try {
      const response = await call('GET', '/api/codegroups', 'admin2');
      expect(response.statusCode).toBe(403);
      expect(response.json().messageKey).toBe('featureOff');
      // A campaign-only clinic uses them whatever useCodePull says.
      await setInstanceSetting(t.db, lakeside, 'campaignOnly', 'true');
      expect((await call('GET', '/api/codegroups', 'admin2')).statusCode).toBe(200);
    } finally {
      await setInstanceSetting(t.db, lakeside, 'useCodePull', 'true');
      await setInstanceSetting(t.db, lakeside, 'campaignOnly', 'false');
    }
    expect(riverside).toBeTruthy();
  });
});
