import type { FormLanguage, FormQuestion, FormSection, LocalizedText } from '@pathwell/contracts/forms';

/** Outcome form codes 1..15 of specification section 3. */
export type FormCode = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15;
export const formCodes: readonly FormCode[] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/** `q1`..`qN` (and `sex` where the instrument needs it) to numeric codes; absent or null = unanswered. */
export type InstrumentAnswers = Record<string, number | null | undefined>;
/** Every score the reference defines for the form, keyed as in the vector file; null = not scorable. */
export type ScoreResult = Record<string, number | null>;

export interface ScoreDescriptor {
  /** Key in ScoreResult, e.g. `odiPercent`, `gphT`, `pcs`, `band`. */
  key: string;
  label: LocalizedText;
  min: number;
  max: number;
  /** Decimals to show (stored unrounded). */
  decimals: number;
  higherIsBetter: boolean;
  /** A categorical code (band, severity, screen result) rather than a measure. */
  categorical?: boolean;
}

export interface BandDescriptor {
  /** Score key holding the code, e.g. `band`, `severity`, `riskCategory`, `screenPositive`. */
  key: string;
  labels: Record<number, LocalizedText>;
}

/**
 * An item whose answer needs a clinician's attention whatever the total (a safety item). Declarative so
 * every submission path and every screen read the same rule; each rule names its published source.
 */
export interface CriticalItemRule {
  /** Stable key stored with each finding, e.g. `phq9-item9`. */
  key: string;
  /** Question id in `questions`, e.g. `q9`. */
  itemId: string;
  /** A finding when the answer code is at least this (PHQ-9 item 9: 1, any answer above "Not at all"). */
  minimumCode: number;
  /** Staff-facing name of the finding. */
  label: LocalizedText;
  /** The published source that makes this item critical. */
  source: string;
}

export interface InstrumentDefinition {
  formCode: FormCode;
  /** Section 2 route slug: sf36, odi, ndi, pdi, hoosjr, koosjr, promisglobal10, vr12, ort, phq2, phq9, gad7, soappr, auditc, cesdr. */
  slug: string;
  /** Patient-facing name; RAND-36 is never called SF-36 in patient-facing text. */
  name: LocalizedText;
  /** Recorded with every response, e.g. 'RAND-36 1.0', 'ODI 2.1a', 'VR-12 (mail, 1990 norms)'. */
  version: string;
  /**
   * 'shipped': item wording is in this definition. 'licensed': structure and scoring only, with neutral
   * labels ('Item 1', 'Option 0' ...); a System Manager imports the licensed wording per clinic.
   */
  wording: 'shipped' | 'licensed';
  /** Languages whose wording is in this definition. Spanish only from a published validated translation. */
  languages: FormLanguage[];
  /** Citation of the published Spanish translation, when `languages` includes 'es'. */
  translationSource?: string;
  /** Shown to a patient who asked for a language the form does not have. */
  languageNotice?: LocalizedText;
  /** Credit / copyright line that must accompany the form. */
  credit?: LocalizedText;
  instructions?: LocalizedText;
  sections: FormSection[];
  /** Items in printed order (ids q1..qN), then extra inputs such as `sex`. */
  questions: FormQuestion[];
  /**
   * For every scored item: true when a higher code means worse health (or higher risk). Used by the
   * property test "answering one item worse never improves the score".
   */
  higherCodeIsWorse: Record<string, boolean>;
  scores: ScoreDescriptor[];
  /** The single score reports use (decision record 0017) and the section 9 maximum for the form. */
  headline: { key: string; maximum: number };
  bands?: BandDescriptor[];
  /** Minimal clinically important difference on the headline score, where the reference gives one. */
  mcid?: { points: number; source: string };
  /** Safety items that raise an urgent finding when answered at or above their threshold. */
  criticalItems?: CriticalItemRule[];
  score(answers: InstrumentAnswers): ScoreResult;
}
