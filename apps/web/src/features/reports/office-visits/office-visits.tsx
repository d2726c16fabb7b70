import { BarChart } from '@mantine/charts';
import { Button, MultiSelect, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  officeVisitsFilterSchema,
  type OfficeVisitsFilterInput,
  type OfficeVisitsReport as Report,
  type VisitCounts,
} from '@pathwell/contracts/reports-visits';
import { useSession } from '../../../app/session-context';
import { ErrorAlert } from '../../../components/error-alert';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-client';
import { formatClinicDate } from '../../../lib/dates';
import { downloadFile } from '../../../lib/download';
import { errorText } from '../../../lib/error-text';
import { getDoctorId } from '../../../lib/session-storage';
import { appointmentQueries } from '../../appointments/appointments.api';
import {
  defaultPeriodDraft,
  PeriodFields,
  periodFilterOf,
  useFormat,
  usePeriodLabel,
  type PeriodDraft,
} from '../survey/report-filters';
import { fieldErrorsOf, issueEntries } from '../shared/date-range-fields';
import { ReportTable } from '../shared/report-table';
import { ReportState } from '../shared/report-state';
import { OFFICE_VISITS, officeVisitsQueries } from './office-visits.api';
import { ReportConventions } from '../shared/report-conventions';
import { ReportFilterBar } from '../shared/report-filter-bar';

type Draft = PeriodDraft & { appointmentTypeIds: string[] };
type Run = { filter: OfficeVisitsFilterInput; id: number };

const statuses = ['completed', 'noShow', 'open', 'cancelled'] as const;
const statusColors = { completed: 'green.7', noShow: 'red.6', open: 'blue.5', cancelled: 'gray.5' } as const;

function toFilter(draft: Draft, language: 'en' | 'es'): OfficeVisitsFilterInput {
  const doctorId = getDoctorId();
  return {
    ...periodFilterOf(draft),
    appointmentTypeIds: draft.appointmentTypeIds,
    language,
    ...(doctorId ? { doctorId } : {}),
  };
}

/**
 * /reports/officevisits (issue #14 §4, decision 0047): appointments per period by status, provider,
 * appointment type and new vs follow-up, with the no-show rate.
 */
