/** UTF-8 byte-order mark: Excel needs it to read accented names correctly. */
export const UTF8_BOM = '\uFEFF';

/**
 * Cells a spreadsheet would run as a formula (CSV injection): = + - @, and tab or carriage return,
 * which some spreadsheets strip before looking. A leading single quote makes them plain text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | null | undefined): string {
  let text = value ?? '';
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A whole CSV file: byte-order mark, header row, CRLF line ends (RFC 4180). */
export function toCsv(headers: readonly string[], rows: readonly (readonly (string | null)[])[]): Buffer {
  const lines = [headers, ...rows].map((cells) => cells.map(csvCell).join(','));
  return Buffer.from(`${UTF8_BOM}${lines.join('\r\n')}\r\n`, 'utf8');
}
