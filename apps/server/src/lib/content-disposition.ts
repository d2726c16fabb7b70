/**
 * The Content-Disposition header of every download (RFC 6266): `filename="…"` in plain ASCII for clients
 * that read only that (accents folded, é → e; anything else → _), and the exact name, accents and all, as
 * `filename*=UTF-8''…` (RFC 5987), which browsers prefer. So "spotlight-Andrés-Díaz-Ortega.pdf" downloads
 * under that name, not "spotlight-Andr-s-D-az-Ortega.pdf".
 */
export function contentDisposition(type: 'attachment' | 'inline', fileName: string): string {
  // No control characters (a CR/LF would end the header) and no path separators, whatever the name's source.
  const name = fileName.replace(/[\p{Cc}/\\]+/gu, '_').trim() || 'download';
  const ascii = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[ŁłØøĐđßÆæŒœÞþ]/g, (letter) => FOLDED[letter] ?? '_')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\%]/g, '_');
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(name)}`;
}

/** Latin letters that do not decompose into a base letter and a mark. */
const FOLDED: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Ø: 'O',
  ø: 'o',
  Đ: 'D',
  đ: 'd',
  ß: 'ss',
  Æ: 'AE',
  æ: 'ae',
  Œ: 'OE',
  œ: 'oe',
  Þ: 'Th',
  þ: 'th',
};

/** Percent-encoding for an RFC 5987 value: encodeURIComponent leaves ' ( ) * as they are, which the grammar does not allow. */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * A file name made from a person's name: letters and digits in any script are kept, any run of other
 * characters becomes one hyphen ("Andrés Díaz Ortega" → "Andrés-Díaz-Ortega").
 */
export function fileNamePart(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}
