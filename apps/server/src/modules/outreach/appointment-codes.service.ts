import { and, desc, eq, sql } from 'drizzle-orm';
import { KNOWN_CODES_LIMIT, type AppointmentCodes, type KnownCodes } from '@pathwell/contracts/encounter-imports';
import { visitCodeKindOf, type VisitCodeKind } from '@pathwell/contracts/outreach';
import type { SignedInContext } from '../../context';
import { codedVisits, users } from '../../db/schema';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { findVisiblePatient } from '../patients/patient-visibility.service';
import { requireOutreach } from './outreach-access';
import { rowsOf } from '../../lib/sql-rows';

/** A patient's visits with their codes, newest first (section 7 "appointment codes"). */
const PATIENT_VISITS_LIMIT = 500;
/** Code rows counted for the autocomplete without a search: a bounded sample, not the whole table. */
const KNOWN_CODES_SCAN = 200_000;

/** The patient's coded visits, recorded in Pathwell or imported; a Doctor sees their own patients only. */
export async function patientCodedVisits(ctx: SignedInContext, patientId: string): Promise<AppointmentCodes> {
  await requireOutreach(ctx);
  await findVisiblePatient(ctx, ctx.db, patientId);
  const rows = await ctx.db
    .select({
      id: codedVisits.id,
      visitDate: codedVisits.visitDate,
      providerName: sql<
        string | null
      >`coalesce(nullif(trim(${users.firstName} || ' ' || ${users.lastName}), ''), ${codedVisits.providerName})`,
      source: codedVisits.source,
      codes: codedVisits.codes,
    })
    .from(codedVisits)
    .leftJoin(users, eq(users.id, codedVisits.providerId))
    .where(and(eq(codedVisits.instanceId, ctx.instanceId), eq(codedVisits.patientId, patientId)))
    .orderBy(desc(codedVisits.visitDate), desc(codedVisits.createdAt))
    .limit(PATIENT_VISITS_LIMIT);
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient Profile', 'Viewed', {
      type: 'patient',
      id: patientId,
      description: 'Diagnosis and procedure codes viewed',
    }),
  );
  const ofKind = (codes: string[], kind: VisitCodeKind) => codes.filter((code) => visitCodeKindOf(code) === kind);
  return {
    data: rows.map(({ codes, ...row }) => ({
      ...row,
      diagnosisCodes: ofKind(codes, 'diagnosis'),
      procedureCodes: ofKind(codes, 'procedure'),
    })),
  };
}

interface KnownCodeRow {
  code: string;
  kind: VisitCodeKind;
  patients: number;
}

/**
 * Codes used in the clinic, most patients first, for the template builder's autocomplete. A search is
 * a code prefix read from the (clinic, code, …) index; without one, at most KNOWN_CODES_SCAN code rows
 * are counted, so a clinic with millions of coded visits still answers at once.
 */
export async function knownCodes(ctx: SignedInContext, search: string | undefined): Promise<KnownCodes> {
  await requireOutreach(ctx);
  const prefix = (search ?? '').replace(/[^A-Z0-9.]/g, '');
  const scope = prefix
    ? sql`select c.code, c.kind, c.patient_id from coded_visit_codes c
           where c.instance_id = ${ctx.instanceId} and c.code >= ${prefix} and c.code < ${`${prefix}ZZZZZZZZ`}
             and c.code like ${`${prefix}%`}`
    : sql`select c.code, c.kind, c.patient_id from coded_visit_codes c
           where c.instance_id = ${ctx.instanceId}
           limit ${KNOWN_CODES_SCAN}`;
  const rows = await rowsOf<KnownCodeRow>(
    ctx.db,
    sql`select s.code, s.kind, count(distinct s.patient_id)::int as patients
          from (${scope}) s
         group by s.code, s.kind
         order by count(distinct s.patient_id) desc, s.code
         limit ${KNOWN_CODES_LIMIT}`,
  );
  return {
    data: rows.map((row) => ({ code: row.code, kind: row.kind, patients: row.patients })),
  };
}
