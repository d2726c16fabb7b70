import { and, asc, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { isoToMdy, type PatientFilter, type PatientListItem, type PatientPage } from '@pathwell/contracts/patients';
import type { SignedInContext } from '../../context';
import { actsAsDoctor, clinicsInScope, treatedByActor } from './patient-visibility.service';
import type { Database } from '../../db/client';
import { patientPhoneNumbers, patients, patientStudyGroups, users } from '../../db/schema';
import { listTotal } from '../../lib/list-total';
import { toCsv } from '../../lib/csv';
import { toXlsx } from '../../lib/spreadsheet';
import { patientActivity } from './patients.service';
import { escapeLike, fullNameOf } from './patient-names';

type PatientRow = typeof patients.$inferSelect;

const scopeOf = clinicsInScope;

const sortColumns = {
  CreationStamp: patients.createdAt,
  FirstName: sql`lower(${patients.firstName})`,
  LastName: sql`lower(${patients.lastName})`,
  DateOfBirth: patients.dateOfBirth,
  Email: sql`lower(${patients.email})`,
} as const;

function filterWhere(ctx: SignedInContext, filter: PatientFilter): SQL {
  // A Doctor's list is the patients they treat; the doctor filter of other roles is the patient's doctor.
  const doctorId = actsAsDoctor(ctx) ? null : (filter.doctorId ?? null);
  const contains = (value: string) => `%${escapeLike(value.toLowerCase())}%`;
  const digits = filter.phone ? filter.phone.replace(/\D/g, '') : '';
  const statusFilter: Record<PatientFilter['patientStatus'], SQL | undefined> = {
    Active: and(eq(patients.status, 'active'), isNull(patients.archivedAt), isNull(patients.accountClosedAt)),
    Inactive: and(eq(patients.status, 'inactive'), isNull(patients.archivedAt), isNull(patients.accountClosedAt)),
    Archived: isNotNull(patients.archivedAt),
    Closed: isNotNull(patients.accountClosedAt),
    All: undefined,
  };
  return and(
    inArray(patients.instanceId, scopeOf(ctx)),
    isNull(patients.deletedAt),
    treatedByActor(ctx, patients.id, scopeOf(ctx)),
    doctorId ? eq(patients.doctorId, doctorId) : undefined,
    statusFilter[filter.patientStatus],
    filter.firstName ? sql`lower(${patients.firstName}) like ${contains(filter.firstName)}` : undefined,
    filter.lastName ? sql`lower(${patients.lastName}) like ${contains(filter.lastName)}` : undefined,
    filter.email ? sql`lower(${patients.email}) like ${contains(filter.email)}` : undefined,
    filter.phone
      ? digits
        ? sql`exists (select 1 from ${patientPhoneNumbers} where ${patientPhoneNumbers.patientId} = ${patients.id} and ${patientPhoneNumbers.digits} like ${`%${digits}%`})`
        : sql`false`
      : undefined,
    filter.ageMin != null
      ? sql`${patients.dateOfBirth} <= (current_date - make_interval(years => ${filter.ageMin}))::date`
      : undefined,
    filter.ageMax != null
      ? sql`${patients.dateOfBirth} > (current_date - make_interval(years => ${filter.ageMax + 1}))::date`
      : undefined,
    filter.dateOfBirth ? eq(patients.dateOfBirth, filter.dateOfBirth) : undefined,
    studyGroupCondition(filter.selectedStudyGroups),
  )!;
}

/**
 * Members of any of the chosen cohorts (decision 0038). The spec's filter also carries numbers, left from
 * an older id scheme; those match nothing stored here and are ignored, as before cohorts were stored.
 */
function studyGroupCondition(selected: PatientFilter['selectedStudyGroups']): SQL | undefined {
  const ids = (selected ?? []).filter((value): value is string => typeof value === 'string');
  if (ids.length === 0) return undefined;
  return sql`exists (select 1 from ${patientStudyGroups} where ${patientStudyGroups.instanceId} = ${patients.instanceId} and ${patientStudyGroups.patientId} = ${patients.id} and ${inArray(patientStudyGroups.studyGroupId, ids)})`;
}

interface ListRow {
  row: PatientRow;
  doctorFirst: string | null;
  doctorLast: string | null;
}

/**
 * One query for the page (read along the index of its sort: `(instance_id, sort key, id)`, the id
 * breaking ties in the same direction) and one for its phone numbers: constant per request, and no
 * longer reading every match of the clinic to count them (issue #10 §1; the total is `listTotal`).
 */
async function listRows(db: Database, where: SQL, filter: PatientFilter, limit: number, offset: number) {
  const column = sortColumns[filter.sortBy];
  const direction = filter.sortDirection === 'asc' ? asc : desc;
  const rows = await db
    .select({ row: patients, doctorFirst: users.firstName, doctorLast: users.lastName })
    .from(patients)
    .leftJoin(users, eq(users.id, patients.doctorId))
    .where(where)
    .orderBy(direction(column), direction(patients.id))
    .limit(limit)
    .offset(offset);
  const ids = rows.map((entry) => entry.row.id);
  const phones = ids.length
    ? await db
        .select({
          patientId: patientPhoneNumbers.patientId,
          number: patientPhoneNumbers.number,
          isPrimary: patientPhoneNumbers.isPrimary,
        })
        .from(patientPhoneNumbers)
        .where(inArray(patientPhoneNumbers.patientId, ids))
        .orderBy(desc(patientPhoneNumbers.isPrimary), asc(patientPhoneNumbers.createdAt))
    : [];
  const phoneOf = new Map<string, string>();
  for (const phone of phones) if (!phoneOf.has(phone.patientId)) phoneOf.set(phone.patientId, phone.number);
  return { rows: rows as ListRow[], phoneOf };
}

function toListItem({ row, doctorFirst, doctorLast }: ListRow, phone: string | null): PatientListItem {
  return {
    id: row.id,
    firstName: row.firstName,
    middleName: row.middleName,
    lastName: row.lastName,
    fullName: fullNameOf(row),
    dateOfBirth: row.dateOfBirth,
    email: row.email,
    phone,
    doctorId: row.doctorId,
    doctorName: doctorFirst ? `${doctorFirst} ${doctorLast ?? ''}`.trim() : null,
    status: row.status,
    archived: row.archivedAt !== null,
    accountClosed: row.accountClosedAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function filterPatients(ctx: SignedInContext, filter: PatientFilter): Promise<PatientPage> {
  const { pageSize, pageNumber } = filter.paginationFilter;
  return ctx.db.transaction(async (tx) => {
    const where = filterWhere(ctx, filter);
    const { rows, phoneOf } = await listRows(tx, where, filter, pageSize, pageNumber * pageSize);
    const total = await listTotal(tx, tx.select({ id: patients.id }).from(patients).where(where), {
      pageNumber,
      pageSize,
      rowsOnPage: rows.length,
      exact: filter.paginationFilter.exactTotal,
    });
    await patientActivity(ctx, tx, 'Patient List', 'Viewed', undefined, `Page ${pageNumber}, ${rows.length} patients`);
    return {
      ...total,
      pageNumber,
      pageSize,
      data: rows.map((entry) => toListItem(entry, phoneOf.get(entry.row.id) ?? null)),
      message: total.totalRecords === 0 ? 'No patients found' : 'OK',
      portalStatuses: [],
    };
  });
}

export interface ExportFile {
  fileName: string;
  content: Buffer;
}

/** Most rows one export writes; past it the file says it was cut (decision 0012). */
const EXPORT_ROW_LIMIT = 50_000;
const exportHeaders = [
  'First name',
  'Middle name',
  'Last name',
  'Date of birth',
  'Email',
  'Phone',
  'Doctor',
  'Status',
  'Created',
];

async function exportRows(ctx: SignedInContext, filter: PatientFilter, format: 'CSV' | 'XLSX'): Promise<(string | null)[][]> {
  return ctx.db.transaction(async (tx) => {
    const { rows, phoneOf } = await listRows(tx, filterWhere(ctx, filter), filter, EXPORT_ROW_LIMIT, 0);
    await patientActivity(ctx, tx, 'Patient List', 'Viewed', undefined, `${format} export, ${rows.length} patients`);
    const lines = rows.map((entry) => {
      const item = toListItem(entry, phoneOf.get(entry.row.id) ?? null);
      const status = item.accountClosed
        ? 'Closed'
        : item.archived
          ? 'Archived'
          : item.status === 'active'
            ? 'Active'
            : 'Inactive';
      return [
        item.firstName,
        item.middleName,
        item.lastName,
        isoToMdy(item.dateOfBirth),
        item.email,
        item.phone,
        item.doctorName,
        status,
        isoToMdy(item.createdAt.slice(0, 10)),
      ];
    });
    return lines;
  });
}

const exportStamp = () => new Date().toISOString().slice(0, 10);

export async function exportPatientsCsv(ctx: SignedInContext, filter: PatientFilter): Promise<ExportFile> {
  const lines = await exportRows(ctx, filter, 'CSV');
  return { fileName: `patients-${exportStamp()}.csv`, content: toCsv(exportHeaders, lines) };
}

export async function exportPatientsXlsx(ctx: SignedInContext, filter: PatientFilter): Promise<ExportFile> {
  const lines = await exportRows(ctx, filter, 'XLSX');
  return { fileName: `patients-${exportStamp()}.xlsx`, content: await toXlsx('Patients', exportHeaders, lines) };
}
