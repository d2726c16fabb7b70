import { createPrivateKey } from 'node:crypto';

/** What a file really is, judged by its first bytes rather than by the name or the declared type. */
type DetectedType = 'image/png' | 'image/jpeg' | 'image/svg+xml' | 'application/pdf';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const PDF = Buffer.from('%PDF-', 'latin1');

/** Skips a byte-order mark, the XML declaration, comments and the DOCTYPE (whose entities `isSafeSvg` refuses). */
function svgRoot(text: string): boolean {
  let rest = text.replace(/^\uFEFF/, '');
  for (;;) {
    rest = rest.trimStart();
    const prolog = /^(<\?xml[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE\s+svg[^[>]*(\[[\s\S]*?\])?\s*>)/i.exec(rest);
    if (!prolog) break;
    rest = rest.slice(prolog[0].length);
  }
  return /^<svg[\s>]/i.test(rest);
}

export function detectContentType(content: Buffer): DetectedType | null {
  if (content.subarray(0, PNG.length).equals(PNG)) return 'image/png';
  if (content.subarray(0, JPEG.length).equals(JPEG)) return 'image/jpeg';
  if (content.subarray(0, PDF.length).equals(PDF)) return 'application/pdf';
  if (svgRoot(content.subarray(0, 4096).toString('utf8'))) return 'image/svg+xml';
  return null;
}

/** Numeric character references decoded, so that `&#106;avascript:` is read as what it is. */
const decodeReferences = (text: string) =>
  text
    .replace(/&#x([0-9a-f]+);?/gi, (_match, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16) % 0x110000))
    .replace(/&#(\d+);?/g, (_match, decimal: string) => String.fromCodePoint(Number(decimal) % 0x110000));

const UNSAFE_SVG = [
  /<script[\s>/]/i,
  /<foreignObject[\s>/]/i,
  /<(iframe|embed|object|audio|video|handler|listener)[\s>/]/i,
  /\son[a-z]+\s*=/i,
  /(javascript|vbscript|livescript)\s*:/i,
  /data\s*:\s*text\/html/i,
  /<!ENTITY/i,
  /<\?xml-stylesheet/i,
  /@import/i,
  // Only in-document references (#id) and embedded raster images may be linked. `(?=(\s*))\1` takes a
  // whole run of white space and never gives part of it back (an atomic group): the former
  // `\s*["']?\s*` tried every split of a long run, hours on a crafted 2 MB logo.
  /\bhref(?=(\s*))\1=(?=(\s*))\2["']?(?=(\s*))\3(?!#|data:image\/(png|jpe?g|gif|webp)[;,])[^\s"'>]/i,
  /url\(\s*["']?\s*(?!#|data:image\/(png|jpe?g|gif|webp)[;,])/i,
];

/**
 * Whether an SVG logo may be kept. Logos are shown through `<img>`, which never runs scripts, but the
 * file is also reachable by its URL; anything that could script or fetch is refused rather than
 * rewritten, because a sanitiser that misses one trick is worse than asking for a clean file.
 */
export function isSafeSvg(content: Buffer): boolean {
  const text = decodeReferences(content.toString('utf8'));
  return !UNSAFE_SVG.some((pattern) => pattern.test(text)) && !hasInternalSubset(text);
}

/**
 * Whether a DOCTYPE opens an internal subset (`[`) before its `>`. A scan rather than the pattern
 * `<!DOCTYPE[^>]*\[`, which read on to the end of the text from every `<!DOCTYPE` of a crafted logo.
 */
function hasInternalSubset(text: string): boolean {
  const lower = text.toLowerCase();
  let bracket = -1;
  for (let from = 0; ;) {
    const start = lower.indexOf('<!doctype', from);
    if (start === -1) return false;
    if (bracket !== -1 && bracket < start) bracket = -1;
    if (bracket === -1) bracket = lower.indexOf('[', start);
    if (bracket === -1) return false;
    const close = lower.indexOf('>', start);
    if (close === -1 || bracket < close) return true;
    from = close;
  }
}

/** A PEM private key (PKCS#1, PKCS#8 or SEC1) or a private JWK, as eClinicalWorks bulk access uses. */
export function isPrivateKey(content: Buffer): boolean {
  const text = content.toString('utf8').trim();
  try {
    if (text.startsWith('{')) {
      const jwk = JSON.parse(text) as Record<string, unknown>;
      if (typeof jwk.d !== 'string') return false;
      createPrivateKey({ key: jwk as never, format: 'jwk' });
      return true;
    }
    if (!/-----BEGIN (RSA |EC )?PRIVATE KEY-----/.test(text)) return false;
    createPrivateKey(text);
    return true;
  } catch {
    return false;
  }
}
