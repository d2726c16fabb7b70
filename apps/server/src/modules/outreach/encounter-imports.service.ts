import { createHash, randomUUID } from 'node:crypto';
import { parse, type Options as CsvOptions } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { ValidationMessageKey } from '@pathwell/contracts/messages';
import {
  ENCOUNTER_IMPORT_MAX_ERRORS,
  ENCOUNTER_PREVIEW_ROWS,
  encounterFields,
  encounterMappingSchema,
  type EncounterField,
  type EncounterImportDetail,
  type EncounterImportList,
  type EncounterImportSummary,
  type EncounterMapping,
  type EncounterPreview,
  type EncounterRowError,
} from '@pathwell/contracts/encounter-imports';
import { visitCodeKindOf, type VisitCodeKind } from '@pathwell/contracts/outreach';
import type { Config } from '../../config';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { encounterImports, users } from '../../db/schema';
import { withClinics } from '../../db/tenancy';
import { jobQueues } from '../../jobs/job-queue';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { decryptFile, encryptFile } from '../../lib/settings-crypto';
import { insertCodedVisits, type CodedVisitValues } from './coded-visits.service';
import { requireOutreach } from './outreach-access';
import { rowsOf } from '../../lib/sql-rows';

/*
 * The encounter CSV import (issue #15 §1, decision 0050). The upload is read once to check it and count
 * its rows, stored encrypted, and handed to a job; the job reads it in batches of BATCH_ROWS rows, each
 * batch one transaction that inserts its visits and moves the import's counters, so the web's progress
 * bar follows the committed work and a job that dies half-way resumes after the last committed batch.
 */

export const BATCH_ROWS = 1000;
/** A running import whose counters have not moved for this long was abandoned (its process died). */
const STALE_RUNNING = "interval '10 minutes'";

export interface EncounterUpload {
  fileName: string;
  content: Buffer;
}

export interface EncounterImportJob {
  importId: string;
  instanceId: string;
}


// ——— Reading the file ———

const unreadable = () => new AppError('VALIDATION', 'csvUnreadable', { fields: { file: 'csvUnreadable' } });

