import type { LocalizedText } from '@pathwell/contracts/forms';
import { instruments, isFormCode } from '@pathwell/instruments';
import { localized } from './questionnaire-text';

type ScoreInfo = { key: string; label: LocalizedText; decimals: number; categorical?: boolean };
type InstrumentInfo = {
  headline: ScoreInfo;
  /** The section 9 maximum of the headline score. */
  maximum: number;
  scores: ScoreInfo[];
  bands: { key: string; labels: Record<number, LocalizedText> }[];
};

/** Score names, decimals, maximum and band labels of an outcome form, from its definition. */
export function instrumentInfo(formCode: number | null): InstrumentInfo | null {
  if (!isFormCode(formCode)) return null;
  const definition = instruments[formCode];
  const headline = definition.scores.find((score) => score.key === definition.headline.key) ?? {
    key: definition.headline.key,
    label: definition.name,
    decimals: 0,
  };
  return { headline, maximum: definition.headline.maximum, scores: definition.scores, bands: definition.bands ?? [] };
}

/**
 * The label of a band code. Without `key` it is the response's headline band, which the server
 * stores from the form's first band (severity, disability level, risk category).
 */
export function bandText(formCode: number | null, code: number | null, language: string, key?: string): string | null {
  if (code === null) return null;
  const info = instrumentInfo(formCode);
  const band = key ? info?.bands.find((candidate) => candidate.key === key) : info?.bands[0];
  const label = band?.labels[code];
  return label ? localized(label, language) : null;
}
