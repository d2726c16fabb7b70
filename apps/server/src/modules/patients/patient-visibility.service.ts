import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Placeholder } from 'drizzle-orm';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { appointments, patients } from '../../db/schema';
import { notFound } from '../../lib/app-error';

/**
 * Who may see a patient: the one rule for patient, appointment, report and export routes (issue #26 §6,
 * decision 0070). Every role sees the live patients of the clinics in scope; a Doctor only the patients
 * they treat — they are the patient's doctor, or they have a live appointment with the patient (a
 * treatment relationship, as in HIPAA's minimum-necessary practice). An appointment is visible when its
 * patient is.
 */

type Value = string | Placeholder;

export const actsAsDoctor = (ctx: SignedInContext) => ctx.actor.role === 'Doctor';

/**
 * The ids of the patients `doctorId` treats in `clinics`, as a subquery for `in (…)`. A union of two
 * index reads (patients by doctor, appointments by doctor) rather than an `or exists` per row, so a list
 * of a clinic of a million patients does not test every row.
 */
export function patientsTreatedBy(doctorId: Value, clinics: Value[]): SQL {
  return sql`(select ${patients.id} from ${patients} where ${and(
    inArray(patients.instanceId, clinics),
    eq(patients.doctorId, doctorId),
  )} union select ${appointments.patientId} from ${appointments} where ${and(
    inArray(appointments.instanceId, clinics),
    eq(appointments.doctorId, doctorId),
    isNull(appointments.deletedAt),
  )})`;
}

/** Narrows rows with a patient id column to the patients the actor may see (no condition for other roles). */
export function treatedByActor(ctx: SignedInContext, patientId: SQL | { getSQL(): SQL }, clinics: Value[] = [ctx.instanceId]) {
  return actsAsDoctor(ctx) ? sql`${patientId} in ${patientsTreatedBy(ctx.actor.userId, clinics)}` : undefined;
}

/** The patients this actor may see: live, of the clinics in scope, and for a Doctor those they treat. */
export function visiblePatients(ctx: SignedInContext, scope = clinicsInScope(ctx)): SQL {
  return and(inArray(patients.instanceId, scope), isNull(patients.deletedAt), treatedByActor(ctx, patients.id, scope))!;
}

/** One patient the actor may see, or 404 (another clinic's patient and one the Doctor does not treat alike). */
export async function findVisiblePatient(ctx: SignedInContext, db: Database, id: string, scope = [ctx.instanceId]) {
  const [row] = await db
    .select()
    .from(patients)
    .where(and(eq(patients.id, id), visiblePatients(ctx, scope)));
  if (!row) throw notFound('patientNotFound');
  return row;
}

/** Clinics a read looks at: the acting clinic, or every clinic of a parent's all-clinics view. */
export const clinicsInScope = (ctx: SignedInContext) => (ctx.allClinics ? ctx.instanceIds : [ctx.instanceId]);

/**
 * A report's patients, for raw SQL with the patient row under `alias`: for a Doctor the patients they
 * treat (whatever doctor the request names); for other roles the patients of the doctor they pick, or
 * every patient. Undefined when nothing narrows.
 */
export function reportPatients(ctx: SignedInContext, requestedDoctorId?: string | null, alias = 'p'): SQL | undefined {
  const patient = sql.raw(alias);
  if (actsAsDoctor(ctx)) return sql`${patient}.id in ${patientsTreatedBy(ctx.actor.userId, [ctx.instanceId])}`;
  return requestedDoctorId ? sql`${patient}.doctor_id = ${requestedDoctorId}` : undefined;
}
