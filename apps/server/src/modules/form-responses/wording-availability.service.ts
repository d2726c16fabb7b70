import { eq } from 'drizzle-orm';
import type { InstrumentAvailability } from '@pathwell/contracts/form-responses';
import type { FormLanguage } from '@pathwell/contracts/forms';
import {
  formCodes,
  getInstrument,
  isFormCode,
  wordingAvailability,
  type FormCode,
  type WordingAvailability,
} from '@pathwell/instruments';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { instrumentWordings } from '../../db/schema';
import { AppError } from '../../lib/app-error';

interface ClinicWording extends WordingAvailability {
  /** When the clinic imported the licensed wording; null for a form that ships its own. */
  importedAt: Date | null;
}

/**
 * Every outcome form's availability for one clinic (issue #24 §1, decision 0061): one read of the
 * clinic's imported wordings, answered by the instruments package's `wordingAvailability`.
 */
async function clinicWordings(db: Database, instanceId: string): Promise<Map<FormCode, ClinicWording>> {
  const rows = await db
    .select({
      formCode: instrumentWordings.formCode,
      definition: instrumentWordings.definition,
      importedAt: instrumentWordings.importedAt,
    })
    .from(instrumentWordings)
    .where(eq(instrumentWordings.instanceId, instanceId));
  const imported = new Map(rows.map((row) => [row.formCode, row]));
  return new Map(
    formCodes.map((code) => {
      const row = imported.get(code);
      const definition = getInstrument(code);
      const languages = (row?.definition as { languages?: FormLanguage[] } | undefined)?.languages ?? ['en'];
      const availability = wordingAvailability(definition, row ? { languages } : null);
      return [code, { ...availability, importedAt: definition.wording === 'licensed' ? (row?.importedAt ?? null) : null }];
    }),
  );
}

/** The given outcome forms this clinic cannot give to patients (their licensed wording is not imported). */
export async function formsWithoutWording(db: Database, instanceId: string, codes: readonly number[]): Promise<number[]> {
  const wanted = codes.filter(isFormCode);
  if (wanted.length === 0) return [];
  const wordings = await clinicWordings(db, instanceId);
  return wanted.filter((code) => !wordings.get(code)!.available);
}

/**
 * Refuses to send, plan or assign a form whose wording the clinic does not have: 400
 * `formWordingNotLoaded` on the field that named it (for a list, `field.index`).
 */
export async function requireFormsWorded(
  db: Database,
  instanceId: string,
  codes: readonly (number | null | undefined)[],
  field: string | ((index: number) => string),
): Promise<void> {
  const missing = new Set(
    await formsWithoutWording(
      db,
      instanceId,
      codes.filter((code): code is number => code != null),
    ),
  );
  if (missing.size === 0) return;
  const fields: Record<string, 'formWordingNotLoaded'> = {};
  codes.forEach((code, index) => {
    if (code != null && missing.has(code)) fields[typeof field === 'string' ? field : field(index)] = 'formWordingNotLoaded';
  });
  throw new AppError('VALIDATION', 'formWordingNotLoaded', { fields });
}

/** Every outcome form with whether this clinic can give it: what the staff pickers disable and explain. */
export async function instrumentAvailability(ctx: SignedInContext): Promise<InstrumentAvailability[]> {
  const wordings = await clinicWordings(ctx.db, ctx.instanceId);
  return [...wordings].map(([formCode, { available, languages }]) => ({ formCode, available, languages }));
}
