import { and, eq, sql } from 'drizzle-orm';
import { visitCodeKindOf } from '@pathwell/contracts/outreach';
import type { Database } from '../../db/client';
import { appointments, codedVisitCodes, codedVisits, users, visitRecords } from '../../db/schema';
import { rowsOf } from '../../lib/sql-rows';
import { clinicTimeZone } from '../settings/settings.service';

/*
 * Coded visits (issue #15 §1, decision 0050): one row per visit with its diagnosis and procedure codes,
 * and one `coded_visit_codes` row per code with the visit's patient, date and provider copied beside it
 * (the audience query reads that table alone). Pathwell's own visit records are kept in step here; the
 * encounter import and the demo seed insert through `insertCodedVisits`.
 */

export interface CodedVisitValues {
  instanceId: string;
  patientId: string;
  /** The clinic date of the visit, YYYY-MM-DD. */
  visitDate: string;
  providerId: string | null;
  providerName: string | null;
  source: 'pathwell' | 'import';
  visitRecordId?: string | null;
  importId?: string | null;
  externalVisitId?: string | null;
  /** `record:<visit record id>`, `ext:<external visit id>`, or a digest of patient, date, provider and codes. */
  dedupeKey: string;
  /** Upper-case, valid codes (diagnosis and procedure together). */
  codes: string[];
}

interface InsertedVisitRow {
  dedupe_key: string;
}

/**
 * Inserts visits and their code rows in one statement, the rows passed as one JSON parameter (a
 * thousand visits as bind parameters cost seconds to plan on PGlite). A visit whose dedupe key the
 * clinic already has, or that comes again in `visits`, is left out; answers the dedupe keys inserted.
 */
export async function insertCodedVisits(db: Database, visits: readonly CodedVisitValues[]): Promise<Set<string>> {
  const keys = new Set<string>();
  const first = visits.filter((visit) => !keys.has(visit.dedupeKey) && keys.add(visit.dedupeKey));
  const input = first.map((visit) => {
    const codes = [...new Set(visit.codes)].filter((code) => visitCodeKindOf(code) !== null);
    return {
      instance_id: visit.instanceId,
      patient_id: visit.patientId,
      visit_date: visit.visitDate,
      provider_id: visit.providerId,
      provider_name: visit.providerName,
      source: visit.source,
      visit_record_id: visit.visitRecordId ?? null,
      import_id: visit.importId ?? null,
      external_visit_id: visit.externalVisitId ?? null,
      dedupe_key: visit.dedupeKey,
      codes,
      kinds: codes.map((code) => visitCodeKindOf(code)!),
    };
  });
  if (input.length === 0) return new Set();
  const inserted = await rowsOf<InsertedVisitRow>(
    db,
    sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as v(
        instance_id uuid, patient_id uuid, visit_date date, provider_id uuid, provider_name text, source text,
        visit_record_id uuid, import_id uuid, external_visit_id text, dedupe_key text, codes text[], kinds text[])
    ),
    inserted as (
      insert into ${codedVisits} (instance_id, patient_id, visit_date, provider_id, provider_name, source, visit_record_id,
                                  import_id, external_visit_id, dedupe_key, codes)
      select instance_id, patient_id, visit_date, provider_id, provider_name, source, visit_record_id,
             import_id, external_visit_id, dedupe_key, codes
        from input
      on conflict (instance_id, dedupe_key) do nothing
      returning id, instance_id, patient_id, visit_date, provider_id, dedupe_key
    ),
    code_rows as (
      insert into ${codedVisitCodes} (instance_id, coded_visit_id, code, kind, patient_id, visit_date, provider_id)
      select i.instance_id, i.id, c.code, c.kind, i.patient_id, i.visit_date, i.provider_id
        from inserted i
        join input v on v.instance_id = i.instance_id and v.dedupe_key = i.dedupe_key
        cross join lateral unnest(v.codes, v.kinds) as c(code, kind)
    )
    select dedupe_key from inserted`,
  );
  return new Set(inserted.map((row) => row.dedupe_key));
}

/** One visit and its codes; answers false when the clinic already has a visit with its dedupe key. */
export async function insertCodedVisit(db: Database, visit: CodedVisitValues): Promise<boolean> {
  return (await insertCodedVisits(db, [visit])).size === 1;
}

const visitRecordDedupeKey = (visitRecordId: string) => `record:${visitRecordId}`;

/**
 * Replaces the coded visit of one Pathwell visit record with what the record holds now: its codes, on
 * the appointment's clinic date, with the appointment's doctor. A record without codes has none.
 */
export async function syncVisitRecordCodes(db: Database, instanceId: string, visitRecordId: string): Promise<void> {
  const dedupeKey = visitRecordDedupeKey(visitRecordId);
  await db.delete(codedVisits).where(and(eq(codedVisits.instanceId, instanceId), eq(codedVisits.dedupeKey, dedupeKey)));
  const timeZone = await clinicTimeZone(db, instanceId);
  const [record] = await db
    .select({
      patientId: visitRecords.patientId,
      diagnosisCodes: visitRecords.diagnosisCodes,
      procedureCodes: visitRecords.procedureCodes,
      visitDate: sql<string>`to_char(${appointments.startsAt} at time zone ${timeZone}, 'YYYY-MM-DD')`,
      providerId: appointments.doctorId,
      providerFirst: users.firstName,
      providerLast: users.lastName,
    })
    .from(visitRecords)
    .innerJoin(
      appointments,
      and(eq(appointments.instanceId, visitRecords.instanceId), eq(appointments.id, visitRecords.appointmentId)),
    )
    .leftJoin(users, eq(users.id, appointments.doctorId))
    .where(and(eq(visitRecords.instanceId, instanceId), eq(visitRecords.id, visitRecordId)));
  if (!record) return;
  const codes = [...record.diagnosisCodes, ...record.procedureCodes]
    .map((code) => code.trim().toUpperCase())
    .filter((code) => visitCodeKindOf(code) !== null);
  if (codes.length === 0) return;
  await insertCodedVisit(db, {
    instanceId,
    patientId: record.patientId,
    visitDate: record.visitDate,
    providerId: record.providerId,
    providerName: record.providerFirst ? [record.providerFirst, record.providerLast].filter(Boolean).join(' ') : null,
    source: 'pathwell',
    visitRecordId,
    dedupeKey,
    codes,
  });
}