/** Comma, semicolon or tab, whichever the header line uses most (spreadsheets export all three). */
function delimiterOf(content: Buffer): string {
  const end = content.indexOf(10);
  const firstLine = content.subarray(0, end === -1 ? Math.min(content.length, 64 * 1024) : end).toString('utf8');
  const counts = [',', ';', '\t'].map((delimiter) => [delimiter, firstLine.split(delimiter).length] as const);
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

const csvOptions = (content: Buffer): CsvOptions => ({
  bom: true,
  delimiter: delimiterOf(content),
  skip_empty_lines: true,
  skip_records_with_empty_values: true,
  relax_column_count: true,
  relax_quotes: true,
  trim: true,
});

/** Header names as the mapping uses them: a blank header becomes "Column N". */
const headerNames = (record: string[]) => record.map((name, index) => name || `Column ${index + 1}`);

/** The whole file parsed (the upload is at most 20 MB); refuses what is not a CSV with a header and rows. */
function readCsv(content: Buffer): { headers: string[]; rows: string[][] } {
  if (content.length === 0 || content.subarray(0, 8192).includes(0)) throw unreadable();
  let records: string[][];
  try {
    records = parseSync(content, csvOptions(content)) as string[][];
  } catch {
    throw unreadable();
  }
  const [header, ...rows] = records;
  if (!header || header.every((name) => !name)) throw unreadable();
  if (rows.length === 0) throw new AppError('VALIDATION', 'csvEmpty', { fields: { file: 'csvEmpty' } });
  return { headers: headerNames(header), rows };
}

/** Header spellings of practice-management and EHR exports, compared without case, spaces or punctuation. */
const headerSynonyms: Record<EncounterField, string[]> = {
  externalPatientId: [
    'externalpatientid',
    'patientid',
    'mrn',
    'medicalrecordnumber',
    'chartnumber',
    'chartno',
    'accountnumber',
    'accountno',
    'acctno',
    'patientaccount',
    'patientnumber',
    'personid',
  ],
  firstName: ['firstname', 'patientfirstname', 'fname', 'first', 'givenname'],
  lastName: ['lastname', 'patientlastname', 'lname', 'last', 'surname', 'familyname'],
  dateOfBirth: ['dateofbirth', 'dob', 'birthdate', 'patientdob', 'birthday', 'patientdateofbirth'],
  visitDate: ['visitdate', 'dateofservice', 'dos', 'servicedate', 'encounterdate', 'appointmentdate', 'date'],
  provider: ['provider', 'providername', 'renderingprovider', 'doctor', 'physician', 'renderingphysician', 'attending'],
  diagnosisCodes: [
    'diagnosiscodes',
    'diagnosiscode',
    'diagnosis',
    'diagnoses',
    'dx',
    'dxcodes',
    'icd10',
    'icd10codes',
    'icd',
    'icdcodes',
  ],
  procedureCodes: ['procedurecodes', 'procedurecode', 'procedures', 'procedure', 'cpt', 'cptcodes', 'cptcode', 'hcpcs'],
  externalVisitId: ['externalvisitid', 'visitid', 'encounterid', 'encounternumber', 'claimid', 'appointmentid'],
};

const squash = (header: string) =>
  header
    .normalize('NFD')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** The column each field most likely comes from: an exact spelling first, then a header that contains one. */
export function suggestMapping(headers: readonly string[]): Record<EncounterField, string | null> {
  const squashed = headers.map(squash);
  const used = new Set<number>();
  const mapping = Object.fromEntries(encounterFields.map((field) => [field, null])) as Record<EncounterField, string | null>;
  const pass = (matches: (header: string, synonym: string) => boolean) => {
    for (const field of encounterFields) {
      if (mapping[field]) continue;
      for (const synonym of headerSynonyms[field]) {
        const index = squashed.findIndex((header, at) => !used.has(at) && matches(header, synonym));
        if (index >= 0) {
          mapping[field] = headers[index]!;
          used.add(index);
          break;
        }
      }
    }
  };
  pass((header, synonym) => header === synonym);
  // "Primary Dx Codes", "Patient MRN": long enough spellings inside a longer header.
  pass((header, synonym) => synonym.length >= 3 && !['date', 'first', 'last'].includes(synonym) && header.includes(synonym));
  return mapping;
}

export async function previewEncounters(
  ctx: SignedInContext,
  readUpload: () => Promise<EncounterUpload>,
): Promise<EncounterPreview> {
  await requireOutreach(ctx);
  const upload = await readUpload();
  const { headers, rows } = readCsv(upload.content);
  return {
    fileName: upload.fileName,
    headers,
    sampleRows: rows.slice(0, ENCOUNTER_PREVIEW_ROWS).map((row) => headers.map((_, index) => row[index] ?? '')),
    suggestedMapping: suggestMapping(headers),
    rowCount: rows.length,
  };
}

// ——— Starting an import ———

function parseMapping(text: string | undefined, headers: readonly string[]): EncounterMapping {
  let json: unknown;
  try {
    json = JSON.parse(text ?? '');
  } catch {
    throw new AppError('VALIDATION', 'requestInvalid', { fields: { mapping: 'required' } });
  }
  const parsed = encounterMappingSchema.safeParse(json);
  if (!parsed.success) {
    const fields = Object.fromEntries(
      parsed.error.issues.map((issue) => [`mapping.${issue.path.join('.')}`, issue.message as ValidationMessageKey]),
    );
    throw new AppError('VALIDATION', 'requestInvalid', { fields });
  }
  const missing = encounterFields.filter((field) => parsed.data[field] && !headers.includes(parsed.data[field]));
  if (missing.length > 0) {
    throw new AppError('VALIDATION', 'importColumnMissing', {
      fields: Object.fromEntries(missing.map((field) => [`mapping.${field}`, 'importColumnMissing' as const])),
    });
  }
  return parsed.data;
}

const contentKey = (importId: string) => `encounter-import:${importId}`;

/** Checks the file and the mapping, stores the file encrypted and queues the import job. */
export async function startEncounterImport(
  ctx: SignedInContext,
  readUpload: () => Promise<EncounterUpload & { mapping?: string }>,
): Promise<{ id: string }> {
  await requireOutreach(ctx);
  const upload = await readUpload();
  const { headers, rows } = readCsv(upload.content);
  const mapping = parseMapping(upload.mapping, headers);
  const id = randomUUID();
  await ctx.db.insert(encounterImports).values({
    id,
    instanceId: ctx.instanceId,
    fileName: upload.fileName.slice(0, 255) || 'encounters.csv',
    mapping,
    totalRows: rows.length,
    content: encryptFile(ctx.config.appSecret, ctx.instanceId, contentKey(id), upload.content),
    createdBy: ctx.actor.userId,
  });
  await ctx.jobs.enqueue(ctx.db, jobQueues.encounterImport, {
    importId: id,
    instanceId: ctx.instanceId,
  } satisfies EncounterImportJob);
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Appointments', 'Created', {
      type: 'encounterImport',
      id,
      description: `Encounter import of ${rows.length} rows started`,
    }),
  );
  return { id };
}

