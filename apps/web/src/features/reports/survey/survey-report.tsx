import { BarChart } from '@mantine/charts';
import { Group, Paper, Select, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { instruments } from '@pathwell/instruments';
import {
  surveyFilterSchema,
  type SurveyFilterInput,
  type SurveyQuestion,
  type SurveyReport as Report,
} from '@pathwell/contracts/reports-survey';
import { useSession } from '../../../app/session-context';
import { ErrorAlert } from '../../../components/error-alert';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-client';
import { formatClinicDate } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
import { getDoctorId } from '../../../lib/session-storage';
import { defaultPeriodDraft, PeriodFields, periodFilterOf, useFormat, usePeriodLabel, type PeriodDraft } from './report-filters';
import { fieldErrorsOf, issueEntries } from '../shared/date-range-fields';
import { ReportState } from '../shared/report-state';
import { surveyQueries } from './survey.api';
import { ReportConventions } from '../shared/report-conventions';
import { ReportFilterBar } from '../shared/report-filter-bar';
import { ReportTable } from '../shared/report-table';

type Draft = PeriodDraft & { form: string };
type Run = { filter: SurveyFilterInput; id: number };

const measures = ['sent', 'opened', 'completed'] as const;
const measureColors = { sent: 'blue.6', opened: 'cyan.6', completed: 'green.7' } as const;

function toFilter(draft: Draft, language: 'en' | 'es'): SurveyFilterInput {
  const doctorId = getDoctorId();
  const [kind, value] = draft.form.split(':');
  return {
    ...periodFilterOf(draft),
    language,
    ...(kind === 'pro' ? { formCode: Number(value) } : kind === 'cf' ? { customFormId: value } : {}),
    ...(doctorId ? { doctorId } : {}),
  };
}

/**
 * /reports/surveyreport (issue #14 §4, decision 0047): forms sent, opened and completed per period and
 * per form, and the answers to one custom form.
 */
export function SurveyReport() {
  const { t, i18n } = useTranslation('reportsActivity');
  const language = i18n.language === 'es' ? 'es' : 'en';
  const [draft, setDraft] = useState<Draft>({ ...defaultPeriodDraft, form: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [run, setRun] = useState<Run>(() => ({ filter: toFilter({ ...defaultPeriodDraft, form: '' }, language), id: 0 }));
  const report = useQuery(surveyQueries.report(run.filter, run.id));
  const forms = useQuery(surveyQueries.forms());

  const failure = report.error;
  useEffect(() => {
    if (failure instanceof ApiError && failure.status === 400) setErrors(fieldErrorsOf(Object.entries(failure.fields)));
  }, [failure]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const filter = toFilter(draft, language);
    const checked = surveyFilterSchema.safeParse(filter);
    if (!checked.success) {
      setErrors(fieldErrorsOf(issueEntries(checked.error.issues)));
      return;
    }
    setErrors({});
    setRun((current) => ({ filter, id: current.id + 1 }));
  };

  const formOptions = [
    { value: '', label: t('survey.allForms') },
    ...Object.values(instruments).map((instrument) => ({
      value: `pro:${instrument.formCode}`,
      label: (language === 'es' && instrument.name.es) || instrument.name.en,
    })),
    ...(forms.data?.customForms ?? []).map((form) => ({ value: `cf:${form.id}`, label: form.title })),
  ];

  return (
    <>
      <PageHeader title={t('survey.title')} description={t('survey.description')} />
      <ReportConventions improvement={false} />
      <ReportFilterBar label={t('filters.label')} applyLabel={t('filters.apply')} applyTestId="survey-apply" onSubmit={apply}>
        <PeriodFields draft={draft} errors={errors} onChange={setDraft} testId="survey" />
        <Select
          label={t('filters.form')}
          data={formOptions}
          value={draft.form}
          onChange={(value) => setDraft({ ...draft, form: value ?? '' })}
          allowDeselect={false}
          searchable
          w={300}
          data-testid="survey-form"
        />
      </ReportFilterBar>

      <ReportState
        query={report}
        loadFailed={t('loadFailed')}
        retry={t('retry')}
        loading={t('loading')}
        errorTestId="survey-error"
        empty={{ when: (data) => data.totals.sent === 0, text: t('survey.empty'), testId: 'survey-empty' }}
      >
        {(data) => <SurveyView report={data} />}
      </ReportState>
      <ItemsSection filter={run.filter} customForms={forms.data?.customForms ?? null} />
    </>
  );
}

function SurveyView({ report }: { report: Report }) {
  const { t } = useTranslation('reportsActivity');
  const format = useFormat();
  const periodLabel = usePeriodLabel(report.period);
  const timeZone = useSession().instance.timeZoneId;
  // The chart sums every form of a period; the table below it lists the same sums.
  const byPeriod = new Map<string, { period: string; sent: number; opened: number; completed: number }>();
  for (const row of report.periods) {
    const sums = byPeriod.get(row.period) ?? { period: row.period, sent: 0, opened: 0, completed: 0 };
    sums.sent += row.sent;
    sums.opened += row.opened;
    sums.completed += row.completed;
    byPeriod.set(row.period, sums);
  }
  const periods = [...byPeriod.values()];
  const lastDay = new Date(Date.parse(report.to) - 1).toISOString();
  const measureColumns = measures.map((measure) => ({ key: measure, header: t(`measures.${measure}`), align: 'right' as const }));
  return (
    <Stack gap="lg">
      <Text size="sm" c="dimmed" data-testid="survey-window">
        {t('window', { from: formatClinicDate(report.from, timeZone), to: formatClinicDate(lastDay, timeZone) })}{' '}
        {t('survey.totals', report.totals)} {t('survey.definitions')}
      </Text>
      <Paper withBorder radius="lg" p="md">
        <Title order={2} size="h4" mb="sm">
          {t('survey.chartTitle')}
        </Title>
        <div role="img" aria-label={t('survey.chartLabel')} data-testid="survey-chart">
          <BarChart
            h={260}
            data={periods.map((row) => ({ ...row, period: periodLabel(row.period) }))}
            dataKey="period"
            withLegend
            tickLine="y"
            series={measures.map((measure) => ({
              name: measure,
              label: t(`measures.${measure}`),
              color: measureColors[measure],
            }))}
          />
        </div>
        <ReportTable
          caption={t('survey.byPeriodCaption')}
          mt="md"
          striped
          testId="survey-by-period"
          columns={[{ key: 'period', header: t('columns.period') }, ...measureColumns]}
        >
          {periods.map((row) => (
            <Table.Tr key={row.period}>
              <Table.Th scope="row" fw={500}>
                {periodLabel(row.period)}
              </Table.Th>
              {measures.map((measure) => (
                <Table.Td key={measure} ta="right">
                  {format.number(row[measure])}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </ReportTable>
      </Paper>
      <Paper withBorder radius="lg" p="md">
        <ReportTable
          caption={t('survey.byFormCaption')}
          scroll={{ minWidth: 640 }}
          striped
          testId="survey-by-form"
          columns={[
            { key: 'form', header: t('columns.form') },
            ...measureColumns,
            { key: 'completionRate', header: t('measures.completionRate'), align: 'right' },
            { key: 'median', header: t('measures.median'), align: 'right' },
          ]}
        >
          {[...report.forms, { ...report.totals, formKey: '', formName: t('survey.allForms') }].map((row) => (
            <Table.Tr key={row.formKey || 'all'} fw={row.formKey ? undefined : 600}>
              <Table.Th scope="row" fw={row.formKey ? 500 : 700}>
                {row.formName}
              </Table.Th>
              {measures.map((measure) => (
                <Table.Td key={measure} ta="right">
                  {format.number(row[measure])}
                </Table.Td>
              ))}
              <Table.Td ta="right">{format.rate(row.completionRate)}</Table.Td>
              <Table.Td ta="right">{format.duration(row.medianMinutesToComplete)}</Table.Td>
            </Table.Tr>
          ))}
        </ReportTable>
      </Paper>
    </Stack>
  );
}

function ItemsSection({
  filter,
  customForms,
}: {
  filter: SurveyFilterInput;
  customForms: { id: string; title: string; currentVersion: number }[] | null;
}) {
  const { t } = useTranslation('reportsActivity');
  const [formId, setFormId] = useState<string | null>(null);
  const [version, setVersion] = useState<number | null>(null);
  const { formCode: _formCode, customFormId: _customFormId, ...dates } = filter;
  const items = useQuery({
    ...surveyQueries.items({ customFormId: formId ?? '', version, filter: dates }, 0),
    enabled: Boolean(formId),
  });
  return (
    <Paper withBorder radius="lg" p="md" mt="lg" component="section" aria-labelledby="survey-items-title">
      <Title order={2} size="h4" mb="sm" id="survey-items-title">
        {t('items.title')}
      </Title>
      {customForms !== null && customForms.length === 0 ? (
        <Text c="dimmed">{t('items.noForms')}</Text>
      ) : (
        <Group align="flex-end" gap="sm" mb="md">
          <Select
            label={t('items.picker')}
            placeholder={t('items.pickerPlaceholder')}
            data={(customForms ?? []).map((form) => ({ value: form.id, label: form.title }))}
            value={formId}
            onChange={(value) => {
              setFormId(value);
              setVersion(null);
            }}
            searchable
            w={320}
            data-testid="survey-items-form"
          />
          {items.data && items.data.versions.length > 1 ? (
            <Select
              label={t('items.version')}
              data={items.data.versions.map((option) => ({
                value: String(option.version),
                label: t('items.versionOption', option),
              }))}
              value={String(items.data.version)}
              onChange={(value) => setVersion(value ? Number(value) : null)}
              allowDeselect={false}
              w={240}
            />
          ) : null}
        </Group>
      )}
      {!formId ? null : items.isError ? (
        <ErrorAlert testId="survey-items-error">
          {t('items.loadFailed')} {errorText(items.error)}
        </ErrorAlert>
      ) : !items.data ? (
        <Skeleton h={200} radius="lg" role="status" aria-busy="true" aria-label={t('loading')} />
      ) : items.data.responses === 0 ? (
        <Text c="dimmed" data-testid="survey-items-empty">
          {t('items.empty')}
        </Text>
      ) : (
        <Stack gap="lg" data-testid="survey-items">
          <Text size="sm" c="dimmed">
            {t('items.responses', { count: items.data.responses })}
          </Text>
          {items.data.questions.map((question) => (
            <QuestionCard key={question.questionId} question={question} />
          ))}
        </Stack>
      )}
    </Paper>
  );
}

function QuestionCard({ question }: { question: SurveyQuestion }) {
  const { t } = useTranslation('reportsActivity');
  const format = useFormat();
  return (
    <Stack gap="xs" data-testid="survey-question">
      <Title order={3} size="h5">
        {question.text}
      </Title>
      <Text size="sm" c="dimmed">
        {t('items.answered', { count: question.answered })}
        {question.kind === 'answered' ? ` · ${t('items.freeText')}` : ''}
      </Text>
      {question.kind === 'values' && question.answers.length > 0 ? (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <div role="img" aria-label={t('items.chartLabel', { question: question.text })}>
            <BarChart
              h={Math.max(120, question.answers.length * 36)}
              data={question.answers.map((answer) => ({ answer: answer.label, count: answer.count }))}
              dataKey="answer"
              orientation="vertical"
              yAxisProps={{ width: 120 }}
              series={[{ name: 'count', label: t('columns.count'), color: 'blue.6' }]}
            />
          </div>
          <ReportTable
            caption={t('items.tableCaption', { question: question.text })}
            striped
            columns={[
              { key: 'answer', header: t('columns.answer') },
              { key: 'count', header: t('columns.count'), align: 'right' },
              { key: 'share', header: t('columns.share'), align: 'right' },
            ]}
          >
            {question.answers.map((answer) => (
              <Table.Tr key={answer.value}>
                <Table.Th scope="row" fw={500}>
                  {answer.label}
                </Table.Th>
                <Table.Td ta="right">{format.number(answer.count)}</Table.Td>
                <Table.Td ta="right">{format.rate(question.answered === 0 ? null : answer.count / question.answered)}</Table.Td>
              </Table.Tr>
            ))}
          </ReportTable>
        </SimpleGrid>
      ) : null}
    </Stack>
  );
}
