import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

describe('CSV cells', () => {
  it.each([
    ['plain', 'plain'],
    ['=1+1', "'=1+1"],
    ['+15125550142', "'+15125550142"],
    ['-3', "'-3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['a, b', '"a, b"'],
    ['say "hi"', '"say ""hi"""'],
    ['=A1,"x"', `"'=A1,""x"""`],
    ['two\nlines', '"two\nlines"'],
    ['mid=dle', 'mid=dle'],
    [null, ''],
    ['-cmd', "'-cmd"],
    ['=HYPERLINK("http://x.test","Click")', `"'=HYPERLINK(""http://x.test"",""Click"")"`],
    // Numbers are numbers: no guard, so a spreadsheet reads -6 as minus six, not as the text '-6.
    [-6, '-6'],
    [-0.5, '-0.5'],
    [3.25, '3.25'],
    [0, '0'],
    [Number.NaN, ''],
  ])('%j is written as %j', (value, written) => {
    expect(csvCell(value)).toBe(written);
  });

  it('a file is the byte-order mark, the header row and CRLF-ended rows', () => {
    const file = toCsv(['A', 'B'], [['1', null]]);
    expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(file.subarray(3).toString('utf8')).toBe('A,B\r\n1,\r\n');
  });

  it('keeps a negative number a number and still guards text that looks like one', () => {
    const file = toCsv(['Change', 'Note'], [[-6, '-6 since last visit']]);
    expect(file.subarray(3).toString('utf8')).toBe("Change,Note\r\n-6,'-6 since last visit\r\n");
  });
});