// ——— The log ———

const summaryColumns = {
  id: encounterImports.id,
  fileName: encounterImports.fileName,
  status: encounterImports.status,
  totalRows: encounterImports.totalRows,
  processedRows: encounterImports.processedRows,
  importedRows: encounterImports.importedRows,
  duplicateRows: encounterImports.duplicateRows,
  errorRows: encounterImports.errorRows,
  createdAt: encounterImports.createdAt,
  finishedAt: encounterImports.finishedAt,
  createdByFirst: users.firstName,
  createdByLast: users.lastName,
};

type SummaryRow = {
  createdAt: Date;
  finishedAt: Date | null;
  createdByFirst: string | null;
  createdByLast: string | null;
} & Omit<EncounterImportSummary, 'createdAt' | 'finishedAt' | 'createdByName'>;

const toSummary = ({ createdByFirst, createdByLast, createdAt, finishedAt, ...row }: SummaryRow): EncounterImportSummary => ({
  ...row,
  createdByName: createdByFirst ? [createdByFirst, createdByLast].filter(Boolean).join(' ') : null,
  createdAt: createdAt.toISOString(),
  finishedAt: finishedAt?.toISOString() ?? null,
});

export async function listEncounterImports(ctx: SignedInContext): Promise<EncounterImportList> {
  await requireOutreach(ctx);
  const rows = await ctx.db
    .select(summaryColumns)
    .from(encounterImports)
    .leftJoin(users, eq(users.id, encounterImports.createdBy))
    .where(eq(encounterImports.instanceId, ctx.instanceId))
    .orderBy(desc(encounterImports.createdAt), desc(encounterImports.id))
    .limit(100);
  return { data: rows.map(toSummary) };
}

export async function getEncounterImport(ctx: SignedInContext, id: string): Promise<EncounterImportDetail> {
  await requireOutreach(ctx);
  const [row] = await ctx.db
    .select({
      ...summaryColumns,
      mapping: encounterImports.mapping,
      errors: encounterImports.errors,
      failure: encounterImports.failure,
    })
    .from(encounterImports)
    .leftJoin(users, eq(users.id, encounterImports.createdBy))
    .where(and(eq(encounterImports.instanceId, ctx.instanceId), eq(encounterImports.id, id)));
  if (!row) throw notFound('encounterImportNotFound');
  const { mapping, errors, failure, ...summary } = row;
  return { ...toSummary(summary), mapping, errors, failure };
}

// ——— One row ———

