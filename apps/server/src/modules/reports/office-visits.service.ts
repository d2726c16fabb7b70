import { sql } from 'drizzle-orm';
import type { OfficeVisitsFilter, OfficeVisitsReport, VisitCounts, VisitReason } from '@pathwell/contracts/reports-visits';
import { doctorScope, reportReader, type SignedInContext } from '../../context';
import { toCsv } from '../../lib/csv';
import { periodStart, reportWindow } from './report-window';
import { withoutJit } from './report-session';
import { rowsOf } from '../../lib/sql-rows';

/**
 * Office visits (decision 0047): appointments whose start falls in the window, by the clinic-calendar week
 * or month of the start. Pathwell has no cancelled status: staff delete an appointment that will not take
 * place (a completed one cannot be deleted), so a deleted appointment counts as cancelled and nothing else.
 */

interface VisitRow {
  grouping: number;
  period: string | null;
  doctor_id: string | null;
  doctor_name: string | null;
  type_id: string | null;
  type_name: string | null;
  reason: VisitReason | null;
  total: number;
  completed: number;
  no_show: number;
  open: number;
  cancelled: number;
  no_show_rate: number | null;
}

const countsOf = (row: VisitRow): VisitCounts => ({
  total: Number(row.total),
  completed: Number(row.completed),
  noShow: Number(row.no_show),
  open: Number(row.open),
  cancelled: Number(row.cancelled),
  noShowRate: row.no_show_rate === null ? null : Number(row.no_show_rate),
});

const providerOf = (row: VisitRow) => (row.doctor_id ? { id: row.doctor_id, name: row.doctor_name ?? '' } : null);
const typeOf = (row: VisitRow) => (row.type_id ? { id: row.type_id, name: row.type_name ?? '' } : null);

// grouping(period, doctor, type, reason): a bit per column left out of the set, period the highest.
const DETAIL = 0;
const BY_PERIOD = 0b0111;
const BY_PROVIDER = 0b1011;
const BY_TYPE = 0b1101;
const BY_REASON = 0b1110;
const TOTAL = 0b1111;

export async function officeVisits(
  ctx: SignedInContext,
  filter: OfficeVisitsFilter,
  now = new Date(),
): Promise<OfficeVisitsReport> {
  const { from, to, timeZone } = await reportWindow(ctx, filter, now);
  const doctorId = doctorScope(ctx, filter.doctorId);
  const typeIds = `{${filter.appointmentTypeIds.join(',')}}`;
  await withoutJit(reportReader(ctx));
  const result = await rowsOf<VisitRow>(
    reportReader(ctx),
    sql`
    with v as (
      select ${periodStart(sql`a.starts_at`, filter.period, timeZone)} as period,
        a.doctor_id, a.appointment_type_id as type_id, coalesce(a.reason, 'unknown') as reason,
        a.status, a.deleted_at is not null as cancelled
      from appointments a
      join patients p on p.id = a.patient_id and p.instance_id = a.instance_id and p.deleted_at is null
      where a.instance_id = ${ctx.instanceId}
        and a.starts_at >= ${from.toISOString()}::timestamptz and a.starts_at < ${to.toISOString()}::timestamptz
        and (${doctorId}::uuid is null or a.doctor_id = ${doctorId}::uuid)
        and (cardinality(${typeIds}::uuid[]) = 0 or a.appointment_type_id = any(${typeIds}::uuid[]))
    ),
    -- Counted per cell first (a hash aggregate over the window's appointments, no sort), then the grouping
    -- sets add those few cells up (issue #14 §5, decision 0047 "Performance").
    cells as (
      select period, doctor_id, type_id, reason,
        count(*)::int as total,
        count(*) filter (where not cancelled and status = 3)::int as completed,
        count(*) filter (where not cancelled and status = 4)::int as no_show,
        count(*) filter (where not cancelled and status in (1, 2))::int as open,
        count(*) filter (where cancelled)::int as cancelled
      from v
      group by period, doctor_id, type_id, reason
    ),
    g as (
      select grouping(period, doctor_id, type_id, reason)::int as grouping, period, doctor_id, type_id, reason,
        sum(total)::int as total,
        sum(completed)::int as completed,
        sum(no_show)::int as no_show,
        sum(open)::int as open,
        sum(cancelled)::int as cancelled,
        round(sum(no_show)::numeric / nullif(sum(completed) + sum(no_show), 0), 4)::float8 as no_show_rate
      from cells
      group by grouping sets ((period, doctor_id, type_id, reason), (period), (doctor_id), (type_id), (reason), ())
    )
    select g.*, nullif(trim(u.first_name || ' ' || u.last_name), '') as doctor_name, t.name as type_name
    from g
    left join users u on u.id = g.doctor_id
    left join managed_items t on t.id = g.type_id and t.instance_id = ${ctx.instanceId}
    order by g.period nulls first, doctor_name nulls last, type_name nulls last, g.reason
  `,
  );
  const of = (grouping: number) => result.filter((row) => Number(row.grouping) === grouping);
  const totals = of(TOTAL)[0];
  return {
    period: filter.period,
    timeZone,
    from: from.toISOString(),
    to: to.toISOString(),
    rows: of(DETAIL).map((row) => ({
      period: row.period!,
      provider: providerOf(row),
      appointmentType: typeOf(row),
      reason: row.reason!,
      ...countsOf(row),
    })),
    byPeriod: of(BY_PERIOD).map((row) => ({ period: row.period!, ...countsOf(row) })),
    byProvider: of(BY_PROVIDER).map((row) => ({ provider: providerOf(row), ...countsOf(row) })),
    byType: of(BY_TYPE).map((row) => ({ appointmentType: typeOf(row), ...countsOf(row) })),
    byReason: of(BY_REASON).map((row) => ({ reason: row.reason!, ...countsOf(row) })),
    totals: totals ? countsOf(totals) : { total: 0, completed: 0, noShow: 0, open: 0, cancelled: 0, noShowRate: null },
  };
}

const headers = {
  en: ['Period', 'Provider', 'Appointment type', 'Visit', 'Total', 'Completed', 'No-show', 'Open', 'Cancelled', 'No-show rate'],
  es: [
    'Periodo',
    'Proveedor',
    'Tipo de cita',
    'Visita',
    'Total',
    'Completadas',
    'No se presentó',
    'Abiertas',
    'Canceladas',
    'Tasa de inasistencia',
  ],
} as const;
const reasons = {
  en: { new_patient: 'New patient', follow_up: 'Follow-up', unknown: 'Not recorded' },
  es: { new_patient: 'Paciente nuevo', follow_up: 'Seguimiento', unknown: 'Sin registrar' },
} as const;

/** The detail rows as CSV (UTF-8 with byte-order mark), headers in the user's language. */
export async function exportOfficeVisits(ctx: SignedInContext, filter: OfficeVisitsFilter, now = new Date()) {
  const report = await officeVisits(ctx, filter, now);
  const language = filter.language;
  const rate = (value: number | null) => (value === null ? '' : `${(value * 100).toFixed(1)}%`);
  const rows = report.rows.map((row) => [
    row.period,
    row.provider?.name ?? '',
    row.appointmentType?.name ?? '',
    reasons[language][row.reason],
    String(row.total),
    String(row.completed),
    String(row.noShow),
    String(row.open),
    String(row.cancelled),
    rate(row.noShowRate),
  ]);
  return { fileName: `office-visits-${report.from.slice(0, 10)}.csv`, content: toCsv(headers[language], rows) };
}
