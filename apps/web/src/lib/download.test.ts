import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition } from './download';

describe('fileNameFromDisposition', () => {
  it('prefers the exact UTF-8 name over the ASCII one', () => {
    expect(
      fileNameFromDisposition(
        `attachment; filename="spotlight-Andres-Diaz-Ortega.pdf"; filename*=UTF-8''spotlight-Andr%C3%A9s-D%C3%ADaz-Ortega.pdf`,
        'x.pdf',
      ),
    ).toBe('spotlight-Andrés-Díaz-Ortega.pdf');
    expect(fileNameFromDisposition(`inline; filename="___.pdf"; filename*=utf-8''%E7%8E%8B%E5%B0%8F%E6%98%8E.pdf`, 'x')).toBe(
      '王小明.pdf',
    );
  });

  it('falls back to the plain name, then to the fallback', () => {
    expect(fileNameFromDisposition('attachment; filename="report.csv"', 'x.csv')).toBe('report.csv');
    expect(fileNameFromDisposition(`attachment; filename="plain.csv"; filename*=UTF-8''%E0%A4%A`, 'x.csv')).toBe('plain.csv');
    expect(fileNameFromDisposition(null, 'x.csv')).toBe('x.csv');
  });

  it('never answers a path', () => {
    expect(fileNameFromDisposition(`attachment; filename*=UTF-8''..%2F..%2Fevil.csv`, 'x.csv')).toBe('.._.._evil.csv');
  });
});
