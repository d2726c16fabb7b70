import { Button, Paper, Skeleton, Stack, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconChartLine, IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SummaryFilter, SummaryReport } from '@pathwell/contracts/reports-summary';
import { useSession } from '../../../app/session-context';
import { ErrorAlert } from '../../../components/error-alert';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-client';
import { formatClinicDateTime } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
import { getDoctorId } from '../../../lib/session-storage';
import { DrillDown } from './drill-down';
import { ExportMenu } from './export-menu';
import { FiltersPanel } from './filters-panel';
import { sandboxQueries, useSandboxOptions } from './sandbox.api';
import {
  defaultDraft,
  fieldErrorsOf,
  narrowingFilters,
  sectionOfField,
  toFilter,
  validateFilter,
  type FieldErrors,
  type FilterSection,
  type SandboxDraft,
} from './sandbox-filter';
import { SeriesCard, type DrillTarget } from './series-card';
import { ReportConventions } from '../shared/report-conventions';

/** Draft fields whose errors the server names differently (a range is two fields). */
const errorFieldsOf: Partial<Record<keyof SandboxDraft, string[]>> = {
  visit: ['visitMin', 'visitMax'],
  age: ['ageMin', 'ageMax'],
  startingPain: ['startingPainScoreMin', 'startingPainScoreMax'],
  bmi: ['bmiMin', 'bmiMax'],
  rand: ['randScoreMin', 'randScoreMax'],
  patientName: ['patientName', 'patientId'],
};

type Run = { filter: SummaryFilter; draft: SandboxDraft; id: number };

const hasPatients = (report: SummaryReport) =>
  report.cohortPatients > 0 && report.series.some((series) => series.points.some((point) => point.patients > 0));

/**
 * /reports/summary, the data sandbox (issue #14 §1): the chosen cohort's scores over time, one chart
 * and table per series, a drill-down to the patients behind a point, and CSV/XLSX exports.
 */
export function DataSandbox() {
  const { t } = useTranslation('reportsSandbox');
  const session = useSession();
  const options = useSandboxOptions();
  const showBmi = useQuery(sandboxQueries.bmiFlag()).data === true;
  const [draft, setDraft] = useState<SandboxDraft>(defaultDraft);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [openSections, setOpenSections] = useState<FilterSection[]>(['outcome']);
  const [run, setRun] = useState<Run | null>(null);
  const [drill, setDrill] = useState<DrillTarget | null>(null);

  const report = useQuery({
    ...sandboxQueries.report(run?.filter ?? {}, run?.id ?? 0),
    enabled: run !== null,
  });

  const showErrors = (next: FieldErrors) => {
    setErrors(next);
    const sections = Object.keys(next).flatMap((field) => (sectionOfField[field] ? [sectionOfField[field]] : []));
    setOpenSections((open) => [...new Set([...open, ...sections])]);
  };

  // A 400 names the fields it refused: they show next to the filters, as the form's own checks do.
  const failure = report.error;
  useEffect(() => {
    if (failure instanceof ApiError && failure.status === 400 && Object.keys(failure.fields).length > 0)
      showErrors(fieldErrorsOf(Object.entries(failure.fields)));
  }, [failure]);

  const change = (next: Partial<SandboxDraft>) => {
    setDraft((current) => ({ ...current, ...next }));
    const cleared = Object.keys(next).flatMap((key) => errorFieldsOf[key as keyof SandboxDraft] ?? [key]);
    if (cleared.some((field) => errors[field]))
      setErrors((current) => Object.fromEntries(Object.entries(current).filter(([field]) => !cleared.includes(field))));
  };

  const apply = () => {
    const filter = toFilter(draft, { showBmi, doctorId: getDoctorId() });
    const problems = validateFilter(filter);
    if (Object.keys(problems).length > 0) {
      showErrors(problems);
      return;
    }
    setErrors({});
    setRun((previous) => ({ filter, draft, id: (previous?.id ?? 0) + 1 }));
  };

  const reset = () => {
    setDraft(defaultDraft);
    setErrors({});
  };

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <ReportConventions />
      <Stack gap="lg">
        <FiltersPanel
          draft={draft}
          onChange={change}
          errors={errors}
          showBmi={showBmi}
          options={options}
          openSections={openSections}
          onOpenSections={setOpenSections}
          onApply={apply}
          onReset={reset}
          running={report.isFetching}
          actions={<ExportMenu filter={report.data ? (run?.filter ?? null) : null} />}
        />
        {run === null ? (
          <Paper withBorder radius="lg" p="xl" data-testid="sandbox-prompt">
            <Stack align="center" gap="xs">
              <ThemeIcon variant="light" size={48} radius="xl" aria-hidden>
                <IconChartLine size={28} />
              </ThemeIcon>
              <Text fw={600}>{t('prompt.title')}</Text>
              <Text c="dimmed" ta="center" maw={560}>
                {t('prompt.text')}
              </Text>
            </Stack>
          </Paper>
        ) : report.isError ? (
          <Stack gap="sm" align="flex-start">
            <ErrorAlert testId="sandbox-error">
              {failure instanceof ApiError && failure.status === 400 && Object.keys(failure.fields).length > 0
                ? t('fixFilters')
                : `${t('loadFailed')} ${errorText(failure)}`}
            </ErrorAlert>
            <Button variant="light" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void report.refetch()}>
              {t('retry')}
            </Button>
          </Stack>
        ) : !report.data ? (
          <Stack gap="md" aria-busy data-testid="sandbox-loading">
            <VisuallyHidden role="status">{t('loading')}</VisuallyHidden>
            <Skeleton h={32} w="40%" radius="md" />
            <Skeleton h={280} radius="lg" />
            <Skeleton h={180} radius="lg" />
          </Stack>
        ) : !hasPatients(report.data) ? (
          <EmptyResult draft={run.draft} showBmi={showBmi} />
        ) : (
          <Stack gap="lg" data-testid="sandbox-results">
            <Text size="sm" c="dimmed" data-testid="sandbox-cohort">
              {t('results.cohort', {
                count: report.data.cohortPatients,
                at: formatClinicDateTime(report.data.computedAt, session.instance.timeZoneId),
              })}
            </Text>
            {report.data.series.map((series) => (
              <SeriesCard key={series.key} series={series} onDrill={setDrill} />
            ))}
          </Stack>
        )}
      </Stack>
      {run ? <DrillDown filter={run.filter} target={drill} onClose={() => setDrill(null)} /> : null}
    </>
  );
}

function EmptyResult({ draft, showBmi }: { draft: SandboxDraft; showBmi: boolean }) {
  const { t, i18n } = useTranslation('reportsSandbox');
  const narrowing = narrowingFilters(draft, showBmi).map((key) => t(`narrowing.${key}`));
  const list = new Intl.ListFormat(i18n.language, { type: 'disjunction' }).format(narrowing);
  return (
    <Paper withBorder radius="lg" p="xl" data-testid="sandbox-empty">
      <Stack gap="xs" align="center">
        <Text fw={600}>{t('empty.title')}</Text>
        <Text c="dimmed" ta="center" maw={640}>
          {narrowing.length > 0 ? t('empty.loosen', { filters: list }) : t('empty.noScores')}
        </Text>
      </Stack>
    </Paper>
  );
}
