import { crc32, inflateSync } from 'node:zlib';
import { createPdfDocument, PDF_FONT } from './pdf-fonts';

/**
 * The frame shared by Pathwell's PDFs (consents, procedure notes, the spotlight): US Letter, the embedded
 * Unicode fonts of lib/pdf-fonts, deterministic bytes (the document info dates are the signature time and the
 * font subset tags are fixed, so the same input gives the same file), the title and clinic at the top, and a
 * footer line with "Page X of Y" on every page.
 */
export const PDF_MARGIN = 54;

interface SignedPdfFrame {
  title: string;
  clinicName: string;
  subject: string;
  language: 'en' | 'es';
  signedAt: Date;
  compress?: boolean;
  /** The clinic's logo (PNG or JPEG, already checked to decode), drawn at the top right. */
  logo?: Buffer | null;
}

const LOGO_FIT: [number, number] = [150, 48];

export function startSignedPdf(frame: SignedPdfFrame) {
  const doc = createPdfDocument({
    size: 'LETTER',
    margin: PDF_MARGIN,
    bufferPages: true,
    compress: frame.compress ?? true,
    lang: frame.language === 'es' ? 'es-US' : 'en-US',
    displayTitle: true,
    info: {
      Title: frame.title,
      Author: frame.clinicName,
      Subject: frame.subject,
      Creator: 'Pathwell',
      CreationDate: frame.signedAt,
      ModDate: frame.signedAt,
    },
  });
  const output = new Promise<Buffer>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = PDF_MARGIN;
  const width = doc.page.width - 2 * PDF_MARGIN;
  let titleWidth = width;
  if (frame.logo) {
    try {
      doc.image(frame.logo, left + width - LOGO_FIT[0], PDF_MARGIN, { fit: LOGO_FIT, align: 'right' });
      titleWidth = width - LOGO_FIT[0] - 12;
    } catch {
      // An image pdfkit cannot read leaves the header without a logo rather than failing the document.
    }
  }
  doc.font(PDF_FONT.bold).fontSize(18).text(frame.title, left, PDF_MARGIN, { width: titleWidth });
  doc.moveDown(0.2);
  doc.font(PDF_FONT.regular).fontSize(12).fillColor('#444444').text(frame.clinicName, { width: titleWidth });
  doc.fillColor('black');
  if (titleWidth !== width) doc.y = Math.max(doc.y, PDF_MARGIN + LOGO_FIT[1]);
  return { doc, output, left, width };
}

/** Writes the footer on every page (`footer` on the left, `pageLabel` on the right) and ends the document. */
export function finishSignedPdf(
  { doc, output, left, width }: ReturnType<typeof startSignedPdf>,
  footer: string,
  pageLabel: (page: number, count: number) => string,
): Promise<Buffer> {
  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index);
    // Writing inside the bottom margin would otherwise make pdfkit start a new page.
    const bottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const footerY = doc.page.height - PDF_MARGIN + 18;
    const label = pageLabel(index - range.start + 1, range.count);
    doc.font(PDF_FONT.regular).fontSize(8).fillColor('#666666');
    doc.text(footer, left, footerY, { lineBreak: false });
    doc.text(label, left + width - doc.widthOfString(label), footerY, { lineBreak: false });
    doc.page.margins.bottom = bottomMargin;
  }
  doc.end();
  return output;
}

// A PNG drawn into these PDFs (a patient's drawn signature, the clinic's logo on the spotlight) is
// checked here first, before any document is started.

/** Largest accepted data URL (base64 characters) and image side (pixels): a signature pad's canvas is far smaller. */
const MAX_DATA_URL_LENGTH = 4 * 1024 * 1024;
const MAX_IMAGE_SIDE = 4000;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/;
/** Channels per pixel for each PNG colour type: grey, RGB, palette, grey+alpha, RGBA. */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/**
 * Decodes a `data:image/png;base64,` URL and checks the PNG all the way through, throwing an Error when it is
 * not a PNG or is malformed. The check is this thorough because pdfkit decodes some PNGs (those with an alpha
 * channel) in a zlib callback, where a corrupt image would throw outside any promise and crash the process.
 * Only what a signature pad produces is accepted: 8-bit, not interlaced.
 */
export function isDrawableSignature(dataUrl: string): boolean {
  try {
    decodePngDataUrl(dataUrl);
    return true;
  } catch {
    return false;
  }
}

export function decodePngDataUrl(dataUrl: string): Buffer {
  if (dataUrl.length > MAX_DATA_URL_LENGTH) throw new Error('Signature image is too large');
  const match = PNG_DATA_URL.exec(dataUrl);
  if (!match?.[1] || match[1].length % 4 !== 0) throw new Error('Signature image must be a base64 PNG data URL');
  const png = Buffer.from(match[1], 'base64');
  if (png.length < PNG_SIGNATURE.length || !png.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) {
    throw new Error('Signature image is not a PNG');
  }

  let header: { width: number; height: number; channels: number; colorType: number } | null = null;
  let hasPalette = false;
  let ended = false;
  const idat: Buffer[] = [];
  let pos = PNG_SIGNATURE.length;
  while (pos < png.length && !ended) {
    if (pos + 12 > png.length) throw new Error('Signature image is a truncated PNG');
    const length = png.readUInt32BE(pos);
    const end = pos + 8 + length;
    if (end + 4 > png.length) throw new Error('Signature image is a truncated PNG');
    const type = png.toString('latin1', pos + 4, pos + 8);
    const data = png.subarray(pos + 8, end);
    if (crc32(png.subarray(pos + 4, end)) !== png.readUInt32BE(end)) throw new Error('Signature image has a corrupt PNG chunk');
    if (header === null && type !== 'IHDR') throw new Error('Signature image PNG does not start with a header');
    switch (type) {
      case 'IHDR': {
        if (header !== null || length !== 13) throw new Error('Signature image has a bad PNG header');
        const width = data.readUInt32BE(0);
        const height = data.readUInt32BE(4);
        const colorType = data.readUInt8(9);
        const channels = PNG_CHANNELS[colorType];
        if (width < 1 || height < 1 || width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
          throw new Error('Signature image has unsupported dimensions');
        }
        if (channels === undefined) throw new Error('Signature image has an unknown PNG colour type');
        // Bit depth 8; compression, filter method and interlace 0.
        if (data.readUInt8(8) !== 8 || data.readUIntBE(10, 3) !== 0) {
          throw new Error('Signature image must be an 8-bit, non-interlaced PNG');
        }
        header = { width, height, channels, colorType };
        break;
      }
      case 'PLTE':
        hasPalette = length > 0 && length % 3 === 0;
        break;
      case 'IDAT':
        idat.push(data);
        break;
      case 'IEND':
        ended = true;
        break;
      default:
        break;
    }
    pos = end + 4;
  }
  if (header === null || !ended || idat.length === 0) throw new Error('Signature image is an incomplete PNG');
  if (header.colorType === 3 && !hasPalette) throw new Error('Signature image is a palette PNG without a palette');

  const rowLength = 1 + header.width * header.channels;
  const expected = rowLength * header.height;
  let pixels: Buffer;
  try {
    pixels = inflateSync(Buffer.concat(idat), { maxOutputLength: expected + 1 });
  } catch {
    throw new Error('Signature image has corrupt PNG image data');
  }
  if (pixels.length !== expected) throw new Error('Signature image has the wrong amount of PNG image data');
  for (let row = 0; row < expected; row += rowLength) {
    if ((pixels[row] ?? 255) > 4) throw new Error('Signature image has an invalid PNG row filter');
  }
  return png;
}
