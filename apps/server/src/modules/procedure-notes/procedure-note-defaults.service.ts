import { eq } from 'drizzle-orm';
import { unknownPlaceholders } from '@pathwell/contracts/procedure-notes';
import type { Database } from '../../db/client';
import { procedureNoteTemplates } from '../../db/schema';

/**
 * Example procedure note templates every new clinic starts with (decision 0040). They are documentation
 * scaffolding only: the recorded fields as placeholders and empty sections for the provider to write;
 * no clinical content. The clinic edits or replaces them on /admin/procedurenotetemplates.
 */
const sections = (title: string) =>
  [
    title,
    'Patient: {{patientName}}    Date of birth: {{dateOfBirth}}',
    'Date performed: {{datePerformed}}',
    'Provider: {{provider}} ({{providerType}})',
    '',
    'Procedure: {{procedure}} (CPT {{cptCode}})',
    'Body part: {{bodyPart}}    Side: {{side}}    Levels: {{levels}}',
    'Direction: {{direction}}    Location: {{location}}',
    'Guidance: {{guidance}}',
    'Medicines: {{medicines}}',
    '',
    'Indication:',
    '[to be completed by the provider]',
    '',
    'Description:',
    '[to be completed by the provider]',
    '',
    'Completion: {{completion}}',
    'Outcome: {{outcome}}',
    'Follow-up plan: {{followUpPlan}}',
  ].join('\n');

const exampleProcedureNoteTemplates = [
  { name: 'Example: injection note', kind: 'injection' as const, body: sections('INJECTION NOTE') },
  { name: 'Example: procedure note', kind: 'procedure' as const, body: sections('PROCEDURE NOTE') },
];

for (const template of exampleProcedureNoteTemplates) {
  if (unknownPlaceholders(template.body).length) throw new Error(`Example template ${template.name} has unknown placeholders`);
}

/** Only into a clinic that has never had a template, so running it again (or after the clinic deleted them) adds nothing. */
export async function seedProcedureNoteTemplates(tx: Database, instanceId: string): Promise<void> {
  const [any] = await tx
    .select({ id: procedureNoteTemplates.id })
    .from(procedureNoteTemplates)
    .where(eq(procedureNoteTemplates.instanceId, instanceId))
    .limit(1);
  if (any) return;
  await tx.insert(procedureNoteTemplates).values(exampleProcedureNoteTemplates.map((template) => ({ instanceId, ...template })));
}
