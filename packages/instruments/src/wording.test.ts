import { describe, expect, it } from 'vitest';
import { formCodes, getInstrument, wordingAvailability } from './index.js';

describe('wordingAvailability (issue #24 §1)', () => {
  it('a licensed form without the clinic’s imported wording cannot be given; with it, in the import’s languages', () => {
    const odi = getInstrument(2);
    expect(wordingAvailability(odi, null)).toEqual({ available: false, languages: [] });
    expect(wordingAvailability(odi, { languages: ['en'] })).toEqual({ available: true, languages: ['en'] });
    expect(wordingAvailability(odi, { languages: ['en', 'es'] })).toEqual({ available: true, languages: ['en', 'es'] });
  });

  it('a form that ships its wording is available in its own languages, whatever was imported', () => {
    expect(wordingAvailability(getInstrument(11), null)).toEqual({ available: true, languages: ['en', 'es'] });
    expect(wordingAvailability(getInstrument(4), undefined)).toEqual({ available: true, languages: ['en'] });
  });

  it('exactly ODI, NDI, PROMIS Global-10 and SOAPP-R need an import', () => {
    const needImport = formCodes.filter((code) => !wordingAvailability(getInstrument(code), null).available);
    expect(needImport).toEqual([2, 3, 7, 13]);
  });
});
