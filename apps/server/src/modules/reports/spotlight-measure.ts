import { PAIN_MCID } from '@pathwell/contracts/reports-spotlight';
import { getInstrument, isFormCode } from '@pathwell/instruments';
import { fieldError } from '../../lib/app-error';

export interface SpotlightMeasure {
  formCode: number | null;
  mcid: number;
  mcidSource: string;
  higherIsBetter: boolean;
  maximum: number;
  name: { en: string; es: string };
}

/**
 * The measure a spotlight ranks by: the visit pain score (null) or an outcome form's headline score, which
 * must have a published MCID (decision 0045); anything else is a 400 on `formCode`.
 */
export function spotlightMeasure(formCode: number | null | undefined): SpotlightMeasure {
  if (formCode === null || formCode === undefined) {
    return {
      formCode: null,
      mcid: PAIN_MCID.points,
      mcidSource: PAIN_MCID.source,
      higherIsBetter: false,
      maximum: 10,
      name: { en: 'Pain (0–10)', es: 'Dolor (0–10)' },
    };
  }
  if (!isFormCode(formCode)) throw fieldError('formCode', 'optionInvalid');
  const instrument = getInstrument(formCode);
  const descriptor = instrument.scores.find((score) => score.key === instrument.headline.key);
  if (!instrument.mcid || !descriptor) throw fieldError('formCode', 'optionInvalid');
  return {
    formCode,
    mcid: instrument.mcid.points,
    mcidSource: instrument.mcid.source,
    higherIsBetter: descriptor.higherIsBetter,
    maximum: instrument.headline.maximum,
    name: { en: instrument.name.en, es: instrument.name.es ?? instrument.name.en },
  };
}
