import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { clinicIsoDate } from '@pathwell/contracts/clinic-time';
import type { PumpRefillsDue, pumpRefillsDueQuerySchema } from '@pathwell/contracts/interventions';
import type { z } from 'zod';
import type { SignedInContext } from '../../context';
import { interventions, managedItems, patients, users } from '../../db/schema';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { findVisiblePatient, visiblePatients } from '../patients/patient-visibility.service';
import { clinicTimeZone } from '../settings/settings.service';

type Query = z.output<typeof pumpRefillsDueQuerySchema>;

const DAY_MS = 86_400_000;
/** Whole calendar days between two ISO dates (both already on the clinic's calendar). */
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
const addDays = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * Pain-pump refills coming due (issue #24, decision 0062): the next refill date of each patient's latest
 * pump visit (a later visit replaces the date an earlier one set), when it is overdue or falls within
 * `withinDays` days of the clinic's today. A Doctor sees their own patients; the list is audited as a
 * read of patient data.
 */
export async function pumpRefillsDue(ctx: SignedInContext, query: Query): Promise<PumpRefillsDue> {
  const patient = query.patientId ? await findVisiblePatient(ctx, ctx.db, query.patientId) : null;
  const today = clinicIsoDate(new Date(), await clinicTimeZone(ctx.db, ctx.instanceId));
  const until = addDays(today, query.withinDays);
  const nextRefill = sql<string>`${interventions.pump}->>'nextRefillDate'`;
  const rows = await ctx.db
    .select({
      intervention: interventions,
      firstName: patients.firstName,
      lastName: patients.lastName,
      providerFirst: users.firstName,
      providerLast: users.lastName,
      nextRefillDate: nextRefill,
    })
    .from(interventions)
    .innerJoin(patients, eq(patients.id, interventions.patientId))
    .leftJoin(users, eq(users.id, interventions.providerId))
    .where(
      and(
        eq(interventions.instanceId, ctx.instanceId),
        eq(interventions.kind, 'pump'),
        isNull(interventions.deletedAt),
        visiblePatients(ctx, [ctx.instanceId]),
        isNull(patients.archivedAt),
        patient ? eq(interventions.patientId, patient.id) : undefined,
        sql`${nextRefill} is not null and ${nextRefill} <= ${until}`,
        sql`not exists (select 1 from interventions later where later.instance_id = ${interventions.instanceId}
          and later.patient_id = ${interventions.patientId} and later.kind = 'pump' and later.deleted_at is null
          and (later.performed_on, later.created_at) > (${interventions.performedOn}, ${interventions.createdAt}))`,
      ),
    )
    .orderBy(asc(nextRefill), asc(patients.lastName), asc(patients.firstName))
    .limit(200);
  const medicineIds = [
    ...new Set(rows.flatMap((row) => (row.intervention.pump?.refills ?? []).map((refill) => refill.painPumpMedicineId))),
  ];
  const names = new Map(
    medicineIds.length === 0
      ? []
      : (
          await ctx.db
            .select({ id: managedItems.id, name: managedItems.name })
            .from(managedItems)
            .where(and(eq(managedItems.instanceId, ctx.instanceId), inArray(managedItems.id, medicineIds)))
        ).map((item) => [item.id, item.name]),
  );
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Interventions', 'Viewed', {
      type: patient ? 'patient' : 'pump refills',
      id: patient?.id ?? null,
      description: 'Pump refills coming due listed',
    }),
  );
  return {
    today,
    withinDays: query.withinDays,
    data: rows.map((row) => ({
      interventionId: row.intervention.id,
      patientId: row.intervention.patientId,
      patientName: `${row.firstName} ${row.lastName}`.trim(),
      performedOn: row.intervention.performedOn,
      nextRefillDate: row.nextRefillDate,
      daysUntil: daysBetween(today, row.nextRefillDate),
      medicines: (row.intervention.pump?.refills ?? []).map((refill) => names.get(refill.painPumpMedicineId) ?? ''),
      providerName: row.providerFirst ? `${row.providerFirst} ${row.providerLast ?? ''}`.trim() : null,
    })),
  };
}
