import { and, asc, desc, eq, inArray, isNull, like, or, sql } from 'drizzle-orm';
import type { Intervention, InterventionFormInfo, InterventionPayload } from '@pathwell/contracts/interventions';
import { INJECTABLE_MEDICINE_KINDS, medicineKindOf } from '@pathwell/contracts/enumerations';
import type { ValidationMessageKey } from '@pathwell/contracts/messages';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { RoleCode } from '@pathwell/contracts/roles';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import {
  appointments,
  interventions,
  managedItems,
  plannedProcedures,
  userInstances,
  users,
  type PumpVisit,
} from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { announce } from '../../lib/domain-events';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { findVisiblePatient } from '../patients/patient-visibility.service';
import { isOn, readSettings } from '../settings/settings.service';

type Row = typeof interventions.$inferSelect;

/** Which managed list each reference of the form must come from. */
const listOf = {
  bodyPartId: ['interventionalitems:3'],
  directionId: ['interventionaldirections'],
  locationId: ['interventionallocations'],
  adaLocationId: ['adainterventionallocations'],
} as const;
const itemListOf = { procedure: 'interventionalitems:1', injection: 'interventionalitems:2' } as const;

const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
const num = (value: unknown) => (typeof value === 'number' ? value : null);
const fullName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ');

/** The clinic's Doctors (and nurse practitioners and physician assistants, who sign in with the Doctor role). */
async function clinicProviders(db: Database, instanceId: string) {
  return db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      providerType: users.clinicalProviderType,
    })
    .from(users)
    .where(
      and(
        eq(users.role, RoleCode.Doctor),
        isNull(users.deletedAt),
        eq(users.status, 'active'),
        or(
          eq(users.instanceId, instanceId),
          sql`exists (select 1 from ${userInstances} where ${userInstances.userId} = ${users.id} and ${userInstances.instanceId} = ${instanceId})`,
        ),
      ),
    )
    .orderBy(asc(users.lastName), asc(users.firstName));
}

/** Ids must name live items of this clinic in the right lists, the provider a clinician of this clinic. */
async function checkReferences(ctx: SignedInContext, db: Database, input: InterventionPayload) {
  const fields: Record<string, ValidationMessageKey> = {};
  const wanted: [string, string, readonly string[]][] = [];
  if (input.kind !== 'pump' && input.itemId) wanted.push(['itemId', input.itemId, [itemListOf[input.kind]]]);
  for (const [field, lists] of Object.entries(listOf)) {
    const id = input[field as keyof typeof listOf];
    if (id) wanted.push([field, id, lists]);
  }
  input.medicines.forEach((medicine, index) =>
    wanted.push([`medicines.${index}.medicineId`, medicine.medicineId, ['medicines']]),
  );
  // Only injectables are given in a procedure (decision 0062); the record once took oral opioids.
  await checkInjectables(ctx, db, input, fields);
  input.pump?.refills.forEach((refill, index) =>
    wanted.push([`pump.refills.${index}.painPumpMedicineId`, refill.painPumpMedicineId, ['painpumpmedicines']]),
  );
  if (wanted.length > 0) {
    const found = await db
      .select({ id: managedItems.id, listType: managedItems.listType })
      .from(managedItems)
      .where(
        and(
          eq(managedItems.instanceId, ctx.instanceId),
          inArray(managedItems.id, [...new Set(wanted.map(([, id]) => id))]),
          isNull(managedItems.deletedAt),
        ),
      );
    for (const [field, id, lists] of wanted) {
      if (!found.some((item) => item.id === id && lists.includes(item.listType))) fields[field] = 'invalid';
    }
  }
  if (input.providerId) {
    const providers = await clinicProviders(db, ctx.instanceId);
    if (!providers.some((provider) => provider.id === input.providerId)) fields.providerId = 'invalid';
  }
  if (input.appointmentId) {
    const [visit] = await db
      .select({ patientId: appointments.patientId })
      .from(appointments)
      .where(
        and(
          eq(appointments.id, input.appointmentId),
          eq(appointments.instanceId, ctx.instanceId),
          isNull(appointments.deletedAt),
        ),
      );
    if (visit?.patientId !== input.patientId) fields.appointmentId = 'invalid';
  }
  if (Object.keys(fields).length > 0) throw new AppError('VALIDATION', 'valuesInvalid', { fields });
}

