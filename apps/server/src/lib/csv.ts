/** UTF-8 byte-order mark: Excel needs it to read accented names correctly. */
const UTF8_BOM = '\uFEFF';

/**
 * Text a spreadsheet would run as a formula (CSV injection): = + - @, and tab or carriage return,
 * which some spreadsheets strip before looking. A leading single quote makes it plain text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell's value: text, or a number, which is written as the number it is (decision 0057). */
type CsvValue = string | number | null | undefined;

export function csvCell(value: CsvValue): string {
  // The guard is for text: a number cannot carry a formula, and quoting it would turn -6 into the text '-6.
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = value ?? '';
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A whole CSV file: byte-order mark, header row, CRLF line ends (RFC 4180). */
export function toCsv(headers: readonly string[], rows: readonly (readonly CsvValue[])[]): Buffer {
  const lines = [headers, ...rows].map((cells) => cells.map(csvCell).join(','));
  return Buffer.from(`${UTF8_BOM}${lines.join('\r\n')}\r\n`, 'utf8');
}
