import { readFileSync } from 'node:fs';
import PDFDocument from 'pdfkit';

/**
 * Every PDF the server makes starts here (decision 0057). The PDF standard fonts pdfkit uses by default
 * encode text as Windows-1252, so "≥", Vietnamese, Polish or Chinese names came out garbled. Instead the
 * document embeds Noto Sans (regular, bold, italic) and, for each character Noto Sans has no glyph for,
 * falls back to Noto Sans Math (≥ ≤ →) and then Droid Sans Fallback (Chinese, Japanese, Korean). pdfkit
 * embeds only the glyphs used, so a page stays tens of kilobytes, and its subset tags come from the font's
 * resource name, so the same input still gives the same bytes.
 */
export const PDF_FONT = {
  regular: 'Pathwell-Sans',
  bold: 'Pathwell-Sans-Bold',
  italic: 'Pathwell-Sans-Italic',
} as const;

const FALLBACKS = ['Pathwell-Math', 'Pathwell-CJK'] as const;

/**
 * The OpenType features text is shaped with: fontkit's defaults less `ccmp`, with which Noto Sans splits
 * "ị" into "i" and a dot below. pdfkit's ToUnicode map gives each glyph the text of its first use, so after
 * "Thị" every later "i" would read back as "ị"; the precomposed glyphs need no splitting. A new object on
 * every call, because fontkit writes the full feature set into the object it is given.
 */
const defaultFeatures = () => ({ ccmp: false });

const fontFile = (name: string) => readFileSync(new URL(`../../assets/fonts/${name}`, import.meta.url));
const FONT_FILES: Record<string, Buffer> = {
  [PDF_FONT.regular]: fontFile('NotoSans-Regular.ttf'),
  [PDF_FONT.bold]: fontFile('NotoSans-Bold.ttf'),
  [PDF_FONT.italic]: fontFile('NotoSans-Italic.ttf'),
  'Pathwell-Math': fontFile('NotoSansMath-Regular.ttf'),
  'Pathwell-CJK': fontFile('DroidSansFallbackFull.ttf'),
};

/**
 * Each font's shaped words, shared by all documents (pdfkit keeps one cache per document, and shaping
 * with a freshly parsed font is most of the cost of a page: 420 ms for a consent without this, 45 ms
 * with it). Only plain values are kept (glyph id, advance, characters, positions), not fontkit's glyphs,
 * which would hold on to the document's parsed font. Emptied when it grows past a bound.
 */
const shapedWords = new Map<string, Map<string, ShapedWord>>();
const MAX_SHAPED_WORDS = 20_000;

interface ShapedWord {
  glyphs: { id: number; advanceWidth: number; codePoints: number[] }[];
  positions: unknown[];
  advanceWidth: number;
}

/** The parts of pdfkit's font and document internals the fallback needs (not in @types/pdfkit). */
interface FontObject {
  ascender: number;
  font: { hasGlyphForCodePoint(codePoint: number): boolean };
  widthOfString(text: string, size: number, features?: unknown): number;
  layoutRun(text: string, features?: unknown): ShapedWord;
  layoutCached(text: string): ShapedWord;
}
interface DocumentInternals {
  _font: FontObject;
  _fontSize: number;
  _fragment(text: string, x: number, y: number, options: FragmentOptions): void;
}
interface FragmentOptions {
  width?: number;
  lineWidth?: number;
  align?: string;
  baseline?: unknown;
  features?: unknown;
  characterSpacing?: number;
  horizontalScaling?: number;
  [option: string]: unknown;
}

