import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import { PROVIDER_FILL_IN } from '@pathwell/contracts/procedure-notes';
import { draftFor, selectIntervention } from '../../modules/procedure-notes/procedure-note-filling';
import type { Database } from '../client';
import { interventions, procedureNotes } from '../schema';

/**
 * Riverside's procedure notes (decision 0040): the oldest demo intervention has a signed note and the
 * newest a draft waiting on the provider's to-do list; both filled from the clinic's example templates.
 * Runs after the interventional care demo data.
 */
export async function seedDemoProcedureNotes(tx: Database, options: { instanceId: string }) {
  const { instanceId } = options;
  const rows = await tx
    .select({ id: interventions.id, providerId: interventions.providerId, performedOn: interventions.performedOn })
    .from(interventions)
    .where(and(eq(interventions.instanceId, instanceId), isNull(interventions.deletedAt), isNotNull(interventions.providerId)))
    .orderBy(asc(interventions.performedOn));
  if (rows.length === 0) return;
  const oldest = rows[0]!;
  const signed = await seedDraftNote(tx, instanceId, oldest.id, oldest.providerId);
  if (signed) {
    // Signed the evening of the day performed (23:00 UTC is 5 or 6 pm in Chicago).
    const signedAt = new Date(`${oldest.performedOn}T23:00:00.000Z`);
    // A signed note has its sections written (issue #24: the demo PDF printed the template's marker).
    const body = signed.body.replaceAll(PROVIDER_FILL_IN, 'Demo text: the provider wrote this section before signing.');
    await tx
      .update(procedureNotes)
      .set({ body, status: 'signed', signedAt, signedBy: oldest.providerId, updatedAt: signedAt })
      .where(eq(procedureNotes.id, signed.id));
  }
  const newest = rows.at(-1)!;
  if (newest.id !== oldest.id) await seedDraftNote(tx, instanceId, newest.id, newest.providerId);
}

/** Demo data: a draft note for an intervention, as a provider opening it would get (no audit entry, no user). */
async function seedDraftNote(db: Database, instanceId: string, interventionId: string, createdBy: string | null) {
  const loaded = await selectIntervention(db, instanceId, interventionId);
  if (!loaded) return null;
  const { template, body } = await draftFor(db, instanceId, loaded);
  const [row] = await db
    .insert(procedureNotes)
    .values({
      instanceId,
      patientId: loaded.patient.id,
      interventionId,
      templateId: template?.id ?? null,
      providerId: loaded.intervention.providerId,
      body,
      createdBy,
    })
    .returning();
  return row!;
}
