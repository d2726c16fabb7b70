import {
  Button,
  Group,
  Paper,
  RingProgress,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconRefresh, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DateFilterPreset } from '@pathwell/contracts/appointments';
import { enumerations } from '@pathwell/contracts/enumerations';
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
import { ErrorAlert } from '../../../components/error-alert';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-client';
import { formatClinicDate, formatClinicDateTime } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
import { translateValidation } from '../../../lib/i18n';
import { getDoctorId } from '../../../lib/session-storage';
import { performanceQueries } from './performance.api';
import { formName, PatientsModal, type PatientsTarget } from './patients-modal';

type Draft = { dateFilter: number; startDate: string; endDate: string };
type FieldErrors = Partial<Record<'dateFilter' | 'startDate' | 'endDate', string>>;
type Run = { filter: PerformanceFilter; id: number };

/** Section 9: the date filter starts at 1 (today); the others are one choice away. */
const defaultDraft: Draft = { dateFilter: DateFilterPreset.Today, startDate: '', endDate: '' };

function toFilter(draft: Draft): PerformanceFilter {
  const doctorId = getDoctorId();
  const custom = draft.dateFilter === DateFilterPreset.CustomRange;
  return {
    dateFilter: draft.dateFilter as PerformanceFilter['dateFilter'],
    ...(custom ? { startDate: draft.startDate.trim(), endDate: draft.endDate.trim() } : {}),
    ...(doctorId ? { doctorId } : {}),
  };
}

function fieldErrorsOf(entries: [string, string][]): FieldErrors {
  const errors: FieldErrors = {};
  for (const [path, message] of entries) {
    const field = path.split('.').at(-1);
    if (field === 'dateFilter' || field === 'startDate' || field === 'endDate') errors[field] ??= message;
  }
  return errors;
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
  const { i18n } = useTranslation();
  const session = useSession();
  const [draft, setDraft] = useState<Draft>(defaultDraft);
  const [errors, setErrors] = useState<FieldErrors>({});
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
      setErrors(fieldErrorsOf(checked.error.issues.map((issue) => [issue.path.join('.'), issue.message])));
      return;
    }
    setErrors({});
    setRun((current) => ({ filter, id: current.id + 1 }));
  };

  const language = i18n.language === 'es' ? 'es' : 'en';
  const presets = performanceDatePresets.map((value) => {
    const option = enumerations.dateFilterPresets.find((preset) => preset.value === value);
    return { value: String(value), label: option ? option.label[language] : String(value) };
  });
  const custom = draft.dateFilter === DateFilterPreset.CustomRange;

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <Paper withBorder radius="lg" p="md" mb="lg" component="form" onSubmit={apply} aria-label={t('filters.label')} noValidate>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Select
            label={t('filters.dateFilter')}
            data={presets}
            value={String(draft.dateFilter)}
            onChange={(value) => setDraft((current) => ({ ...current, dateFilter: Number(value ?? DateFilterPreset.Today) }))}
            allowDeselect={false}
            w={220}
            error={translateValidation(errors.dateFilter)}
            data-testid="performance-preset"
          />
          {custom ? (
            <>
              <TextInput
                label={t('filters.startDate')}
                placeholder={t('filters.datePlaceholder')}
                inputMode="numeric"
                maxLength={10}
                w={160}
                value={draft.startDate}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  setDraft((current) => ({ ...current, startDate: value }));
                }}
                error={translateValidation(errors.startDate)}
              />
              <TextInput
                label={t('filters.endDate')}
                placeholder={t('filters.datePlaceholder')}
                inputMode="numeric"
                maxLength={10}
                w={160}
                value={draft.endDate}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  setDraft((current) => ({ ...current, endDate: value }));
                }}
                error={translateValidation(errors.endDate)}
              />
            </>
          ) : null}
          <Button type="submit" data-testid="performance-apply">
            {t('filters.apply')}
          </Button>
        </Group>
      </Paper>

      {report.isError && !report.data ? (
        <Stack gap="sm" align="flex-start">
          <ErrorAlert testId="performance-error">
            {t('loadFailed')} {errorText(report.error)}
          </ErrorAlert>
          <Button variant="light" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void report.refetch()}>
            {t('retry')}
          </Button>
        </Stack>
      ) : !report.data ? (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" aria-busy="true" aria-label={t('loading')}>
          {[0, 1, 2, 3].map((key) => (
            <Skeleton key={key} h={260} radius="lg" />
          ))}
        </SimpleGrid>
      ) : (
        <ReportView report={report.data} timeZone={session.instance.timeZoneId} onPatients={setTarget} />
      )}
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
          <MeasureCard
            key={measure.key}
            measure={measure}
            perForm={measure.key === 'mcidImprovement' ? report.perForm : undefined}
            onPatients={onPatients}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

const groups: PerformanceGroup[] = ['numerator', 'denominator', 'exclusions'];

function MeasureCard({
  measure,
  perForm,
  onPatients,
}: {
  measure: PerformanceMeasure;
  perForm?: PerformanceFormRow[];
  onPatients: (target: PatientsTarget) => void;
}) {
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
        <Table withTableBorder verticalSpacing={4} fz="sm">
          <caption>{t('countsCaption', { name })}</caption>
          <Table.Tbody>
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
          </Table.Tbody>
        </Table>
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
        {perForm ? <PerFormTable rows={perForm} onPatients={onPatients} /> : null}
      </Stack>
    </Paper>
  );
}

function PerFormTable({ rows, onPatients }: { rows: PerformanceFormRow[]; onPatients: (target: PatientsTarget) => void }) {
  const { t } = useTranslation('reportsPerformance');
  const format = useFormat();
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table striped verticalSpacing={4} fz="sm" data-testid="performance-per-form">
        <caption>{t('perForm.caption')}</caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('perForm.form')}</Table.Th>
            <Table.Th scope="col">{t('perForm.mcid')}</Table.Th>
            <Table.Th scope="col">{t('perForm.improved')}</Table.Th>
            <Table.Th scope="col">{t('exclusionsRow')}</Table.Th>
            <Table.Th scope="col">{t('rateRow')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
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
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
