import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../../test/pdf-text';
import { renderConsentPdf } from '../modules/intake/consent-pdf';
import { renderProcedureNotePdf } from '../modules/procedure-notes/procedure-note-pdf';
import { renderSpotlightPdf } from '../modules/reports/spotlight.pdf';
import { spotlightMeasure } from '../modules/reports/spotlight-measure';

/**
 * Every kind of PDF the server makes prints text outside Windows-1252 as written (issue #24 §2): a dose
 * with "≥", Vietnamese, Polish, Chinese and Spanish names. The text is read back as a reader copies it.
 * PDF_UNICODE_OUT=<dir> keeps the files, to look at them.
 */
const DOSE = 'Dexamethasone ≥ 5 mg';
const NAMES = ['Nguyễn Thị Ánh', 'Łukasz Żółć', '王小明', 'Andrés Díaz Ortega'];
const signedAt = new Date('2026-11-25T21:04:00Z');

async function readBack(kind: string, pdf: Buffer): Promise<string> {
  if (process.env.PDF_UNICODE_OUT) writeFileSync(`${process.env.PDF_UNICODE_OUT}/${kind}.pdf`, pdf);
  return pdfText(pdf);
}

describe('PDFs with text outside Windows-1252', () => {
  it.each(NAMES)('a signed procedure note for %s', async (patientName) => {
    const pdf = await renderProcedureNotePdf({
      clinicName: 'Clínica del Dolor Łódź',
      title: 'Lumbar epidural steroid injection',
      patientName,
      dateOfBirth: '01/02/1990',
      datePerformed: '11/25/2026',
      body: `Medication: ${DOSE} in 2 mL.\nPatient ${patientName} tolerated the procedure.`,
      version: 1,
      superseded: false,
      signedAt,
      signatureText: `Electronically signed by Dr. Zoë Ørsted at 11/25/2026 3:04 PM CST`,
    });
    const text = await readBack(`procedure-note-${NAMES.indexOf(patientName)}`, pdf);
    expect(text).toContain(`Medication: ${DOSE} in 2 mL.`);
    expect(text).toContain(`Patient ${patientName} tolerated the procedure.`);
    expect(text).toContain(`Patient: ${patientName}`);
    expect(text).toContain(`${patientName} - Version 1`);
    expect(text).toContain('Clínica del Dolor Łódź');
    expect(text).toContain('Dr. Zoë Ørsted');
  });

  it.each(NAMES)('a consent signed by %s', async (patientName) => {
    const pdf = await renderConsentPdf({
      clinicName: 'Clínica del Dolor Łódź',
      documentTitle: 'Consentimiento para inyección',
      documentText: `El paciente ${patientName} recibirá ${DOSE}.`,
      documentVersion: 'sha256:ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12',
      language: 'es',
      patientName,
      dateOfBirth: '01/02/1990',
      signedAt,
      signedAtText: '25/11/2026 3:04 p. m. CST',
      expiresAtText: null,
      signature: { typedName: patientName },
    });
    const text = await readBack(`consent-${NAMES.indexOf(patientName)}`, pdf);
    expect(text).toContain(`El paciente ${patientName} recibirá ${DOSE}.`);
    expect(text).toContain(`Firmado por ${patientName} (fecha de nacimiento 01/02/1990)`);
    expect(text.split(patientName).length - 1).toBe(3);
  });

  it.each(NAMES)('the spotlight of %s', async (patientName) => {
    const pdf = await renderSpotlightPdf({
      language: 'en',
      clinicName: 'Clínica del Dolor Łódź',
      logo: null,
      generatedAt: new Date('2026-04-01T12:00:00Z'),
      patientName,
      dateOfBirth: '02/03/1960',
      referringProvider: 'Dr. 李娜',
      measure: spotlightMeasure(null),
      scores: [
        { date: '2026-01-05', score: 8 },
        { date: '2026-02-16', score: 3 },
      ],
      baselineIndex: 0,
      latestIndex: 1,
      procedures: [{ name: `Epidural, ${DOSE}`, performedOn: '2026-01-10', kind: 'injection' }],
      story: `${patientName}: “Tôi có thể ngủ lại” — zażółć gęślą jaźń, 我能睡觉了.`,
    });
    const text = await readBack(`spotlight-${NAMES.indexOf(patientName)}`, pdf);
    expect(text).toContain(patientName);
    expect(text).toContain('Dr. 李娜');
    expect(text).toContain(`Epidural, ${DOSE}`);
    expect(text).toContain(`“${patientName}: “Tôi có thể ngủ lại” — zażółć gęślą jaźń, 我能睡觉了.”`);
    expect(text).toContain('Clínica del Dolor Łódź');
  });
});
