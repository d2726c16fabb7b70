import { parse } from 'csv-parse';
import { and, eq, sql } from 'drizzle-orm';
import {
  ENCOUNTER_IMPORT_MAX_ERRORS,
  encounterFields,
  type EncounterField,
  type EncounterMapping,
  type EncounterRowError,
} from '@pathwell/contracts/encounter-imports';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { encounterImports } from '../../db/schema';
import { withClinics } from '../../db/tenancy';
import { decryptFile } from '../../lib/settings-crypto';
import { insertCodedVisits, type CodedVisitValues } from './coded-visits.service';
import { csvOptions, headerNames, readRow, type RowCandidate } from './encounter-csv';
import { contentKey, type EncounterImportJob } from './encounter-imports.service';
import { clinicProviders, dedupeKeyOf, matchPatients } from './encounter-matching';

/*
 * The `encounter-import` job (decision 0050): it reads the stored file in batches of BATCH_ROWS rows, each
 * batch one transaction that inserts its visits and moves the import's counters, so the web's progress
 * bar follows the committed work and a job that dies half-way resumes after the last committed batch.
 */

const BATCH_ROWS = 1000;
/** A running import whose counters have not moved for this long was abandoned (its process died). */
const STALE_RUNNING = "interval '10 minutes'";

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
