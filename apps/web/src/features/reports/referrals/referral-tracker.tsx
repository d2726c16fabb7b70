import { BarChart } from '@mantine/charts';
import { Badge, Button, Group, MultiSelect, Paper, Select, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DateFilterPreset } from '@pathwell/contracts/appointments';
import { enumerations } from '@pathwell/contracts/enumerations';
import { findManagedList } from '@pathwell/contracts/managed-lists';
import {
  referralPeriods,
  referralTrackerFilterSchema,
  reportDatePresets,
  type ReferralFunnel,
  type ReferralMeasure,
  type ReferralPatients,
  type ReferralPeriod,
  type ReferralTracker as Report,
  type ReferralTrackerFilter,
} from '@pathwell/contracts/reports-referrals';
import { useSession } from '../../../app/session-context';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-client';
import { formatClinicDate } from '../../../lib/dates';
import { getDoctorId } from '../../../lib/session-storage';
import { managedListQueries } from '../../managed-lists/managed-lists.api';
import { DateRangeFields, dateFilterOf, fieldErrorsOf, issueEntries, type DateDraft } from '../shared/date-range-fields';
import { ReportTable } from '../shared/report-table';
import { PatientLink, PatientsModal as SharedPatientsModal, type PatientColumn } from '../shared/patients-modal';
import { ReportState } from '../shared/report-state';
import { referralQueries } from './referrals.api';
import { ReportConventions } from '../shared/report-conventions';
import { ReportFilterBar } from '../shared/report-filter-bar';

type Draft = DateDraft & { period: ReferralPeriod; referralSources: string[]; referringProviderIds: string[] };
type Run = { filter: ReferralTrackerFilter; id: number };
type ReferralPatientRow = ReferralPatients['rows'][number];
/** A cell of the report the person asked to see the patients of. */
type Target = { measure: ReferralMeasure; label: string; periodStart?: string; source?: number; providerId?: string };

const measures: ReferralMeasure[] = ['referred', 'seen', 'hadProcedure', 'improved'];
const measureColors: Record<ReferralMeasure, string> = {
  referred: 'blue.6',
  seen: 'teal.6',
  hadProcedure: 'grape.6',
  improved: 'green.7',
};
const referralList = findManagedList('referrals')!;

const defaultDraft: Draft = {
  dateFilter: DateFilterPreset.ThisYear,
  startDate: '',
  endDate: '',
  period: 'month',
  referralSources: [],
  referringProviderIds: [],
};

function toFilter(draft: Draft): ReferralTrackerFilter {
  const doctorId = getDoctorId();
  return {
    ...dateFilterOf(draft),
    period: draft.period,
    referralSources: draft.referralSources.map(Number),
    referringProviderIds: draft.referringProviderIds,
    ...(doctorId ? { doctorId } : {}),
  };
}

function useFormat() {
  const { i18n } = useTranslation();
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 });
  return {
    rate: (part: number, whole: number) => (whole === 0 ? '—' : percent.format(part / whole)),
    number: (value: number) => new Intl.NumberFormat(i18n.language).format(value),
  };
}

function useSourceName() {
  const { t, i18n } = useTranslation('reportsReferrals');
  const language = i18n.language === 'es' ? 'es' : 'en';
  return (source: number | null) =>
    source === null
      ? t('notRecorded')
      : (enumerations.referralSources.find((option) => option.value === source)?.label[language] ?? String(source));
}

/**
 * /reports/refferaltracker (issue #14 §4, decision 0048): patients per referral source and referring
 * provider per month or quarter, with how many were seen, had a procedure and improved; each count opens
 * the patients behind it.
 */
