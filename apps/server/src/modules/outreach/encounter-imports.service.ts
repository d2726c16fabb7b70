import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { ValidationMessageKey } from '@pathwell/contracts/messages';
import {
  ENCOUNTER_PREVIEW_ROWS,
  encounterFields,
  encounterMappingSchema,
  type EncounterImportDetail,
  type EncounterImportList,
  type EncounterImportSummary,
  type EncounterMapping,
  type EncounterPreview,
} from '@pathwell/contracts/encounter-imports';
import type { SignedInContext } from '../../context';
import { encounterImports, users } from '../../db/schema';
import { jobQueues } from '../../jobs/job-queue';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { encryptFile } from '../../lib/settings-crypto';
import { readCsv, suggestMapping } from './encounter-csv';
import { requireOutreach } from './outreach-access';

/*
 * The encounter CSV import (issue #15 §1, decision 0050). The upload is read once to check it and count
 * its rows, stored encrypted, and handed to a job (encounter-import-job.ts) that imports it in batches.
 */

export interface EncounterUpload {
  fileName: string;
  content: Buffer;
}

export interface EncounterImportJob {
  importId: string;
  instanceId: string;
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

export const contentKey = (importId: string) => `encounter-import:${importId}`;

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
