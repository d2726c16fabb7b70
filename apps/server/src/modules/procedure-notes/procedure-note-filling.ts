import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { enumerations } from '@pathwell/contracts/enumerations';
import { medicinesGivenText } from '@pathwell/contracts/interventions';
import { fillPlaceholders, type ProcedureNoteKind, type ProcedureNotePlaceholder } from '@pathwell/contracts/procedure-notes';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { interventions, managedItems, patients, procedureNoteTemplates, users } from '../../db/schema';
import { fieldError, notFound } from '../../lib/app-error';
import { findVisiblePatient } from '../patients/patient-visibility.service';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';

/*
 * Filling a note from the intervention it describes: which template applies, and the value of each of
 * its placeholders (decision 0040). The notes service opens, signs and amends what comes out of here.
 */

/** Used when the clinic has no active template for the procedure type; it says so in its first line. */
function defaultTemplateBody(kind: ProcedureNoteKind): string {
  const common = [
    'PROCEDURE NOTE',
    '(Default layout: this clinic has no template for this procedure type. Administrators can add one under Procedure note templates.)',
    '',
    'Patient: {{patientName}}',
    'Date of birth: {{dateOfBirth}}',
    'Date performed: {{datePerformed}}',
    'Provider: {{provider}} ({{providerType}})',
    '',
  ];
  const intervention = [
    'Procedure: {{procedure}}',
    'CPT code: {{cptCode}}',
    'Body part: {{bodyPart}}',
    'Side: {{side}}',
    'Levels: {{levels}}',
    'Direction: {{direction}}',
    'Location: {{location}}',
    'Guidance: {{guidance}}',
    'Medicines: {{medicines}}',
  ];
  const pump = [
    'Pump procedure: {{pumpProcedure}}',
    'Reservoir volume (mL): {{reservoirVolume}}',
    'Pump medicines: {{pumpRefills}}',
    'Next refill date: {{nextRefillDate}}',
  ];
  return [
    ...common,
    ...(kind === 'pump' ? pump : intervention),
    'Completion: {{completion}}',
    'Outcome: {{outcome}}',
    'Follow-up plan: {{followUpPlan}}',
  ].join('\n');
}

const sideLabels = { left: 'Left', right: 'Right', bilateral: 'Bilateral', midline: 'Midline' } as const;
const guidanceLabels = {
  fluoroscopy: 'Fluoroscopy',
  ultrasound: 'Ultrasound',
  ct: 'CT',
  landmark: 'Landmark',
  none: 'None',
} as const;

const labelOf = (type: 'completion' | 'pumpProcedures' | 'doseChanges', value: number | null | undefined) =>
  enumerations[type].find((option) => option.value === value)?.label.en ?? '';

export const isoToMdy = (value: string | null | undefined) => {
  if (!value) return '';
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match ? `${match[2]}/${match[3]}/${match[1]}` : value;
};

export const personName = (first: string | null, last: string | null) => (first ? `${first} ${last ?? ''}`.trim() : null);

const itemAlias = alias(managedItems, 'item');
const bodyPartAlias = alias(managedItems, 'body_part');
const directionAlias = alias(managedItems, 'direction');
const locationAlias = alias(managedItems, 'location');
const adaLocationAlias = alias(managedItems, 'ada_location');

/** The intervention with the names it points at and its patient; undefined when it is not the clinic's. */
export async function selectIntervention(db: Database, instanceId: string, interventionId: string) {
  const [row] = await db
    .select({
      intervention: interventions,
      itemName: itemAlias.name,
      itemAttributes: itemAlias.attributes,
      bodyPart: bodyPartAlias.name,
      direction: directionAlias.name,
      location: locationAlias.name,
      adaLocation: adaLocationAlias.name,
      providerFirst: users.firstName,
      providerLast: users.lastName,
      providerCredentials: users.credentials,
    })
    .from(interventions)
    .leftJoin(itemAlias, eq(itemAlias.id, interventions.itemId))
    .leftJoin(bodyPartAlias, eq(bodyPartAlias.id, interventions.bodyPartId))
    .leftJoin(directionAlias, eq(directionAlias.id, interventions.directionId))
    .leftJoin(locationAlias, eq(locationAlias.id, interventions.locationId))
    .leftJoin(adaLocationAlias, eq(adaLocationAlias.id, interventions.adaLocationId))
    .leftJoin(users, eq(users.id, interventions.providerId))
    .where(and(eq(interventions.instanceId, instanceId), eq(interventions.id, interventionId), isNull(interventions.deletedAt)));
  if (!row) return undefined;
  const [patient] = await db.select().from(patients).where(eq(patients.id, row.intervention.patientId));
  return patient ? { ...row, patient } : undefined;
}

/** The same, for a user: 404 when it is not the clinic's or its patient is not visible to them. */
export async function loadIntervention(ctx: SignedInContext, db: Database, interventionId: string) {
  const loaded = await selectIntervention(db, ctx.instanceId, interventionId);
  if (!loaded) throw notFound('interventionNotFound');
  await findVisiblePatient(ctx, db, loaded.patient.id).catch(() => {
    throw notFound('interventionNotFound');
  });
  return loaded;
}

export type LoadedIntervention = NonNullable<Awaited<ReturnType<typeof selectIntervention>>>;

