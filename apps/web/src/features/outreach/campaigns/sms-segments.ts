/*
 * How many SMS parts a text costs, by the GSM 03.38 (3GPP TS 23.038) rules carriers bill by: a text
 * written only in the GSM 7-bit default alphabet fits 160 characters in one message, and 153 per part
 * once it is split (each part loses 7 septets to the concatenation header); the characters of the
 * alphabet's extension table (^ { } \ [ ~ ] | €) take two septets (an escape and the character), and an
 * escape pair is never split across parts. The alphabet has é, ñ, ü, ¿ and ¡ but not á, í, ó or ú:
 * a single character outside it (an á, an emoji) sends the whole text as UCS-2: 70 UTF-16 units in one
 * message, 67 per part, surrogate pairs kept whole.
 */

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '\f^{}\\[~]|€';
const basic = new Set(GSM_BASIC);
const extension = new Set(GSM_EXTENSION);

type SmsEncoding = 'gsm7' | 'ucs2';
type SmsCount = {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 units (UCS-2) the text takes. */
  units: number;
  segments: number;
  /** Units that fit one message, and each part of a longer one. */
  single: number;
  perSegment: number;
};

export function isGsm7(text: string): boolean {
  for (const char of text) if (!basic.has(char) && !extension.has(char)) return false;
  return true;
}

/** Packs units into parts of `perSegment`, never splitting one character (its units) across two. */
function pack(sizes: number[], single: number, perSegment: number): number {
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total === 0) return 0;
  if (total <= single) return 1;
  let segments = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > perSegment) {
      segments += 1;
      used = 0;
    }
    used += size;
  }
  return segments;
}

export function countSms(text: string): SmsCount {
  const chars = [...text];
  if (isGsm7(text)) {
    const sizes = chars.map((char) => (extension.has(char) ? 2 : 1));
    return {
      encoding: 'gsm7',
      units: sizes.reduce((sum, size) => sum + size, 0),
      segments: pack(sizes, 160, 153),
      single: 160,
      perSegment: 153,
    };
  }
  const sizes = chars.map((char) => char.length);
  return {
    encoding: 'ucs2',
    units: sizes.reduce((sum, size) => sum + size, 0),
    segments: pack(sizes, 70, 67),
    single: 70,
    perSegment: 67,
  };
}
