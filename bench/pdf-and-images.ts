/**
 * Cost of the documents and uploads of decision 0057, in one process as the server runs them:
 * each kind of PDF with the embedded Unicode fonts, and re-encoding an uploaded phone photo.
 *
 *   npx tsx bench/pdf-and-images.ts [--runs 20]
 */
import sharp from 'sharp';
import { reencodeImage } from '../apps/server/src/lib/image-type';
import { renderConsentPdf } from '../apps/server/src/modules/intake/consent-pdf';
import { renderProcedureNotePdf } from '../apps/server/src/modules/procedure-notes/procedure-note-pdf';
import { renderSpotlightPdf } from '../apps/server/src/modules/reports/spotlight.pdf';
import { spotlightMeasure } from '../apps/server/src/modules/reports/spotlight-measure';

const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 20;
const signedAt = new Date('2026-11-25T21:04:00Z');
const paragraphs = Array.from(
  { length: 30 },
  (_, index) => `Paragraph ${index + 1}: dexamethasone ≥ 5 mg; Nguyễn Thị Ánh, Łukasz Żółć and 王小明 tolerated it well.`,
);

async function measure(label: string, work: () => Promise<Buffer>) {
  const first = performance.now();
  let bytes = (await work()).length;
  const firstMs = performance.now() - first;
  const start = performance.now();
  for (let run = 0; run < runs; run++) bytes = (await work()).length;
  const each = (performance.now() - start) / runs;
  console.log(
    `${label.padEnd(28)} first ${firstMs.toFixed(0).padStart(5)} ms   then ${each.toFixed(1).padStart(6)} ms each   ${bytes} bytes`,
  );
}

await measure('consent (1 page)', () =>
  renderConsentPdf({
    clinicName: 'Clínica del Dolor Łódź',
    documentTitle: 'New patient agreement',
    documentText: paragraphs.slice(0, 8).join('\n\n'),
    documentVersion: 'sha256:ab12',
    language: 'en',
    patientName: 'Nguyễn Thị Ánh',
    dateOfBirth: '01/02/1990',
    signedAt,
    signedAtText: '11/25/2026 3:04 PM CST',
    expiresAtText: null,
    signature: { typedName: 'Nguyễn Thị Ánh' },
  }),
);
await measure('procedure note (2 pages)', () =>
  renderProcedureNotePdf({
    clinicName: 'Clínica del Dolor Łódź',
    title: 'Lumbar epidural steroid injection',
    patientName: '王小明',
    dateOfBirth: '01/02/1990',
    datePerformed: '11/25/2026',
    body: paragraphs.join('\n\n'),
    version: 1,
    superseded: false,
    signedAt,
    signatureText: 'Electronically signed by Dr. Zoë Ørsted at 11/25/2026 3:04 PM CST',
  }),
);
await measure('spotlight (1 page)', () =>
  renderSpotlightPdf({
    language: 'es',
    clinicName: 'Clínica del Dolor Łódź',
    logo: null,
    generatedAt: signedAt,
    patientName: 'Andrés Díaz Ortega',
    dateOfBirth: '02/03/1960',
    referringProvider: 'Dr. 李娜',
    measure: spotlightMeasure(null),
    scores: Array.from({ length: 12 }, (_, index) => ({
      date: new Date(Date.UTC(2026, 0, 5 + index * 7)).toISOString().slice(0, 10),
      score: 8 - (index % 5),
    })),
    baselineIndex: 0,
    latestIndex: 11,
    procedures: [{ name: 'Epidural, dexamethasone ≥ 5 mg', performedOn: '2026-01-10', kind: 'injection' }],
    story: paragraphs.slice(0, 3).join(' '),
  }),
);

// A phone photo: 4032 × 3024 (12 MP) of noise with EXIF, about what a 2 MB upload at most holds.
const width = 4032;
const height = 3024;
const noise = Buffer.alloc(width * height * 3);
for (let index = 0; index < noise.length; index++) noise[index] = (index * 2654435761) >>> 24;
const photo = await sharp(noise, { raw: { width, height, channels: 3 } })
  .jpeg({ quality: 25 })
  .withExif({ IFD0: { Make: 'BenchCam' } })
  .toBuffer();
console.log(`photo upload: ${(photo.length / 1024 / 1024).toFixed(1)} MB`);
await measure('re-encode 12 MP JPEG', async () => (await reencodeImage(photo))!.content);
