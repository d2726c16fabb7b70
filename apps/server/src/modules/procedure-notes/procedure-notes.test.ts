import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProcedureNote, ProcedureNoteList, ProcedureNoteTemplate } from '@pathwell/contracts/procedure-notes';
import {
  activityLogs,
  instances,
  interventions,
  managedItems,
  patients,
  procedureNotes,
  procedureNoteTemplates,
  users,
} from '../../db/schema';
import { createTestApp, nextIp, setInstanceSetting, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
let riverside: string;
let lakeside: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};
let doctorId: string;
let patientId: string;
let otherDoctorsPatient: string;
let injectionItem: string;
let procedureItem: string;
let lakesideItem: string;
let medicine: string;
let lakesideIntervention: string;

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  await setInstanceSetting(t.db, riverside, 'enableProcedureNote', 'true');
  await setInstanceSetting(t.db, lakeside, 'enableProcedureNote', 'true');
  for (const who of ['admin', 'doctor', 'staff', 'admin2', 'manager']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  doctorId = doctor!.id;
  const patient = async (instanceId: string, lastName: string, doctor: string | null) => {
    const [row] = await t.db
      .insert(patients)
      .values({ instanceId, firstName: 'Ana', lastName, dateOfBirth: '1968-11-02', email: null, doctorId: doctor })
      .returning({ id: patients.id });
    return row!.id;
  };
  patientId = await patient(riverside, 'Quintero', doctorId);
  otherDoctorsPatient = await patient(riverside, 'Elsewhere', null);
  const item = async (instanceId: string, listType: string, name: string, attributes: Record<string, unknown> = {}) => {
    const [row] = await t.db.insert(managedItems).values({ instanceId, listType, name, attributes }).returning();
    return row!.id;
  };
  injectionItem = await item(riverside, 'interventionalitems:2', 'Lumbar epidural steroid injection PN', { cptCode: '62323' });
  procedureItem = await item(riverside, 'interventionalitems:1', 'Radiofrequency ablation PN', { cptCode: '64635' });
  medicine = await item(riverside, 'medicines', 'Lidocaine 1% PN');
  lakesideItem = await item(lakeside, 'interventionalitems:2', 'Lake injection PN');
  lakesideIntervention = await intervention({
    instanceId: lakeside,
    patientId: await patient(lakeside, 'Lake', null),
    itemId: lakesideItem,
  });
});
afterAll(async () => {
  await t?.close();
});

async function intervention(values: Partial<typeof interventions.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(interventions)
    .values({
      instanceId: riverside,
      patientId,
      kind: 'injection',
      itemId: injectionItem,
      side: 'bilateral',
      levels: ['L4-L5', 'L5-S1'],
      medicines: [{ medicineId: medicine, dose: 2, unit: 'mL' }],
      guidance: 'fluoroscopy',
      performedOn: '2026-11-20',
      providerId: doctorId,
      providerType: 'Doctor',
      completion: 1,
      outcome: 'Tolerated',
      followUpPlan: 'Review in two weeks',
      ...values,
    })
    .returning({ id: interventions.id });
  return row!.id;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, as: string | null, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: as ? tokens[as]!.headers : {},
    payload: payload as object | undefined,
    remoteAddress: nextIp(),
  });

async function openNote(interventionId: string, as = 'doctor', templateId?: string) {
  const response = await call('POST', '/api/procedurenotes', as, { interventionId, ...(templateId ? { templateId } : {}) });
  expect([200, 201], response.body).toContain(response.statusCode);
  return response.json<ProcedureNote>();
}

