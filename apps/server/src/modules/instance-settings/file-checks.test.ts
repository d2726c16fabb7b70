import { describe, expect, it } from 'vitest';
import { LOGO_MAX_BYTES } from '@pathwell/contracts/instance-settings';
import { isSafeSvg } from './file-checks';

const svg = (inner: string) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${inner}</svg>`);

describe('SVG logo checks', () => {
  it.each([
    ['an external link', '<a href="https://evil.example/"><rect/></a>', false],
    ['an external link with spaces around the quote', '<a href =  " https://evil.example/"><rect/></a>', false],
    ['an in-document link', '<use href="#mark"/>', true],
    ['an embedded PNG', '<image href="data:image/png;base64,AAAA"/>', true],
    ['an internal DOCTYPE subset', '<!DOCTYPE svg [<!ATTLIST svg x CDATA "1">]>', false],
    ['a DOCTYPE without a subset', '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "svg11.dtd">', true],
  ])('reads a logo with %s as safe: %s', (_what, inner, safe) => {
    expect(isSafeSvg(svg(inner))).toBe(safe);
  });

  // No timing assertion: checks that rescanned the text from every start position would not return
  // within the test's life on a logo of the largest size (2 MB).
  it('answers crafted logos of the largest size at once', () => {
    const room = LOGO_MAX_BYTES - 200;
    expect(isSafeSvg(svg(`<a href=${' '.repeat(room)}>`))).toBe(true);
    expect(isSafeSvg(svg('<!DOCTYPE'.repeat(Math.floor(room / 9))))).toBe(true);
    expect(isSafeSvg(svg(`${'<!DOCTYPE>'.repeat(Math.floor(room / 20))}<!DOCTYPE [`))).toBe(false);
  });
});
