import { describe, expect, it } from 'vitest';
import { EMAIL_PATTERN, emailSchema, isAllowedPublicUrl, mdyDateProblem, mdyDateSchema } from './validation';

/** The input of the security review: one character after the `@`, then dots, then a second `@`. */
const crafted = (dots: number) => `a@${'.'.repeat(dots)}@`;
const ONE_MIB = 1024 * 1024;

describe('e-mail pattern', () => {
  it.each([
    ['ana@clinic.com', true],
    ['ana.lopez+intake@mail.clinic.org', true],
    ['a@b.c', true],
    ['a@..c', true],
    ['a@b..c', true],
    ['a@.b.c', true],
    ['a@b.', false],
    ['a@.b', false],
    ['a@bc', false],
    ['a@b@c.d', false],
    ['@b.c', false],
    ['a b@c.d', false],
    ['a@b c.d', false],
    ['', false],
  ])('reads %s as valid: %s', (address, valid) => {
    expect(EMAIL_PATTERN.test(address)).toBe(valid);
  });

  // Without a timing assertion: a pattern that backtracks over the dots would not return within the
  // test's life (the review measured 0.8 s at 32,000 characters, growing with the square of the length).
  it('answers the crafted input of 1 MiB at once, so its work grows with the length only', () => {
    expect(EMAIL_PATTERN.test(crafted(ONE_MIB))).toBe(false);
    expect(EMAIL_PATTERN.test(`a@b${'.b'.repeat(ONE_MIB / 2)} @`)).toBe(false);
  });

  it('refuses an address longer than 254 characters as tooLong and stops there', () => {
    const result = emailSchema.safeParse(crafted(ONE_MIB));
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['tooLong']);
  });
});

describe('public URLs (section 5) refuse every private spelling', () => {
  it.each([
    'http://[::1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::ffff:10.0.0.5]/',
    'http://[::ffff:169.254.169.254]/latest/meta-data',
    'http://[fd12:3456::1]/',
    'http://[fc00::1]/',
    'http://[fe80::1]/',
    'http://[64:ff9b::192.168.1.1]/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://127.1/',
    'http://100.64.0.1/',
    'http://169.254.169.254/',
    'http://172.31.255.255/',
    'http://localhost./',
    'http://api.localhost/',
    'http://0.0.0.0/',
  ])('refuses %s', (url) => {
    expect(isAllowedPublicUrl(url)).toBe(false);
  });

  it.each([
    'https://example.com/hook',
    'https://[2001:4860:4860::8888]/',
    'http://8.8.8.8/',
    'https://172.32.0.1/',
    'ftp://files.example.org/',
  ])('accepts %s', (url) => {
    expect(isAllowedPublicUrl(url)).toBe(true);
  });
});

describe('typed MM/DD/YYYY dates', () => {
  it.each([
    ['03/09/1975', null],
    ['02/29/2024', null],
    ['02/31/1982', 'dateNotReal'],
    ['02/29/2023', 'dateNotReal'],
    ['01/01/1700', 'dateNotReal'],
    ['13/01/1990', 'dateInvalid'],
    ['1982-02-03', 'dateInvalid'],
    ['', 'dateInvalid'],
  ])('%s: %s', (value, problem) => {
    expect(mdyDateProblem(value)).toBe(problem);
    const parsed = mdyDateSchema().safeParse(value);
    expect(parsed.success ? null : parsed.error.issues.map((issue) => issue.message)).toEqual(problem ? [problem] : null);
  });
});
