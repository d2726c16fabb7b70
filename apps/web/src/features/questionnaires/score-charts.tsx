import { SimpleGrid, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TrendChart } from '../../components/trend-chart';
import { formatClinicDate } from '../../lib/dates';
import { formatScore, outcomeFormName } from './questionnaire-text';
import type { FormScoreSeries } from '@pathwell/contracts/form-responses';

function seriesTitle(series: Pick<FormScoreSeries, 'formCode' | 'title'>, language: string): string {
  return series.formCode === null ? series.title : outcomeFormName(series.formCode, language);
}

function ticksFor(min: number, max: number): number[] {
  const middle = Math.round((min + max) / 2);
  return middle === min || middle === max ? [min, max] : [min, middle, max];
}

/** One small line chart per form: the headline score of each response, oldest first. */
function SeriesChart({ series, timeZone }: { series: FormScoreSeries; timeZone: string }) {
  const { t, i18n } = useTranslation('questionnaires');
  const title = seriesTitle(series, i18n.language);
  const values = series.points.map((point) => point.score);
  const min = Math.floor(Math.min(0, ...values));
  const max = Math.ceil(series.maximum ?? Math.max(1, ...values));
  const dates = series.points.map((point) => formatClinicDate(point.submittedAt, timeZone));
  const latest = series.points.at(-1)!;
  return (
    <Stack gap={4} data-testid="score-series">
      <Text fw={600} size="sm">
        {title}
      </Text>
      {series.higherIsBetter === null ? null : (
        <Text size="xs" c="dimmed">
          {series.higherIsBetter ? t('panel.higherIsBetter') : t('panel.lowerIsBetter')}
        </Text>
      )}
      <TrendChart
        points={series.points.map((point, index) => ({ key: point.responseId, value: point.score, dateText: dates[index]! }))}
        min={min}
        max={max}
        ticks={ticksFor(min, max)}
        height={150}
        label={t('panel.chartLabel', { form: title, first: dates[0], last: dates.at(-1), latest: formatScore(latest.score) })}
        valueText={(value) => (series.maximum === null ? formatScore(value) : `${formatScore(value)}/${series.maximum}`)}
      />
      <VisuallyHidden>
        <Table>
          <caption>{t('panel.tableCaption', { form: title })}</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('panel.date')}</Table.Th>
              <Table.Th scope="col">{t('panel.score')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {series.points.map((point, index) => (
              <Table.Tr key={point.responseId}>
                <Table.Td>{dates[index]}</Table.Td>
                <Table.Td>{formatScore(point.score)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </VisuallyHidden>
    </Stack>
  );
}

export function ScoreCharts({ series, timeZone }: { series: FormScoreSeries[]; timeZone: string }) {
  const drawn = series.filter((item) => item.points.length > 0);
  if (drawn.length === 0) return null;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
      {drawn.map((item) => (
        <SeriesChart key={item.formCode ?? item.customFormId ?? item.title} series={item} timeZone={timeZone} />
      ))}
    </SimpleGrid>
  );
}
