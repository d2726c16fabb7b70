import { describe, expect, it } from 'vitest';
import { contentDisposition, fileNamePart } from './content-disposition';

describe('contentDisposition', () => {
  it('keeps accented letters in filename* and folds them in the ASCII filename', () => {
    expect(contentDisposition('attachment', 'spotlight-Andrés-Díaz-Ortega.pdf')).toBe(
      `attachment; filename="spotlight-Andres-Diaz-Ortega.pdf"; filename*=UTF-8''spotlight-Andr%C3%A9s-D%C3%ADaz-Ortega.pdf`,
    );
  });

  it('encodes names in other scripts, and what RFC 5987 does not allow unencoded', () => {
    const header = contentDisposition('inline', "王小明 (Łukasz's) *.pdf");
    expect(header).toBe(
      `inline; filename="___ (Lukasz's) *.pdf"; filename*=UTF-8''%E7%8E%8B%E5%B0%8F%E6%98%8E%20%28%C5%81ukasz%27s%29%20%2A.pdf`,
    );
    const encoded = header.split("filename*=UTF-8''")[1]!;
    expect(decodeURIComponent(encoded)).toBe("王小明 (Łukasz's) *.pdf");
  });

  it('cannot break out of the quoted name or the header', () => {
    const header = contentDisposition('attachment', 'a"b\\c\r\nSet-Cookie: x=1.csv');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header.split('"')).toHaveLength(3);
    expect(header).toContain('filename="a_b_c_Set-Cookie: x=1.csv"');
  });

  it('names an empty name "download"', () => {
    expect(contentDisposition('attachment', ' ')).toBe(`attachment; filename="download"; filename*=UTF-8''download`);
  });
});

describe('fileNamePart', () => {
  it.each([
    ['Andrés Díaz Ortega', 'Andrés-Díaz-Ortega'],
    ['Nguyễn Thị Ánh', 'Nguyễn-Thị-Ánh'],
    ['Łukasz Żółć', 'Łukasz-Żółć'],
    ['王小明', '王小明'],
    ["  O'Brien / Smith-Jones ", 'O-Brien-Smith-Jones'],
  ])('%s → %s', (name, part) => {
    expect(fileNamePart(name)).toBe(part);
  });
});
