import { PDF_FONT } from '../../lib/pdf-fonts';
import { finishSignedPdf, PDF_MARGIN, startSignedPdf } from '../../lib/signed-pdf';

/**
 * A signed procedure note as a PDF, in the style of the consent PDF (intake/consent-pdf.ts): the embedded
 * Unicode fonts of lib/pdf-fonts (a note may read "≥ 5 mg"), deterministic bytes (dates set to the
 * signature time), a footer with the version and "Page X of Y" on every page.
 */
interface ProcedureNotePdfInput {
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

export async function renderProcedureNotePdf(
  input: ProcedureNotePdfInput,
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  const pdf = startSignedPdf({
    title: input.title,
    clinicName: input.clinicName,
    subject: `${input.title} (version ${input.version})`,
    language: 'en',
    signedAt: input.signedAt,
    compress: options.compress,
  });
  const { doc, left, width } = pdf;
  doc.moveDown(0.8);

  doc.font(PDF_FONT.regular).fontSize(10);
  doc.text(`Patient: ${input.patientName}    Date of birth: ${input.dateOfBirth}    Date performed: ${input.datePerformed}`, {
    width,
  });
  if (input.superseded) {
    doc.moveDown(0.3);
    doc.font(PDF_FONT.bold).fillColor('#a61e4d').text('Superseded by a later amendment', { width });
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
  doc.font(PDF_FONT.regular).fontSize(11).fillColor('black');
  doc.text(input.body.replace(/\r\n?/g, '\n'), left, doc.y, { width, lineGap: 2 });

  doc.moveDown(1.5);
  if (doc.y + 60 > doc.page.height - PDF_MARGIN) doc.addPage();
  doc.font(PDF_FONT.italic).fontSize(11).text(input.signatureText, left, doc.y, { width });

  return finishSignedPdf(pdf, `${input.patientName} - Version ${input.version}`, (page, count) => `Page ${page} of ${count}`);
}
