import { Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { PainTrendPoint } from '@pathwell/contracts/patient-dashboard';
import { formatClinicDate } from '../../lib/dates';

const WIDTH = 400;
const HEIGHT = 180;
const PAD = { top: 12, right: 12, bottom: 26, left: 30 };
const MAX_SCORE = 10;

/**
 * VAS 0–10 per completed visit as a small inline SVG line chart (no chart library in the bundle).
 * The picture is one labelled image; the numbers are also in a table that screen readers read.
 */
export function PainTrendChart({ points, offsetHours }: { points: PainTrendPoint[]; offsetHours: number }) {
  const { t } = useTranslation('patientDashboard');
  const titleId = useId();
  const innerWidth = WIDTH - PAD.left - PAD.right;
  const innerHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (index: number) => PAD.left + (points.length === 1 ? innerWidth / 2 : (index * innerWidth) / (points.length - 1));
  const y = (score: number) => PAD.top + innerHeight - (score / MAX_SCORE) * innerHeight;
  const dates = points.map((point) => formatClinicDate(point.startsAt, offsetHours));
  const path = points
    .map((point, index) => `${index === 0 ? 'M' : 'L'}${x(index).toFixed(1)},${y(point.painScore).toFixed(1)}`)
    .join(' ');

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
            <svg
              viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
              width="100%"
              role="img"
              aria-label={t('pain.chartLabel', { first: dates[0], last: dates.at(-1), latest: points.at(-1)!.painScore })}
              style={{ maxWidth: 560, display: 'block' }}
              data-testid="pain-trend-chart"
            >
              {[0, 5, 10].map((score) => (
                <g key={score} aria-hidden>
                  <line
                    x1={PAD.left}
                    x2={WIDTH - PAD.right}
                    y1={y(score)}
                    y2={y(score)}
                    stroke="var(--mantine-color-gray-3)"
                    strokeDasharray={score === 0 ? undefined : '3 3'}
                  />
                  <text x={PAD.left - 6} y={y(score) + 4} textAnchor="end" fontSize="12" fill="var(--mantine-color-dimmed)">
                    {score}
                  </text>
                </g>
              ))}
              <text x={PAD.left} y={HEIGHT - 6} fontSize="12" fill="var(--mantine-color-dimmed)" aria-hidden>
                {dates[0]}
              </text>
              {points.length > 1 ? (
                <text
                  x={WIDTH - PAD.right}
                  y={HEIGHT - 6}
                  fontSize="12"
                  textAnchor="end"
                  fill="var(--mantine-color-dimmed)"
                  aria-hidden
                >
                  {dates.at(-1)}
                </text>
              ) : null}
              <path d={path} fill="none" stroke="var(--mantine-color-teal-6)" strokeWidth="2" aria-hidden />
              {points.map((point, index) => (
                <circle
                  key={point.appointmentId}
                  cx={x(index)}
                  cy={y(point.painScore)}
                  r="3.5"
                  fill="var(--mantine-color-teal-6)"
                  aria-hidden
                >
                  <title>{`${dates[index]}: ${point.painScore}/10`}</title>
                </circle>
              ))}
            </svg>
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
