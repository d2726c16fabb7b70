import { Anchor, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCalendarEvent, IconDoorEnter, IconUserCheck, IconUserOff, type Icon } from '@tabler/icons-react';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ClinicDashboard, DashboardAppointment } from '@pathwell/contracts/patient-dashboard';
import { formatClinicRelative, formatClinicTime } from '../../lib/dates';
import { AppointmentStatusBadge } from '../../components/appointment-status-badge';

type CountKey = 'activePatients' | 'appointmentsToday' | 'checkedInNow' | 'noShowsThisWeek';

const cards: { key: CountKey; icon: Icon; color: string }[] = [
  { key: 'activePatients', icon: IconUserCheck, color: 'grape' },
  { key: 'appointmentsToday', icon: IconCalendarEvent, color: 'blue' },
  { key: 'checkedInNow', icon: IconDoorEnter, color: 'orange' },
  { key: 'noShowsThisWeek', icon: IconUserOff, color: 'gray' },
];

function ClinicCounts({ counts }: { counts: ClinicDashboard['counts'] }) {
  const { t, i18n } = useTranslation('patientDashboard');
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
      {cards.map(({ key, icon: CardIcon, color }) => (
        <Paper
          key={key}
          withBorder
          radius="lg"
          p="md"
          component="section"
          aria-label={t(`clinic.counts.${key}`)}
          data-testid={`count-${key}`}
        >
          <ThemeIcon variant="light" color={color} size="md" radius="md" mb={6} aria-hidden>
            <CardIcon size={16} />
          </ThemeIcon>
          <Text size="xs" c="dimmed">
            {t(`clinic.counts.${key}`)}
          </Text>
          <Text fw={700} fz={26} lh={1.2}>
            {counts[key].toLocaleString(i18n.language)}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** A calendar date (YYYY-MM-DD, no time zone) as MM/DD/YYYY. */
const isoToMdy = (date: string) => {
  const [year, month, day] = date.split('-');
  return `${month}/${day}/${year}`;
};

/** `when` decides the time shown: the start time today, the date ahead, the check-in or completion moment. */
type When = 'time' | 'dateTime' | 'checkedIn' | 'completed';

function AppointmentRow({ row, when, timeZone }: { row: DashboardAppointment; when: When; timeZone: string }) {
  const { t } = useTranslation('patientDashboard');
  const moment =
    when === 'time'
      ? formatClinicTime(row.startsAt, timeZone)
      : when === 'checkedIn'
        ? t('clinic.checkedInAt', { time: formatClinicRelative(row.checkedInAt ?? row.startsAt, timeZone) })
        : formatClinicRelative(when === 'completed' ? (row.completedAt ?? row.startsAt) : row.startsAt, timeZone);
  return (
    <Group component="li" justify="space-between" wrap="nowrap" gap="sm" py={6} data-testid="dashboard-appointment">
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Anchor component={Link} to={`/patients/patientdashboard/${row.patient.id}`} fw={600} size="sm">
          {row.patient.name}
        </Anchor>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {[t('clinic.bornOn', { date: isoToMdy(row.patient.dateOfBirth) }), row.typeName, row.roomName, row.doctor?.name]
            .filter(Boolean)
            .join(' · ')}
        </Text>
      </Stack>
      <Stack gap={2} align="flex-end" style={{ flexShrink: 0 }}>
        <Text size="xs" fw={500}>
          {moment}
        </Text>
        <AppointmentStatusBadge status={row.status} />
      </Stack>
    </Group>
  );
}

function AppointmentListCard({
  title,
  empty,
  rows,
  when,
  timeZone,
  extra,
  testId,
}: {
  title: string;
  empty: string;
  rows: DashboardAppointment[];
  when: When;
  timeZone: string;
  extra?: ReactNode;
  testId: string;
}) {
  const titleId = useId();
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby={titleId} data-testid={testId}>
      <Group justify="space-between" align="baseline" mb="xs" gap="xs">
        <Title order={2} size="h5" id={titleId}>
          {title}
        </Title>
        {extra}
      </Group>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Stack gap={0} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {rows.map((row) => (
            <AppointmentRow key={row.id} row={row} when={when} timeZone={timeZone} />
          ))}
        </Stack>
      )}
    </Paper>
  );
}

/** The clinic's day: counts, today's list, who is checking in, the week ahead and the latest completions. */
export function ClinicDay({ dashboard, timeZone }: { dashboard: ClinicDashboard; timeZone: string }) {
  const { t } = useTranslation('patientDashboard');
  return (
    <Stack gap="md">
      <ClinicCounts counts={dashboard.counts} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <AppointmentListCard
          title={t('clinic.today')}
          empty={t('clinic.todayEmpty')}
          rows={dashboard.today}
          when="time"
          timeZone={timeZone}
          testId="dashboard-today"
        />
        <Stack gap="md">
          <AppointmentListCard
            title={t('clinic.checkingIn')}
            empty={t('clinic.checkingInEmpty')}
            rows={dashboard.checkingIn}
            when="checkedIn"
            timeZone={timeZone}
            testId="dashboard-checking-in"
          />
          <AppointmentListCard
            title={t('clinic.upcoming')}
            empty={t('clinic.upcomingEmpty')}
            rows={dashboard.upcoming}
            when="dateTime"
            timeZone={timeZone}
            extra={
              <Text size="xs" c="dimmed">
                {t('clinic.upcomingCount', { count: dashboard.counts.upcoming })}
              </Text>
            }
            testId="dashboard-upcoming"
          />
        </Stack>
      </SimpleGrid>
      <AppointmentListCard
        title={t('clinic.recent')}
        empty={t('clinic.recentEmpty')}
        rows={dashboard.recentCompletions}
        when="completed"
        timeZone={timeZone}
        testId="dashboard-recent"
      />
    </Stack>
  );
}
