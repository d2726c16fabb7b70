import { LineChart } from '@mantine/charts';
import { Button, Group, Loader, Modal, Paper, SegmentedControl, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconRefresh, IconSend } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import { painIntervals, type PainInterval, type PainSeries, type PainTimeline } from '@pathwell/contracts/pain-journal';
import { ErrorAlert } from '../../components/error-alert';
import { formatClinicDate } from '../../lib/dates';
import { painQueries } from './pain-journal.api';
import { SendPainJournal } from './send-pain-journal';

const MAX_SCORE = 10;

/** A clinic day (YYYY-MM-DD) as an instant at noon on the clinic's clock, so it lands on its own day. */
const clinicDayTime = (isoDate: string, timeZone: string, hour = 12) => {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  return instantOfClinicTime(year, month, day, timeZone, hour).getTime();
};

type Row = { key: string; time: number; kind: 'visit' | 'journal' | 'procedure'; score: number | null; detail: string };

/** Every point of the three kinds in time order, for the hidden table and the chart label. */
function rowsOf(timeline: PainTimeline, timeZone: string, kindName: (kind: string) => string): Row[] {
  const rows: Row[] = [
    ...timeline.visits.map((visit) => ({
      key: `v-${visit.appointmentId}`,
      time: Date.parse(visit.startsAt),
      kind: 'visit' as const,
      score: visit.score,
      detail: '',
    })),
    ...timeline.journal.map((entry) => ({
      key: `j-${entry.id}`,
      time: Date.parse(entry.recordedAt),
      kind: 'journal' as const,
      score: entry.score,
      detail: entry.note ?? '',
    })),
    ...timeline.procedures.map((procedure) => ({
      key: `p-${procedure.id}`,
      time: clinicDayTime(procedure.performedOn, timeZone),
      kind: 'procedure' as const,
      score: null,
      detail: procedure.itemName ?? kindName(procedure.kind),
    })),
  ];
  return rows.sort((a, b) => a.time - b.time);
}

/**
 * Pain on one time axis (decision 0042): visit scores as the main line, the patient's journal entries
 * as dots, the average per day, week or month (`painjournal?interval`) dashed, and each procedure as a
 * labelled vertical line, so a doctor sees whether the injection helped. The numbers are also in a
 * table that screen readers read.
 */
