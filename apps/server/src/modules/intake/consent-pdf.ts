import { PDF_FONT } from '../../lib/pdf-fonts';
import { decodePngDataUrl, finishSignedPdf, PDF_MARGIN, startSignedPdf } from '../../lib/signed-pdf';

/**
 * Renders a signed patient consent (the agreement text plus the patient's signature) to a PDF.
 *
 * The output is deterministic: the same input gives the same bytes. pdfkit's file /ID is an MD5 of the
 * document info, whose CreationDate and ModDate are set to `signedAt`, and the embedded fonts' subset tags
 * are derived from their resource names, not random.
 *
 * Text is drawn with the embedded Unicode fonts of lib/pdf-fonts, so a patient's name in any script the
 * fonts cover (Latin with Vietnamese and Polish letters, Greek, Cyrillic, Chinese, Japanese, Korean) prints.
 */
export interface ConsentPdfInput {
  clinicName: string;
  /** e.g. 'New patient agreement' / 'Acuerdo para pacientes nuevos' */
  documentTitle: string;
  /** Plain text with paragraphs separated by blank lines. */
  documentText: string;
  /** e.g. 'sha256:ab12…'; a short form is shown in the footer, the full value goes in the PDF Subject. */
  documentVersion: string;
  language: 'en' | 'es';
  patientName: string;
  /** MM/DD/YYYY */
  dateOfBirth: string;
  signedAt: Date;
  /** Already formatted in the clinic's time zone, e.g. '11/25/2026 3:04 PM CST'. */
  signedAtText: string;
  /** MM/DD/YYYY or null */
  expiresAtText: string | null;
  /** image = 'data:image/png;base64,...' */
  signature: { image: string } | { typedName: string };
}

interface ConsentPdfOptions {
  /** Deflate the page content streams (default true); tests turn it off to read the drawn text. */
  compress?: boolean;
}

const LABELS = {
  en: {
    signature: 'Signature',
    signedBy: 'Signed by',
    dateOfBirth: 'DOB',
    signedAt: 'Signed',
    expires: 'Expires',
    noExpiry: 'Does not expire',
    typedSignature: 'Typed signature',
    drawnSignature: 'Drawn signature',
    version: 'Document version',
    page: (page: number, count: number) => `Page ${page} of ${count}`,
  },
  es: {
    signature: 'Firma',
    signedBy: 'Firmado por',
    dateOfBirth: 'fecha de nacimiento',
    signedAt: 'Firmado el',
    expires: 'Vence el',
    noExpiry: 'No vence',
    typedSignature: 'Firma escrita',
    drawnSignature: 'Firma dibujada',
    version: 'Versión del documento',
    page: (page: number, count: number) => `Página ${page} de ${count}`,
  },
} as const;

const SIGNATURE_FIT: [number, number] = [220, 80];
/** Height the signature block needs, so it is never split across a page break. */
const SIGNATURE_BLOCK_HEIGHT = 200;

/** 'sha256:<64 hex>' is shown as 'sha256:<first 16 hex>'; anything else as is. */
function shortVersion(version: string): string {
  const match = /^([a-z0-9-]+):([0-9a-f]{17,})$/i.exec(version);
  return match ? `${match[1]}:${match[2]?.slice(0, 16)}` : version;
}

function paragraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph.length > 0);
}

export async function renderConsentPdf(input: ConsentPdfInput, options: ConsentPdfOptions = {}): Promise<Buffer> {
  // Validate before drawing anything, so a bad signature rejects instead of producing half a document.
  const signatureImage = 'image' in input.signature ? decodePngDataUrl(input.signature.image) : null;
  const labels = LABELS[input.language];

  const pdf = startSignedPdf({
    title: input.documentTitle,
    clinicName: input.clinicName,
    subject: `${input.documentTitle} (${labels.version} ${input.documentVersion})`,
    language: input.language,
    signedAt: input.signedAt,
    compress: options.compress,
  });
  const { doc, left, width } = pdf;
  doc.moveDown(1);

  // The agreement itself; pdfkit wraps lines and continues on new pages.
  doc.font(PDF_FONT.regular).fontSize(11);
  for (const paragraph of paragraphs(input.documentText)) {
    doc.text(paragraph, left, doc.y, { width, lineGap: 2 });
    doc.moveDown(0.7);
  }

  // Signature block, kept on one page.
  doc.moveDown(0.5);
  if (doc.y + SIGNATURE_BLOCK_HEIGHT > doc.page.height - PDF_MARGIN) doc.addPage();
  doc.font(PDF_FONT.bold).fontSize(12).text(labels.signature, left, doc.y, { width });
  doc.moveDown(0.3);
  doc.font(PDF_FONT.regular).fontSize(11);
  doc.text(`${labels.signedBy} ${input.patientName} (${labels.dateOfBirth} ${input.dateOfBirth})`, { width });
  doc.text(`${labels.signedAt}: ${input.signedAtText}`, { width });
  doc.text(input.expiresAtText === null ? labels.noExpiry : `${labels.expires}: ${input.expiresAtText}`, { width });
  doc.moveDown(0.8);

  const signatureTop = doc.y;
  let lineY: number;
  if (signatureImage) {
    doc.image(signatureImage, left, signatureTop, { fit: SIGNATURE_FIT });
    lineY = signatureTop + SIGNATURE_FIT[1] + 4;
  } else {
    const typedName = 'typedName' in input.signature ? input.signature.typedName : '';
    doc
      .font(PDF_FONT.italic)
      .fontSize(22)
      .text(typedName, left, signatureTop + 30, { width: SIGNATURE_FIT[0] * 2 });
    lineY = Math.max(doc.y, signatureTop + SIGNATURE_FIT[1]) + 4;
  }
  doc
    .moveTo(left, lineY)
    .lineTo(left + SIGNATURE_FIT[0], lineY)
    .lineWidth(0.75)
    .strokeColor('#888888')
    .stroke();
  doc
    .font(PDF_FONT.regular)
    .fontSize(9)
    .fillColor('#444444')
    .text(signatureImage ? labels.drawnSignature : labels.typedSignature, left, lineY + 4, { width });
  doc.fillColor('black');

  // Footer on every page: document version on the left, "Page X of Y" on the right.
  return finishSignedPdf(pdf, `${labels.version}: ${shortVersion(input.documentVersion)}`, labels.page);
}
