import { and, asc, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { SEARCH_LIMIT } from '@pathwell/contracts/constants';
import type { ActivityAction, ActivityArea } from '@pathwell/contracts/enums';
import type { ValidationMessageKey } from '@pathwell/contracts/messages';
import {
  extendedQuestionSetting,
  isoToMdy,
  phoneDigits,
  type DuplicateMatch,
  type PatientExtended,
  type PatientFilter,
  type PatientListItem,
  type PatientPage,
  type PatientPayload,
  type PatientSearchResult,
  type PatientView,
} from '@pathwell/contracts/patients';
import { RoleCode } from '@pathwell/contracts/roles';
import type { SignedInContext } from '../../context';
import {
  actsAsDoctor,
  clinicsInScope,
  findVisiblePatient,
  patientsTreatedBy,
  treatedByActor,
} from './patient-visibility.service';
import type { Database } from '../../db/client';
import { reusableQuery } from '../../db/reusable-query';
import {
  appointments,
  managedItems,
  patientPhoneNumbers,
  patients,
  patientStudyGroups,
  userInstances,
  users,
} from '../../db/schema';
import { listTotal } from '../../lib/list-total';
import { AppError } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { isOn, readSettings } from '../settings/settings.service';
import { toCsv } from '../../lib/csv';
import { toXlsx } from '../../lib/spreadsheet';

type PatientRow = typeof patients.$inferSelect;
type PhoneRow = typeof patientPhoneNumbers.$inferSelect;

const scopeOf = clinicsInScope;

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (match) => `\\${match}`);

const fullNameOf = (row: { firstName: string; middleName: string | null; lastName: string }) =>
  [row.firstName, row.middleName, row.lastName].filter(Boolean).join(' ');

function audit(
  ctx: SignedInContext,
  db: Database,
  area: ActivityArea,
  action: ActivityAction,
  id?: string,
  description?: string,
) {
  return recordActivity(
    db,
    staffActivity(ctx, area, action, { type: id ? 'patient' : undefined, id: id, description: description }),
  );
}

function toView(row: PatientRow, phones: PhoneRow[]): PatientView {
  return {
    id: row.id,
    firstName: row.firstName,
    middleName: row.middleName,
    lastName: row.lastName,
    fullName: fullNameOf(row),
    dateOfBirth: row.dateOfBirth,
    email: row.email,
    rpmKey: row.rpmKey,
    streetAddress1: row.streetAddress1,
    streetAddress2: row.streetAddress2,
    city: row.city,
    state: row.state,
    zip: row.zip,
    weight: Number(row.weight),
    heightFeet: row.heightFeet,
    heightInches: row.heightInches,
    height: row.height === null ? null : Number(row.height),
    genderId: row.genderId,
    maritalStatusId: row.maritalStatusId,
    ethnicityId: row.ethnicityId,
    occupationId: row.occupationId,
    payorStatusId: row.payorStatusId,
    nicotineStatusId: row.nicotineStatusId,
    currentLawSuit: row.currentLawSuit,
    historySubstanceAbuse: row.historySubstanceAbuse,
    agreementSignedDate: row.agreementSignedDate,
    doctorId: row.doctorId,
    enableEmail: row.enableEmail,
    enableText: row.enableText,
    preferredLanguage: row.preferredLanguage,
    extended: row.extended as PatientExtended,
    patientPhoneNumbers: phones.map((phone) => ({
      id: phone.id,
      phoneType: phone.phoneType,
      number: phone.number,
      contactName: phone.contactName,
      relation: phone.relation,
      isPrimary: phone.isPrimary,
    })),
    referralSource: row.referralSource,
    referringProviderId: row.referringProviderId,
    diseaseStates: row.diseaseStates,
    psychiatricHistory: row.psychiatricHistory,
    surgicalHistory: row.surgicalHistory,
    successStory: row.successStory,
    successStorySharedAt: row.successStorySharedAt?.toISOString() ?? null,
    status: row.status,
    archivedAt: row.archivedAt?.toISOString() ?? null,
    archiveReason: row.archiveReason,
    accountClosedAt: row.accountClosedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function phonesOf(db: Database, patientId: string) {
  return db
    .select()
    .from(patientPhoneNumbers)
    .where(eq(patientPhoneNumbers.patientId, patientId))
    .orderBy(desc(patientPhoneNumbers.isPrimary), asc(patientPhoneNumbers.createdAt));
}

/** The managed list each reference field names an entry of. */
const customFieldOf = {
  genderId: 'customfield:gender',
  maritalStatusId: 'customfield:maritalstatus',
  ethnicityId: 'customfield:ethnicity',
  occupationId: 'customfield:occupationstatus',
  payorStatusId: 'customfield:payorstatus',
  referringProviderId: 'referrals',
} as const;

/** Ids must name items of this clinic in the right list, and the doctor a Doctor of this clinic. */
async function checkReferences(ctx: SignedInContext, db: Database, input: PatientPayload) {
  const fields: Record<string, ValidationMessageKey> = {};
  const wanted = Object.entries(customFieldOf).filter(([field]) => input[field as keyof typeof customFieldOf]);
  if (wanted.length > 0) {
    const ids = wanted.map(([field]) => input[field as keyof typeof customFieldOf]!);
    const found = await db
      .select({ id: managedItems.id, listType: managedItems.listType })
      .from(managedItems)
      .where(and(eq(managedItems.instanceId, ctx.instanceId), inArray(managedItems.id, ids), isNull(managedItems.deletedAt)));
    for (const [field, listType] of wanted) {
      const id = input[field as keyof typeof customFieldOf];
      if (!found.some((item) => item.id === id && item.listType === listType)) fields[field] = 'invalid';
    }
  }
  if (input.doctorId) {
    const [doctor] = await db
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          eq(users.id, input.doctorId),
          eq(users.role, RoleCode.Doctor),
          isNull(users.deletedAt),
          sql`(${users.instanceId} = ${ctx.instanceId} or exists (select 1 from ${userInstances} where ${userInstances.userId} = ${users.id} and ${userInstances.instanceId} = ${ctx.instanceId}))`,
        ),
      );
    if (!doctor) fields.doctorId = 'invalid';
  }
  if (Object.keys(fields).length > 0) throw new AppError('VALIDATION', 'valuesInvalid', { fields });
}

