import { Button, Group, Paper, RingProgress, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DateFilterPreset } from '@pathwell/contracts/appointments';
import {
  PAIN_MCID_POINTS,
  performanceDatePresets,
  performanceFilterSchema,
  type PerformanceFilter,
  type PerformanceFormRow,
  type PerformanceGroup,
  type PerformanceMeasure,
  type PerformanceMeasureKey,
  type PerformanceReport,
} from '@pathwell/contracts/reports-performance';
import { useSession } from '../../../app/session-context';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-client';
import { formatClinicDate, formatClinicDateTime } from '../../../lib/dates';
import { getDoctorId } from '../../../lib/session-storage';
import { DateRangeFields, dateFilterOf, fieldErrorsOf, issueEntries, type DateDraft } from '../shared/date-range-fields';
import { ReportTable } from '../shared/report-table';
import { ReportState } from '../shared/report-state';
import { performanceQueries } from './performance.api';
import { formName, PatientsModal, type PatientsTarget } from './patients-modal';
import { ReportConventions } from '../shared/report-conventions';
import { ReportFilterBar } from '../shared/report-filter-bar';

type Run = { filter: PerformanceFilter; id: number };

/** Section 9: the date filter starts at 1 (today); the others are one choice away. */
const defaultDraft: DateDraft = { dateFilter: DateFilterPreset.Today, startDate: '', endDate: '' };

function toFilter(draft: DateDraft): PerformanceFilter {
  const doctorId = getDoctorId();
  return {
    ...dateFilterOf(draft),
    dateFilter: draft.dateFilter as PerformanceFilter['dateFilter'],
    ...(doctorId ? { doctorId } : {}),
  };
}

function useFormat() {
  const { i18n } = useTranslation();
  return {
    percent: (value: number | null) =>
      value === null ? '—' : new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 }).format(value),
    number: (value: number | null | undefined) =>
      value === null || value === undefined
        ? '—'
        : new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(value),
  };
}

/**
 * /reports/patientsperformancemeasure (issue #14 §3, decision 0046): Pathwell's own measures for a
 * date window, one card each with numerator, denominator and exclusions, and the patients behind them.
 */
export function PerformanceMeasures() {
  const { t } = useTranslation('reportsPerformance');
  const session = useSession();
  const [draft, setDraft] = useState<DateDraft>(defaultDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [run, setRun] = useState<Run>(() => ({ filter: toFilter(defaultDraft), id: 0 }));
  const [target, setTarget] = useState<PatientsTarget | null>(null);
  const report = useQuery(performanceQueries.report(run.filter, run.id));

  // A 400 names the fields it refused: they show next to the dates, as the form's own checks do.
  const failure = report.error;
  useEffect(() => {
    if (failure instanceof ApiError && failure.status === 400 && Object.keys(failure.fields).length > 0)
      setErrors(fieldErrorsOf(Object.entries(failure.fields)));
  }, [failure]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const filter = toFilter(draft);
    const checked = performanceFilterSchema.safeParse(filter);
    if (!checked.success) {
      setErrors(fieldErrorsOf(issueEntries(checked.error.issues)));
      return;
    }
    setErrors({});
    setRun((current) => ({ filter, id: current.id + 1 }));
  };

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <ReportConventions />
      <ReportFilterBar
        label={t('filters.label')}
        applyLabel={t('filters.apply')}
        applyTestId="performance-apply"
        onSubmit={apply}
      >
        <DateRangeFields
          draft={draft}
          errors={errors}
          onChange={setDraft}
          presets={performanceDatePresets}
          ns="reportsPerformance"
          testId="performance-preset"
          placeholder={t('filters.datePlaceholder')}
          presetWidth={220}
          dateWidth={160}
        />
      </ReportFilterBar>

      <ReportState
        query={report}
        loadFailed={t('loadFailed')}
        retry={t('retry')}
        loading={t('loading')}
        errorTestId="performance-error"
        loader={
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" role="status" aria-busy="true" aria-label={t('loading')}>
            {[0, 1, 2, 3].map((key) => (
              <Skeleton key={key} h={260} radius="lg" />
            ))}
          </SimpleGrid>
        }
      >
        {(data) => <ReportView report={data} timeZone={session.instance.timeZoneId} onPatients={setTarget} />}
      </ReportState>
      <PatientsModal filter={run.filter} target={target} onClose={() => setTarget(null)} />
    </>
  );
}

function ReportView({
  report,
  timeZone,
  onPatients,
}: {
  report: PerformanceReport;
  timeZone: string;
  onPatients: (target: PatientsTarget) => void;
}) {
  const { t } = useTranslation('reportsPerformance');
  // The window is half-open: its last clinic day starts a moment before `to`.
  const lastDay = new Date(Date.parse(report.window.to) - 1).toISOString();
  const empty = report.measures.every((measure) => measure.denominator === 0 && measure.exclusions === 0);
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed" data-testid="performance-window">
        {t('window', {
          from: formatClinicDate(report.window.from, timeZone),
          to: formatClinicDate(lastDay, timeZone),
          computed: formatClinicDateTime(report.computedAt, timeZone),
        })}
      </Text>
      {empty ? (
        <Text c="dimmed" ta="center" py="md" data-testid="performance-empty">
          {t('empty')}
        </Text>
      ) : null}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {report.measures.map((measure) => (
          <MeasureCard key={measure.key} measure={measure} onPatients={onPatients} />
        ))}
      </SimpleGrid>
      {/* Full width: five columns do not fit half of a 1280 px page. */}
      <Paper withBorder radius="md" p="md">
        <PerFormTable rows={report.perForm} onPatients={onPatients} />
      </Paper>
    </Stack>
  );
}