async function checkInjectables(
  ctx: SignedInContext,
  db: Database,
  input: InterventionPayload,
  fields: Record<string, ValidationMessageKey>,
) {
  if (input.medicines.length === 0) return;
  const rows = await db
    .select({ id: managedItems.id, attributes: managedItems.attributes })
    .from(managedItems)
    .where(
      and(
        eq(managedItems.instanceId, ctx.instanceId),
        eq(managedItems.listType, 'medicines'),
        inArray(
          managedItems.id,
          input.medicines.map((medicine) => medicine.medicineId),
        ),
      ),
    );
  input.medicines.forEach((medicine, index) => {
    const row = rows.find((candidate) => candidate.id === medicine.medicineId);
    if (row && !INJECTABLE_MEDICINE_KINDS.includes(medicineKindOf(row.attributes))) {
      fields[`medicines.${index}.medicineId`] = 'medicineNotInjectable';
    }
  });
}

async function toInterventions(db: Database, rows: Row[]): Promise<Intervention[]> {
  const itemIds = new Set<string>();
  const userIds = new Set<string>();
  for (const row of rows) {
    for (const id of [row.itemId, row.bodyPartId, row.directionId, row.locationId, row.adaLocationId]) if (id) itemIds.add(id);
    for (const medicine of row.medicines) itemIds.add(medicine.medicineId);
    for (const refill of row.pump?.refills ?? []) itemIds.add(refill.painPumpMedicineId);
    if (row.providerId) userIds.add(row.providerId);
  }
  const items =
    itemIds.size === 0
      ? []
      : await db
          .select({ id: managedItems.id, name: managedItems.name, attributes: managedItems.attributes })
          .from(managedItems)
          .where(inArray(managedItems.id, [...itemIds]));
  const people =
    userIds.size === 0
      ? []
      : await db
          .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
          .from(users)
          .where(inArray(users.id, [...userIds]));
  const itemOf = new Map(items.map((item) => [item.id, item]));
  const named = (id: string | null) => {
    const item = id ? itemOf.get(id) : undefined;
    return item ? { id: item.id, name: item.name } : null;
  };
  return rows.map((row) => {
    const provider = people.find((person) => person.id === row.providerId);
    const item = row.itemId ? itemOf.get(row.itemId) : undefined;
    return {
      id: row.id,
      patientId: row.patientId,
      appointmentId: row.appointmentId,
      kind: row.kind,
      item: item ? { id: item.id, name: item.name, cptCode: text(item.attributes.cptCode) } : null,
      bodyPart: named(row.bodyPartId),
      direction: named(row.directionId),
      location: named(row.locationId),
      adaLocation: named(row.adaLocationId),
      side: row.side,
      levels: row.levels,
      medicines: row.medicines.map((medicine) => ({
        ...medicine,
        volumeMl: medicine.volumeMl ?? null,
        lot: medicine.lot ?? null,
        name: itemOf.get(medicine.medicineId)?.name ?? '',
      })),
      guidance: row.guidance,
      performedOn: row.performedOn,
      provider: provider ? { id: provider.id, name: fullName(provider.firstName, provider.lastName) } : null,
      providerType: row.providerType,
      completion: row.completion,
      outcome: row.outcome,
      followUpPlan: row.followUpPlan,
      pump: row.pump
        ? {
            ...row.pump,
            refills: row.pump.refills.map((refill) => {
              const medicine = itemOf.get(refill.painPumpMedicineId);
              return { ...refill, name: medicine?.name ?? '', concentrationUnit: text(medicine?.attributes.unit) };
            }),
          }
        : null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  });
}

const valuesOf = (input: InterventionPayload, providerType: string | null) => ({
  appointmentId: input.appointmentId,
  kind: input.kind,
  itemId: input.kind === 'pump' ? (input.itemId ?? null) : input.itemId,
  bodyPartId: input.bodyPartId,
  directionId: input.directionId,
  locationId: input.locationId,
  adaLocationId: input.adaLocationId,
  side: input.side,
  levels: input.levels,
  medicines: input.medicines,
  guidance: input.guidance,
  performedOn: input.performedOn,
  providerId: input.providerId,
  providerType,
  completion: input.completion,
  outcome: input.outcome,
  followUpPlan: input.followUpPlan,
  pump: input.kind === 'pump' ? (input.pump as PumpVisit) : null,
});

async function providerTypeOf(db: Database, input: InterventionPayload): Promise<string | null> {
  if (input.providerType) return input.providerType;
  if (!input.providerId) return null;
  const [provider] = await db.select({ type: users.clinicalProviderType }).from(users).where(eq(users.id, input.providerId));
  return provider?.type ?? null;
}

async function findVisibleIntervention(ctx: SignedInContext, db: Database, id: string, forUpdate = false): Promise<Row> {
  const query = db
    .select()
    .from(interventions)
    .where(and(eq(interventions.id, id), eq(interventions.instanceId, ctx.instanceId), isNull(interventions.deletedAt)));
  const [row] = forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound('interventionNotFound');
  // A Doctor reaches only their own patients' records (404 otherwise, like the patient itself).
  await findVisiblePatient(ctx, db, row.patientId).catch(() => {
    throw notFound('interventionNotFound');
  });
  return row;
}

const describe = (input: InterventionPayload) =>
  input.kind === 'pump' ? 'Pain pump visit' : input.kind === 'injection' ? 'Injection' : 'Procedure';

/**
 * Records a procedure, injection or pump visit. A completed procedure or injection also marks the
 * patient's matching planned procedure performed and starts the pathways it triggers (decision 0041).
 */
export async function createIntervention(ctx: SignedInContext, input: InterventionPayload): Promise<Intervention> {
  const id = await ctx.db.transaction(async (tx) => {
    await findVisiblePatient(ctx, tx, input.patientId);
    await checkReferences(ctx, tx, input);
    const [row] = await tx
      .insert(interventions)
      .values({
        instanceId: ctx.instanceId,
        patientId: input.patientId,
        ...valuesOf(input, await providerTypeOf(tx, input)),
        createdBy: ctx.actor.userId,
      })
      .returning();
    await recordActivity(
      tx,
      staffActivity(ctx, 'Interventions', 'Created', {
        type: 'intervention',
        id: row!.id,
        description: `${describe(input)} recorded`,
      }),
    );
    if (row!.itemId && row!.completion === 1) await afterPerformed(ctx, tx, row!);
    return row!.id;
  });
  return getIntervention(ctx, id, false);
}

async function afterPerformed(ctx: SignedInContext, tx: Database, row: Row) {
  const [planned] = await tx
    .select({ id: plannedProcedures.id })
    .from(plannedProcedures)
    .where(
      and(
        eq(plannedProcedures.instanceId, ctx.instanceId),
        eq(plannedProcedures.patientId, row.patientId),
        eq(plannedProcedures.itemId, row.itemId!),
        isNull(plannedProcedures.interventionId),
        sql`${plannedProcedures.status} not in ('performed', 'cancelled', 'denied')`,
      ),
    )
    .orderBy(asc(plannedProcedures.createdAt))
    .limit(1);
  if (planned) {
    await tx
      .update(plannedProcedures)
      .set({ status: 'performed', interventionId: row.id, updatedAt: new Date() })
      .where(eq(plannedProcedures.id, planned.id));
  }
  // Pathways listen: a procedure may start its pathways (decision 0041).
  await announce(ctx, tx, 'procedurePerformed', {
    interventionId: row.id,
    patientId: row.patientId,
    itemId: row.itemId!,
    performedAt: new Date(`${row.performedOn}T12:00:00Z`),
  });
}

export async function updateIntervention(ctx: SignedInContext, id: string, input: InterventionPayload): Promise<Intervention> {
  await ctx.db.transaction(async (tx) => {
    const existing = await findVisibleIntervention(ctx, tx, id, true);
    if (existing.patientId !== input.patientId)
      throw new AppError('VALIDATION', 'valuesInvalid', { fields: { patientId: 'invalid' } });
    await checkReferences(ctx, tx, input);
    const [row] = await tx
      .update(interventions)
      .set({ ...valuesOf(input, await providerTypeOf(tx, input)), updatedAt: new Date() })
      .where(and(eq(interventions.id, id), eq(interventions.instanceId, ctx.instanceId)))
      .returning();
    await recordActivity(
      tx,
      staffActivity(ctx, 'Interventions', 'Updated', { type: 'intervention', id, description: `${describe(input)} updated` }),
    );
    // Procedure notes listen: unsigned drafts carry the new wording of the medicines given.
    await announce(ctx, tx, 'interventionMedicinesChanged', {
      interventionId: id,
      before: existing.medicines,
      after: row!.medicines,
    });
    // Completed only now (it was planned as not completed): the same follow-up as a new record.
    if (row!.itemId && row!.completion === 1 && existing.completion !== 1) await afterPerformed(ctx, tx, row!);
  });
  return getIntervention(ctx, id, false);
}

export async function deleteIntervention(ctx: SignedInContext, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await findVisibleIntervention(ctx, tx, id, true);
    await tx
      .update(interventions)
      .set({ deletedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(interventions.id, id), eq(interventions.instanceId, ctx.instanceId)));
    await recordActivity(
      tx,
      staffActivity(ctx, 'Interventions', 'Deleted', { type: 'intervention', id, description: 'Procedure record deleted' }),
    );
  });
}