/** Keeps the extended answers only for the questions the clinic's settings ask (extendedPatientAsk*). */
async function allowedExtended(db: Database, instanceId: string, extended: PatientExtended): Promise<PatientExtended> {
  const settings = await readSettings(db, instanceId);
  const kept: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(extendedQuestionSetting)) {
    const value = extended[key as keyof PatientExtended];
    if (isOn(settings, setting) && value !== undefined && value !== null) kept[key] = value;
  }
  return kept as PatientExtended;
}

function columnsOf(input: PatientPayload) {
  const { patientPhoneNumbers: _phones, extended: _extended, ...rest } = input;
  // Height in inches is derived, never taken from the client.
  const height =
    input.heightFeet == null && input.heightInches == null ? null : (input.heightFeet ?? 0) * 12 + (input.heightInches ?? 0);
  return {
    ...rest,
    heightFeet: input.heightFeet ?? null,
    heightInches: input.heightInches ?? null,
    height,
    genderId: input.genderId ?? null,
    maritalStatusId: input.maritalStatusId ?? null,
    ethnicityId: input.ethnicityId ?? null,
    occupationId: input.occupationId ?? null,
    payorStatusId: input.payorStatusId ?? null,
    nicotineStatusId: input.nicotineStatusId ?? null,
    agreementSignedDate: input.agreementSignedDate ?? null,
    doctorId: input.doctorId ?? null,
  };
}

function phoneRows(ctx: SignedInContext, patientId: string, input: PatientPayload) {
  // Exactly one primary number when there are any: the first marked one, else the first.
  const primaryIndex = Math.max(
    0,
    input.patientPhoneNumbers.findIndex((phone) => phone.isPrimary),
  );
  return input.patientPhoneNumbers.map((phone, index) => ({
    instanceId: ctx.instanceId,
    patientId,
    phoneType: phone.phoneType,
    number: phone.number,
    digits: phoneDigits(phone.number),
    contactName: phone.contactName,
    relation: phone.relation,
    isPrimary: index === primaryIndex,
  }));
}

export async function createPatient(ctx: SignedInContext, input: PatientPayload): Promise<PatientView> {
  // A Doctor's new patient is theirs, or they could not see it afterwards.
  const values = { ...input, doctorId: actsAsDoctor(ctx) ? ctx.actor.userId : input.doctorId };
  return ctx.db.transaction(async (tx) => {
    await checkReferences(ctx, tx, values);
    const extended = await allowedExtended(tx, ctx.instanceId, values.extended);
    const [row] = await tx
      .insert(patients)
      .values({ ...columnsOf(values), instanceId: ctx.instanceId, extended })
      .returning();
    const phones = values.patientPhoneNumbers.length
      ? await tx
          .insert(patientPhoneNumbers)
          .values(phoneRows(ctx, row!.id, values))
          .returning()
      : [];
    await audit(ctx, tx, 'Patient Profile', 'Created', row!.id);
    return toView(row!, phones);
  });
}

