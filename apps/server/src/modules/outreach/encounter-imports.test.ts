import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { pgTable, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EncounterImportDetail, EncounterImportList, EncounterPreview } from '@pathwell/contracts/encounter-imports';
import { bytea } from '../../db/schema/admin';
import { activityLogs, codedVisitCodes, codedVisits, encounterImports, instances, patients, users } from '../../db/schema';
import { createTestApp, nextIp, setInstanceSetting, signIn, waitFor, type TestApp } from '../../../test/test-app';
import { decryptFile } from '../../lib/settings-crypto';
import { runEncounterImport } from './encounter-import-job';

/** What the test trigger of 'keeps the file encrypted' copies aside: each file as it was inserted. */
const storedFiles = pgTable('test_stored_import_files', { id: uuid('id'), content: bytea('content') });

/** The encounter CSV import (issue #15 §1, decision 0050): preview, mapping, row errors, duplicates and the job. */
let t: TestApp;
let riverside: string;
let lakeside: string;
let doctorId: string;
let rosa: string;
let miguel: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const who of ['manager', 'admin', 'doctor', 'staff', 'admin2']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  doctorId = doctor!.id;
  const insert = async (
    instanceId: string,
    firstName: string,
    lastName: string,
    dateOfBirth: string,
    externalId: string | null,
  ) => {
    const [row] = await t.db
      .insert(patients)
      .values({ instanceId, firstName, lastName, dateOfBirth, externalId })
      .returning({ id: patients.id });
    return row!.id;
  };
  rosa = await insert(riverside, 'Rosa', 'Importdelgado', '1960-04-12', 'EXT-1');
  miguel = await insert(riverside, 'Miguel', 'Importsantos', '1975-08-30', null);
  await insert(riverside, 'Ana', 'Importtwin', '1980-01-01', null);
  await insert(riverside, 'Ana', 'Importtwin', '1980-01-01', null);
  await insert(lakeside, 'Lena', 'Importlake', '1970-02-02', 'EXT-L');
});
afterAll(async () => {
  await t?.close();
});