/** YYYY-MM-DD, or the US M/D/YYYY of most exports; a time after the date is ignored. */
export function parseCsvDate(value: string): string | null {
  const text = value.trim();
  let year: number, month: number, day: number;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(text);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: .*)?$/.exec(text);
  if (iso) [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (us) [year, month, day] = [Number(us[3]), Number(us[1]), Number(us[2])];
  else return null;
  if (year < 1900 || year > 2100) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/**
 * The codes of one cell, split on `, ; |` and spaces. Diagnosis codes exported without their dot
 * (M5416) get it back (M54.16). Every code must have its column's kind.
 */
export function parseCodeCell(value: string, kind: VisitCodeKind): { codes: string[] } | { invalid: true } {
  const codes: string[] = [];
  for (const raw of value.split(/[,;|\s]+/)) {
    let code = raw.trim().toUpperCase();
    if (!code) continue;
    if (kind === 'diagnosis' && /^[A-Z][0-9][0-9A-Z][0-9A-Z]{1,4}$/.test(code)) code = `${code.slice(0, 3)}.${code.slice(3)}`;
    if (code.length > 8 || visitCodeKindOf(code) !== kind) return { invalid: true };
    codes.push(code);
  }
  return { codes };
}

interface RowCandidate {
  row: number;
  externalPatientId: string | null;
  /** Lower-cased first and last name and the date of birth, when the patient is named that way. */
  name: { first: string; last: string; dateOfBirth: string } | null;
  visitDate: string;
  provider: string | null;
  externalVisitId: string | null;
  codes: string[];
}

type RowOutcome = { candidate: RowCandidate } | { error: EncounterRowError };

function readRow(record: string[], row: number, columns: Partial<Record<EncounterField, number>>): RowOutcome {
  const cell = (field: EncounterField) => {
    const index = columns[field];
    return index === undefined ? '' : (record[index] ?? '').trim();
  };
  const fail = (field: EncounterField, message: ValidationMessageKey): RowOutcome => ({ error: { row, field, message } });

  const externalPatientId = cell('externalPatientId') || null;
  let name: RowCandidate['name'] = null;
  if (!externalPatientId) {
    for (const field of ['firstName', 'lastName', 'dateOfBirth'] as const) {
      if (!cell(field)) return fail(field, 'required');
    }
    const dateOfBirth = parseCsvDate(cell('dateOfBirth'));
    if (!dateOfBirth) return fail('dateOfBirth', 'dateInvalid');
    name = { first: cell('firstName').toLowerCase(), last: cell('lastName').toLowerCase(), dateOfBirth };
  }
  if (!cell('visitDate')) return fail('visitDate', 'required');
  const visitDate = parseCsvDate(cell('visitDate'));
  if (!visitDate) return fail('visitDate', 'dateInvalid');
  const codes: string[] = [];
  for (const [field, kind] of [
    ['diagnosisCodes', 'diagnosis'],
    ['procedureCodes', 'procedure'],
  ] as const) {
    const parsed = parseCodeCell(cell(field), kind);
    if ('invalid' in parsed) return fail(field, 'visitCodeInvalid');
    codes.push(...parsed.codes);
  }
  if (codes.length === 0)
    return fail(columns.diagnosisCodes !== undefined ? 'diagnosisCodes' : 'procedureCodes', 'importCodesMissing');
  const externalVisitId = cell('externalVisitId').slice(0, 200) || null;
  return {
    candidate: {
      row,
      externalPatientId: externalPatientId?.slice(0, 200) ?? null,
      name,
      visitDate,
      provider: cell('provider').slice(0, 200) || null,
      externalVisitId,
      codes: [...new Set(codes)],
    },
  };
}

// ——— Matching patients and providers ———

/** Patient ids for the batch's external ids and names; a name with two patients maps to `ambiguous`. */
async function matchPatients(db: Database, instanceId: string, candidates: readonly RowCandidate[]) {
  const externalIds = [...new Set(candidates.flatMap((c) => (c.externalPatientId ? [c.externalPatientId] : [])))];
  const nameKey = (name: NonNullable<RowCandidate['name']>) => `${name.last}\u0000${name.first}\u0000${name.dateOfBirth}`;
  const names = [...new Map(candidates.flatMap((c) => (c.name ? [[nameKey(c.name), c.name] as const] : []))).values()];
  const byExternal = new Map<string, string | 'ambiguous'>();
  const byName = new Map<string, string | 'ambiguous'>();
  const remember = (map: Map<string, string | 'ambiguous'>, key: string, id: string) =>
    map.set(key, map.has(key) && map.get(key) !== id ? 'ambiguous' : id);
  if (externalIds.length > 0) {
    const rows = await rowsOf(
      db,
      sql`select p.id, p.external_id
            from patients p
           where p.instance_id = ${instanceId} and p.deleted_at is null
             and p.external_id in (select jsonb_array_elements_text(${JSON.stringify(externalIds)}::jsonb))`,
    );
    for (const row of rows) remember(byExternal, String(row.external_id), String(row.id));
  }
  if (names.length > 0) {
    const rows = await rowsOf(
      db,
      sql`select p.id, k.l, k.f, to_char(k.d, 'YYYY-MM-DD') as d
            from jsonb_to_recordset(${JSON.stringify(names.map((n) => ({ l: n.last, f: n.first, d: n.dateOfBirth })))}::jsonb)
                 as k(l text, f text, d date)
            join patients p
              on p.instance_id = ${instanceId} and p.deleted_at is null
             and lower(p.last_name) = k.l and p.date_of_birth = k.d and lower(p.first_name) = k.f`,
    );
    for (const row of rows) remember(byName, `${String(row.l)}\u0000${String(row.f)}\u0000${String(row.d)}`, String(row.id));
  }
  return (candidate: RowCandidate) =>
    candidate.externalPatientId
      ? byExternal.get(candidate.externalPatientId)
      : candidate.name
        ? byName.get(nameKey(candidate.name))
        : undefined;
}

/** Compares provider names without case, accents, punctuation, titles or word order ("Ortiz, Daniela MD"). */
const providerKey = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9@.\s]/g, ' ')
    .replace(/\./g, ' ')
    .split(/\s+/)
    .filter((word) => word && !['dr', 'md', 'do', 'np', 'pa', 'pac', 'dnp', 'crna', 'phd'].includes(word))
    .sort()
    .join(' ');