describe('procedure note templates', () => {
  let templateId: string;

  it('lets the Admin group create, list, update and delete templates', async () => {
    const created = await call('POST', '/api/procedurenotetemplates', 'admin', {
      name: 'Injection note PN',
      kind: 'injection',
      body: 'Injection for {{patientName}} on {{datePerformed}}: {{procedure}} ({{cptCode}}) at {{levels}}, {{side}}.\nMedicines: {{medicines}}\nBy {{provider}}',
    });
    expect(created.statusCode, created.body).toBe(201);
    const template = created.json<ProcedureNoteTemplate>();
    templateId = template.id;
    expect(template).toMatchObject({ kind: 'injection', itemId: null, isActive: true });

    const list = await call('GET', '/api/procedurenotetemplates', 'staff');
    expect(list.statusCode).toBe(200);
    expect(list.json<ProcedureNoteTemplate[]>().map((row) => row.id)).toContain(templateId);

    const updated = await call('PUT', `/api/procedurenotetemplates/${templateId}`, 'manager', {
      name: 'Injection note PN',
      kind: 'injection',
      itemId: injectionItem,
      body: 'Item template: {{procedure}} for {{patientName}}, levels {{levels}}',
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json<ProcedureNoteTemplate>()).toMatchObject({
      itemId: injectionItem,
      itemName: 'Lumbar epidural steroid injection PN',
    });
    const [log] = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, templateId));
    expect(log).toMatchObject({ area: 'Admin Configuration' });
  });

  it('refuses unknown placeholders and bad input with field errors', async () => {
    const unknown = await call('POST', '/api/procedurenotetemplates', 'admin', {
      name: 'Bad',
      kind: 'injection',
      body: 'Hello {{patientName}} {{favouriteColour}}',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ fields: { body: 'placeholderUnknown' } });
    const bad = await call('POST', '/api/procedurenotetemplates', 'admin', { name: '', kind: 'laser', body: '', itemId: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json<{ fields: object }>().fields)).toEqual(
      expect.arrayContaining(['name', 'kind', 'body', 'itemId']),
    );
    const wrongItem = await call('POST', '/api/procedurenotetemplates', 'admin', {
      name: 'Wrong item',
      kind: 'injection',
      itemId: procedureItem,
      body: 'x',
    });
    expect(wrongItem.statusCode).toBe(400);
    expect(wrongItem.json()).toMatchObject({ fields: { itemId: 'invalid' } });
    const otherClinicItem = await call('POST', '/api/procedurenotetemplates', 'admin', {
      name: 'Lake item',
      kind: 'injection',
      itemId: lakesideItem,
      body: 'x',
    });
    expect(otherClinicItem.statusCode).toBe(400);
  });

  it('keeps writes to the Admin group and templates to their clinic', async () => {
    const body = { name: 'Staff try', kind: 'procedure', body: 'x' };
    expect((await call('POST', '/api/procedurenotetemplates', 'staff', body)).statusCode).toBe(403);
    expect((await call('POST', '/api/procedurenotetemplates', 'doctor', body)).statusCode).toBe(403);
    expect((await call('GET', '/api/procedurenotetemplates', null)).statusCode).toBe(401);
    expect((await call('PUT', `/api/procedurenotetemplates/${templateId}`, 'admin2', body)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/procedurenotetemplates/${templateId}`, 'admin2')).statusCode).toBe(404);
    const lakesideList = await call('GET', '/api/procedurenotetemplates', 'admin2');
    expect(lakesideList.json<ProcedureNoteTemplate[]>().map((row) => row.id)).not.toContain(templateId);
  });

  it('deletes softly', async () => {
    const created = await call('POST', '/api/procedurenotetemplates', 'admin', {
      name: 'Temp PN',
      kind: 'pump',
      body: '{{pumpRefills}}',
    });
    const id = created.json<ProcedureNoteTemplate>().id;
    expect((await call('DELETE', `/api/procedurenotetemplates/${id}`, 'admin')).statusCode).toBe(204);
    expect((await call('DELETE', `/api/procedurenotetemplates/${id}`, 'admin')).statusCode).toBe(404);
    const list = await call('GET', '/api/procedurenotetemplates', 'admin');
    expect(list.json<ProcedureNoteTemplate[]>().map((row) => row.id)).not.toContain(id);
  });
});

describe('procedure notes', () => {
  it('drafts version 1 from the item template, filled from the intervention, and opens it again', async () => {
    const id = await intervention();
    const first = await call('POST', '/api/procedurenotes', 'doctor', { interventionId: id });
    expect(first.statusCode, first.body).toBe(201);
    const note = first.json<ProcedureNote>();
    expect(note).toMatchObject({
      version: 1,
      status: 'draft',
      providerId: doctorId,
      canSign: true,
      templateName: 'Injection note PN',
    });
    expect(note.body).toBe('Item template: Lumbar epidural steroid injection PN for Ana Quintero, levels L4-L5, L5-S1');
    const again = await call('POST', '/api/procedurenotes', 'staff', { interventionId: id });
    expect(again.statusCode).toBe(200);
    expect(again.json<ProcedureNote>()).toMatchObject({ id: note.id, canSign: false });
    const [log] = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, note.id), eq(activityLogs.action, 'Created')));
    expect(log).toMatchObject({ area: 'Interventions' });
  });

  it("uses the kind's template when the item has none: the clinic's editable example", async () => {
    const id = await intervention({ kind: 'procedure', itemId: procedureItem });
    const note = await openNote(id);
    expect(note.templateName).toBe('Example: procedure note');
    expect(note.body).toContain('PROCEDURE NOTE');
    expect(note.body).toContain('Procedure: Radiofrequency ablation PN (CPT 64635)');
    expect(note.body).toContain('Side: Bilateral    Levels: L4-L5, L5-S1');
    expect(note.body).toContain('Medicines: Lidocaine 1% PN: 2 mL');
    expect(note.body).toContain('Direction: —');
    expect(note.body).not.toContain('{{');
  });

  it('falls back to the built-in default, which says it is one, and fills every recorded field', async () => {
    const pumpMedicine = (
      await t.db
        .insert(managedItems)
        .values({ instanceId: riverside, listType: 'painpumpmedicines', name: 'Pump medicine PN', attributes: { unit: 'mg/mL' } })
        .returning()
    )[0]!.id;
    const id = await intervention({
      kind: 'pump',
      itemId: null,
      side: null,
      levels: [],
      medicines: [],
      guidance: null,
      pump: {
        procedure: 1,
        reservoirVolumeMl: 20,
        refills: [{ painPumpMedicineId: pumpMedicine, concentration: 2, dailyDose: 1.5, doseChange: 2, newDailyDose: 1.8 }],
        nextRefillDate: '2027-01-15',
      },
    });
    const note = await openNote(id);
    expect(note.templateId).toBeNull();
    expect(note.templateName).toBeNull();
    expect(note.procedure).toBeNull();
    expect(note.body).toContain('Default layout');
    expect(note.body).toContain('Pump procedure: Pump Dye Study');
    expect(note.body).toContain('Reservoir volume (mL): 20');
    expect(note.body).toContain('Pump medicines: Pump medicine PN 2 mg/mL, Increase, daily dose 1.5, new daily dose 1.8');
    expect(note.body).toContain('Next refill date: 01/15/2027');
    expect(note.body).toContain('Date performed: 11/20/2026');
    expect(note.body).toContain('Completion: Completed');
    expect(note.body).not.toContain('{{');
  });

  it('fills the default with the recorded fields of an injection when no template applies', async () => {
    const otherInjection = (
      await t.db
        .insert(managedItems)
        .values({
          instanceId: riverside,
          listType: 'interventionalitems:2',
          name: 'Trigger point injection PN',
          attributes: { cptCode: '20552' },
        })
        .returning()
    )[0]!.id;
    await t.db
      .update(procedureNoteTemplates)
      .set({ isActive: false })
      .where(
        and(
          eq(procedureNoteTemplates.instanceId, riverside),
          eq(procedureNoteTemplates.kind, 'injection'),
          isNull(procedureNoteTemplates.itemId),
        ),
      );
    const note = await openNote(await intervention({ itemId: otherInjection }));
    await t.db
      .update(procedureNoteTemplates)
      .set({ isActive: true })
      .where(
        and(
          eq(procedureNoteTemplates.instanceId, riverside),
          eq(procedureNoteTemplates.kind, 'injection'),
          isNull(procedureNoteTemplates.itemId),
        ),
      );
    expect(note.templateId).toBeNull();
    expect(note.body).toContain('Default layout');
    expect(note.body).toContain('Procedure: Trigger point injection PN');
    expect(note.body).toContain('CPT code: 20552');
    expect(note.body).toContain('Side: Bilateral');
    expect(note.body).toContain('Medicines: Lidocaine 1% PN: 2 mL');
    expect(note.body).toContain('Date performed: 11/20/2026');
    expect(note.body).toContain('Completion: Completed');
    expect(note.body).not.toContain('{{');
  });

  it('refuses bad input, other clinics, invisible patients and signed-out calls', async () => {
    const bad = await call('POST', '/api/procedurenotes', 'doctor', { interventionId: 'nope', templateId: 5 });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json<{ fields: object }>().fields)).toEqual(expect.arrayContaining(['interventionId', 'templateId']));
    expect((await call('POST', '/api/procedurenotes', 'admin', { interventionId: lakesideIntervention })).statusCode).toBe(404);
    const hidden = await intervention({ patientId: otherDoctorsPatient });
    expect((await call('POST', '/api/procedurenotes', 'doctor', { interventionId: hidden })).statusCode).toBe(404);
    expect((await call('POST', '/api/procedurenotes', null, { interventionId: hidden })).statusCode).toBe(401);
    const lakesideNote = await openNote(lakesideIntervention, 'admin2');
    expect((await call('GET', `/api/procedurenotes/${lakesideNote.id}`, 'admin')).statusCode).toBe(404);
    expect((await call('PUT', `/api/procedurenotes/${lakesideNote.id}`, 'admin', { body: 'x' })).statusCode).toBe(404);
    expect((await call('POST', `/api/procedurenotes/${lakesideNote.id}/sign`, 'admin')).statusCode).toBe(404);
    expect((await call('GET', `/api/procedurenotes/${lakesideNote.id}/pdf`, 'admin')).statusCode).toBe(404);
    const wrongTemplate = await call('POST', '/api/procedurenotes', 'doctor', {
      interventionId: await intervention(),
      templateId: '00000000-0000-4000-8000-000000000000',
    });
    expect(wrongTemplate.statusCode).toBe(400);
    expect(wrongTemplate.json()).toMatchObject({ fields: { templateId: 'invalid' } });
  });

  it('edits a draft, signs it by its provider only, then keeps it read-only', async () => {
    const note = await openNote(await intervention());
    const empty = await call('PUT', `/api/procedurenotes/${note.id}`, 'doctor', { body: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ fields: { body: 'required' } });
    const tooLong = await call('PUT', `/api/procedurenotes/${note.id}`, 'doctor', { body: 'x'.repeat(20001) });
    expect(tooLong.json()).toMatchObject({ fields: { body: 'tooLong' } });
    const edited = await call('PUT', `/api/procedurenotes/${note.id}`, 'staff', { body: 'Edited text: Lidocaine 1% PN: 2 mL' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<ProcedureNote>().body).toBe('Edited text: Lidocaine 1% PN: 2 mL');

    expect((await call('POST', `/api/procedurenotes/${note.id}/sign`, 'staff')).statusCode).toBe(403);
    const byAdmin = await call('POST', `/api/procedurenotes/${note.id}/sign`, 'admin');
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json()).toMatchObject({ messageKey: 'procedureNoteSignOwn' });
    expect((await call('POST', `/api/procedurenotes/${note.id}/sign`, 'manager')).statusCode).toBe(403);
    expect((await call('GET', `/api/procedurenotes/${note.id}/pdf`, 'doctor')).statusCode).toBe(409);

    const signed = await call('POST', `/api/procedurenotes/${note.id}/sign`, 'doctor');
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json<ProcedureNote>()).toMatchObject({ status: 'signed', canSign: false, signedByName: expect.any(String) });
    const locked = await call('PUT', `/api/procedurenotes/${note.id}`, 'doctor', { body: 'Changed after signing' });
    expect(locked.statusCode).toBe(409);
    expect(locked.json()).toMatchObject({ messageKey: 'procedureNoteSigned' });
    expect((await call('POST', `/api/procedurenotes/${note.id}/sign`, 'doctor')).statusCode).toBe(409);
  });

  it('refuses to sign while the template\'s "[to be completed by the provider]" is left, and names each place', async () => {
    const note = await openNote(await intervention());
    const unfinished = [
      'Indication:',
      '[to be completed by the provider]',
      '',
      'Description:',
      '[to be completed by the provider]',
      'Plan: {{followUpPlan}}',
    ].join('\n');
    await call('PUT', `/api/procedurenotes/${note.id}`, 'doctor', { body: unfinished });
    const refused = await call('POST', `/api/procedurenotes/${note.id}/sign`, 'doctor');
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({
      messageKey: 'procedureNoteUnfilled',
      params: { names: 'Indication, Description, followUpPlan' },
      fields: { body: 'placeholdersUnfilled' },
    });
    const [still] = await t.db.select().from(procedureNotes).where(eq(procedureNotes.id, note.id));
    expect(still).toMatchObject({ status: 'draft', signedAt: null });

    await call('PUT', `/api/procedurenotes/${note.id}`, 'doctor', {
      body: 'Indication:\nLumbar radicular pain.\n\nDescription:\nInjected under fluoroscopy: Lidocaine 1% PN: 2 mL.\nPlan: review in two weeks.',
    });
    const signed = await call('POST', `/api/procedurenotes/${note.id}/sign`, 'doctor');
    expect(signed.statusCode, signed.body).toBe(200);
  });

  it('keeps the medicines of the note those of the record: a changed record rewrites the draft, signing checks them', async () => {
    const id = await intervention();
    const kindTemplate = await call('POST', '/api/procedurenotetemplates', 'admin', {
      name: 'Medicines PN',
      kind: 'injection',
      body: 'Medicines: {{medicines}}',
      isActive: false,
    });
    const note = await openNote(id, 'doctor', kindTemplate.json<ProcedureNoteTemplate>().id);
    expect(note.body).toBe('Medicines: Lidocaine 1% PN: 2 mL');
    const [row] = await t.db.select().from(interventions).where(eq(interventions.id, id));
    const changed = await call('PUT', `/api/interventions/${id}`, 'doctor', {
      patientId,
      kind: 'injection',
      itemId: injectionItem,
      performedOn: row!.performedOn,
      providerId: doctorId,
      medicines: [{ medicineId: medicine, dose: 3, unit: 'mL', volumeMl: 3, lot: 'L55' }],
    });
    // The test's medicine is not an injectable of the list (inserted without a kind): the form refuses it.
    expect(changed.statusCode).toBe(400);
    await t.db
      .update(managedItems)
      .set({ attributes: { kind: 'localAnesthetic', strength: 10, unit: 'mg/mL' } })
      .where(eq(managedItems.id, medicine));
    const retried = await call('PUT', `/api/interventions/${id}`, 'doctor', {
      patientId,
      kind: 'injection',
      itemId: injectionItem,
      performedOn: row!.performedOn,
      providerId: doctorId,
      medicines: [{ medicineId: medicine, dose: 3, unit: 'mL', volumeMl: 3, lot: 'L55' }],
    });
    expect(retried.statusCode, retried.body).toBe(200);
    const draft = (await call('GET', `/api/procedurenotes/${note.id}`, 'doctor')).json<ProcedureNote>();
    expect(draft.body).toContain('Lidocaine 1% PN: 3 mL, 3 mL, lot L55');
    expect(draft.body).not.toContain('Lidocaine 1% PN: 2 mL');

    // Typed over by hand, the note no longer says what the record says: it is not signed.
    await call('PUT', `/api/procedurenotes/${note.id}`, 'doctor', { body: draft.body.replace('3 mL, 3 mL', '5 mL, 3 mL') });
    const refused = await call('POST', `/api/procedurenotes/${note.id}/sign`, 'doctor');
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({
      messageKey: 'procedureNoteMedicinesDiffer',
      params: { medicines: 'Lidocaine 1% PN: 3 mL, 3 mL, lot L55' },
      fields: { body: 'medicinesDiffer' },
    });
    await call('PUT', `/api/procedurenotes/${note.id}`, 'doctor', { body: draft.body });
    expect((await call('POST', `/api/procedurenotes/${note.id}/sign`, 'doctor')).statusCode).toBe(200);
  });

  it('signs a pump visit note whose refill has the name of an entry of the medicines list', async () => {
    const [pumpMedicine] = await t.db
      .insert(managedItems)
      .values({ instanceId: riverside, listType: 'painpumpmedicines', name: 'Lidocaine 1% PN', attributes: { unit: 'mg/mL' } })
      .returning();
    const id = await intervention({
      kind: 'pump',
      itemId: null,
      medicines: [],
      levels: [],
      side: null,
      pump: {
        procedure: null,
        reservoirVolumeMl: 20,
        refills: [{ painPumpMedicineId: pumpMedicine!.id, concentration: 10, dailyDose: 2, doseChange: 1, newDailyDose: null }],
        nextRefillDate: '2026-12-18',
      },
    });
    const note = await openNote(id);
    expect(note.body).toContain('Lidocaine 1% PN 10 mg/mL');
    const signed = await call('POST', `/api/procedurenotes/${note.id}/sign`, 'doctor');
    expect(signed.statusCode, signed.body).toBe(200);
  });

  it('amends into a new version; the signed one is superseded only when the amendment is signed', async () => {
    const id = await intervention();
    const v1 = await openNote(id);
    expect((await call('POST', `/api/procedurenotes/${v1.id}/amend`, 'doctor')).statusCode).toBe(409);
    await call('POST', `/api/procedurenotes/${v1.id}/sign`, 'doctor');
    const amended = await call('POST', `/api/procedurenotes/${v1.id}/amend`, 'staff');
    expect(amended.statusCode, amended.body).toBe(201);
    const v2 = amended.json<ProcedureNote>();
    expect(v2).toMatchObject({ version: 2, status: 'draft', body: v1.body });
    expect(v2.versions.map((row) => [row.version, row.status])).toEqual([
      [2, 'draft'],
      [1, 'signed'],
    ]);
    expect((await call('POST', `/api/procedurenotes/${v1.id}/amend`, 'doctor')).statusCode).toBe(409);
    expect((await call('POST', '/api/procedurenotes', 'doctor', { interventionId: id })).json<ProcedureNote>().id).toBe(v2.id);

    await call('PUT', `/api/procedurenotes/${v2.id}`, 'doctor', { body: `${v1.body}\nAddendum: corrected level.` });
    const signed = (await call('POST', `/api/procedurenotes/${v2.id}/sign`, 'doctor')).json<ProcedureNote>();
    expect(signed.versions.map((row) => [row.version, row.status])).toEqual([
      [2, 'signed'],
      [1, 'superseded'],
    ]);
    const [old] = await t.db.select().from(procedureNotes).where(eq(procedureNotes.id, v1.id));
    expect(old!.body).toBe(v1.body);
    expect((await call('GET', `/api/procedurenotes/${v1.id}`, 'staff')).json<ProcedureNote>().status).toBe('superseded');
  });

  it('prints a signed note as a PDF', async () => {
    const note = await openNote(await intervention());
    await call('PUT', `/api/procedurenotes/${note.id}`, 'doctor', {
      body: `${note.body}\n\nThe note continues with a second paragraph, written by the provider after reviewing the draft.`,
    });
    await call('POST', `/api/procedurenotes/${note.id}/sign`, 'doctor');
    const response = await call('GET', `/api/procedurenotes/${note.id}/pdf`, 'staff');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    const out = process.env.PROCEDURE_NOTE_PDF_OUT;
    if (out) writeFileSync(out, response.rawPayload);
    if (existsSync('/usr/bin/pdftotext')) {
      const dir = mkdtempSync(join(tmpdir(), 'pn-'));
      writeFileSync(join(dir, 'note.pdf'), response.rawPayload);
      const text = execFileSync('/usr/bin/pdftotext', [join(dir, 'note.pdf'), '-']).toString();
      expect(text).toContain('Riverside Spine & Pain');
      expect(text).toContain('Electronically signed by');
      expect(text).toContain('Version 1');
    }
  });

  it('lists the latest version per intervention on the patient dashboard', async () => {
    const response = await call('GET', `/api/patients/${patientId}/procedurenotes`, 'doctor');
    expect(response.statusCode).toBe(200);
    const list = response.json<ProcedureNoteList>();
    expect(list.enabled).toBe(true);
    const perIntervention = new Set(list.data.map((row) => row.interventionId));
    expect(perIntervention.size).toBe(list.data.length);
    expect(list.data.some((row) => row.version === 2 && row.status === 'signed')).toBe(true);
    expect(list.data.every((row) => row.status !== 'superseded')).toBe(true);
    expect((await call('GET', `/api/patients/${otherDoctorsPatient}/procedurenotes`, 'doctor')).statusCode).toBe(404);
    expect((await call('GET', `/api/patients/${patientId}/procedurenotes`, 'admin2')).statusCode).toBe(404);
    expect((await call('GET', '/api/patients/nope/procedurenotes', 'admin')).statusCode).toBe(400);
  });

  it("lists unsigned drafts: the provider's own, or the whole clinic's for Admin and Staff", async () => {
    const doctorTodo = (await call('GET', '/api/procedurenotes/todo', 'doctor')).json<ProcedureNoteList>();
    expect(doctorTodo.data.length).toBeGreaterThan(0);
    expect(doctorTodo.data.every((row) => row.status === 'draft' && row.providerId === doctorId)).toBe(true);
    const staffTodo = (await call('GET', '/api/procedurenotes/todo', 'staff')).json<ProcedureNoteList>();
    expect(staffTodo.data.length).toBeGreaterThanOrEqual(doctorTodo.data.length);
    expect(staffTodo.data.find((row) => row.patientName === 'Ana Quintero')).toMatchObject({ providerName: expect.any(String) });
    const lakesideTodo = (await call('GET', '/api/procedurenotes/todo', 'admin2')).json<ProcedureNoteList>();
    expect(lakesideTodo.data.every((row) => row.patientName === 'Ana Lake')).toBe(true);
    expect((await call('GET', '/api/procedurenotes/todo', null)).statusCode).toBe(401);
  });

  it('answers featureOff while the clinic does not use procedure notes', async () => {
    const id = await intervention();
    await setInstanceSetting(t.db, riverside, 'enableProcedureNote', 'false');
    try {
      const response = await call('POST', '/api/procedurenotes', 'doctor', { interventionId: id });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ messageKey: 'featureOff' });
      expect((await call('GET', '/api/procedurenotes/todo', 'doctor')).json()).toEqual({ enabled: false, data: [] });
      expect((await call('GET', `/api/patients/${patientId}/procedurenotes`, 'doctor')).json()).toEqual({
        enabled: false,
        data: [],
      });
    } finally {
      await setInstanceSetting(t.db, riverside, 'enableProcedureNote', 'true');
    }
  });
});