export function ReferralTracker() {
  const { t, i18n } = useTranslation('reportsReferrals');
  const language = i18n.language === 'es' ? 'es' : 'en';
  const [draft, setDraft] = useState<Draft>(defaultDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [run, setRun] = useState<Run>(() => ({ filter: toFilter(defaultDraft), id: 0 }));
  const [target, setTarget] = useState<Target | null>(null);
  const report = useQuery(referralQueries.tracker(run.filter, run.id));
  const providers = useQuery(managedListQueries.options(referralList));

  const failure = report.error;
  useEffect(() => {
    if (failure instanceof ApiError && failure.status === 400) setErrors(fieldErrorsOf(Object.entries(failure.fields)));
  }, [failure]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const filter = toFilter(draft);
    const checked = referralTrackerFilterSchema.safeParse(filter);
    if (!checked.success) {
      setErrors(fieldErrorsOf(issueEntries(checked.error.issues)));
      return;
    }
    setErrors({});
    setRun((current) => ({ filter, id: current.id + 1 }));
  };

  return (
    <>
      <PageHeader title={t('tracker.title')} description={t('tracker.description')} />
      <ReportConventions />
      <ReportFilterBar label={t('filters.label')} applyLabel={t('filters.apply')} applyTestId="referral-apply" onSubmit={apply}>
        <DateRangeFields
          draft={draft}
          errors={errors}
          onChange={setDraft}
          presets={reportDatePresets}
          ns="reportsReferrals"
          testId="referral-preset"
        />
        <Select
          label={t('filters.period')}
          data={referralPeriods.map((period) => ({ value: period, label: t(`periods.${period}`) }))}
          value={draft.period}
          onChange={(value) => setDraft({ ...draft, period: (value as ReferralPeriod | null) ?? 'month' })}
          allowDeselect={false}
          w={140}
          data-testid="referral-period"
        />
        <MultiSelect
          label={t('filters.referralSources')}
          data={enumerations.referralSources.map((option) => ({ value: String(option.value), label: option.label[language] }))}
          value={draft.referralSources}
          onChange={(value) => setDraft({ ...draft, referralSources: value })}
          placeholder={draft.referralSources.length === 0 ? t('filters.all') : undefined}
          searchable
          clearable
          w={240}
        />
        <MultiSelect
          label={t('filters.referringProviders')}
          data={(providers.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
          value={draft.referringProviderIds}
          onChange={(value) => setDraft({ ...draft, referringProviderIds: value })}
          placeholder={draft.referringProviderIds.length === 0 ? t('filters.all') : undefined}
          searchable
          clearable
          w={240}
        />
      </ReportFilterBar>

      <ReportState
        query={report}
        loadFailed={t('loadFailed')}
        retry={t('retry')}
        loading={t('loading')}
        errorTestId="referral-error"
        empty={{ when: (data) => data.totals.referred === 0, text: t('tracker.empty'), testId: 'referral-empty' }}
      >
        {(data) => <TrackerView report={data} onPatients={setTarget} />}
      </ReportState>
      <PatientsModal filter={run.filter} target={target} onClose={() => setTarget(null)} />
    </>
  );
}

function TrackerView({ report, onPatients }: { report: Report; onPatients: (target: Target) => void }) {
  const [detailShown, setDetailShown] = useState(false);
  const { t } = useTranslation('reportsReferrals');
  const sourceName = useSourceName();
  const timeZone = useSession().instance.timeZoneId;
  const periodLabel = (periodStart: string) => {
    const [year, month] = periodStart.split('-').map(Number) as [number, number];
    return report.period === 'quarter'
      ? `${year} Q${Math.floor((month - 1) / 3) + 1}`
      : `${String(month).padStart(2, '0')}/${year}`;
  };
  const providerName = (row: { providerName: string | null; providerPractice: string | null }) =>
    row.providerName
      ? row.providerPractice
        ? `${row.providerName} · ${row.providerPractice}`
        : row.providerName
      : t('noProvider');
  const chartData = report.bySource.map((row) => ({
    source: sourceName(row.source),
    referred: row.referred,
    seen: row.seen,
    hadProcedure: row.hadProcedure,
    improved: row.improved,
  }));
  const lastDay = new Date(Date.parse(report.to) - 1).toISOString();

  return (
    <Stack gap="lg">
      <Text size="sm" c="dimmed" data-testid="referral-window">
        {t('window', { from: formatClinicDate(report.from, timeZone), to: formatClinicDate(lastDay, timeZone) })}{' '}
        {t('totals', { ...report.totals })}
      </Text>
      <Paper withBorder radius="lg" p="md">
        <Title order={2} size="h4" mb="sm">
          {t('tracker.chartTitle')}
        </Title>
        <div role="img" aria-label={t('tracker.chartLabel')} data-testid="referral-chart">
          <BarChart
            h={260}
            data={chartData}
            dataKey="source"
            withLegend
            tickLine="y"
            series={measures.map((measure) => ({
              name: measure,
              label: t(`measures.${measure}`),
              color: measureColors[measure],
            }))}
          />
        </div>
      </Paper>
      <FunnelTable
        caption={t('tracker.bySource')}
        testId="referral-by-source"
        rows={report.bySource.map((row) => ({
          key: `s-${row.source ?? 'none'}`,
          label: sourceName(row.source),
          funnel: row,
          cell: { source: row.source ?? 0 },
        }))}
        firstHeader={t('columns.source')}
        onPatients={onPatients}
      />
      <FunnelTable
        caption={t('tracker.byProvider')}
        testId="referral-by-provider"
        rows={report.byProvider.map((row) => ({
          key: `p-${row.providerId ?? 'none'}`,
          label: providerName(row),
          funnel: row,
          cell: { providerId: row.providerId ?? 'none' },
        }))}
        firstHeader={t('columns.provider')}
        onPatients={onPatients}
      />
      <FunnelTable
        caption={t('tracker.byPeriod')}
        testId="referral-by-period"
        rows={report.byPeriod.map((row) => ({
          key: row.periodStart,
          label: periodLabel(row.periodStart),
          funnel: row,
          cell: { periodStart: row.periodStart },
        }))}
        firstHeader={t('columns.period')}
        onPatients={onPatients}
      />
      {/* Every period × source × provider is long (hundreds of rows a year): shown on request. */}
      <Group>
        <Button
          variant="light"
          onClick={() => setDetailShown((shown) => !shown)}
          aria-expanded={detailShown}
          data-testid="referral-detail-toggle"
        >
          {detailShown ? t('tracker.hideDetail') : t('tracker.showDetail', { count: report.rows.length })}
        </Button>
      </Group>
      {detailShown ? (
        <FunnelTable
          caption={t('tracker.byCell')}
          testId="referral-by-cell"
          rows={report.rows.map((row) => ({
            key: `${row.periodStart}-${row.source ?? 'none'}-${row.providerId ?? 'none'}`,
            label: `${periodLabel(row.periodStart)} · ${sourceName(row.source)} · ${providerName(row)}`,
            funnel: row,
            cell: { periodStart: row.periodStart, source: row.source ?? 0, providerId: row.providerId ?? 'none' },
          }))}
          firstHeader={t('columns.cell')}
          onPatients={onPatients}
        />
      ) : null}
    </Stack>
  );
}

type FunnelRow = {
  key: string;
  label: string;
  funnel: ReferralFunnel;
  cell: Pick<Target, 'periodStart' | 'source' | 'providerId'>;
};

/** Counts (each opens its patients) and each step's share of the referred patients. */
function FunnelTable({
  caption,
  testId,
  rows,
  firstHeader,
  onPatients,
}: {
  caption: string;
  testId: string;
  rows: FunnelRow[];
  firstHeader: string;
  onPatients: (target: Target) => void;
}) {
  const { t } = useTranslation('reportsReferrals');
  const format = useFormat();
  return (
    <Paper withBorder radius="lg" p="md">
      <ReportTable
        caption={
          <Text fw={600} ta="left">
            {caption}
          </Text>
        }
        scroll={{ minWidth: 720 }}
        striped
        verticalSpacing="xs"
        testId={testId}
        captionSide="top"
        columns={[
          { key: 'label', header: firstHeader },
          ...measures.map((measure) => ({ key: measure, header: t(`measures.${measure}`) })),
        ]}
      >
        {rows.map((row) => (
          <Table.Tr key={row.key} data-testid={`${testId}-row`}>
            <Table.Th scope="row" fw={500}>
              {row.label}
            </Table.Th>
            {measures.map((measure) => {
              const count = row.funnel[measure];
              const label = `${t(`measures.${measure}`)}: ${row.label}`;
              return (
                <Table.Td key={measure}>
                  <Group gap={6} wrap="nowrap">
                    {count > 0 ? (
                      <UnstyledButton
                        onClick={() => onPatients({ measure, label, ...row.cell })}
                        aria-label={`${format.number(count)} ${t('openPatients', { what: label })}`}
                        c="blue.9"
                        td="underline"
                        fz="sm"
                      >
                        {format.number(count)}
                      </UnstyledButton>
                    ) : (
                      <Text size="sm">0</Text>
                    )}
                    {measure === 'referred' ? null : (
                      <Text size="xs" c="dimmed">
                        {format.rate(count, row.funnel.referred)}
                      </Text>
                    )}
                  </Group>
                </Table.Td>
              );
            })}
          </Table.Tr>
        ))}
      </ReportTable>
    </Paper>
  );
}

function PatientsModal({
  filter,
  target,
  onClose,
}: {
  filter: ReferralTrackerFilter;
  target: Target | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('reportsReferrals');
  const timeZone = useSession().instance.timeZoneId;
  const sourceName = useSourceName();
  const yes = (value: boolean) =>
    value ? (
      <Badge variant="light" color="teal" miw="max-content">
        {t('yes')}
      </Badge>
    ) : (
      <Text size="sm" c="dimmed">
        {t('no')}
      </Text>
    );
  const columns: PatientColumn<ReferralPatientRow>[] = [
    {
      key: 'patient',
      header: t('patients.columns.patient'),
      cell: (row) => <PatientLink patientId={row.patientId} name={`${row.lastName}, ${row.firstName}`} />,
    },
    { key: 'referredAt', header: t('patients.columns.referredAt'), cell: (row) => formatClinicDate(row.referredAt, timeZone) },
    { key: 'source', header: t('columns.source'), cell: (row) => sourceName(row.source) },
    { key: 'provider', header: t('columns.provider'), cell: (row) => row.providerName ?? t('noProvider') },
    { key: 'seen', header: t('measures.seen'), cell: (row) => yes(row.seen) },
    { key: 'hadProcedure', header: t('measures.hadProcedure'), cell: (row) => yes(row.hadProcedure) },
    { key: 'improved', header: t('measures.improved'), cell: (row) => yes(row.improved) },
  ];
  const { label = '', ...cell } = target ?? { measure: 'referred' as const };
  const title = target ? t('patients.title', { what: label }) : '';
  return (
    <SharedPatientsModal
      opened={target !== null}
      onClose={onClose}
      title={title}
      caption={title}
      query={(paging) => referralQueries.patients({ ...filter, ...cell, ...paging })}
      rowsOf={(data) => data.rows}
      totalOf={(data) => data.totalRecords}
      columns={columns}
      texts={{
        loadFailed: t('patients.loadFailed'),
        retry: t('retry'),
        loading: t('patients.loading'),
        empty: t('patients.empty'),
        pages: t('patients.pages'),
        count: (count) => t('patients.count', { count }),
      }}
      countAt="pager"
      minWidth={700}
      testIds={{ body: 'referral-patients', error: 'referral-patients-error', row: 'referral-patient-row' }}
    />
  );
}
