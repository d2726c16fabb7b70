import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  unfilledPlaceholders,
  type ProcedureNote,
  type ProcedureNoteList,
  type ProcedureNoteTemplate,
} from '@pathwell/contracts/procedure-notes';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';
import { instances, procedureNotes, procedureNoteTemplates } from '../schema';
import { seedProcedureNoteTemplates } from '../../modules/procedure-notes/procedure-note-defaults.service';

/** What a newcomer sees of decision 0040 in the demo clinics, through the API the screens use. */
let t: TestApp;
const tokens: Record<string, { headers: Record<string, string> }> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ['doctor', 'admin2']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, as: string) =>
  t.app.inject({ method: 'GET', url, headers: tokens[as]!.headers, remoteAddress: nextIp() });

describe('demo procedure notes', () => {
  it("Riverside uses procedure notes: a draft waits on the doctor's list and a signed note prints", async () => {
    const todo = (await get('/api/procedurenotes/todo', 'doctor')).json<ProcedureNoteList>();
    expect(todo.enabled).toBe(true);
    expect(todo.data.length).toBeGreaterThan(0);
    const draft = (await get(`/api/procedurenotes/${todo.data[0]!.id}`, 'doctor')).json<ProcedureNote>();
    expect(draft).toMatchObject({ status: 'draft', canSign: true, templateName: 'Example: injection note' });
    expect(draft.body).not.toContain('{{');

    const [signed] = await t.db.select().from(procedureNotes).where(eq(procedureNotes.status, 'signed'));
    expect(signed).toMatchObject({ status: 'signed', patientId: expect.any(String) });
    // Nothing left for the provider to write in what was signed.
    expect(unfilledPlaceholders(signed!.body)).toEqual([]);
    const list = (await get(`/api/patients/${signed!.patientId}/procedurenotes`, 'doctor')).json<ProcedureNoteList>();
    expect(list.data).toContainEqual(expect.objectContaining({ id: signed!.id, status: 'signed' }));
    const pdf = await get(`/api/procedurenotes/${signed!.id}/pdf`, 'doctor');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
  });

  it('every clinic starts with the two editable example templates; Lakeside keeps procedure notes off', async () => {
    const templates = (await get('/api/procedurenotetemplates', 'admin2')).json<ProcedureNoteTemplate[]>();
    expect(templates.map((template) => template.name).sort()).toEqual(['Example: injection note', 'Example: procedure note']);
    expect((await get('/api/procedurenotes/todo', 'admin2')).json<ProcedureNoteList>().enabled).toBe(false);
    const [lakeside] = await t.db.select().from(instances).where(eq(instances.name, 'Lakeside Pain Center'));
    await seedProcedureNoteTemplates(t.db, lakeside!.id);
    const rows = await t.db.select().from(procedureNoteTemplates).where(eq(procedureNoteTemplates.instanceId, lakeside!.id));
    expect(rows).toHaveLength(2);
  });
});