export async function getPatient(ctx: SignedInContext, id: string): Promise<PatientView> {
  return ctx.db.transaction(async (tx) => {
    const row = await findVisiblePatient(ctx, tx, id, scopeOf(ctx));
    const phones = await phonesOf(tx, id);
    // In a parent's all-clinics view the entry goes to the patient's own clinic.
    await recordActivity(tx, {
      ...staffActivity(ctx, 'Patient Profile', 'Viewed', { type: 'patient', id }),
      instanceId: row.instanceId,
    });
    return toView(row, phones);
  });
}

export async function updatePatient(ctx: SignedInContext, id: string, input: PatientPayload): Promise<PatientView> {
  return ctx.db.transaction(async (tx) => {
    const existing = await findVisiblePatient(ctx, tx, id);
    // A Doctor does not hand patients around: one they treat through a visit keeps the doctor they have.
    const values = { ...input, doctorId: actsAsDoctor(ctx) ? existing.doctorId : input.doctorId };
    await checkReferences(ctx, tx, values);
    // Answers to questions the clinic stopped asking stay as they were.
    const asked = await allowedExtended(tx, ctx.instanceId, values.extended);
    const settings = await readSettings(tx, ctx.instanceId);
    const kept = Object.fromEntries(
      Object.entries(existing.extended).filter(
        ([key]) => !isOn(settings, extendedQuestionSetting[key as keyof typeof extendedQuestionSetting] ?? ''),
      ),
    );
    const [row] = await tx
      .update(patients)
      .set({ ...columnsOf(values), extended: { ...kept, ...asked }, updatedAt: sql`now()` })
      .where(eq(patients.id, id))
      .returning();
    await tx.delete(patientPhoneNumbers).where(eq(patientPhoneNumbers.patientId, id));
    const phones = values.patientPhoneNumbers.length
      ? await tx
          .insert(patientPhoneNumbers)
          .values(phoneRows(ctx, id, values))
          .returning()
      : [];
    await audit(ctx, tx, 'Patient Profile', 'Updated', id);
    return toView(row!, phones);
  });
}

export async function deletePatient(ctx: SignedInContext, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await findVisiblePatient(ctx, tx, id);
    await tx
      .update(patients)
      .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(patients.id, id));
    // Their appointments leave every list with them (the appointment scope reads no patient column).
    await tx
      .update(appointments)
      .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(appointments.patientId, id), isNull(appointments.deletedAt)));
    await audit(ctx, tx, 'Patient Profile', 'Deleted', id);
  });
}

async function changeState(
  ctx: SignedInContext,
  id: string,
  change: Partial<typeof patients.$inferInsert>,
  description: string,
): Promise<PatientView> {
  return ctx.db.transaction(async (tx) => {
    await findVisiblePatient(ctx, tx, id);
    const [row] = await tx
      .update(patients)
      .set({ ...change, updatedAt: sql`now()` })
      .where(eq(patients.id, id))
      .returning();
    const phones = await phonesOf(tx, id);
    await audit(ctx, tx, 'Patient Profile', 'Updated', id, description);
    return toView(row!, phones);
  });
}

export const setActive = (ctx: SignedInContext, id: string, isActive: boolean) =>
  changeState(ctx, id, { status: isActive ? 'active' : 'inactive' }, isActive ? 'Set active' : 'Set inactive');
export const archivePatient = (ctx: SignedInContext, id: string, reason: string) =>
  changeState(ctx, id, { archivedAt: new Date(), archiveReason: reason }, 'Archived');
export const unarchivePatient = (ctx: SignedInContext, id: string) =>
  changeState(ctx, id, { archivedAt: null, archiveReason: null }, 'Unarchived');
export const closeAccount = (ctx: SignedInContext, id: string) =>
  changeState(ctx, id, { accountClosedAt: new Date() }, 'Account closed');
/** The patient called to come back; the email and text switches stay as the patient left them. */
export const reopenAccount = (ctx: SignedInContext, id: string) =>
  changeState(ctx, id, { accountClosedAt: null }, 'Account reopened');

