import { describe, expect, it } from 'vitest';
import { validationMessages } from './messages';
import { isMessageKey, placeholdersOf, renderServerMessage, serverMessages } from './server-messages';

const entries = Object.entries(serverMessages) as [
  keyof typeof serverMessages,
  { en: string; es: string; statusParams?: readonly string[] },
][];

describe('server messages', () => {
  it.each(entries)('%s is written in English and Spanish with the same parameters', (_key, message) => {
    expect(message.en.trim()).not.toBe('');
    expect(message.es.trim()).not.toBe('');
    expect(placeholdersOf(message.es).sort()).toEqual(placeholdersOf(message.en).sort());
    for (const name of message.statusParams ?? []) expect(placeholdersOf(message.en)).toContain(name);
  });

  it('every Spanish text is its own, not the English one left in place', () => {
    const untranslated = entries.filter(([, m]) => m.es === m.en && m.en.replace(/\{\{\w+\}\}/g, '').trim() !== '');
    expect(untranslated.map(([key]) => key)).toEqual([]);
  });

  it('a key names one message: no server key repeats a validation key', () => {
    const clash = Object.keys(serverMessages).filter((key) => Object.hasOwn(validationMessages, key));
    expect(clash).toEqual([]);
  });

  it('fills parameters, writes numbers the way each language does and names appointment statuses', () => {
    expect(renderServerMessage('activityExportTooLarge', { max: 100000 }, 'en')).toBe(
      'This export would hold more than 100,000 entries. Narrow the dates or filters and export again.',
    );
    expect(renderServerMessage('activityExportTooLarge', { max: 100000 }, 'es')).toContain('100.000');
    expect(renderServerMessage('statusChangeNotAllowed', { from: 3, to: 2 }, 'en')).toBe(
      'An appointment that is Completed cannot become Upcoming',
    );
    expect(renderServerMessage('statusChangeNotAllowed', { from: 3, to: 2 }, 'es')).toBe(
      'Una cita en estado «Completada» no puede pasar a «Próxima»',
    );
  });

  it('reads validation keys too, and leaves a missing parameter visible', () => {
    expect(renderServerMessage('nameTaken', undefined, 'es')).toBe(validationMessages.nameTaken.es);
    expect(renderServerMessage('settingInvalid', {}, 'en')).toBe('Setting {{setting}} is not valid');
    expect(isMessageKey('patientNotFound')).toBe(true);
    expect(isMessageKey('Patient not found')).toBe(false);
  });
});
