import { CompositeChart } from '@mantine/charts';
import { Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { SummaryPoint, SummarySeries } from '@pathwell/contracts/reports-summary';
import { outcomeFormName } from '../../questionnaires/questionnaire-text';
import { ReportTable } from '../shared/report-table';

export type DrillTarget = { seriesKey: string; seriesTitle: string; week: number; weekLabel: string };

export function useNumberFormat() {
  const { i18n } = useTranslation();
  const decimal = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 });
  return {
    number: (value: number | null | undefined) => (value === null || value === undefined ? '—' : decimal.format(value)),
    /** `mcidPercent` is a share of 100 (e.g. 40 for 40 %). */
    percent: (value: number | null | undefined) => (value === null || value === undefined ? '—' : percent.format(value / 100)),
  };
}

function useSeriesTitle() {
  const { t, i18n } = useTranslation('reportsSandbox');
  return (series: Pick<SummarySeries, 'formCode'>) =>
    series.formCode === null ? t('results.painTitle') : outcomeFormName(series.formCode, i18n.language);
}

type ChartRow = { label: string; week: number; mean: number | null; ci: [number, number] | null; patients: number };

/**
 * One series: the mean by visit window with its 95 % confidence interval as a shaded band, the
 * level a mean change of one MCID from baseline would reach as a dashed line, and beneath it a table
 * with the same numbers (screen readers read the table; the chart is one labelled image).
 */
export function SeriesCard({ series, onDrill }: { series: SummarySeries; onDrill: (target: DrillTarget) => void }) {
  const { t } = useTranslation('reportsSandbox');
  const titleId = useId();
  const format = useNumberFormat();
  const title = useSeriesTitle()(series);
  const weekLabel = (week: number) => (week === 0 ? t('results.baseline') : t('results.week', { week }));

  const rows: ChartRow[] = series.points.map((point) => ({
    label: weekLabel(point.week),
    week: point.week,
    mean: point.mean,
    ci: point.ciLow !== null && point.ciHigh !== null ? [point.ciLow, point.ciHigh] : null,
    patients: point.patients,
  }));
  const drill = (point: Pick<SummaryPoint, 'week' | 'patients'>) => {
    if (point.patients > 0)
      onDrill({ seriesKey: series.key, seriesTitle: title, week: point.week, weekLabel: weekLabel(point.week) });
  };

  const baseline = series.points.find((point) => point.week === 0)?.mean ?? null;
  const mcidLevel =
    series.mcid !== null && baseline !== null
      ? Math.min(series.maximum, Math.max(0, baseline + (series.higherIsBetter ? series.mcid : -series.mcid)))
      : null;

  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby={titleId} data-testid="sandbox-series">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
          <div>
            <Title order={2} size="h4" id={titleId}>
              {title}
            </Title>
            <Text size="sm" c="dimmed">
              {series.higherIsBetter ? t('results.higherIsBetter') : t('results.lowerIsBetter')}
            </Text>
          </div>
          {series.normalised ? (
            <Badge variant="light" color="grape" miw="max-content" data-testid="sandbox-normalised">
              {t('results.normalised')}
            </Badge>
          ) : null}
        </Group>
        <div role="img" aria-label={t('results.chartLabel', { title, maximum: series.maximum })} data-testid="sandbox-chart">
          <CompositeChart
            h={280}
            data={rows}
            dataKey="label"
            withLegend
            curveType="linear"
            connectNulls
            xAxisLabel={t('results.xAxis')}
            yAxisLabel={t('results.yAxis')}
            yAxisProps={{ domain: [0, series.maximum], allowDataOverflow: true }}
            series={[
              { name: 'ci', label: t('results.ci'), type: 'area', color: 'blue.3' },
              { name: 'mean', label: t('results.mean'), type: 'line', color: 'blue.8' },
            ]}
            areaProps={{ strokeWidth: 0, dot: false, activeDot: false, fillOpacity: 0.3 }}
            activeDotProps={{ r: 6, cursor: 'pointer' }}
            referenceLines={
              mcidLevel === null
                ? []
                : [
                    {
                      y: mcidLevel,
                      color: 'orange.7',
                      strokeDasharray: '6 4',
                      label: t('results.mcidLine'),
                      labelPosition: 'insideTopRight',
                    },
                  ]
            }
            tooltipProps={{
              content: ({ active, payload }) => {
                const row = (payload?.[0]?.payload ?? null) as ChartRow | null;
                if (!active || !row) return null;
                return (
                  <Paper withBorder shadow="md" p="xs" radius="md">
                    <Text size="sm" fw={600}>
                      {row.label}
                    </Text>
                    <Text size="sm">{t('results.tooltip.mean', { value: format.number(row.mean) })}</Text>
                    <Text size="sm">
                      {t('results.tooltip.ci', {
                        low: format.number(row.ci?.[0]),
                        high: format.number(row.ci?.[1]),
                      })}
                    </Text>
                    <Text size="sm">{t('results.tooltip.patients', { count: row.patients })}</Text>
                    {row.patients > 0 ? (
                      <Text size="xs" c="dimmed">
                        {t('results.tooltip.click')}
                      </Text>
                    ) : null}
                  </Paper>
                );
              },
            }}
            composedChartProps={{
              onClick: (state) => {
                const index =
                  typeof state?.activeTooltipIndex === 'number' ? state.activeTooltipIndex : Number(state?.activeIndex);
                const row = Number.isInteger(index) ? rows[index] : undefined;
                if (row) drill(row);
              },
            }}
          />
        </div>
        <Text size="sm" c="dimmed" data-testid="sandbox-mcid-note">
          {series.mcid === null
            ? t('results.noMcid')
            : t('results.mcidNote', {
                points: format.number(series.mcid),
                source: series.mcidSource ?? t('results.sourceUnknown'),
              })}
        </Text>
        <ReportTable
          caption={t('results.tableCaption', { title })}
          nativeCaption
          scroll={{ minWidth: 720 }}
          striped
          withTableBorder
          verticalSpacing="xs"
          testId="sandbox-table"
          columns={(['week', 'patients', 'mean', 'ci', 'improvement', 'mcid', 'list'] as const).map((key) => ({
            key,
            header: t(`results.columns.${key}`),
          }))}
        >
          {series.points.map((point) => (
            <Table.Tr key={point.week} data-testid="sandbox-row">
              <Table.Th scope="row" fw={500}>
                {weekLabel(point.week)}
              </Table.Th>
              <Table.Td>{point.patients}</Table.Td>
              <Table.Td>{format.number(point.mean)}</Table.Td>
              <Table.Td>
                {point.ciLow === null || point.ciHigh === null
                  ? '—'
                  : t('results.ciRange', { low: format.number(point.ciLow), high: format.number(point.ciHigh) })}
              </Table.Td>
              <Table.Td>{point.week === 0 ? '—' : format.number(point.meanImprovement)}</Table.Td>
              <Table.Td>
                {point.mcidReached === null
                  ? '—'
                  : t('results.mcidReached', { count: point.mcidReached, percent: format.percent(point.mcidPercent) })}
              </Table.Td>
              <Table.Td>
                <Button
                  size="compact-sm"
                  variant="light"
                  leftSection={<IconUsers size={14} aria-hidden />}
                  disabled={point.patients === 0}
                  onClick={() => drill(point)}
                  aria-label={t('results.patientsOf', { week: weekLabel(point.week), title })}
                >
                  {t('results.patientsButton')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </ReportTable>
      </Stack>
    </Paper>
  );
}