async function placeholderValues(
  db: Database,
  loaded: LoadedIntervention,
  clinicName: string,
): Promise<Record<ProcedureNotePlaceholder, string>> {
  const { intervention, patient } = loaded;
  const medicineIds = [
    ...intervention.medicines.map((medicine) => medicine.medicineId),
    ...(intervention.pump?.refills ?? []).map((refill) => refill.painPumpMedicineId),
  ];
  const names = new Map<string, { name: string; attributes: Record<string, unknown> }>();
  if (medicineIds.length > 0) {
    const rows = await db
      .select({ id: managedItems.id, name: managedItems.name, attributes: managedItems.attributes })
      .from(managedItems)
      .where(and(eq(managedItems.instanceId, intervention.instanceId), inArray(managedItems.id, medicineIds)));
    for (const row of rows) names.set(row.id, row);
  }
  const pump = intervention.pump;
  const provider = personName(loaded.providerFirst, loaded.providerLast);
  const procedure =
    loaded.itemName ?? (intervention.kind === 'pump' ? labelOf('pumpProcedures', pump?.procedure) || 'Pump refill' : '');
  return {
    clinicName,
    patientName: `${patient.firstName} ${patient.lastName}`.trim(),
    dateOfBirth: isoToMdy(patient.dateOfBirth),
    datePerformed: isoToMdy(intervention.performedOn),
    procedure,
    cptCode: typeof loaded.itemAttributes?.cptCode === 'string' ? loaded.itemAttributes.cptCode : '',
    bodyPart: loaded.bodyPart ?? '',
    side: intervention.side ? sideLabels[intervention.side] : '',
    levels: intervention.levels.join(', '),
    direction: loaded.direction ?? '',
    location: loaded.location ?? '',
    adaLocation: loaded.adaLocation ?? '',
    guidance: intervention.guidance ? guidanceLabels[intervention.guidance] : '',
    // The record's one wording (decision 0062), which signing checks the note still carries.
    medicines: medicinesGivenText(
      intervention.medicines.map((medicine) => ({ ...medicine, name: names.get(medicine.medicineId)?.name ?? 'Medicine' })),
    ),
    provider: provider ? [provider, loaded.providerCredentials].filter(Boolean).join(', ') : '',
    providerType: intervention.providerType ?? '',
    completion: labelOf('completion', intervention.completion),
    outcome: intervention.outcome ?? '',
    followUpPlan: intervention.followUpPlan ?? '',
    pumpProcedure: pump ? labelOf('pumpProcedures', pump.procedure) : '',
    reservoirVolume: pump?.reservoirVolumeMl == null ? '' : String(pump.reservoirVolumeMl),
    pumpRefills: (pump?.refills ?? [])
      .map((refill) => {
        const medicine = names.get(refill.painPumpMedicineId);
        const unit = typeof medicine?.attributes.unit === 'string' ? medicine.attributes.unit : '';
        const change = labelOf('doseChanges', refill.doseChange);
        const doses = [
          refill.dailyDose == null ? null : `daily dose ${refill.dailyDose}`,
          refill.newDailyDose == null ? null : `new daily dose ${refill.newDailyDose}`,
        ].filter(Boolean);
        return [`${medicine?.name ?? 'Medicine'} ${refill.concentration} ${unit}`.trim(), change, ...doses]
          .filter(Boolean)
          .join(', ');
      })
      .join('; '),
    nextRefillDate: isoToMdy(pump?.nextRefillDate),
  };
}

/** The named template, else the item's own active one, else the kind's; null means the built-in default. */
export async function chooseTemplate(db: Database, instanceId: string, loaded: LoadedIntervention, templateId?: string) {
  const { intervention } = loaded;
  if (templateId) {
    const [chosen] = await db
      .select()
      .from(procedureNoteTemplates)
      .where(
        and(
          eq(procedureNoteTemplates.instanceId, instanceId),
          eq(procedureNoteTemplates.id, templateId),
          eq(procedureNoteTemplates.kind, intervention.kind),
          isNull(procedureNoteTemplates.deletedAt),
        ),
      );
    if (!chosen) throw fieldError('templateId', 'invalid');
    return chosen;
  }
  const candidates = await db
    .select()
    .from(procedureNoteTemplates)
    .where(
      and(
        eq(procedureNoteTemplates.instanceId, instanceId),
        eq(procedureNoteTemplates.kind, intervention.kind),
        eq(procedureNoteTemplates.isActive, true),
        isNull(procedureNoteTemplates.deletedAt),
      ),
    )
    .orderBy(desc(procedureNoteTemplates.updatedAt));
  return (
    candidates.find((row) => intervention.itemId !== null && row.itemId === intervention.itemId) ??
    candidates.find((row) => row.itemId === null) ??
    null
  );
}

/** The template a new note starts from and its text filled from the intervention. */
export async function draftFor(db: Database, instanceId: string, loaded: LoadedIntervention, templateId?: string) {
  const template = await chooseTemplate(db, instanceId, loaded, templateId);
  const values = await placeholderValues(db, loaded, await clinicDisplayName(db, instanceId));
  return { template, body: fillPlaceholders(template?.body ?? defaultTemplateBody(loaded.intervention.kind), values) };
}
