import { describe, expect, it } from 'vitest';
import { healthHistorySchema, paperworkSchema } from './intake';
import { verifyLinkSchema } from './patient-links';
import { maxLengthAt } from './schema-limits';

describe('maxLengthAt: the page takes its limits from the contract', () => {
  it.each([
    ['email', 254, paperworkSchema],
    ['streetAddress1', 200, paperworkSchema],
    ['city', 100, paperworkSchema],
    ['zip', 10, paperworkSchema],
    ['phones.number', 30, paperworkSchema],
    ['contacts.0.name', 120, paperworkSchema],
    ['primaryInsurance.memberId', 60, paperworkSchema],
    ['pharmacy.name', 120, paperworkSchema],
    ['extended.pronouns', 40, paperworkSchema],
    ['lastName', 100, verifyLinkSchema],
    ['dateOfBirth', 10, verifyLinkSchema],
  ] as const)('%s holds at most %i characters', (path, max, schema) => {
    expect(maxLengthAt(schema, path)).toBe(max);
  });

  it('is undefined where there is no text with a maximum', () => {
    expect(maxLengthAt(paperworkSchema, 'selfPay')).toBeUndefined();
    expect(maxLengthAt(paperworkSchema, 'nowhere.at.all')).toBeUndefined();
    expect(maxLengthAt(healthHistorySchema, 'medications.name')).toBeGreaterThan(0);
  });
});
