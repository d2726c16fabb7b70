import { describe, expect, it } from 'vitest';
import { activityActions, activityAreas } from './enums';
import { enumerations, enumerationTypes, findEnumerationType, LANGUAGE_DECLINED } from './enumerations';

const values = (type: keyof typeof enumerations) => enumerations[type].map((option) => option.value);

describe('enumerations', () => {
  it.each(enumerationTypes)('%s has unique values and labels in both languages', (type) => {
    const options = enumerations[type];
    expect(options.length).toBeGreaterThan(0);
    expect(new Set(options.map((option) => option.value)).size).toBe(options.length);
    for (const option of options) {
      expect(option.label.en.trim(), String(option.value)).not.toBe('');
      expect(option.label.es.trim(), String(option.value)).not.toBe('');
    }
  });

  it('audit actions and areas are exactly the ones the activity log stores', () => {
    expect(values('auditActionTypes')).toEqual([...activityActions]);
    expect(values('auditAreas')).toEqual([...activityAreas]);
  });

  it('US states: 50 states, DC, the five inhabited territories, by USPS code', () => {
    const states = enumerations.usStates;
    expect(states.filter((option) => option.group === 'state')).toHaveLength(50);
    expect(
      states
        .filter((option) => option.group === 'territory')
        .map((option) => option.value)
        .sort(),
    ).toEqual(['AS', 'GU', 'MP', 'PR', 'VI']);
    expect(states.find((option) => option.value === 'DC')?.label.en).toBe('District of Columbia');
    expect(states.every((option) => /^[A-Z]{2}$/.test(String(option.value)))).toBe(true);
  });

  it('countries are the 249 ISO 3166-1 alpha-2 codes, the US among them', () => {
    expect(enumerations.countries).toHaveLength(249);
    expect(enumerations.countries.find((option) => option.value === 'US')?.label).toEqual({
      en: 'United States',
      es: 'Estados Unidos',
    });
  });

  it('languages: three-letter ISO 639-2 codes, the 184 ISO 639-1 languages and more, then Patient Declined', () => {
    const languages = enumerations.languages;
    expect(languages.length).toBeGreaterThanOrEqual(185);
    expect(languages.at(-1)).toMatchObject({ value: LANGUAGE_DECLINED, label: { en: 'Patient Declined' } });
    expect(languages.slice(0, -1).every((option) => /^[a-z]{3}$/.test(String(option.value)))).toBe(true);
    for (const code of ['eng', 'spa', 'chi', 'vie', 'kor', 'ara', 'hmn', 'fil', 'hat'])
      expect(values('languages')).toContain(code);
  });

  it('keeps the numbers the spec gives', () => {
    expect(enumerations.roles.map((option) => [option.value, option.code])).toEqual([
      ['SystemManager', '4'],
      ['Admin', '1'],
      ['Doctor', '3'],
      ['Staff', '2'],
    ]);
    expect(enumerations.patientFormSteps.map((option) => option.code)).toEqual([
      'New_Patient_Paperwork',
      'Health_History_Forms',
      'Check_In_Questions',
      'VAS_Scores',
      'Body_Map',
      'PRO',
      'Payment',
      'Completed',
    ]);
    expect(enumerations.activeStatus.map((option) => option.value)).toEqual([1, 0]);
  });

  it('relationship to insured uses the X12 codes claims carry', () => {
    expect(enumerations.relationshipToInsured.find((option) => option.label.en === 'Self')?.value).toBe('18');
    expect(enumerations.relationshipToInsured.find((option) => option.label.en === 'Spouse')?.value).toBe('01');
  });

  it('finds a type ignoring case and rejects unknown names', () => {
    expect(findEnumerationType('NicotineStatus')).toBe('nicotineStatus');
    expect(findEnumerationType('nope')).toBeUndefined();
  });
});