const groups: PerformanceGroup[] = ['numerator', 'denominator', 'exclusions'];

function MeasureCard({ measure, onPatients }: { measure: PerformanceMeasure; onPatients: (target: PatientsTarget) => void }) {
  const { t } = useTranslation('reportsPerformance');
  const format = useFormat();
  const key: PerformanceMeasureKey = measure.key;
  const name = t(`measures.${key}.name`);
  const pain = key === 'painChange';
  const headingId = `performance-${key}-title`;
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby={headingId} data-testid={`measure-${key}`}>
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id={headingId}>
            {name}
          </Title>
          <Text size="sm" c="dimmed">
            {t(`measures.${key}.definition`, { points: PAIN_MCID_POINTS })}
          </Text>
        </div>
        <Group gap="lg" wrap="nowrap" align="center">
          <RingProgress
            size={96}
            thickness={10}
            roundCaps
            aria-hidden
            sections={measure.rate === null ? [] : [{ value: measure.rate * 100, color: 'teal' }]}
          />
          <div>
            <Text fz={36} fw={700} lh={1.1} data-testid={`measure-${key}-rate`}>
              {format.percent(measure.rate)}
            </Text>
            <Text size="sm" c="dimmed">
              {measure.denominator === 0
                ? t('noDenominator')
                : t('rateOf', { numerator: measure.numerator, denominator: measure.denominator })}
            </Text>
            {pain ? (
              <Text size="sm" data-testid="measure-painChange-median">
                {t('painMedian', {
                  median: format.number(measure.median),
                  q1: format.number(measure.q1),
                  q3: format.number(measure.q3),
                  n: measure.n ?? 0,
                })}
              </Text>
            ) : null}
          </div>
        </Group>
        <ReportTable caption={t('countsCaption', { name })} nativeCaption withTableBorder verticalSpacing={4} fz="sm">
          <Table.Tr>
            <Table.Th scope="row">{t(`measures.${key}.numerator`)}</Table.Th>
            <Table.Td>{measure.numerator}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">{t(`measures.${key}.denominator`)}</Table.Th>
            <Table.Td>{measure.denominator}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">{t('exclusionsRow')}</Table.Th>
            <Table.Td>{measure.exclusions}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">{t('rateRow')}</Table.Th>
            <Table.Td>{format.percent(measure.rate)}</Table.Td>
          </Table.Tr>
          {pain ? (
            <>
              <Table.Tr>
                <Table.Th scope="row">{t('medianRow')}</Table.Th>
                <Table.Td>
                  {t('medianIqr', {
                    median: format.number(measure.median),
                    q1: format.number(measure.q1),
                    q3: format.number(measure.q3),
                  })}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">{t('nRow')}</Table.Th>
                <Table.Td>{measure.n ?? 0}</Table.Td>
              </Table.Tr>
            </>
          ) : null}
        </ReportTable>
        <Group gap="xs" wrap="wrap">
          {groups.map((group) => (
            <Button
              key={group}
              size="xs"
              variant="light"
              leftSection={<IconUsers size={14} aria-hidden />}
              onClick={() => onPatients({ measure: key, group })}
              aria-label={`${t(`buttons.${group}`)}: ${name}`}
            >
              {t(`buttons.${group}`)}
            </Button>
          ))}
        </Group>
      </Stack>
    </Paper>
  );
}

function PerFormTable({ rows, onPatients }: { rows: PerformanceFormRow[]; onPatients: (target: PatientsTarget) => void }) {
  const { t } = useTranslation('reportsPerformance');
  const format = useFormat();
  return (
    <ReportTable
      caption={t('perForm.caption')}
      nativeCaption
      scroll={{ minWidth: 480 }}
      striped
      verticalSpacing={4}
      fz="sm"
      testId="performance-per-form"
      columns={[
        { key: 'form', header: t('perForm.form') },
        { key: 'mcid', header: t('perForm.mcid') },
        { key: 'improved', header: t('perForm.improved') },
        { key: 'excluded', header: t('perForm.excluded'), title: t('exclusionsRow') },
        { key: 'rate', header: t('rateRow') },
      ]}
    >
      {rows.map((row) => (
        <Table.Tr key={row.formCode}>
          <Table.Th scope="row" title={row.mcidSource}>
            {formName(row.formCode)}
          </Table.Th>
          <Table.Td>{t('perForm.points', { points: format.number(row.mcid) })}</Table.Td>
          <Table.Td>
            <Button
              size="compact-xs"
              variant="subtle"
              onClick={() => onPatients({ measure: 'mcidImprovement', group: 'denominator', formCode: row.formCode })}
              aria-label={`${t('rateOf', { numerator: row.numerator, denominator: row.denominator })}: ${t('perForm.patientsOf', { form: formName(row.formCode) })}`}
            >
              {t('rateOf', { numerator: row.numerator, denominator: row.denominator })}
            </Button>
          </Table.Td>
          <Table.Td>{row.exclusions}</Table.Td>
          <Table.Td>{format.percent(row.rate)}</Table.Td>
        </Table.Tr>
      ))}
    </ReportTable>
  );
}
