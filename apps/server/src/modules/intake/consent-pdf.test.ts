import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../../../test/pdf-text';
import { type ConsentPdfInput, renderConsentPdf } from './consent-pdf';

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PNG_DATA_URL = `data:image/png;base64,${PNG_1X1}`;

function input(overrides: Partial<ConsentPdfInput> = {}): ConsentPdfInput {
  return {
    clinicName: 'Riverside Surgical Clinic',
    documentTitle: 'New patient agreement',
    documentText: 'I agree to the terms of care.\n\nI understand my rights and responsibilities.',
    documentVersion: 'sha256:ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12',
    language: 'en',
    patientName: 'Jane Doe',
    dateOfBirth: '01/02/1990',
    signedAt: new Date('2026-11-25T21:04:00Z'),
    signedAtText: '11/25/2026 3:04 PM CST',
    expiresAtText: '11/25/2027',
    signature: { typedName: 'Jane Doe' },
    ...overrides,
  };
}

/** A PNG data URL built from raw IDAT data (already filtered scanlines, deflated unless `raw`), with valid CRCs. */
function pngDataUrl(width: number, height: number, colorType: number, scanlines: Buffer, raw = false): string {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, colorType, 0, 0, 0], 8);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', raw ? scanlines : deflateSync(scanlines)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

const latin1 = (pdf: Buffer) => pdf.toString('latin1');

/** Page objects (`/Type /Page`), not the page tree (`/Type /Pages`). */
function countPages(pdf: Buffer): number {
  return latin1(pdf).match(/\/Type \/Page(?!s)/g)?.length ?? 0;
}

const longText = Array.from(
  { length: 40 },
  (_, i) =>
    `Paragraph ${i + 1}. The patient agrees to the treatment plan described by the clinic, understands the risks, ` +
    'benefits and alternatives that were explained, and may withdraw this consent in writing at any time.',
).join('\n\n');

