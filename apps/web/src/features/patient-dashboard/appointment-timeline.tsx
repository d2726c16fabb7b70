import { Group, Paper, Stack, Text, Timeline, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TimelineAppointment } from '@pathwell/contracts/patient-dashboard';
import { formatClinicDateTime } from '../../lib/dates';
import { AppointmentStatusBadge } from '../../components/appointment-status-badge';

/** Past and upcoming visits, newest first, on the clinic's clock. */
export function AppointmentTimeline({
  appointments,
  total,
  timeZone,
}: {
  appointments: TimelineAppointment[];
  total: number;
  timeZone: string;
}) {
  const { t } = useTranslation('patientDashboard');
  const titleId = useId();
  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby={titleId} data-testid="appointment-timeline">
      <Stack gap="md">
        <Title order={2} size="h4" id={titleId}>
          {t('timeline.title')}
        </Title>
        {appointments.length === 0 ? (
          <Text c="dimmed">{t('timeline.empty')}</Text>
        ) : (
          <Timeline bulletSize={14} lineWidth={2}>
            {appointments.map((row) => (
              <Timeline.Item
                key={row.id}
                data-testid="timeline-item"
                title={
                  <Group gap="xs" wrap="wrap">
                    <Text fw={600} size="sm">
                      {formatClinicDateTime(row.startsAt, timeZone)}
                    </Text>
                    <AppointmentStatusBadge status={row.status} />
                  </Group>
                }
              >
                <Text size="sm" c="dimmed">
                  {[
                    row.typeName,
                    row.reason ? t(`timeline.reasons.${row.reason}`) : null,
                    row.roomName ? `${t('timeline.room')}: ${row.roomName}` : null,
                    row.doctor?.name,
                    row.painScore === null ? null : t('timeline.pain', { score: row.painScore }),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
        )}
        {total > appointments.length ? (
          <Text size="xs" c="dimmed">
            {t('timeline.showingOf', { shown: appointments.length, total })}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
