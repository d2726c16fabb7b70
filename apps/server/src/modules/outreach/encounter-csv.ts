import { type Options as CsvOptions } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import type { ValidationMessageKey } from '@pathwell/contracts/messages';
import { encounterFields, type EncounterField, type EncounterRowError } from '@pathwell/contracts/encounter-imports';
import { visitCodeKindOf, type VisitCodeKind } from '@pathwell/contracts/outreach';
import { AppError } from '../../lib/app-error';

/** Reading an encounter CSV (decision 0050): the file, its header and the columns' likely fields, one row. */

const unreadable = () => new AppError('VALIDATION', 'csvUnreadable', { fields: { file: 'csvUnreadable' } });

/** Comma, semicolon or tab, whichever the header line uses most (spreadsheets export all three). */
function delimiterOf(content: Buffer): string {
  const end = content.indexOf(10);
  const firstLine = content.subarray(0, end === -1 ? Math.min(content.length, 64 * 1024) : end).toString('utf8');
  const counts = [',', ';', '\t'].map((delimiter) => [delimiter, firstLine.split(delimiter).length] as const);
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

export const csvOptions = (content: Buffer): CsvOptions => ({
  bom: true,
  delimiter: delimiterOf(content),
  skip_empty_lines: true,
  skip_records_with_empty_values: true,
  relax_column_count: true,
  relax_quotes: true,
  trim: true,
});

/** Header names as the mapping uses them: a blank header becomes "Column N". */
export const headerNames = (record: string[]) => record.map((name, index) => name || `Column ${index + 1}`);

/** The whole file parsed (the upload is at most 20 MB); refuses what is not a CSV with a header and rows. */
export function readCsv(content: Buffer): { headers: string[]; rows: string[][] } {
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

/** YYYY-MM-DD, or the US M/D/YYYY of most exports; a time after the date is ignored. */
function parseCsvDate(value: string): string | null {
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
function parseCodeCell(value: string, kind: VisitCodeKind): { codes: string[] } | { invalid: true } {
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

export interface RowCandidate {
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

export function readRow(record: string[], row: number, columns: Partial<Record<EncounterField, number>>): RowOutcome {
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
