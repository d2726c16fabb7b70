import { BarChart } from '@mantine/charts';
import {
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  MultiSelect,
  Paper,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateFilterPreset } from '@pathwell/contracts/appointments';
import { enumerations } from '@pathwell/contracts/enumerations';
import { findManagedList } from '@pathwell/contracts/managed-lists';
import {
  referralPeriods,
  referralTrackerFilterSchema,
  type ReferralFunnel,
  type ReferralMeasure,
  type ReferralPeriod,
  type ReferralTracker as Report,
  type ReferralTrackerFilter,
} from '@pathwell/contracts/reports-referrals';
import { useSession } from '../../../app/session-context';
import { Pager } from '../../../components/data-table';
import { ErrorAlert } from '../../../components/error-alert';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-client';
import { formatClinicDate } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
import { getDoctorId } from '../../../lib/session-storage';
import { managedListQueries } from '../../managed-lists/managed-lists.api';
import { DateFields, dateFilterOf, fieldErrorsOf, type DateDraft } from './date-fields';
import { referralQueries } from './referrals.api';

type Draft = DateDraft & { period: ReferralPeriod; referralSources: string[]; referringProviderIds: string[] };
type Run = { filter: ReferralTrackerFilter; id: number };
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
const PATIENTS_PAGE_SIZE = 15;

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
      setErrors(fieldErrorsOf(checked.error.issues.map((issue) => [issue.path.join('.'), issue.message])));
      return;
    }
    setErrors({});
    setRun((current) => ({ filter, id: current.id + 1 }));
  };

  return (
    <>
      <PageHeader title={t('tracker.title')} description={t('tracker.description')} />
      <Paper withBorder radius="lg" p="md" mb="lg" component="form" onSubmit={apply} aria-label={t('filters.label')} noValidate>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <DateFields
            draft={draft}
            errors={errors}
            onChange={(next) => setDraft({ ...draft, ...next })}
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
          <Button type="submit" data-testid="referral-apply">
            {t('filters.apply')}
          </Button>
        </Group>
      </Paper>

      {report.isError && !report.data ? (
        <Stack gap="sm" align="flex-start">
          <ErrorAlert testId="referral-error">
            {t('loadFailed')} {errorText(report.error)}
          </ErrorAlert>
          <Button variant="light" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void report.refetch()}>
            {t('retry')}
          </Button>
        </Stack>
      ) : !report.data ? (
        <Stack aria-busy="true" aria-label={t('loading')}>
          <Skeleton h={260} radius="lg" />
          <Skeleton h={160} radius="lg" />
        </Stack>
      ) : (
        <TrackerView report={report.data} onPatients={setTarget} />
      )}
      <PatientsModal filter={run.filter} target={target} onClose={() => setTarget(null)} />
    </>
  );
}

function TrackerView({ report, onPatients }: { report: Report; onPatients: (target: Target) => void }) {
  const [detailShown, setDetailShown] = useState(false);
  const { t } = useTranslation('reportsReferrals');
  const sourceName = useSourceName();
  const timeZone = useSession().instance.timeZoneId;
  if (report.totals.referred === 0)
    return (
      <Text c="dimmed" ta="center" py="xl" data-testid="referral-empty">
        {t('tracker.empty')}
      </Text>
    );
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
      <Table.ScrollContainer minWidth={720}>
        <Table striped verticalSpacing="xs" data-testid={testId} captionSide="top">
          <Table.Caption>
            <Text fw={600} ta="left">
              {caption}
            </Text>
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{firstHeader}</Table.Th>
              {measures.map((measure) => (
                <Table.Th scope="col" key={measure}>
                  {t(`measures.${measure}`)}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
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
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
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
  return (
    <Modal opened={target !== null} onClose={onClose} size="xl" title={target ? t('patients.title', { what: target.label }) : ''}>
      {target ? <PatientsBody filter={filter} target={target} /> : null}
    </Modal>
  );
}

function PatientsBody({ filter, target }: { filter: ReferralTrackerFilter; target: Target }) {
  const { t } = useTranslation('reportsReferrals');
  const timeZone = useSession().instance.timeZoneId;
  const sourceName = useSourceName();
  const [page, setPage] = useState(0);
  const { label, ...cell } = target;
  const rows = useQuery(referralQueries.patients({ ...filter, ...cell, pageNumber: page, pageSize: PATIENTS_PAGE_SIZE }));
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

  if (rows.isError && !rows.data)
    return (
      <Stack gap="sm" align="flex-start">
        <ErrorAlert testId="referral-patients-error">
          {t('patients.loadFailed')} {errorText(rows.error)}
        </ErrorAlert>
        <Button variant="light" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void rows.refetch()}>
          {t('retry')}
        </Button>
      </Stack>
    );
  if (!rows.data)
    return (
      <Center py="xl">
        <Loader aria-label={t('patients.loading')} />
      </Center>
    );
  return (
    <Stack gap="sm" data-testid="referral-patients">
      {rows.data.rows.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg">
          {t('patients.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={700}>
          <Table striped verticalSpacing="xs">
            <Table.Caption>{t('patients.title', { what: label })}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('patients.columns.patient')}</Table.Th>
                <Table.Th scope="col">{t('patients.columns.referredAt')}</Table.Th>
                <Table.Th scope="col">{t('columns.source')}</Table.Th>
                <Table.Th scope="col">{t('columns.provider')}</Table.Th>
                <Table.Th scope="col">{t('measures.seen')}</Table.Th>
                <Table.Th scope="col">{t('measures.hadProcedure')}</Table.Th>
                <Table.Th scope="col">{t('measures.improved')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.data.rows.map((row) => (
                <Table.Tr key={row.patientId} data-testid="referral-patient-row">
                  <Table.Td>
                    <Anchor component={Link} to={`/patients/patientdashboard/${row.patientId}`} size="sm">
                      {`${row.lastName}, ${row.firstName}`}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{formatClinicDate(row.referredAt, timeZone)}</Table.Td>
                  <Table.Td>{sourceName(row.source)}</Table.Td>
                  <Table.Td>{row.providerName ?? t('noProvider')}</Table.Td>
                  <Table.Td>{yes(row.seen)}</Table.Td>
                  <Table.Td>{yes(row.hadProcedure)}</Table.Td>
                  <Table.Td>{yes(row.improved)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Pager
        totalRecords={rows.data.totalRecords}
        pageSize={PATIENTS_PAGE_SIZE}
        pageNumber={page}
        onPage={setPage}
        ariaLabel={t('patients.pages')}
        summary={t('patients.count', { count: rows.data.totalRecords })}
      />
    </Stack>
  );
}