export function OfficeVisits() {
  const { t, i18n } = useTranslation('reportsActivity');
  const language = i18n.language === 'es' ? 'es' : 'en';
  const initial: Draft = { ...defaultPeriodDraft, appointmentTypeIds: [] };
  const [draft, setDraft] = useState<Draft>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [run, setRun] = useState<Run>(() => ({ filter: toFilter(initial, language), id: 0 }));
  const [exportError, setExportError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const report = useQuery(officeVisitsQueries.report(run.filter, run.id));
  const types = useQuery(appointmentQueries.appointmentTypes());

  const failure = report.error;
  useEffect(() => {
    if (failure instanceof ApiError && failure.status === 400) setErrors(fieldErrorsOf(Object.entries(failure.fields)));
  }, [failure]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const filter = toFilter(draft, language);
    const checked = officeVisitsFilterSchema.safeParse(filter);
    if (!checked.success) {
      setErrors(fieldErrorsOf(issueEntries(checked.error.issues)));
      return;
    }
    setErrors({});
    setRun((current) => ({ filter, id: current.id + 1 }));
  };

  const exportCsv = async () => {
    setExporting(true);
    setExportError(null);
    try {
      await downloadFile(`${OFFICE_VISITS}/export`, { ...run.filter, language }, 'office-visits.csv');
    } catch (error) {
      setExportError(`${t('filters.exportFailed')} ${errorText(error)}`);
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <PageHeader
        title={t('visits.title')}
        description={t('visits.description')}
        actions={
          <Button
            variant="light"
            leftSection={<IconDownload size={16} aria-hidden />}
            onClick={() => void exportCsv()}
            loading={exporting}
            disabled={!report.data || report.data.totals.total === 0}
            data-testid="visits-export"
          >
            {t('filters.export')}
          </Button>
        }
      />
      <ReportConventions improvement={false} />
      {exportError ? <ErrorAlert testId="visits-export-error">{exportError}</ErrorAlert> : null}
      <ReportFilterBar label={t('filters.label')} applyLabel={t('filters.apply')} applyTestId="visits-apply" onSubmit={apply}>
        <PeriodFields draft={draft} errors={errors} onChange={setDraft} testId="visits" />
        <MultiSelect
          label={t('filters.appointmentTypes')}
          data={types.data ?? []}
          value={draft.appointmentTypeIds}
          onChange={(value) => setDraft({ ...draft, appointmentTypeIds: value })}
          placeholder={draft.appointmentTypeIds.length === 0 ? t('filters.all') : undefined}
          searchable
          clearable
          w={280}
          data-testid="visits-types"
        />
      </ReportFilterBar>

      <ReportState
        query={report}
        loadFailed={t('loadFailed')}
        retry={t('retry')}
        loading={t('loading')}
        errorTestId="visits-error"
        empty={{ when: (data) => data.totals.total === 0, text: t('visits.empty'), testId: 'visits-empty' }}
      >
        {(data) => <VisitsView report={data} />}
      </ReportState>
    </>
  );
}

function VisitsView({ report }: { report: Report }) {
  const { t } = useTranslation('reportsActivity');
  const periodLabel = usePeriodLabel(report.period);
  const timeZone = useSession().instance.timeZoneId;
  const lastDay = new Date(Date.parse(report.to) - 1).toISOString();
  return (
    <Stack gap="lg">
      <Text size="sm" c="dimmed" data-testid="visits-window">
        {t('window', { from: formatClinicDate(report.from, timeZone), to: formatClinicDate(lastDay, timeZone) })}{' '}
        {t('visits.totals', report.totals)} {t('visits.definitions')}
      </Text>
      <Paper withBorder radius="lg" p="md">
        <Title order={2} size="h4" mb="sm">
          {t('visits.chartTitle')}
        </Title>
        <div role="img" aria-label={t('visits.chartLabel')} data-testid="visits-chart">
          <BarChart
            h={260}
            type="stacked"
            data={report.byPeriod.map((row) => ({ ...row, period: periodLabel(row.period) }))}
            dataKey="period"
            withLegend
            tickLine="y"
            series={statuses.map((status) => ({ name: status, label: t(`status.${status}`), color: statusColors[status] }))}
          />
        </div>
        <CountsTable
          caption={t('visits.byPeriodCaption')}
          firstHeader={t('columns.period')}
          testId="visits-by-period"
          rows={report.byPeriod.map((row) => ({ key: row.period, label: periodLabel(row.period), counts: row }))}
          totals={report.totals}
        />
      </Paper>
      <Paper withBorder radius="lg" p="md">
        <CountsTable
          caption={t('visits.byProviderCaption')}
          firstHeader={t('columns.provider')}
          testId="visits-by-provider"
          rows={report.byProvider.map((row) => ({
            key: row.provider?.id ?? 'none',
            label: row.provider?.name ?? t('visits.noProvider'),
            counts: row,
          }))}
          totals={report.totals}
        />
      </Paper>
      <Paper withBorder radius="lg" p="md">
        <CountsTable
          caption={t('visits.byTypeCaption')}
          firstHeader={t('columns.appointmentType')}
          testId="visits-by-type"
          rows={report.byType.map((row) => ({
            key: row.appointmentType?.id ?? 'none',
            label: row.appointmentType?.name ?? t('visits.noType'),
            counts: row,
          }))}
          totals={report.totals}
        />
      </Paper>
      <Paper withBorder radius="lg" p="md">
        <CountsTable
          caption={t('visits.byReasonCaption')}
          firstHeader={t('columns.reason')}
          testId="visits-by-reason"
          rows={report.byReason.map((row) => ({ key: row.reason, label: t(`reasons.${row.reason}`), counts: row }))}
          totals={report.totals}
        />
      </Paper>
    </Stack>
  );
}

function CountsTable({
  caption,
  firstHeader,
  testId,
  rows,
  totals,
}: {
  caption: string;
  firstHeader: string;
  testId: string;
  rows: { key: string; label: string; counts: VisitCounts }[];
  totals: VisitCounts;
}) {
  const { t } = useTranslation('reportsActivity');
  const format = useFormat();
  const columns = ['total', ...statuses] as const;
  return (
    <ReportTable
      caption={caption}
      scroll={{ minWidth: 640 }}
      striped
      mt="md"
      testId={testId}
      columns={[
        { key: 'label', header: firstHeader },
        ...columns.map((column) => ({ key: column, header: t(`status.${column}`), align: 'right' as const })),
        { key: 'noShowRate', header: t('status.noShowRate'), align: 'right' },
      ]}
    >
      {[...rows, { key: '__total', label: t('status.total'), counts: totals }].map((row) => (
        <Table.Tr key={row.key}>
          <Table.Th scope="row" fw={row.key === '__total' ? 700 : 500}>
            {row.label}
          </Table.Th>
          {columns.map((column) => (
            <Table.Td key={column} ta="right">
              {format.number(row.counts[column])}
            </Table.Td>
          ))}
          <Table.Td ta="right">{format.rate(row.counts.noShowRate)}</Table.Td>
        </Table.Tr>
      ))}
    </ReportTable>
  );
}
