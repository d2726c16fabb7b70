import type { SpotlightProcedure } from '@pathwell/contracts/reports-spotlight';
import { PDF_FONT } from '../../lib/pdf-fonts';
import { finishSignedPdf, PDF_MARGIN, startSignedPdf } from '../../lib/signed-pdf';
import type { SpotlightMeasure } from './spotlight-measure';

/**
 * The patient spotlight as one US Letter page for a referring provider (decision 0045): the clinic's
 * header, who the patient is, the baseline → latest change, a vector line chart of the scores with the
 * procedures marked, the scores and procedures as tables, and the patient's words when they agreed to
 * share them. Everything is sized to stay on one page: tables and the story are cut to the room left.
 */
export interface SpotlightPdfInput {
  language: 'en' | 'es';
  clinicName: string;
  logo: Buffer | null;
  generatedAt: Date;
  patientName: string;
  /** MM/DD/YYYY */
  dateOfBirth: string;
  referringProvider: string | null;
  measure: SpotlightMeasure;
  /** Oldest first; dates YYYY-MM-DD in the clinic's calendar. */
  scores: { date: string; score: number }[];
  baselineIndex: number;
  /** The last score at least four weeks after the baseline, or -1. */
  latestIndex: number;
  procedures: SpotlightProcedure[];
  /** Only when the patient agreed to share it. */
  story: string | null;
}

const LABELS = {
  en: {
    title: 'Patient progress summary',
    patient: 'Patient',
    dateOfBirth: 'Date of birth',
    referringProvider: 'Referring provider',
    measure: 'Measure',
    none: 'None recorded',
    lowerBetter: 'lower is better',
    higherBetter: 'higher is better',
    baseline: 'Baseline',
    latest: 'Latest',
    improvement: 'Improvement',
    points: 'points',
    improved: 'improved',
    worse: 'worse',
    unchanged: 'no change',
    mcidTimes: (value: string) => `${value} × MCID`,
    noFollowUp: 'No follow-up score four weeks or more after the baseline yet.',
    noScores: 'No scores recorded for this measure.',
    chartTitle: 'Scores over time',
    chartNote: (mcid: string, source: string) =>
      `MCID (minimal clinically important difference): ${mcid} points, ${source}. Numbered dashed lines: procedures.`,
    scoresTitle: 'Scores',
    proceduresTitle: 'Procedures in this period',
    date: 'Date',
    score: 'Score',
    procedure: 'Procedure',
    noProcedures: 'No procedures recorded in this period.',
    moreRows: (count: number) => `… and ${count} more`,
    storyTitle: "In the patient's own words",
    storyNote: 'Shared with the patient’s permission.',
    kinds: { procedure: 'Procedure', injection: 'Injection', pump: 'Pump' },
    footer: (date: string) => `Generated ${date} by Pathwell · Confidential patient information`,
    page: (page: number, count: number) => `Page ${page} of ${count}`,
  },
  es: {
    title: 'Resumen de la evolución del paciente',
    patient: 'Paciente',
    dateOfBirth: 'Fecha de nacimiento',
    referringProvider: 'Médico que lo refirió',
    measure: 'Medida',
    none: 'No registrado',
    lowerBetter: 'menor es mejor',
    higherBetter: 'mayor es mejor',
    baseline: 'Inicial',
    latest: 'Última',
    improvement: 'Mejoría',
    points: 'puntos',
    improved: 'mejoría',
    worse: 'empeoramiento',
    unchanged: 'sin cambio',
    mcidTimes: (value: string) => `${value} × DMCI`,
    noFollowUp: 'Aún no hay una puntuación de seguimiento cuatro semanas o más después de la inicial.',
    noScores: 'No hay puntuaciones registradas para esta medida.',
    chartTitle: 'Puntuaciones a lo largo del tiempo',
    chartNote: (mcid: string, source: string) =>
      `DMCI (diferencia mínima clínicamente importante): ${mcid} puntos, ${source}. Líneas discontinuas numeradas: procedimientos.`,
    scoresTitle: 'Puntuaciones',
    proceduresTitle: 'Procedimientos en este periodo',
    date: 'Fecha',
    score: 'Puntuación',
    procedure: 'Procedimiento',
    noProcedures: 'No hay procedimientos registrados en este periodo.',
    moreRows: (count: number) => `… y ${count} más`,
    storyTitle: 'En palabras del paciente',
    storyNote: 'Compartido con el permiso del paciente.',
    kinds: { procedure: 'Procedimiento', injection: 'Inyección', pump: 'Bomba' },
    footer: (date: string) => `Generado el ${date} por Pathwell · Información confidencial del paciente`,
    page: (page: number, count: number) => `Página ${page} de ${count}`,
  },
} as const;

