import { describe, expect, it } from 'vitest';
import { DOCUMENT_MAX_LENGTH, settingDefinitions } from './instance-settings';
import { defaultLegalTexts, legalPages, legalTextSettingKeys, paragraphsOf } from './legal-texts';

describe('clinic terms and privacy texts', () => {
  it('splits paragraphs at blank lines, keeps single line breaks and ignores stray blank space', () => {
    expect(paragraphsOf('  One.\r\n\r\nTwo, line one.\nline two.\n \t\n\n\nThree.  \n')).toEqual([
      'One.',
      'Two, line one.\nline two.',
      'Three.',
    ]);
    expect(paragraphsOf(' \n\n ')).toEqual([]);
  });

  it('names a document setting for every page and language', () => {
    for (const page of legalPages) {
      for (const key of Object.values(legalTextSettingKeys[page]))
        expect(settingDefinitions.get(key)?.type, key).toBe('document');
    }
  });

  it('has defaults in both languages that fit a clinic setting and read as several paragraphs', () => {
    for (const page of legalPages) {
      for (const text of Object.values(defaultLegalTexts[page])) {
        expect(text.length).toBeLessThanOrEqual(DOCUMENT_MAX_LENGTH);
        expect(paragraphsOf(text).length).toBeGreaterThanOrEqual(6);
        expect(text).not.toMatch(/[<>]/);
      }
    }
  });

  it('says plainly that Pathwell asks for no advertising or marketing consent, and where to call in an emergency', () => {
    expect(defaultLegalTexts.privacy.en).toContain(
      'Pathwell does not ask for, and does not use your information for, advertising or marketing consent.',
    );
    expect(defaultLegalTexts.privacy.es).toContain(
      'Pathwell no le pide consentimiento para publicidad ni marketing, y no usa su información con ese fin.',
    );
    for (const text of Object.values(defaultLegalTexts.terms)) {
      expect(text).toContain('911');
      expect(text).toContain('112');
    }
  });
});