export function PainTrendChart({ patientId, timeZone }: { patientId: string; timeZone: string }) {
  const { t } = useTranslation('patientDashboard');
  const titleId = useId();
  const [interval, setPainInterval] = useState<PainInterval>('week');
  const [sending, setSending] = useState(false);
  const timeline = useQuery(painQueries.timeline(patientId));
  const series = useQuery(painQueries.series(patientId, interval));

  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby={titleId} data-testid="pain-trend">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <div>
            <Title order={2} size="h4" id={titleId}>
              {t('pain.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('pain.description')}
            </Text>
          </div>
          <Button size="xs" variant="light" leftSection={<IconSend size={16} aria-hidden />} onClick={() => setSending(true)}>
            {t('pain.send.button')}
          </Button>
        </Group>
        {timeline.isPending ? <Loader size="sm" aria-label={t('pain.loading')} /> : null}
        {timeline.isError ? (
          <Group gap="xs">
            <ErrorAlert testId="pain-trend-error">{t('pain.loadFailed')}</ErrorAlert>
            <Button
              variant="light"
              size="xs"
              leftSection={<IconRefresh size={16} aria-hidden />}
              onClick={() => void timeline.refetch()}
            >
              {t('pain.retry')}
            </Button>
          </Group>
        ) : null}
        {timeline.data ? (
          <PainChart
            timeline={timeline.data}
            series={series.data}
            interval={interval}
            onInterval={setPainInterval}
            timeZone={timeZone}
          />
        ) : null}
      </Stack>
      <Modal opened={sending} onClose={() => setSending(false)} title={t('pain.send.title')}>
        {sending ? <SendPainJournal patientId={patientId} onClose={() => setSending(false)} /> : null}
      </Modal>
    </Paper>
  );
}

function PainChart({
  timeline,
  series,
  interval,
  onInterval,
  timeZone,
}: {
  timeline: PainTimeline;
  series: PainSeries | undefined;
  interval: PainInterval;
  onInterval: (interval: PainInterval) => void;
  timeZone: string;
}) {
  const { t } = useTranslation('patientDashboard');
  const kindName = (kind: string) => t(`pain.kinds.${kind}`);
  const rows = useMemo(() => rowsOf(timeline, timeZone, (kind) => t(`pain.kinds.${kind}`)), [timeline, timeZone, t]);
  const scored = rows.filter((row) => row.score !== null);

  // One row per instant; each series reads only its own key, and lines join across the gaps.
  const data = useMemo(() => {
    const points: Record<string, number>[] = [
      ...timeline.visits.map((visit) => ({ time: Date.parse(visit.startsAt), visits: visit.score })),
      ...timeline.journal.map((entry) => ({ time: Date.parse(entry.recordedAt), journal: entry.score })),
      ...(series?.series ?? []).map((period) => ({
        time: clinicDayTime(period.periodStart, timeZone, 0),
        average: period.average,
      })),
    ];
    return points.sort((a, b) => a.time! - b.time!);
  }, [timeline, series, timeZone]);

  if (scored.length === 0 && timeline.procedures.length === 0) {
    return <Text c="dimmed">{t('pain.empty')}</Text>;
  }

  const first = formatClinicDate(rows[0]!.time, timeZone);
  const last = formatClinicDate(rows.at(-1)!.time, timeZone);
  const times = [...data.map((point) => point.time!), ...rows.map((row) => row.time)];
  const domain = [Math.min(...times), Math.max(...times)];
  const averageName = t('pain.series.average', { interval: t(`pain.interval.${interval}`) });

  return (
    <>
      <Group justify="flex-end">
        <SegmentedControl
          size="xs"
          aria-label={t('pain.interval.label')}
          value={interval}
          onChange={(value) => onInterval(value as PainInterval)}
          data={painIntervals.map((value) => ({ value, label: t(`pain.interval.${value}`) }))}
        />
      </Group>
      <div
        role="img"
        aria-label={t('pain.chartLabel', {
          first,
          last,
          visits: timeline.visits.length,
          journal: timeline.journal.length,
          procedures: timeline.procedures.length,
        })}
        data-testid="pain-trend-chart"
      >
        <LineChart
          h={260}
          data={data}
          dataKey="time"
          withLegend
          connectNulls
          curveType="linear"
          series={[
            { name: 'visits', label: t('pain.series.visits'), color: 'blue.7' },
            { name: 'journal', label: t('pain.series.journal'), color: 'teal.6' },
            { name: 'average', label: averageName, color: 'gray.6', strokeDasharray: '5 5' },
          ]}
          // Journal entries are dots only; the average is a thin dashed line without dots.
          lineProps={(line) =>
            line.name === 'journal'
              ? { strokeWidth: 0, dot: { r: 4 } }
              : line.name === 'average'
                ? { dot: false, strokeWidth: 1.5 }
                : {}
          }
          xAxisProps={{
            type: 'number',
            scale: 'time',
            domain,
            tickFormatter: (value: number) => formatClinicDate(value, timeZone),
          }}
          yAxisProps={{ domain: [0, MAX_SCORE], ticks: [0, 5, 10], allowDecimals: false }}
          tooltipProps={{
            labelFormatter: (value) => formatClinicDate(Number(value), timeZone),
          }}
          referenceLines={timeline.procedures.map((procedure) => {
            const x = clinicDayTime(procedure.performedOn, timeZone);
            // The label reads away from the nearer edge, so a procedure of the last days is not cut off.
            const nearRight = x > (domain[0]! + domain[1]!) / 2;
            return {
              x,
              label: procedure.itemName ?? kindName(procedure.kind),
              color: 'red.6',
              labelPosition: nearRight ? 'insideTopRight' : 'insideTopLeft',
            };
          })}
        />
      </div>
      <VisuallyHidden>
        <Table data-testid="pain-trend-table">
          <caption>{t('pain.tableCaption')}</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('pain.date')}</Table.Th>
              <Table.Th scope="col">{t('pain.kind')}</Table.Th>
              <Table.Th scope="col">{t('pain.score')}</Table.Th>
              <Table.Th scope="col">{t('pain.detail')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.key}>
                <Table.Td>{formatClinicDate(row.time, timeZone)}</Table.Td>
                <Table.Td>{t(`pain.kinds.${row.kind}`)}</Table.Td>
                <Table.Td>{row.score ?? ''}</Table.Td>
                <Table.Td>{row.detail}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {series ? (
          <Table data-testid="pain-series-table">
            <caption>{averageName}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('pain.periodStart')}</Table.Th>
                <Table.Th scope="col">{t('pain.average')}</Table.Th>
                <Table.Th scope="col">{t('pain.range')}</Table.Th>
                <Table.Th scope="col">{t('pain.count')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {series.series.map((period) => (
                <Table.Tr key={period.periodStart}>
                  <Table.Td>{formatClinicDate(clinicDayTime(period.periodStart, timeZone), timeZone)}</Table.Td>
                  <Table.Td>{period.average}</Table.Td>
                  <Table.Td>{`${period.min}–${period.max}`}</Table.Td>
                  <Table.Td>{period.count}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
      </VisuallyHidden>
    </>
  );
}
