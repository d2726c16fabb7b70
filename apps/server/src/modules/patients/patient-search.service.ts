import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { SEARCH_LIMIT } from '@pathwell/contracts/constants';
import type { DuplicateMatch, PatientSearchResult } from '@pathwell/contracts/patients';
import type { SignedInContext } from '../../context';
import { actsAsDoctor, clinicsInScope, patientsTreatedBy } from './patient-visibility.service';
import { reusableQuery } from '../../db/reusable-query';
import { patients } from '../../db/schema';
import { escapeLike, fullNameOf } from './patient-names';

const scopeOf = clinicsInScope;

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
