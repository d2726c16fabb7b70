import type { LocalizedText } from '@pathwell/contracts/forms';
import type { InstrumentAnswers, InstrumentDefinition } from './types.js';

/** One critical item answered at or above its threshold in a response. */
export interface CriticalFinding {
  key: string;
  itemId: string;
  /** The answer code the patient gave. */
  answer: number;
  label: LocalizedText;
  source: string;
}

/**
 * The critical findings of a response: every rule of the instrument whose item was answered at or above
 * its threshold. Read from the raw answer, not the scores, so an item answered on an otherwise
 * incomplete (unscorable) form still raises its finding. Unanswered or non-numeric answers raise none:
 * a finding is never inferred from an answer the patient did not give.
 */
export function criticalFindingsOf(definition: InstrumentDefinition, answers: InstrumentAnswers): CriticalFinding[] {
  const findings: CriticalFinding[] = [];
  for (const rule of definition.criticalItems ?? []) {
    const answer = answers[rule.itemId];
    if (typeof answer !== 'number' || !Number.isFinite(answer) || answer < rule.minimumCode) continue;
    findings.push({ key: rule.key, itemId: rule.itemId, answer, label: rule.label, source: rule.source });
  }
  return findings;
}
