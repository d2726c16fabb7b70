import { BarChart } from '@mantine/charts';
import { Alert, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DateFilterPreset } from '@pathwell/contracts/appointments';
import { outcomeForms } from '@pathwell/contracts/instance-settings';
import {
  providerBaselinesFilterSchema,
  reportDatePresets,
  type ProviderBaselineRow,
  type ProviderBaselines as Report,
  type ProviderBaselinesFilter,
} from '@pathwell/contracts/reports-referrals';
import { useSession } from '../../../app/session-context';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-client';
import { formatClinicDate } from '../../../lib/dates';
import { getDoctorId } from '../../../lib/session-storage';
import { referralQueries } from '../referrals/referrals.api';
import { DateRangeFields, dateFilterOf, fieldErrorsOf, issueEntries, type DateDraft } from '../shared/date-range-fields';
import { ReportTable } from '../shared/report-table';
import { ReportState } from '../shared/report-state';
import { ReportConventions } from '../shared/report-conventions';
import { ReportFilterBar } from '../shared/report-filter-bar';

type Run = { filter: ProviderBaselinesFilter; id: number };
type Mean = { mean: number | null; count: number };

const defaultDraft: DateDraft = { dateFilter: DateFilterPreset.ThisMonth, startDate: '', endDate: '' };
const formName = (code: number) => outcomeForms.find((form) => form.id === code)?.name ?? String(code);

function toFilter(draft: DateDraft): ProviderBaselinesFilter {
  const doctorId = getDoctorId();
  return { ...dateFilterOf(draft), ...(doctorId ? { doctorId } : {}) };
}

function useFormat() {
  const { t, i18n } = useTranslation('reportsReferrals');
  const decimal = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 });
  return {
    mean: (value: Mean) =>
      value.mean === null ? '—' : t('baselines.meanOf', { mean: decimal.format(value.mean), count: value.count }),
    percent: (value: number | null) => (value === null ? '—' : percent.format(value)),
  };
}

/**
 * /reports/providerbaselines, the Provider Appointment Dashboard (issue #14 §4, decision 0048): per
 * provider, the new patients' baselines and latest follow-up, appointments by status, and intake
 * completed before the visit; only while the clinic has `enableProviderAppointmentDashboard` on.
 */
export function ProviderBaselines() {
  const { t } = useTranslation('reportsReferrals');
  const [draft, setDraft] = useState<DateDraft>(defaultDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [run, setRun] = useState<Run>(() => ({ filter: toFilter(defaultDraft), id: 0 }));
  const report = useQuery(referralQueries.baselines(run.filter, run.id));

  const failure = report.error;
  useEffect(() => {
    if (failure instanceof ApiError && failure.status === 400) setErrors(fieldErrorsOf(Object.entries(failure.fields)));
  }, [failure]);
  const featureOff = failure instanceof ApiError && failure.status === 403 && failure.body?.messageKey === 'featureOff';

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const filter = toFilter(draft);
    const checked = providerBaselinesFilterSchema.safeParse(filter);
    if (!checked.success) {
      setErrors(fieldErrorsOf(issueEntries(checked.error.issues)));
      return;
    }
    setErrors({});
    setRun((current) => ({ filter, id: current.id + 1 }));
  };

  return (
    <>
      <PageHeader title={t('baselines.title')} description={t('baselines.description')} />
      <ReportConventions />
      <ReportFilterBar label={t('filters.label')} applyLabel={t('filters.apply')} applyTestId="baselines-apply" onSubmit={apply}>
        <DateRangeFields
          draft={draft}
          errors={errors}
          onChange={setDraft}
          presets={reportDatePresets}
          ns="reportsReferrals"
          testId="baselines-preset"
        />
      </ReportFilterBar>
      {featureOff ? (
        <Alert color="yellow" data-testid="baselines-off">
          {t('baselines.featureOff')}
        </Alert>
      ) : (
        <ReportState
          query={report}
          loadFailed={t('loadFailed')}
          retry={t('retry')}
          loading={t('loading')}
          errorTestId="baselines-error"
          skeletons={[200, 220]}
          empty={{ when: (data) => data.rows.length === 0, text: t('baselines.empty'), testId: 'baselines-empty' }}
        >
          {(data) => <BaselinesView report={data} />}
        </ReportState>
      )}
    </>
  );
}

