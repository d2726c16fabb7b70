import { describe, expect, it } from 'vitest';
import { pdfText } from '../../test/pdf-text';
import { createPdfDocument, PDF_FONT } from './pdf-fonts';

const SAMPLES = ['≥ 5 mg', 'Nguyễn Thị Ánh', 'Łukasz Żółć', '王小明', 'Andrés Díaz Ortega'];

function render(draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  const doc = createPdfDocument({ size: 'LETTER', margin: 54, info: { CreationDate: new Date('2026-01-01T00:00:00Z') } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  draw(doc);
  doc.end();
  return done;
}

describe('createPdfDocument', () => {
  it('prints text outside Windows-1252 in every style, and it reads back intact', async () => {
    const pdf = await render((doc) => {
      for (const font of Object.values(PDF_FONT)) {
        for (const sample of SAMPLES) doc.font(font).fontSize(12).text(sample);
      }
      doc.font(PDF_FONT.regular).text('Patient: 王 (Nguyễn) ≤ 10 mg → done', { width: 300, align: 'right' });
    });
    const text = await pdfText(pdf);
    for (const sample of SAMPLES) expect(text.split(sample).length - 1, sample).toBe(3);
    expect(text).toContain('Patient: 王 (Nguyễn) ≤ 10 mg → done');
    expect(pdf.toString('latin1')).toContain('/FontFile2');
  });

  it('wraps, measures and cuts mixed-script text with the fallback fonts’ widths', async () => {
    const pdf = await render((doc) => {
      doc.font(PDF_FONT.regular).fontSize(10);
      // The CJK glyphs are wider than Latin ones: measured with Noto Sans alone the line would seem to fit.
      expect(doc.widthOfString('王小明王小明')).toBeGreaterThan(doc.widthOfString('abcdef'));
      doc.text('王小明 '.repeat(30), 54, 54, { width: 120 });
    });
    const text = await pdfText(pdf);
    expect(text.replace(/\s+/g, '')).toBe('王小明'.repeat(30));
  });

  it('gives the same bytes for the same input and embeds subsets, not whole fonts', async () => {
    const draw = (doc: PDFKit.PDFDocument) => SAMPLES.forEach((sample) => doc.text(sample));
    const first = await render(draw);
    const again = await render(draw);
    expect(first.equals(again)).toBe(true);
    // Noto Sans, Noto Sans Math and Droid Sans Fallback are 6 MB as files; the used glyphs are a few kilobytes.
    expect(first.length).toBeLessThan(60_000);
  });
});
