import { Button, Group, Paper, Stack, Text, Timeline, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TimelineAppointment } from '@pathwell/contracts/patient-dashboard';
import { formatClinicDateTime } from '../../lib/dates';
import { AppointmentStatusBadge } from '../../components/appointment-status-badge';
import { VisitRecordModal } from '../interventions/visit-record-modal';

/** Past and upcoming visits, newest first, on the clinic's clock; each opens its visit record. */
export function AppointmentTimeline({
  appointments,
  total,
  timeZone,
  patientId,
}: {
  appointments: TimelineAppointment[];
  total: number;
  timeZone: string;
  patientId?: string;
}) {
  const { t } = useTranslation('patientDashboard');
  const titleId = useId();
  const [recordOf, setRecordOf] = useState<string | null>(null);
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
                    {patientId ? (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        onClick={() => setRecordOf(row.id)}
                        data-testid="open-visit-record"
                      >
                        {t('interventions:visit.open')}
                      </Button>
                    ) : null}
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
      {recordOf && patientId ? (
        <VisitRecordModal appointmentId={recordOf} patientId={patientId} onClose={() => setRecordOf(null)} />
      ) : null}
    </Paper>
  );
}