type Part = { name: string; value?: string; filename?: string; content?: Buffer };
function multipart(parts: Part[]) {
  const boundary = `----pathwell${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    const type = part.filename ? 'Content-Type: text/csv\r\n' : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(part.content ?? Buffer.from(part.value ?? ''));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const send = (url: string, as: string, csv: string | Buffer, mapping?: object | string) => {
  const parts: Part[] = [{ name: 'file', filename: 'encounters.csv', content: Buffer.isBuffer(csv) ? csv : Buffer.from(csv) }];
  if (mapping !== undefined)
    parts.push({ name: 'mapping', value: typeof mapping === 'string' ? mapping : JSON.stringify(mapping) });
  const body = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...tokens[as]!.headers, ...body.headers },
    payload: body.payload,
    remoteAddress: nextIp(),
  });
};
const get = (url: string, as: string) =>
  t.app.inject({ method: 'GET', url, headers: tokens[as]!.headers, remoteAddress: nextIp() });

const header = 'MRN,First Name,Last Name,DOB,Date of Service,Rendering Provider,Dx Codes,CPT,Encounter ID';
const sample = [
  header,
  'EXT-1,,,,2024-03-05,"Ortiz, Daniela MD","M54.16;M51.16",64483,V-1',
  ',Miguel,Importsantos,08/30/1975,3/6/2024,Dr. Someone Else,M5417,,',
  'EXT-1,,,,2024-13-01,,M54.16,,',
  'EXT-1,,,,2024-03-07,,M54.16 XYZ,,',
  'EXT-404,,,,2024-03-07,,M54.16,,',
  'EXT-L,,,,2024-03-07,,M54.16,,',
  ',Ana,Importtwin,01/01/1980,2024-03-07,,M54.16,,',
  'EXT-1,,,,2024-03-05,,M47.816,,V-1',
  ',MIGUEL,importsantos,1975-08-30,2024-03-06,dr someone else,M54.17,,',
  'EXT-1,,,,2024-03-08,,,,',
].join('\r\n');

const mapping = {
  externalPatientId: 'MRN',
  firstName: 'First Name',
  lastName: 'Last Name',
  dateOfBirth: 'DOB',
  visitDate: 'Date of Service',
  provider: 'Rendering Provider',
  diagnosisCodes: 'Dx Codes',
  procedureCodes: 'CPT',
  externalVisitId: 'Encounter ID',
};

/** Starts an import and runs its job to the end here (the app's worker may take it first: then it waits). */
async function importFile(csv: string | Buffer, as = 'admin', instanceId = riverside, timeoutMs = 20_000) {
  const started = await send('/api/encounterimports', as, csv, mapping);
  expect(started.statusCode, started.body).toBe(202);
  const { id } = started.json<{ id: string }>();
  await runEncounterImport(t.appDb, t.config, { importId: id, instanceId });
  return waitFor(async () => {
    const detail = (await get(`/api/encounterimports/${id}`, as)).json<EncounterImportDetail>();
    return detail.status === 'done' || detail.status === 'failed' ? detail : undefined;
  }, timeoutMs);
}

describe('previewing an encounter file', () => {
  it('answers the headers, the first rows, the row count and a mapping suggested from the header names', async () => {
    const response = await send('/api/encounterimports/preview', 'admin', sample);
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json<EncounterPreview>();
    expect(preview.headers).toEqual(header.split(','));
    expect(preview.rowCount).toBe(10);
    expect(preview.sampleRows[0]).toEqual([
      'EXT-1',
      '',
      '',
      '',
      '2024-03-05',
      'Ortiz, Daniela MD',
      'M54.16;M51.16',
      '64483',
      'V-1',
    ]);
    expect(preview.suggestedMapping).toEqual(mapping);
  });

  it('shows at most 20 rows of a longer file, and reads semicolon-separated files', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `EXT-1;2024-01-${String((i % 28) + 1).padStart(2, '0')};M54.16`);
    const response = await send(
      '/api/encounterimports/preview',
      'admin',
      ['Patient ID;Visit Date;Diagnosis', ...rows].join('\n'),
    );
    const preview = response.json<EncounterPreview>();
    expect(preview.sampleRows).toHaveLength(20);
    expect(preview.rowCount).toBe(30);
    expect(preview.suggestedMapping).toMatchObject({
      externalPatientId: 'Patient ID',
      visitDate: 'Visit Date',
      diagnosisCodes: 'Diagnosis',
    });
  });

  it('refuses a file that is not a CSV, a header without rows, and a request without a file (400)', async () => {
    const binary = await send('/api/encounterimports/preview', 'admin', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 1]));
    expect(binary.statusCode).toBe(400);
    expect(binary.json().fields).toEqual({ file: 'csvUnreadable' });
    const empty = await send('/api/encounterimports/preview', 'admin', `${header}\n`);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual({ file: 'csvEmpty' });
    const body = multipart([{ name: 'mapping', value: '{}' }]);
    const noFile = await t.app.inject({
      method: 'POST',
      url: '/api/encounterimports/preview',
      headers: { ...tokens.admin!.headers, ...body.headers },
      payload: body.payload,
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().fields).toEqual({ file: 'fileRequired' });
  });
});

describe('importing encounters', () => {
  it('imports good rows, reports each bad row, counts duplicates, clears the stored file and logs the import', async () => {
    const detail = await importFile(sample);
    expect(detail).toMatchObject({
      status: 'done',
      fileName: 'encounters.csv',
      totalRows: 10,
      processedRows: 10,
      importedRows: 2,
      duplicateRows: 2,
      errorRows: 6,
      createdByName: 'Alex Carter',
      failure: null,
    });
    expect(detail.errors).toEqual([
      { row: 4, field: 'visitDate', message: 'dateInvalid' },
      { row: 5, field: 'diagnosisCodes', message: 'visitCodeInvalid' },
      { row: 6, field: 'externalPatientId', message: 'importPatientNotFound' },
      // Another clinic's patient is not found either.
      { row: 7, field: 'externalPatientId', message: 'importPatientNotFound' },
      { row: 8, field: 'lastName', message: 'importPatientAmbiguous' },
      { row: 11, field: 'diagnosisCodes', message: 'importCodesMissing' },
    ]);

    const visits = await t.db.select().from(codedVisits).where(eq(codedVisits.importId, detail.id));
    const rosaVisit = visits.find((visit) => visit.patientId === rosa)!;
    expect(rosaVisit).toMatchObject({
      visitDate: '2024-03-05',
      providerId: doctorId,
      providerName: 'Daniela Ortiz',
      source: 'import',
      externalVisitId: 'V-1',
      dedupeKey: 'ext:V-1',
    });
    expect(rosaVisit.codes.sort()).toEqual(['64483', 'M51.16', 'M54.16']);
    const miguelVisit = visits.find((visit) => visit.patientId === miguel)!;
    // An unknown provider is kept by name; a diagnosis code exported without its dot gets it back.
    expect(miguelVisit).toMatchObject({
      visitDate: '2024-03-06',
      providerId: null,
      providerName: 'Dr. Someone Else',
      codes: ['M54.17'],
    });
    const codes = await t.db.select().from(codedVisitCodes).where(eq(codedVisitCodes.codedVisitId, rosaVisit.id));
    expect(codes.map((row) => [row.code, row.kind, row.patientId, row.visitDate]).sort()).toEqual([
      ['64483', 'procedure', rosa, '2024-03-05'],
      ['M51.16', 'diagnosis', rosa, '2024-03-05'],
      ['M54.16', 'diagnosis', rosa, '2024-03-05'],
    ]);

    const [stored] = await t.db.select().from(encounterImports).where(eq(encounterImports.id, detail.id));
    expect(stored!.content).toBeNull();
    const audit = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetType, 'encounterImport'), eq(activityLogs.targetId, detail.id)));
    expect(audit).toHaveLength(1);

    const log = (await get('/api/encounterimports', 'manager')).json<EncounterImportList>();
    expect(log.data[0]).toMatchObject({ id: detail.id, status: 'done', importedRows: 2 });

    // The same file again: every good row is already there.
    const again = await importFile(sample);
    expect(again).toMatchObject({ importedRows: 0, duplicateRows: 4, errorRows: 6 });
  });

  it('keeps the file encrypted while the import waits', async () => {
    // The job may claim and finish the import (which clears the file) before this test reads the row, so
    // the row is read as it was written: a trigger copies each stored file aside at insert.
    await t.db.execute(sql`create table test_stored_import_files (id uuid, content bytea)`);
    await t.db.execute(sql`
      create function test_keep_import_file() returns trigger language plpgsql security definer as $$
      begin insert into test_stored_import_files values (new.id, new.content); return new; end $$`);
    await t.db.execute(sql`
      create trigger test_keep_import_file after insert on encounter_imports
      for each row execute function test_keep_import_file()`);
    try {
      const csv = `${header}\nEXT-1,,,,2023-01-02,,M54.16,,`;
      const started = await send('/api/encounterimports', 'admin', csv, mapping);
      expect(started.statusCode, started.body).toBe(202);
      const { id } = started.json<{ id: string }>();
      const stored = await t.db.select().from(storedFiles).where(eq(storedFiles.id, id));
      expect(stored).toHaveLength(1);
      const content = stored[0]!.content!;
      expect(content.toString('utf8')).not.toContain('EXT-1');
      // Sealed for this clinic and this import: it opens with them, and gives back the file as sent.
      expect(decryptFile(t.config.appSecret, riverside, `encounter-import:${id}`, content).toString('utf8')).toBe(csv);
      await runEncounterImport(t.appDb, t.config, { importId: id, instanceId: riverside });
      // Once the import has run (here or in the job worker), the file is gone.
      const done = await waitFor(async () => {
        const [row] = await t.db.select().from(encounterImports).where(eq(encounterImports.id, id));
        return row?.status === 'done' ? row : undefined;
      });
      expect(done.content).toBeNull();
    } finally {
      await t.db.execute(sql`drop trigger test_keep_import_file on encounter_imports`);
      await t.db.execute(sql`drop function test_keep_import_file()`);
      await t.db.execute(sql`drop table test_stored_import_files`);
    }
  });

  it('answers 400 for a mapping without a visit date or a way to find the patient, or naming a column not in the file', async () => {
    const noDate = await send('/api/encounterimports', 'admin', sample, {
      ...mapping,
      visitDate: null,
      externalPatientId: null,
      firstName: null,
    });
    expect(noDate.statusCode).toBe(400);
    expect(noDate.json().fields).toEqual({ 'mapping.visitDate': 'required', 'mapping.firstName': 'required' });
    const noCodes = await send('/api/encounterimports', 'admin', sample, {
      ...mapping,
      diagnosisCodes: null,
      procedureCodes: null,
    });
    expect(noCodes.json().fields).toEqual({ 'mapping.diagnosisCodes': 'required' });
    const missing = await send('/api/encounterimports', 'admin', sample, { ...mapping, provider: 'Doctor' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({ 'mapping.provider': 'importColumnMissing' });
    const notJson = await send('/api/encounterimports', 'admin', sample, 'not json');
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().fields).toEqual({ mapping: 'required' });
    const none = await t.db.select().from(encounterImports).where(eq(encounterImports.instanceId, riverside));
    expect(none.every((row) => row.totalRows !== 0)).toBe(true);
  });

  it("gives another clinic's admin 404 for this clinic's import and leaves it out of their log", async () => {
    const [row] = await t.db.select().from(encounterImports).where(eq(encounterImports.instanceId, riverside)).limit(1);
    expect((await get(`/api/encounterimports/${row!.id}`, 'admin2')).statusCode).toBe(404);
    const theirs = (await get('/api/encounterimports', 'admin2')).json<EncounterImportList>();
    expect(theirs.data.map((item) => item.id)).not.toContain(row!.id);
  });

  it("imports into the uploader's clinic only: another clinic's patients are never matched", async () => {
    const detail = await importFile(
      `${header}\nEXT-L,,,,2024-05-01,,M54.16,,\nEXT-1,,,,2024-05-01,,M54.16,,`,
      'admin2',
      lakeside,
    );
    expect(detail).toMatchObject({ importedRows: 1, errorRows: 1 });
    expect(detail.errors).toEqual([{ row: 3, field: 'externalPatientId', message: 'importPatientNotFound' }]);
  });

  it('refuses Doctors and Staff (403)', async () => {
    for (const who of ['doctor', 'staff']) {
      expect((await get('/api/encounterimports', who)).statusCode).toBe(403);
      expect((await send('/api/encounterimports/preview', who, sample)).statusCode).toBe(403);
      expect((await send('/api/encounterimports', who, sample, mapping)).statusCode).toBe(403);
    }
  });

  it('refuses with featureOff (403) in a clinic that uses neither code pulls nor campaigns', async () => {
    await setInstanceSetting(t.db, lakeside, 'useCodePull', 'false');
    try {
      for (const response of [
        await get('/api/encounterimports', 'admin2'),
        await send('/api/encounterimports', 'admin2', sample, mapping),
      ]) {
        expect(response.statusCode).toBe(403);
        expect(response.json().messageKey).toBe('featureOff');
      }
    } finally {
      await setInstanceSetting(t.db, lakeside, 'useCodePull', 'true');
    }
  });
});

describe('a large file', () => {
  const ROWS = Number(process.env.ENCOUNTER_IMPORT_ROWS ?? 10_000);
  it(`imports ${ROWS.toLocaleString('en-US')} rows in batches of 1,000 to the end`, async () => {
    const people = 200;
    await t.db.insert(patients).values(
      Array.from({ length: people }, (_, i) => ({
        instanceId: riverside,
        firstName: 'Bulk',
        lastName: `Patient${i}`,
        dateOfBirth: '1970-01-01',
        externalId: `BULK-${i}`,
      })),
    );
    const diagnoses = ['M54.16', 'M54.17', 'M51.16', 'M47.816', 'G89.4'];
    const lines = [header];
    for (let i = 0; i < ROWS; i++) {
      const day = new Date(Date.UTC(2020, 0, 1) + (i % 1500) * 86_400_000).toISOString().slice(0, 10);
      lines.push(`BULK-${i % people},,,,${day},Daniela Ortiz,${diagnoses[i % 5]}|${diagnoses[(i + 2) % 5]},64483,BULK-V${i}`);
    }
    const started = Date.now();
    const detail = await importFile(lines.join('\n'), 'admin', riverside, 900_000);
    const seconds = (Date.now() - started) / 1000;
    console.info(`encounter import: ${ROWS} rows in ${seconds.toFixed(1)} s (${t.kind})`);
    expect(detail).toMatchObject({ status: 'done', totalRows: ROWS, processedRows: ROWS, importedRows: ROWS, errorRows: 0 });
  }, 900_000);
});
