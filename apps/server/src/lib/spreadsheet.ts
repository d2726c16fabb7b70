import ExcelJS from 'exceljs';

/**
 * One-sheet XLSX of a table. Cells are written as plain strings and numbers, never as formulas, so a
 * value such as "=HYPERLINK(...)" stays text (the formula-injection risk CSV exports guard against).
 */
export async function toXlsx(
  sheetName: string,
  headers: readonly string[],
  rows: readonly (readonly unknown[])[],
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Pathwell';
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.addRow([...headers]).font = { bold: true };
  for (const row of rows) {
    sheet.addRow(row.map((cell) => (cell === null || cell === undefined ? '' : typeof cell === 'number' ? cell : String(cell))));
  }
  sheet.columns.forEach((column, index) => {
    const longest = Math.max(headers[index]?.length ?? 8, ...rows.slice(0, 200).map((row) => String(row[index] ?? '').length));
    column.width = Math.min(48, Math.max(10, longest + 2));
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
