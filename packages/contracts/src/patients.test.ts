import { describe, expect, it } from 'vitest';
import {
  isoToMdy,
  mdyToIso,
  patientFilterSchema,
  patientFormSchema,
  patientPayloadSchema,
  patientSearchQuerySchema,
  phoneDigits,
} from './patients';

const base = { firstName: 'Ana', lastName: 'López', dateOfBirth: '1980-04-12' };

describe('patient payload', () => {
  it('fills the section 3 defaults: weight 0, opt-ins on, English, no phones', () => {
    expect(patientPayloadSchema.parse(base)).toMatchObject({
      weight: 0,
      enableEmail: true,
      enableText: true,
      preferredLanguage: 'en',
      patientPhoneNumbers: [],
      email: null,
      zip: null,
    });
  });

  it.each(['12345', '12345-6789'])('accepts the US ZIP %s', (zip) => {
    expect(patientPayloadSchema.safeParse({ ...base, zip }).success).toBe(true);
  });

  it.each(['1234', '123456', '12345-678', 'ABCDE'])('refuses the ZIP %s with zipInvalid', (zip) => {
    const result = patientPayloadSchema.safeParse({ ...base, zip });
    expect(result.error?.issues[0]?.message).toBe('zipInvalid');
  });

  it.each(['(555) 201-3344', '555-201-3344', '+1 555 201 3344', '5552013344'])('accepts the US phone %s', (number) => {
    expect(patientPayloadSchema.safeParse({ ...base, patientPhoneNumbers: [{ phoneType: 7, number }] }).success).toBe(true);
  });

  it.each([
    ['12345', 'phoneInvalid'],
    ['(055) 201-3344', 'phoneInvalid'],
    ['', 'phoneRequired'],
  ])('refuses the phone %j with %s', (number, key) => {
    const result = patientPayloadSchema.safeParse({ ...base, patientPhoneNumbers: [{ phoneType: 7, number }] });
    expect(result.error?.issues[0]?.message).toBe(key);
  });

  it('keeps only the digits of a phone for search', () => {
    expect(phoneDigits('+1 (555) 201-3344')).toBe('5552013344');
  });

  it('refuses calendar-impossible dates', () => {
    expect(patientPayloadSchema.safeParse({ ...base, dateOfBirth: '1980-02-30' }).error?.issues[0]?.message).toBe('dateInvalid');
  });
});

describe('patient form', () => {
  it('reads MM/DD/YYYY and sends ISO', () => {
    const parsed = patientFormSchema.parse({ ...base, dateOfBirth: '04/12/1980', agreementSignedDate: '' });
    expect(parsed.dateOfBirth).toBe('1980-04-12');
    expect(parsed.agreementSignedDate).toBeNull();
  });
  it('round-trips dates', () => {
    expect(mdyToIso(isoToMdy('2001-12-31'))).toBe('2001-12-31');
    expect(mdyToIso('13/01/2000')).toBeNull();
  });
});

describe('patient list filter', () => {
  it('defaults to Active, CreationStamp newest first, page 0 of 15', () => {
    expect(patientFilterSchema.parse({})).toMatchObject({
      patientStatus: 'Active',
      sortBy: 'CreationStamp',
      sortDirection: 'desc',
      paginationFilter: { pageSize: 15, pageNumber: 0 },
    });
  });
  it('refuses sort fields outside the allow-list', () => {
    expect(patientFilterSchema.safeParse({ sortBy: 'id; drop table patients' }).success).toBe(false);
  });
  it('needs 3 characters to search', () => {
    expect(patientSearchQuerySchema.safeParse({ searchParam: 'ab ' }).success).toBe(false);
    expect(patientSearchQuerySchema.safeParse({ searchParam: 'abc' }).success).toBe(true);
  });
});