/** The clinic's staff by email and by name, to turn a provider cell into a user where one matches. */
async function clinicProviders(db: Database, instanceId: string) {
  const rows = await rowsOf(
    db,
    sql`select u.id, u.email, u.first_name, u.last_name
          from users u
         where u.deleted_at is null
           and (u.instance_id = ${instanceId}
                or exists (select 1 from user_instances m where m.user_id = u.id and m.instance_id = ${instanceId}))`,
  );
  const byKey = new Map<string, { id: string; name: string }>();
  for (const row of rows) {
    const user = { id: String(row.id), name: [row.first_name, row.last_name].filter(Boolean).join(' ') };
    byKey.set(String(row.email).toLowerCase(), user);
    byKey.set(providerKey(user.name), user);
  }
  return (cell: string | null) => {
    if (!cell) return { providerId: null, providerName: null };
    const user = byKey.get(cell.toLowerCase()) ?? byKey.get(providerKey(cell));
    return user ? { providerId: user.id, providerName: user.name } : { providerId: null, providerName: cell };
  };
}

/** The same encounter twice is one visit: by its external id, else by patient, date, provider and codes. */
function dedupeKeyOf(
  patientId: string,
  candidate: RowCandidate,
  provider: { providerId: string | null; providerName: string | null },
) {
  if (candidate.externalVisitId) return `ext:${candidate.externalVisitId}`;
  const who = provider.providerId ?? (provider.providerName ? providerKey(provider.providerName) : '');
  const digest = createHash('sha256')
    .update([patientId, candidate.visitDate, who, ...[...candidate.codes].sort()].join('|'))
    .digest('base64url');
  return `enc:${digest}`;
}

// ——— The job ———

interface Progress {
  processedRows: number;
  importedRows: number;
  duplicateRows: number;
  errorRows: number;
  errors: EncounterRowError[];
}

/** Takes the import for this run: a queued one, or a running one abandoned by a process that died. */
async function claim(root: Database, job: EncounterImportJob) {
  return withClinics(root, [job.instanceId], async (tx) => {
    const [row] = await tx
      .update(encounterImports)
      .set({ status: 'running', startedAt: sql`coalesce(${encounterImports.startedAt}, now())`, updatedAt: new Date() })
      .where(
        and(
          eq(encounterImports.instanceId, job.instanceId),
          eq(encounterImports.id, job.importId),
          sql`(${encounterImports.status} = 'queued' or (${encounterImports.status} = 'running' and ${encounterImports.updatedAt} < now() - ${sql.raw(STALE_RUNNING)}))`,
        ),
      )
      .returning();
    return row;
  });
}

async function finish(root: Database, job: EncounterImportJob, status: 'done' | 'failed', failure: string | null) {
  await withClinics(root, [job.instanceId], (tx) =>
    tx
      .update(encounterImports)
      .set({ status, failure, content: null, finishedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(encounterImports.instanceId, job.instanceId), eq(encounterImports.id, job.importId))),
  );
}

/** The stored file no longer decrypts (APP_SECRET changed) or no longer parses: not a database failure. */
const isFileError = (error: unknown) => {
  const code = (error as { code?: unknown }).code;
  return (
    (typeof code === 'string' && code.startsWith('CSV_')) ||
    (error instanceof Error && /unable to authenticate data|not encrypted|has no file/i.test(error.message))
  );
};

/**
 * Runs one encounter import to the end (the `encounter-import` job). A row that cannot be imported
 * becomes a row error; the file itself failing (it no longer decrypts or parses) fails the import. The
 * job never throws: a retry would only count the rows already imported as duplicates.
 */
