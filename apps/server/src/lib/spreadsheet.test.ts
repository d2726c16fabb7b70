import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { toXlsx } from './spreadsheet';

describe('toXlsx', () => {
  it('writes numbers as numeric cells, negative ones included, and formula-like text as text', async () => {
    const file = await toXlsx(
      'Data',
      ['Change', 'Note'],
      [
        [-6, '=HYPERLINK("http://x.test","Click")'],
        [2.5, '-cmd'],
      ],
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const negative = sheet.getCell('A2');
    expect(negative.type).toBe(ExcelJS.ValueType.Number);
    expect(negative.value).toBe(-6);
    expect(sheet.getCell('A3').value).toBe(2.5);
    const link = sheet.getCell('B2');
    expect(link.type).toBe(ExcelJS.ValueType.String);
    expect(link.value).toBe('=HYPERLINK("http://x.test","Click")');
    expect(sheet.getCell('B3').type).toBe(ExcelJS.ValueType.String);
  });
});
