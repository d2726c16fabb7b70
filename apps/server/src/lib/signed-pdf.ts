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