export async function runEncounterImport(
  root: Database,
  config: Pick<Config, 'appSecret'>,
  job: EncounterImportJob,
): Promise<void> {
  const claimed = await claim(root, job);
  if (!claimed) return;
  try {
    if (!claimed.content) throw new Error('the import has no file');
    const content = decryptFile(config.appSecret, job.instanceId, contentKey(job.importId), claimed.content);
    const mapping = claimed.mapping as EncounterMapping;
    const progress: Progress = {
      processedRows: claimed.processedRows,
      importedRows: claimed.importedRows,
      duplicateRows: claimed.duplicateRows,
      errorRows: claimed.errorRows,
      errors: claimed.errors,
    };
    const provider = await withClinics(root, [job.instanceId], (tx) => clinicProviders(tx, job.instanceId));
    const seen = new Set<string>();
    let columns: Partial<Record<EncounterField, number>> | null = null;
    let recordNumber = 0;
    let batch: { record: string[]; row: number }[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const rows = batch;
      batch = [];
      await withClinics(root, [job.instanceId], (tx) => importBatch(tx, job, rows, columns!, provider, seen, progress));
    };
    for await (const record of parse(content, csvOptions(content)) as AsyncIterable<string[]>) {
      recordNumber += 1;
      if (recordNumber === 1) {
        const headers = headerNames(record);
        columns = Object.fromEntries(
          encounterFields.flatMap((field) => (mapping[field] ? [[field, headers.indexOf(mapping[field])]] : [])),
        ) as Partial<Record<EncounterField, number>>;
        continue;
      }
      // Rows before `processedRows` were committed by an earlier run of this import.
      if (recordNumber - 1 <= claimed.processedRows) continue;
      batch.push({ record, row: recordNumber });
      if (batch.length === BATCH_ROWS) await flush();
    }
    await flush();
    await finish(root, job, 'done', null);
  } catch (error) {
    const failure = isFileError(error) ? 'csvUnreadable' : 'internalError';
    console.error(`encounter import ${job.importId} failed: ${error instanceof Error ? error.message : String(error)}`);
    await finish(root, job, 'failed', failure);
  }
}

async function importBatch(
  tx: Database,
  job: EncounterImportJob,
  rows: readonly { record: string[]; row: number }[],
  columns: Partial<Record<EncounterField, number>>,
  providerOf: Awaited<ReturnType<typeof clinicProviders>>,
  seen: Set<string>,
  progress: Progress,
): Promise<void> {
  const errors: EncounterRowError[] = [];
  const candidates: RowCandidate[] = [];
  for (const { record, row } of rows) {
    const outcome = readRow(record, row, columns);
    if ('error' in outcome) errors.push(outcome.error);
    else candidates.push(outcome.candidate);
  }
  const patientOf = await matchPatients(tx, job.instanceId, candidates);
  const visits: CodedVisitValues[] = [];
  let duplicates = 0;
  for (const candidate of candidates) {
    const patientId = patientOf(candidate);
    if (!patientId || patientId === 'ambiguous') {
      errors.push({
        row: candidate.row,
        field: candidate.externalPatientId ? 'externalPatientId' : 'lastName',
        message: patientId === 'ambiguous' ? 'importPatientAmbiguous' : 'importPatientNotFound',
      });
      continue;
    }
    const provider = providerOf(candidate.provider);
    const dedupeKey = dedupeKeyOf(patientId, candidate, provider);
    if (seen.has(dedupeKey)) {
      duplicates += 1;
      continue;
    }
    seen.add(dedupeKey);
    visits.push({
      instanceId: job.instanceId,
      patientId,
      visitDate: candidate.visitDate,
      ...provider,
      source: 'import',
      importId: job.importId,
      externalVisitId: candidate.externalVisitId,
      dedupeKey,
      codes: candidate.codes,
    });
  }
  const inserted = await insertCodedVisits(tx, visits);
  progress.processedRows += rows.length;
  progress.importedRows += inserted.size;
  progress.duplicateRows += duplicates + visits.length - inserted.size;
  progress.errorRows += errors.length;
  const room = ENCOUNTER_IMPORT_MAX_ERRORS - progress.errors.length;
  if (room > 0) progress.errors.push(...errors.sort((a, b) => a.row - b.row).slice(0, room));
  await tx
    .update(encounterImports)
    .set({
      processedRows: progress.processedRows,
      importedRows: progress.importedRows,
      duplicateRows: progress.duplicateRows,
      errorRows: progress.errorRows,
      errors: progress.errors,
      updatedAt: new Date(),
    })
    .where(and(eq(encounterImports.instanceId, job.instanceId), eq(encounterImports.id, job.importId)));
}
