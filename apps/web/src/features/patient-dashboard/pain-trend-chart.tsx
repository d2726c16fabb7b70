import { Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { PainTrendPoint } from '@pathwell/contracts/patient-dashboard';
import { TrendChart } from '../../components/trend-chart';
import { formatClinicDate } from '../../lib/dates';

const MAX_SCORE = 10;

/**
 * VAS 0–10 per completed visit as a small line chart; the numbers are also in a table that screen
 * readers read.
 */
export function PainTrendChart({ points, timeZone }: { points: PainTrendPoint[]; timeZone: string }) {
  const { t } = useTranslation('patientDashboard');
  const titleId = useId();
  const dates = points.map((point) => formatClinicDate(point.startsAt, timeZone));

  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby={titleId} data-testid="pain-trend">
      <Stack gap="xs">
        <div>
          <Title order={2} size="h4" id={titleId}>
            {t('pain.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('pain.description')}
          </Text>
        </div>
        {points.length === 0 ? (
          <Text c="dimmed">{t('pain.empty')}</Text>
        ) : (
          <>
            <TrendChart
              points={points.map((point, index) => ({
                key: point.appointmentId,
                value: point.painScore,
                dateText: dates[index]!,
              }))}
              min={0}
              max={MAX_SCORE}
              ticks={[0, 5, 10]}
              label={t('pain.chartLabel', { first: dates[0], last: dates.at(-1), latest: points.at(-1)!.painScore })}
              valueText={(score) => `${score}/${MAX_SCORE}`}
              testId="pain-trend-chart"
            />
            <VisuallyHidden>
              <Table data-testid="pain-trend-table">
                <caption>{t('pain.tableCaption')}</caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('pain.date')}</Table.Th>
                    <Table.Th scope="col">{t('pain.score')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {points.map((point, index) => (
                    <Table.Tr key={point.appointmentId}>
                      <Table.Td>{dates[index]}</Table.Td>
                      <Table.Td>{point.painScore}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </VisuallyHidden>
          </>
        )}
      </Stack>
    </Paper>
  );
}
