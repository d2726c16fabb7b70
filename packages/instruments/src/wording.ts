import type { FormLanguage } from '@pathwell/contracts/forms';
import type { InstrumentDefinition } from './types.js';

/** Whether patients can be given a form, and in which languages its wording exists for the clinic. */
export interface WordingAvailability {
  available: boolean;
  languages: FormLanguage[];
}

/**
 * The one answer to "can this clinic give this form to a patient?" (issue #24 §1, decision 0061). A
 * form that ships its wording can, in the languages it ships. A licensed one (ODI, NDI, PROMIS
 * Global-10, SOAPP-R; decision 0020) carries only neutral labels ("Section 1", options 0–5), which are
 * not the instrument: it can be given only where the clinic imported the licensed wording, and then in
 * the languages of that import.
 */
export function wordingAvailability(
  definition: Pick<InstrumentDefinition, 'wording' | 'languages'>,
  imported: { languages: readonly FormLanguage[] } | null | undefined,
): WordingAvailability {
  if (definition.wording === 'shipped') return { available: true, languages: [...definition.languages] };
  if (!imported) return { available: false, languages: [] };
  return { available: true, languages: [...imported.languages] };
}