function BaselinesView({ report }: { report: Report }) {
  const { t } = useTranslation('reportsReferrals');
  const format = useFormat();
  const timeZone = useSession().instance.timeZoneId;
  const lastDay = new Date(Date.parse(report.to) - 1).toISOString();
  const name = (row: ProviderBaselineRow) => row.providerName ?? t('baselines.noProvider');
  const chartData = report.rows.map((row) => ({
    provider: name(row),
    rate: row.intake.rate === null ? 0 : Math.round(row.intake.rate * 100),
  }));

  return (
    <Stack gap="lg">
      <Text size="sm" c="dimmed">
        {t('window', { from: formatClinicDate(report.from, timeZone), to: formatClinicDate(lastDay, timeZone) })}
      </Text>
      <Paper withBorder radius="lg" p="md">
        <ReportTable
          caption={
            <Text fw={600} ta="left">
              {t('baselines.tableCaption')}
            </Text>
          }
          scroll={{ minWidth: 880 }}
          striped
          verticalSpacing="xs"
          testId="baselines-table"
          captionSide="top"
          columns={(['provider', 'newPatients', 'pain', 'scores', 'appointments', 'intake'] as const).map((key) => ({
            key,
            header: t(`baselines.columns.${key}`),
          }))}
        >
          {[
            ...report.rows.map((row) => ({ key: row.providerId ?? 'none', label: name(row), shape: row })),
            { key: 'totals', label: t('baselines.totals'), shape: report.totals },
          ].map(({ key, label, shape }) => (
            <Table.Tr key={key} data-testid="baselines-row">
              <Table.Th scope="row" fw={key === 'totals' ? 700 : 500}>
                {label}
              </Table.Th>
              <Table.Td>{shape.newPatients}</Table.Td>
              <Table.Td>
                <Text size="sm">{t('baselines.baseline', { value: format.mean(shape.baselinePain) })}</Text>
                <Text size="sm">{t('baselines.followUp', { value: format.mean(shape.followUpPain) })}</Text>
              </Table.Td>
              <Table.Td>
                {shape.forms.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    —
                  </Text>
                ) : (
                  shape.forms.map((form) => (
                    <Text size="sm" key={form.formCode}>
                      {t('baselines.formLine', {
                        form: formName(form.formCode),
                        baseline: format.mean(form.baseline),
                        followUp: format.mean(form.followUp),
                      })}
                    </Text>
                  ))
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{t('baselines.statusLine', { ...shape.appointments })}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">
                  {t('baselines.intakeLine', {
                    rate: format.percent(shape.intake.rate),
                    done: shape.intake.completedBefore,
                    due: shape.intake.due,
                  })}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </ReportTable>
      </Paper>
      <Paper withBorder radius="lg" p="md">
        <Title order={2} size="h4" mb="sm">
          {t('baselines.chartTitle')}
        </Title>
        <div role="img" aria-label={t('baselines.chartLabel')} data-testid="baselines-chart">
          <BarChart
            h={220}
            data={chartData}
            dataKey="provider"
            tickLine="y"
            yAxisProps={{ domain: [0, 100] }}
            unit="%"
            series={[{ name: 'rate', label: t('baselines.intakeRate'), color: 'teal.6' }]}
          />
        </div>
        <ReportTable
          caption={t('baselines.chartLabel')}
          scroll={{ minWidth: 480, mt: 'sm' }}
          striped
          verticalSpacing="xs"
          testId="baselines-intake-table"
          columns={[
            { key: 'provider', header: t('baselines.columns.provider') },
            { key: 'intakeDone', header: t('baselines.columns.intakeDone') },
            { key: 'intakeDue', header: t('baselines.columns.intakeDue') },
            { key: 'intakeRate', header: t('baselines.intakeRate') },
          ]}
        >
          {report.rows.map((row) => (
            <Table.Tr key={row.providerId ?? 'none'}>
              <Table.Th scope="row" fw={500}>
                {name(row)}
              </Table.Th>
              <Table.Td>{row.intake.completedBefore}</Table.Td>
              <Table.Td>{row.intake.due}</Table.Td>
              <Table.Td>{format.percent(row.intake.rate)}</Table.Td>
            </Table.Tr>
          ))}
        </ReportTable>
      </Paper>
    </Stack>
  );
}
