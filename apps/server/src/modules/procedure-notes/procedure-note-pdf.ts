import PDFDocument from 'pdfkit';

/**
 * A signed procedure note as a PDF, in the style of the consent PDF (intake/consent-pdf.ts): standard
 * Helvetica (WinAnsi, enough for English and Spanish), deterministic bytes (dates set to the signature
 * time), a footer with the version and "Page X of Y" on every page.
 */
export interface ProcedureNotePdfInput {
  clinicName: string;
  title: string;
  patientName: string;
  /** MM/DD/YYYY */
  dateOfBirth: string;
  /** MM/DD/YYYY */
  datePerformed: string;
  body: string;
  version: number;
  superseded: boolean;
  signedAt: Date;
  /** "Electronically signed by … at …", already in the clinic's time zone. */
  signatureText: string;
}

const MARGIN = 54;

export async function renderProcedureNotePdf(
  input: ProcedureNotePdfInput,
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    font: 'Helvetica',
    bufferPages: true,
    compress: options.compress ?? true,
    lang: 'en-US',
    displayTitle: true,
    info: {
      Title: input.title,
      Author: input.clinicName,
      Subject: `${input.title} (version ${input.version})`,
      Creator: 'Pathwell',
      CreationDate: input.signedAt,
      ModDate: input.signedAt,
    },
  });
  const output = new Promise<Buffer>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = MARGIN;
  const width = doc.page.width - 2 * MARGIN;

  doc.font('Helvetica-Bold').fontSize(18).text(input.title, left, MARGIN, { width });
  doc.moveDown(0.2);
  doc.font('Helvetica').fontSize(12).fillColor('#444444').text(input.clinicName, { width });
  doc.fillColor('black');
  doc.moveDown(0.8);

  doc.font('Helvetica').fontSize(10);
  doc.text(`Patient: ${input.patientName}    Date of birth: ${input.dateOfBirth}    Date performed: ${input.datePerformed}`, {
    width,
  });
  if (input.superseded) {
    doc.moveDown(0.3);
    doc.font('Helvetica-Bold').fillColor('#a61e4d').text('Superseded by a later amendment', { width });
    doc.fillColor('black');
  }
  const ruleY = doc.y + 6;
  doc
    .moveTo(left, ruleY)
    .lineTo(left + width, ruleY)
    .lineWidth(0.75)
    .strokeColor('#888888')
    .stroke();
  doc.y = ruleY + 12;

  // The note as written: line breaks kept, pdfkit wraps long lines and continues on new pages.
  doc.font('Helvetica').fontSize(11).fillColor('black');
  doc.text(input.body.replace(/\r\n?/g, '\n'), left, doc.y, { width, lineGap: 2 });

  doc.moveDown(1.5);
  if (doc.y + 60 > doc.page.height - MARGIN) doc.addPage();
  doc.font('Helvetica-Oblique').fontSize(11).text(input.signatureText, left, doc.y, { width });

  const range = doc.bufferedPageRange();
  const footerVersion = `Version ${input.version}`;
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index);
    const bottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const footerY = doc.page.height - MARGIN + 18;
    const pageLabel = `Page ${index - range.start + 1} of ${range.count}`;
    doc.font('Helvetica').fontSize(8).fillColor('#666666');
    doc.text(`${input.patientName} - ${footerVersion}`, left, footerY, { lineBreak: false });
    doc.text(pageLabel, left + width - doc.widthOfString(pageLabel), footerY, { lineBreak: false });
    doc.page.margins.bottom = bottomMargin;
  }

  doc.end();
  return output;
}