// ---------------------------------------------------------------- list, search, duplicates, export

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
    await audit(ctx, tx, 'Patient List', 'Viewed', undefined, `Page ${pageNumber}, ${rows.length} patients`);
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
export const EXPORT_ROW_LIMIT = 50_000;
export const exportHeaders = [
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
    await audit(ctx, tx, 'Patient List', 'Viewed', undefined, `${format} export, ${rows.length} patients`);
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

/**
 * The search statement of one shape (number of terms, doctor filter or not, number of clinics),
 * built once per process: the search runs on every keystroke past the third. Sent unnamed, so
 * PostgreSQL still plans it for the actual terms (their selectivity decides between the trigram
 * index and the name order).
 */
const searchShapes = new Map<string, ReturnType<typeof searchQuery>>();
const searchQuery = (termCount: number, byDoctor: 'treats' | 'doctor' | null, clinicCount: number) =>
  reusableQuery(undefined, (db) =>
    db
      .select({
        id: patients.id,
        firstName: patients.firstName,
        middleName: patients.middleName,
        lastName: patients.lastName,
        dateOfBirth: patients.dateOfBirth,
      })
      .from(patients)
      .where(
        and(
          inArray(
            patients.instanceId,
            Array.from({ length: clinicCount }, (_, index) => sql.placeholder(`clinic${index}`)),
          ),
          isNull(patients.deletedAt),
          byDoctor === 'doctor' ? eq(patients.doctorId, sql.placeholder('doctorId')) : undefined,
          byDoctor === 'treats'
            ? inArray(
                patients.id,
                patientsTreatedBy(
                  sql.placeholder('doctorId'),
                  Array.from({ length: clinicCount }, (_, index) => sql.placeholder(`clinic${index}`)),
                ),
              )
            : undefined,
          ...Array.from(
            { length: termCount },
            (_, index) => sql`${patients.searchName} like '%' || pathwell_fold(${sql.placeholder(`term${index}`)}) || '%'`,
          ),
        ),
      )
      .orderBy(asc(patients.lastName), asc(patients.firstName), asc(patients.id))
      .limit(SEARCH_LIMIT)
      .offset(0),
  );

/**
 * Top-bar search: every whitespace-separated term must appear in the folded "first middle last"
 * (any order, case- and accent-insensitive), served by the trigram index on search_name.
 */
export async function searchPatients(
  ctx: SignedInContext,
  query: { searchParam: string; doctorId?: string },
): Promise<PatientSearchResult[]> {
  const terms = query.searchParam.split(/\s+/).filter(Boolean).slice(0, 8);
  const byDoctor = actsAsDoctor(ctx) ? 'treats' : query.doctorId ? 'doctor' : null;
  const doctorId = actsAsDoctor(ctx) ? ctx.actor.userId : (query.doctorId ?? null);
  const clinics = scopeOf(ctx);
  const shape = `${terms.length}/${byDoctor ?? 'all'}/${clinics.length}`;
  let search = searchShapes.get(shape);
  if (!search) {
    search = searchQuery(terms.length, byDoctor, clinics.length);
    searchShapes.set(shape, search);
  }
  const values: Record<string, unknown> = { doctorId };
  clinics.forEach((clinic, index) => (values[`clinic${index}`] = clinic));
  terms.forEach((term, index) => (values[`term${index}`] = escapeLike(term)));
  const rows = await search(ctx.db, values);
  return rows.map((row) => ({ id: row.id, fullName: fullNameOf(row), birthDate: row.dateOfBirth }));
}

/** Probable duplicates before a create: same last name and date of birth, or same email. */
export async function findDuplicates(
  ctx: SignedInContext,
  input: { lastName?: string | null; dateOfBirth?: string | null; email?: string | null; excludeId?: string | null },
): Promise<DuplicateMatch[]> {
  const byName = input.lastName && input.dateOfBirth;
  const email = input.email?.trim().toLowerCase();
  if (!byName && !email) return [];
  const nameMatch = byName
    ? sql`(lower(${patients.lastName}) = ${input.lastName!.trim().toLowerCase()} and ${patients.dateOfBirth} = ${input.dateOfBirth})`
    : sql`false`;
  const emailMatch = email ? sql`lower(${patients.email}) = ${email}` : sql`false`;
  const rows = await ctx.db
    .select({
      id: patients.id,
      firstName: patients.firstName,
      middleName: patients.middleName,
      lastName: patients.lastName,
      dateOfBirth: patients.dateOfBirth,
      byName: sql<boolean>`${nameMatch}`,
    })
    .from(patients)
    // Not narrowed to a Doctor's own patients: a duplicate under another doctor is still a duplicate.
    .where(
      and(
        eq(patients.instanceId, ctx.instanceId),
        isNull(patients.deletedAt),
        input.excludeId ? sql`${patients.id} <> ${input.excludeId}` : undefined,
        sql`(${nameMatch} or ${emailMatch})`,
      ),
    )
    .limit(20);
  return rows.map((row) => ({
    id: row.id,
    fullName: fullNameOf(row),
    birthDate: row.dateOfBirth,
    matchedOn: row.byName ? 'lastNameAndDateOfBirth' : 'email',
  }));
}