const COLORS = {
  text: '#1a1b1e',
  muted: '#5c5f66',
  rule: '#ced4da',
  grid: '#e9ecef',
  line: '#1c7ed6',
  procedure: '#e8590c',
  better: '#2b8a3e',
  betterFill: '#ebfbee',
  worse: '#c92a2a',
  neutralFill: '#f1f3f5',
  zebra: '#f8f9fa',
};

const DAY_MS = 86_400_000;
const dayOf = (iso: string) => Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10))) / DAY_MS;
const mdy = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
const shortMdy = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(2, 4)}`;

function niceStep(range: number): number {
  const raw = range / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10) * power;
}

type Doc = ReturnType<typeof startSignedPdf>['doc'];

export async function renderSpotlightPdf(input: SpotlightPdfInput, options: { compress?: boolean } = {}): Promise<Buffer> {
  const labels = LABELS[input.language];
  const number = new Intl.NumberFormat(input.language === 'es' ? 'es-US' : 'en-US', { maximumFractionDigits: 1 });
  const measureName = input.measure.name[input.language];
  const pdf = startSignedPdf({
    title: labels.title,
    clinicName: input.clinicName,
    subject: `${labels.title}: ${input.patientName} (${measureName})`,
    language: input.language,
    signedAt: input.generatedAt,
    compress: options.compress,
    logo: input.logo,
  });
  const { doc, left, width } = pdf;
  const right = left + width;
  const bottom = doc.page.height - PDF_MARGIN;

  const rule = (y: number) => doc.moveTo(left, y).lineTo(right, y).lineWidth(0.75).strokeColor(COLORS.rule).stroke();
  let y = doc.y + 8;
  rule(y);
  y += 10;

  // Who: two columns of label and value.
  const field = (x: number, top: number, label: string, value: string, fieldWidth: number) => {
    doc
      .font(PDF_FONT.regular)
      .fontSize(8)
      .fillColor(COLORS.muted)
      .text(label.toUpperCase(), x, top, { width: fieldWidth, characterSpacing: 0.3 });
    doc
      .font(PDF_FONT.bold)
      .fontSize(10.5)
      .fillColor(COLORS.text)
      .text(value, x, top + 11, {
        width: fieldWidth,
        height: 14,
        ellipsis: true,
        lineBreak: false,
      });
  };
  const column = width / 2;
  field(left, y, labels.patient, input.patientName, column - 12);
  field(left + column, y, labels.referringProvider, input.referringProvider ?? labels.none, column);
  y += 32;
  field(left, y, labels.dateOfBirth, input.dateOfBirth, column - 12);
  const direction = input.measure.higherIsBetter ? labels.higherBetter : labels.lowerBetter;
  field(left + column, y, labels.measure, `${measureName}, ${direction}`, column);
  y += 36;

  // The result: baseline → latest.
  const baseline = input.scores[input.baselineIndex];
  const latest = input.scores[input.latestIndex];
  const boxHeight = 50;
  let improved: boolean | null = null;
  if (baseline && latest) {
    const change = latest.score - baseline.score;
    const better = input.measure.higherIsBetter ? change : -change;
    improved = better > 0 ? true : better < 0 ? false : null;
    doc.roundedRect(left, y, width, boxHeight, 4).fill(improved ? COLORS.betterFill : COLORS.neutralFill);
    // WinAnsi has no arrow: the arrow between the two scores is drawn.
    const color = improved === false ? COLORS.worse : improved ? COLORS.better : COLORS.text;
    doc.font(PDF_FONT.bold).fontSize(22).fillColor(color);
    const from = number.format(baseline.score);
    doc.text(from, left + 14, y + 14, { lineBreak: false });
    const arrowX = left + 14 + doc.widthOfString(from) + 6;
    const arrowY = y + 25;
    doc
      .moveTo(arrowX, arrowY)
      .lineTo(arrowX + 18, arrowY)
      .lineWidth(2)
      .strokeColor(color)
      .stroke();
    doc.polygon([arrowX + 24, arrowY], [arrowX + 16, arrowY - 5], [arrowX + 16, arrowY + 5]).fill(color);
    doc
      .font(PDF_FONT.bold)
      .fontSize(22)
      .fillColor(color)
      .text(number.format(latest.score), arrowX + 30, y + 14, { lineBreak: false });
    const status = improved === null ? labels.unchanged : improved ? labels.improved : labels.worse;
    // One sign in every report (decision 0060): improvement, positive = better, whatever the direction.
    const signed = `${better > 0 ? '+' : better < 0 ? '–' : ''}${number.format(Math.abs(better))}`;
    doc.font(PDF_FONT.regular).fontSize(10).fillColor(COLORS.text);
    doc.text(
      `${labels.baseline}: ${number.format(baseline.score)} (${mdy(baseline.date)})    ${labels.latest}: ${number.format(latest.score)} (${mdy(latest.date)})`,
      left + 160,
      y + 10,
      { width: width - 174, lineBreak: false },
    );
    doc
      .font(PDF_FONT.bold)
      .text(
        `${labels.improvement}: ${signed} ${labels.points} (${labels.mcidTimes(number.format(better / input.measure.mcid))}, ${status})`,
        left + 160,
        y + 27,
        { width: width - 174, lineBreak: false },
      );
  } else {
    doc.roundedRect(left, y, width, boxHeight, 4).fill(COLORS.neutralFill);
    doc
      .font(PDF_FONT.regular)
      .fontSize(10.5)
      .fillColor(COLORS.text)
      .text(input.scores.length === 0 ? labels.noScores : labels.noFollowUp, left + 14, y + 19, { width: width - 28 });
  }
  y += boxHeight + 14;

  // The chart.
  doc.font(PDF_FONT.bold).fontSize(11).fillColor(COLORS.text).text(labels.chartTitle, left, y);
  y += 16;
  const chartHeight = 178;
  drawChart(doc, input, { left, top: y, width, height: chartHeight }, number);
  y += chartHeight + 4;
  doc
    .font(PDF_FONT.regular)
    .fontSize(7.5)
    .fillColor(COLORS.muted)
    .text(labels.chartNote(number.format(input.measure.mcid), input.measure.mcidSource), left, y, { width });
  y = doc.y + 12;

  // Room for the story, if shared, then the tables fill what is left.
  const storyHeight = input.story ? storyBlockHeight(doc, input.story, width) : 0;
  const tablesBottom = bottom - (storyHeight > 0 ? storyHeight + 14 : 0);
  const rowHeight = 14;
  const maxRows = Math.max(1, Math.floor((tablesBottom - y - 34) / rowHeight));

  const scoresWidth = 196;
  const gap = 24;
  const proceduresLeft = left + scoresWidth + gap;
  const proceduresWidth = width - scoresWidth - gap;
  const scoreRows = pickScoreRows(input, maxRows);
  const scoresEnd = table(doc, {
    x: left,
    y,
    width: scoresWidth,
    title: labels.scoresTitle,
    columns: [
      { header: labels.date, width: 118 },
      { header: labels.score, width: 78, align: 'right' },
    ],
    rows: scoreRows.rows.map(({ score, index }) => [
      mdy(score.date) +
        (index === input.baselineIndex
          ? ` (${labels.baseline.toLowerCase()})`
          : index === input.latestIndex
            ? ` (${labels.latest.toLowerCase()})`
            : ''),
      number.format(score.score),
    ]),
    more: scoreRows.hidden > 0 ? labels.moreRows(scoreRows.hidden) : null,
    empty: labels.noScores,
    rowHeight,
  });
  const procedureRows = input.procedures.slice(0, input.procedures.length > maxRows ? maxRows - 1 : maxRows);
  const proceduresEnd = table(doc, {
    x: proceduresLeft,
    y,
    width: proceduresWidth,
    title: labels.proceduresTitle,
    columns: [
      { header: '#', width: 18 },
      { header: labels.date, width: 66 },
      { header: labels.procedure, width: proceduresWidth - 84 },
    ],
    rows: procedureRows.map((procedure, index) => [String(index + 1), mdy(procedure.performedOn), procedure.name]),
    more: input.procedures.length > procedureRows.length ? labels.moreRows(input.procedures.length - procedureRows.length) : null,
    empty: labels.noProcedures,
    rowHeight,
  });

  if (input.story) {
    const top = Math.min(Math.max(scoresEnd, proceduresEnd) + 20, bottom - storyHeight);
    doc.rect(left, top, 3, storyHeight).fill(COLORS.line);
    doc
      .font(PDF_FONT.bold)
      .fontSize(11)
      .fillColor(COLORS.text)
      .text(labels.storyTitle, left + 14, top + 2, { width: width - 14 });
    doc
      .font(PDF_FONT.italic)
      .fontSize(10)
      .fillColor(COLORS.text)
      .text(`“${input.story}”`, left + 14, top + 18, {
        width: width - 14,
        height: storyHeight - 32,
        ellipsis: true,
        lineGap: 1.5,
      });
    doc
      .font(PDF_FONT.regular)
      .fontSize(7.5)
      .fillColor(COLORS.muted)
      .text(labels.storyNote, left + 14, top + storyHeight - 10, { width: width - 14, lineBreak: false });
  }

  doc.fillColor('black');
  return finishSignedPdf(pdf, labels.footer(mdy(input.generatedAt.toISOString().slice(0, 10))), labels.page);
}

/** The story gets what it needs, up to 7 lines, so the tables keep room for several rows. */
function storyBlockHeight(doc: Doc, story: string, width: number): number {
  doc.font(PDF_FONT.italic).fontSize(10);
  const textHeight = doc.heightOfString(`“${story}”`, { width: width - 14, lineGap: 1.5 });
  return Math.min(textHeight, 7 * 13.5) + 32;
}

/** The baseline, then the most recent scores that fit; the ones in between are counted, not listed. */
function pickScoreRows(input: SpotlightPdfInput, maxRows: number) {
  const all = input.scores.map((score, index) => ({ score, index }));
  if (all.length <= maxRows) return { rows: all, hidden: 0 };
  const shown = [all[0]!, ...all.slice(all.length - (maxRows - 2))];
  return { rows: shown, hidden: all.length - shown.length };
}

interface TableSpec {
  x: number;
  y: number;
  width: number;
  title: string;
  columns: { header: string; width: number; align?: 'left' | 'right' }[];
  rows: string[][];
  more: string | null;
  empty: string;
  rowHeight: number;
}

/** Draws the table and answers where it ends. */
function table(doc: Doc, spec: TableSpec): number {
  const { x, width, rowHeight } = spec;
  let y = spec.y;
  doc.font(PDF_FONT.bold).fontSize(11).fillColor(COLORS.text).text(spec.title, x, y, { width, lineBreak: false });
  y += 17;
  const cells = (values: string[], top: number, font: string, color: string) => {
    let cellX = x;
    spec.columns.forEach((column, index) => {
      doc
        .font(font)
        .fontSize(font === PDF_FONT.bold ? 8 : 9)
        .fillColor(color)
        .text(values[index] ?? '', cellX + 4, top + 3.5, {
          width: column.width - 8,
          align: column.align ?? 'left',
          lineBreak: false,
          ellipsis: true,
          height: rowHeight,
        });
      cellX += column.width;
    });
  };
  cells(
    spec.columns.map((column) => column.header.toUpperCase()),
    y,
    PDF_FONT.bold,
    COLORS.muted,
  );
  y += rowHeight;
  doc
    .moveTo(x, y)
    .lineTo(x + width, y)
    .lineWidth(0.75)
    .strokeColor(COLORS.rule)
    .stroke();
  if (spec.rows.length === 0) {
    doc
      .font(PDF_FONT.regular)
      .fontSize(9)
      .fillColor(COLORS.muted)
      .text(spec.empty, x + 4, y + 4, { width: width - 8 });
    return doc.y;
  }
  spec.rows.forEach((row, index) => {
    if (index % 2 === 1) doc.rect(x, y, width, rowHeight).fill(COLORS.zebra);
    cells(row, y, PDF_FONT.regular, COLORS.text);
    y += rowHeight;
  });
  if (!spec.more) return y;
  doc
    .font(PDF_FONT.italic)
    .fontSize(8.5)
    .fillColor(COLORS.muted)
    .text(spec.more, x + 4, y + 3, { width: width - 8 });
  return doc.y;
}

function drawChart(
  doc: Doc,
  input: SpotlightPdfInput,
  box: { left: number; top: number; width: number; height: number },
  number: Intl.NumberFormat,
) {
  const plotLeft = box.left + 30;
  const plotRight = box.left + box.width - 10;
  const plotTop = box.top + 16;
  const plotBottom = box.top + box.height - 18;
  const maximum = input.measure.maximum;
  const step = niceStep(maximum);

  doc.rect(box.left, box.top, box.width, box.height).lineWidth(0.5).strokeColor(COLORS.rule).stroke();
  const yOf = (score: number) => plotBottom - (Math.min(Math.max(score, 0), maximum) / maximum) * (plotBottom - plotTop);
  for (let tick = 0; tick <= maximum + 1e-9; tick += step) {
    const tickY = yOf(tick);
    doc.moveTo(plotLeft, tickY).lineTo(plotRight, tickY).lineWidth(0.5).strokeColor(COLORS.grid).stroke();
    doc
      .font(PDF_FONT.regular)
      .fontSize(7.5)
      .fillColor(COLORS.muted)
      .text(number.format(tick), box.left + 2, tickY - 3.5, { width: plotLeft - box.left - 6, align: 'right', lineBreak: false });
  }
  doc
    .moveTo(plotLeft, plotTop)
    .lineTo(plotLeft, plotBottom)
    .lineTo(plotRight, plotBottom)
    .lineWidth(0.75)
    .strokeColor(COLORS.muted)
    .stroke();

  if (input.scores.length === 0) return;
  const days = [
    ...input.scores.map((score) => dayOf(score.date)),
    ...input.procedures.map((procedure) => dayOf(procedure.performedOn)),
  ];
  let first = Math.min(...days);
  let last = Math.max(...days);
  if (last - first < 14) {
    first -= 7;
    last += 7;
  }
  const pad = (last - first) * 0.03;
  first -= pad;
  last += pad;
  const xOf = (iso: string) => plotLeft + ((dayOf(iso) - first) / (last - first)) * (plotRight - plotLeft);

  // Date ticks: five evenly spaced days from the first to the last point, labels kept inside the frame.
  for (let index = 0; index <= 4; index++) {
    const day = Math.round(first + pad + ((last - first - 2 * pad) * index) / 4);
    const iso = new Date(day * DAY_MS).toISOString().slice(0, 10);
    const tickX = plotLeft + ((day - first) / (last - first)) * (plotRight - plotLeft);
    doc
      .moveTo(tickX, plotBottom)
      .lineTo(tickX, plotBottom + 3)
      .lineWidth(0.75)
      .strokeColor(COLORS.muted)
      .stroke();
    const labelX = Math.min(Math.max(tickX - 25, box.left + 2), box.left + box.width - 52);
    doc
      .font(PDF_FONT.regular)
      .fontSize(7.5)
      .fillColor(COLORS.muted)
      .text(shortMdy(iso), labelX, plotBottom + 5, { width: 50, align: 'center', lineBreak: false });
  }

  // Procedures: numbered dashed verticals (the numbers match the procedures table).
  input.procedures.forEach((procedure, index) => {
    const lineX = xOf(procedure.performedOn);
    doc.save();
    doc
      .moveTo(lineX, plotTop)
      .lineTo(lineX, plotBottom)
      .lineWidth(0.9)
      .dash(3, { space: 2 })
      .strokeColor(COLORS.procedure)
      .stroke();
    doc.restore();
    doc.circle(lineX, plotTop - 7, 6).fill(COLORS.procedure);
    doc
      .font(PDF_FONT.bold)
      .fontSize(7)
      .fillColor('white')
      .text(String(index + 1), lineX - 6, plotTop - 10, { width: 12, align: 'center', lineBreak: false });
  });

  // The scores: a line through the points, baseline and latest marked and labelled.
  input.scores.forEach((score, index) => {
    const pointX = xOf(score.date);
    const pointY = yOf(score.score);
    if (index === 0) doc.moveTo(pointX, pointY);
    else doc.lineTo(pointX, pointY);
  });
  doc.lineWidth(1.6).strokeColor(COLORS.line).stroke();
  input.scores.forEach((score, index) => {
    const key = index === input.baselineIndex || index === input.latestIndex;
    const pointX = xOf(score.date);
    const pointY = yOf(score.score);
    doc.circle(pointX, pointY, key ? 4 : 2.6).fill(COLORS.line);
    if (key) {
      doc.circle(pointX, pointY, 1.6).fill('white');
      const labelY = pointY - 14 < plotTop ? pointY + 6 : pointY - 14;
      doc
        .font(PDF_FONT.bold)
        .fontSize(8)
        .fillColor(COLORS.line)
        .text(number.format(score.score), pointX - 20, labelY, { width: 40, align: 'center', lineBreak: false });
    }
  });
}