describe('renderConsentPdf', () => {
  it('produces a complete PDF with the signature block and footer', async () => {
    const pdf = await renderConsentPdf(input(), { compress: false });
    expect(latin1(pdf.subarray(0, 5))).toBe('%PDF-');
    expect(latin1(pdf).trimEnd().endsWith('%%EOF')).toBe(true);
    expect(countPages(pdf)).toBe(1);
    const text = await pdfText(pdf);
    expect(text).toContain('New patient agreement');
    expect(text).toContain('Riverside Surgical Clinic');
    expect(text).toContain('I understand my rights and responsibilities.');
    expect(text).toContain('Signed by Jane Doe (DOB 01/02/1990)');
    expect(text).toContain('Signed: 11/25/2026 3:04 PM CST');
    expect(text).toContain('Expires: 11/25/2027');
    expect(text).toContain('Typed signature');
    expect(text).toContain('Document version: sha256:ab12cd34ef56ab12');
    expect(text).toContain('Page 1 of 1');
    expect(latin1(pdf)).not.toContain('/Subtype /Image');
    // The typed signature is in italic: Noto Sans Italic, embedded (as a subset), like every font of the document.
    expect(latin1(pdf)).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSans-Italic/);
    expect(latin1(pdf)).not.toContain('/Helvetica');
  });

  it('compresses by default and still ends with %%EOF', async () => {
    const pdf = await renderConsentPdf(input());
    expect(latin1(pdf.subarray(0, 5))).toBe('%PDF-');
    expect(latin1(pdf).trimEnd().endsWith('%%EOF')).toBe(true);
    expect(latin1(pdf)).toContain('/FlateDecode');
  });

  it('says when the consent does not expire', async () => {
    const text = await pdfText(await renderConsentPdf(input({ expiresAtText: null }), { compress: false }));
    expect(text).toContain('Does not expire');
    expect(text).not.toContain('Expires:');
  });

  it('continues a long text on more pages, each with its own footer', async () => {
    const pdf = await renderConsentPdf(input({ documentText: longText }), { compress: false });
    const pages = countPages(pdf);
    expect(pages).toBeGreaterThan(1);
    const text = await pdfText(pdf);
    for (let page = 1; page <= pages; page++) expect(text).toContain(`Page ${page} of ${pages}`);
    expect(text.match(/Document version: /g)).toHaveLength(pages);
    expect(text).toContain('Paragraph 40.');
  });

  it('embeds a drawn signature as an image', async () => {
    const pdf = await renderConsentPdf(input({ signature: { image: PNG_DATA_URL } }), { compress: false });
    expect(latin1(pdf)).toContain('/Subtype /Image');
    const text = await pdfText(pdf);
    expect(text).toContain('Drawn signature');
    expect(text).not.toContain('Typed signature');
  });

  it('embeds a larger RGB signature image', async () => {
    const width = 300;
    const height = 100;
    const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x20)]);
    const image = pngDataUrl(width, height, 2, Buffer.concat(Array.from({ length: height }, () => row)));
    const pdf = await renderConsentPdf(input({ signature: { image } }), { compress: false });
    expect(latin1(pdf)).toContain('/Subtype /Image');
    expect(latin1(pdf)).toContain(`/Width ${width}`);
  });

  const corruptCrc = (() => {
    const png = Buffer.from(PNG_1X1, 'base64');
    png[20] = (png[20] ?? 0) ^ 0xff; // a byte of the IHDR width
    return png.toString('base64');
  })();
  const truncated = Buffer.from(PNG_1X1, 'base64').subarray(0, 40).toString('base64');

  it.each([
    ['no data URL', 'not a data url'],
    ['a JPEG', `data:image/jpeg;base64,${PNG_1X1}`],
    ['not base64', 'data:image/png;base64,@@@@'],
    ['base64 that is not a PNG', `data:image/png;base64,${Buffer.from('hello world!').toString('base64')}`],
    ['a truncated PNG', `data:image/png;base64,${truncated}`],
    ['a PNG with a bad checksum', `data:image/png;base64,${corruptCrc}`],
    ['an empty data URL', 'data:image/png;base64,'],
    // Well-formed chunks around bad image data: pdfkit decodes an alpha PNG in a zlib callback, where these
    // would throw outside the promise and take the process down.
    ['an RGBA PNG whose image data is not deflate', pngDataUrl(1, 1, 6, Buffer.from([0, 1, 2, 3, 4]), true)],
    ['an RGBA PNG with an invalid row filter', pngDataUrl(1, 1, 6, Buffer.from([9, 1, 2, 3, 4]))],
    ['an RGBA PNG with too little image data', pngDataUrl(2, 2, 6, Buffer.from([0, 1, 2, 3, 4]))],
    ['a PNG with an unknown colour type', pngDataUrl(1, 1, 7, Buffer.from([0, 1, 2, 3, 4]))],
  ])('rejects %s as the signature image', async (_label, image) => {
    await expect(renderConsentPdf(input({ signature: { image } }))).rejects.toThrow(Error);
  });

  it('gives identical bytes for the same input', async () => {
    const signed = input({ signature: { image: PNG_DATA_URL }, documentText: longText });
    const first = await renderConsentPdf(signed);
    const second = await renderConsentPdf(signed);
    expect(first.equals(second)).toBe(true);
    // CreationDate and ModDate (indirect objects of the info dictionary) are the signing time, not the rendering time.
    expect(latin1(first).match(/\(D:20261125210400Z\)/g)).toHaveLength(2);
    const later = await renderConsentPdf({ ...signed, signedAt: new Date('2026-11-26T21:04:00Z') });
    expect(first.equals(later)).toBe(false);
  });

  it('labels the document in Spanish and renders Spanish characters', async () => {
    const spanish = input({
      language: 'es',
      documentTitle: 'Acuerdo para pacientes nuevos',
      documentText: '¿Está de acuerdo con el tratamiento? Sí, señor: acepto la atención médica.',
      signedAtText: '25/11/2026 3:04 p. m. CST',
      expiresAtText: null,
      signature: { typedName: 'José Peña' },
      patientName: 'José Peña',
    });
    const pdf = await renderConsentPdf(spanish, { compress: false });
    const text = await pdfText(pdf);
    expect(text).toContain('Acuerdo para pacientes nuevos');
    expect(text).toContain('¿Está de acuerdo con el tratamiento? Sí, señor: acepto la atención médica.');
    expect(text).toContain('Firmado por José Peña (fecha de nacimiento 01/02/1990)');
    expect(text).toContain('Firmado el: 25/11/2026 3:04 p. m. CST');
    expect(text).toContain('No vence');
    expect(text).toContain('Firma escrita');
    expect(text).toContain('Versión del documento: sha256:ab12cd34ef56ab12');
    expect(text).toContain('Página 1 de 1');
    expect(text).not.toMatch(/Signed|Typed signature|Page 1 of 1/);
    expect(latin1(pdf)).toContain('/Lang (es-US)');
  });

  it('prints names and text outside Windows-1252 as written', async () => {
    const samples = ['≥ 5 mg', 'Nguyễn Thị Ánh', 'Łukasz Żółć', '王小明', 'Andrés Díaz Ortega'];
    const pdf = await renderConsentPdf(
      input({
        clinicName: 'Clínica Łódź 王',
        documentTitle: 'Consentimiento ≥ 18 años',
        documentText: samples.join('\n\n'),
        patientName: 'Nguyễn Thị Ánh',
        signature: { typedName: '王小明' },
      }),
    );
    const text = await pdfText(pdf);
    for (const sample of samples) expect(text).toContain(sample);
    expect(text).toContain('Clínica Łódź 王');
    expect(text).toContain('Consentimiento ≥ 18 años');
    expect(text).toContain('Signed by Nguyễn Thị Ánh (DOB 01/02/1990)');
  });
});