export function createPdfDocument(options: PDFKit.PDFDocumentOptions): PDFKit.PDFDocument {
  const doc = new PDFDocument(options);
  const internals = doc as unknown as DocumentInternals;
  const loaded = new Map<string, FontObject>();
  for (const [name, file] of Object.entries(FONT_FILES)) {
    doc.registerFont(name, file);
    doc.font(name);
    const font = internals._font;
    // pdfkit caches the shaping of each word only when no features are passed, so they are set here, below its cache.
    const layoutRun = font.layoutRun.bind(font);
    font.layoutRun = (text, features) => layoutRun(text, features ?? defaultFeatures());
    const words = shapedWords.get(name) ?? new Map<string, ShapedWord>();
    shapedWords.set(name, words);
    font.layoutCached = (text) => {
      let word = words.get(text);
      if (word === undefined) {
        const run = font.layoutRun(text);
        word = {
          glyphs: run.glyphs.map(({ id, advanceWidth, codePoints }) => ({ id, advanceWidth, codePoints })),
          positions: run.positions,
          advanceWidth: run.advanceWidth,
        };
        if (words.size >= MAX_SHAPED_WORDS) words.clear();
        words.set(text, word);
      }
      return word;
    };
    loaded.set(name, font);
  }
  const fallbacks = FALLBACKS.map((name) => loaded.get(name)!);
  doc.font(PDF_FONT.regular);

  /** The text cut where the font changes: each character in the current font if it has it, else the first fallback that does. */
  const runs = (text: string): { text: string; font: FontObject }[] => {
    const primary = internals._font;
    const result: { text: string; font: FontObject }[] = [];
    for (const char of text) {
      const codePoint = char.codePointAt(0)!;
      const last = result[result.length - 1];
      // Spaces and combining marks stay with the character before them.
      let font = primary;
      if (last && (/\s/.test(char) || /\p{M}/u.test(char))) font = last.font;
      else if (!primary.font.hasGlyphForCodePoint(codePoint)) {
        font = fallbacks.find((fallback) => fallback.font.hasGlyphForCodePoint(codePoint)) ?? primary;
      }
      if (last && last.font === font) last.text += char;
      else result.push({ text: char, font });
    }
    return result;
  };

  const measure = (text: string, options: FragmentOptions = {}) => {
    const width = runs(text).reduce(
      (sum, run) => sum + run.font.widthOfString(run.text, internals._fontSize, options.features),
      0,
    );
    return (
      ((width + (options.characterSpacing ?? 0) * Math.max(0, [...text].length - 1)) * (options.horizontalScaling ?? 100)) / 100
    );
  };
  // Line wrapping, alignment and ellipsis all measure through widthOfString, so they see the fallback widths too.
  doc.widthOfString = (text: string, options?: PDFKit.Mixins.TextOptions) => measure(`${text}`, options as FragmentOptions);

  // pdfkit draws each laid-out line piece with _fragment in one font: a piece that needs several is drawn run by run.
  const drawFragment = internals._fragment.bind(doc);
  internals._fragment = (text, x, y, options) => {
    const pieces = runs(`${text}`.replace(/\n/g, ''));
    const primary = internals._font;
    if (pieces.length <= 1 && (pieces[0]?.font ?? primary) === primary) return drawFragment(text, x, y, options);
    let left = x;
    if (options.width && (options.align === 'right' || options.align === 'center')) {
      const lineWidth = Number(options.lineWidth ?? options.width);
      const textWidth = measure(`${text}`.replace(/\s+$/, ''), options);
      left += options.align === 'right' ? lineWidth - textWidth : lineWidth / 2 - textWidth / 2;
    }
    const keepsBaseline = options.baseline === undefined || options.baseline === 'top';
    try {
      for (const piece of pieces) {
        internals._font = piece.font;
        // Fonts differ in ascender; with the default top baseline each run is moved so all share the line's baseline.
        const top = keepsBaseline ? y + ((primary.ascender - piece.font.ascender) / 1000) * internals._fontSize : y;
        drawFragment(piece.text, left, top, { ...options, align: 'left', textWidth: undefined, wordCount: undefined });
        left += measure(piece.text, options);
      }
    } finally {
      internals._font = primary;
    }
  };
  return doc;
}
