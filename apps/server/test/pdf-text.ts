import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * The text of a PDF, page by page, as a reader extracts it (pdf.js, through each font's ToUnicode map), so
 * a test sees what a person copying from the document would get. One line per text line pdf.js reports.
 */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  const document = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false, verbosity: 0 })
    .promise;
  const pages: string[] = [];
  try {
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      pages.push(
        content.items
          .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
          .join('')
          .normalize('NFC'),
      );
    }
  } finally {
    await document.destroy();
  }
  return pages.join('\n');
}
