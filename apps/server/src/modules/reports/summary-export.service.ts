import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { getInstrument, isFormCode } from '@pathwell/instruments';
import { isoToMdy } from '@pathwell/contracts/patients';
import type { summaryExportRequestSchema } from '@pathwell/contracts/reports-summary';
import { reportReader, type SignedInContext } from '../../context';
import { toXlsx } from '../../lib/spreadsheet';
import { toCsv } from '../../lib/csv';
import { rowsOf } from '../../lib/sql-rows';
import { recordActivity, staffActivity } from '../audit/audit.service';
import {
  patientColumns,
  patientJoins,
  points,
  sandboxQuery,
  sandboxSettings,
  seriesOf,
  toPatientRow,
  type PatientPointRow,
} from './summary-query';
import { summaryReport } from './summary.service';

/** Most patient rows one export writes. */
const SUMMARY_EXPORT_ROW_LIMIT = 100_000;

type Language = 'en' | 'es';

const exportHeaders: Record<'aggregate' | 'patients', Record<Language, string[]>> = {
  aggregate: {
    en: ['Series', 'Week', 'Patients', 'Mean', 'SD', '95% CI low', '95% CI high', 'Mean improvement', 'MCID reached', 'MCID %'],
    es: [
      'Serie',
      'Semana',
      'Pacientes',
      'Media',
      'DE',
      'IC 95% inferior',
      'IC 95% superior',
      'Mejoría media',
      'DMCI alcanzada',
      'DMCI %',
    ],
  },
  patients: {
    en: [
      'Series',
      'Week',
      'Patient',
      'Date of birth',
      'Doctor',
      'Baseline date',
      'Baseline score',
      'Score date',
      'Score',
      'Improvement',
      'MCID reached',
    ],
    es: [
      'Serie',
      'Semana',
      'Paciente',
      'Fecha de nacimiento',
      'Médico',
      'Fecha basal',
      'Puntuación basal',
      'Fecha de la puntuación',
      'Puntuación',
      'Mejoría',
      'DMCI alcanzada',
    ],
  },
};

function seriesLabel(key: string, language: Language): string {
  if (key === 'pain') return language === 'es' ? 'Dolor (0–10)' : 'Pain (0–10)';
  const code = Number(key.replace('form-', ''));
  if (!isFormCode(code)) return key;
  const name = getInstrument(code).name;
  return (language === 'es' ? name.es : undefined) ?? name.en;
}

const yesNo = (value: boolean | null, language: Language) =>
  value === null ? '' : value ? (language === 'es' ? 'Sí' : 'Yes') : 'No';

interface SummaryExportFile {
  fileName: string;
  contentType: string;
  content: Buffer;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** CSV (UTF-8 with BOM, formula-guarded) or XLSX of the aggregate or of every patient row behind it. */
export async function exportSummary(
  ctx: SignedInContext,
  request: z.output<typeof summaryExportRequestSchema>,
): Promise<SummaryExportFile> {
  const language = request.language;
  const settings = await sandboxSettings(ctx);
  const headers = exportHeaders[request.level][language];
  let rows: (string | number | null)[][];
  if (request.level === 'aggregate') {
    const report = await summaryReport(ctx, request.filter, settings);
    rows = report.series.flatMap((entry) =>
      entry.points.map((point) => [
        seriesLabel(entry.key, language),
        point.week,
        point.patients,
        point.mean,
        point.sd,
        point.ciLow,
        point.ciHigh,
        point.meanImprovement,
        point.mcidReached,
        point.mcidPercent,
      ]),
    );
  } else {
    const series = seriesOf(request.filter);
    let found: PatientPointRow[] = [];
    if (series.length) {
      found = await rowsOf<PatientPointRow>(
        reportReader(ctx),
        sql`
        with ${points(sandboxQuery(ctx, request.filter, settings, series))}
        select ${patientColumns}
          from points p ${patientJoins}
         order by m.ord, p.week, pathwell_fold(pt.last_name), pathwell_fold(pt.first_name), pt.id
         limit ${SUMMARY_EXPORT_ROW_LIMIT}
      `,
      );
    }
    rows = found.map((raw) => {
      const row = toPatientRow(raw);
      return [
        seriesLabel(raw.series_key, language),
        Number(raw.week),
        row.fullName,
        isoToMdy(row.dateOfBirth),
        row.doctorName,
        isoToMdy(row.baselineDate),
        row.baselineScore,
        isoToMdy(row.scoreDate),
        row.score,
        row.improvement,
        yesNo(row.reachedMcid, language),
      ];
    });
    await recordActivity(
      ctx.db,
      staffActivity(ctx, 'Patient List', 'Viewed', {
        description: `Data sandbox ${request.format.toUpperCase()} export, ${rows.length} patient rows`,
      }),
    );
  }
  // The clinic's calendar day (en-CA formats as YYYY-MM-DD).
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: settings.timeZone }).format(new Date());
  const fileName = `pathwell-data-sandbox-${today}.${request.format}`;
  if (request.format === 'csv') {
    return { fileName, contentType: 'text/csv; charset=utf-8', content: toCsv(headers, rows) };
  }
  const sheet = language === 'es' ? 'Datos' : 'Data sandbox';
  return { fileName, contentType: XLSX_TYPE, content: await toXlsx(sheet, headers, rows) };
}