export async function getIntervention(ctx: SignedInContext, id: string, audit = true): Promise<Intervention> {
  const row = await findVisibleIntervention(ctx, ctx.db, id);
  if (audit) {
    await recordActivity(
      ctx.db,
      staffActivity(ctx, 'Interventions', 'Viewed', { type: 'intervention', id, description: 'Procedure record viewed' }),
    );
  }
  const [view] = await toInterventions(ctx.db, [row]);
  return view!;
}

/** A patient's procedures, injections and pump visits, newest first. */
export async function patientInterventions(ctx: SignedInContext, patientId: string): Promise<Intervention[]> {
  const patient = await findVisiblePatient(ctx, ctx.db, patientId);
  const rows = await ctx.db
    .select()
    .from(interventions)
    .where(
      and(eq(interventions.instanceId, ctx.instanceId), eq(interventions.patientId, patient.id), isNull(interventions.deletedAt)),
    )
    .orderBy(desc(interventions.performedOn), desc(interventions.createdAt))
    .limit(200);
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Interventions', 'Viewed', { type: 'patient', id: patient.id, description: 'Procedure records viewed' }),
  );
  return toInterventions(ctx.db, rows);
}

/** `interventionforminfo/{id}` (id: the patient): the form's selectors in one call. */
export async function interventionFormInfo(ctx: SignedInContext, patientId: string): Promise<InterventionFormInfo> {
  const patient = await findVisiblePatient(ctx, ctx.db, patientId);
  // The form shows the patient's name, date of birth and visits: a read of patient data like any other.
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Interventions', 'Viewed', { type: 'patient', id: patient.id, description: 'Procedure form opened' }),
  );
  const lists = await ctx.db
    .select({
      id: managedItems.id,
      name: managedItems.name,
      listType: managedItems.listType,
      attributes: managedItems.attributes,
    })
    .from(managedItems)
    .where(
      and(
        eq(managedItems.instanceId, ctx.instanceId),
        isNull(managedItems.deletedAt),
        eq(managedItems.isActive, true),
        or(
          like(managedItems.listType, 'interventional%'),
          inArray(managedItems.listType, ['adainterventionallocations', 'medicines', 'painpumpmedicines']),
        ),
      ),
    )
    .orderBy(asc(managedItems.sortOrder), asc(managedItems.name));
  const of = (listType: string) => lists.filter((item) => item.listType === listType);
  const settings = await readSettings(ctx.db, ctx.instanceId);
  const visits = await ctx.db
    .select({ id: appointments.id, startsAt: appointments.startsAt, status: appointments.status })
    .from(appointments)
    .where(
      and(
        eq(appointments.instanceId, ctx.instanceId),
        eq(appointments.patientId, patient.id),
        isNull(appointments.deletedAt),
        sql`${appointments.status} <> ${AppointmentStatus.No_Show}`,
      ),
    )
    .orderBy(desc(appointments.startsAt))
    .limit(30);
  return {
    patient: {
      id: patient.id,
      name: fullName(patient.firstName, patient.lastName),
      dateOfBirth: patient.dateOfBirth,
      doctorId: patient.doctorId,
    },
    procedures: of('interventionalitems:1').map(({ id, name, attributes }) => ({ id, name, cptCode: text(attributes.cptCode) })),
    injections: of('interventionalitems:2').map(({ id, name, attributes }) => ({ id, name, cptCode: text(attributes.cptCode) })),
    bodyParts: of('interventionalitems:3').map(({ id, name }) => ({ id, name })),
    directions: of('interventionaldirections').map(({ id, name, attributes }) => ({
      id,
      name,
      abbreviation: text(attributes.abbreviation),
    })),
    locations: of('interventionallocations').map(({ id, name }) => ({ id, name })),
    adaLocations: of('adainterventionallocations').map(({ id, name, attributes }) => ({ id, name, code: text(attributes.code) })),
    medicines: of('medicines')
      .filter(({ attributes }) => INJECTABLE_MEDICINE_KINDS.includes(medicineKindOf(attributes)))
      .map(({ id, name, attributes }) => ({
        id,
        name,
        strength: num(attributes.strength),
        unit: text(attributes.unit),
        kind: medicineKindOf(attributes),
      })),
    painPumpMedicines: of('painpumpmedicines').map(({ id, name, attributes }) => ({
      id,
      name,
      concentration: num(attributes.concentration),
      unit: text(attributes.unit),
    })),
    providers: (await clinicProviders(ctx.db, ctx.instanceId)).map((provider) => ({
      id: provider.id,
      name: fullName(provider.firstName, provider.lastName),
      providerType: provider.providerType,
    })),
    appointments: visits.map((visit) => ({ id: visit.id, startsAt: visit.startsAt.toISOString(), status: visit.status })),
    procedureNotesEnabled: isOn(settings, 'enableProcedureNote'),
  };
}
