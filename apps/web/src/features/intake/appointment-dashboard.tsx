import { ActionIcon, Anchor, Badge, Box, Button, Card, Group, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import {
  IconChevronLeft,
  IconChevronRight,
  IconCircle,
  IconCircleCheckFilled,
  IconClock,
  IconUserCheck,
} from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { appointmentStatusCodes, type AppointmentStatusCode } from '@pathwell/contracts/appointments';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import type { AppointmentDashboard } from '@pathwell/contracts/intake';
import { isValidMdyDate } from '@pathwell/contracts/validation';
import { useSession } from '../../app/session-context';
import { useStaffEvent } from '../../app/staff-events';
import { AppointmentStatusBadge } from '../../components/appointment-status-badge';
import { DataTable, QueryState } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { ApiError } from '../../lib/api-client';
import { clinicToday } from '../../lib/dates';
import { translateValidation } from '../../lib/i18n';
import { getDoctorId } from '../../lib/session-storage';
import { appointmentQueries } from '../appointments/appointments.api';
import { CriticalFindingBadge } from '../critical-findings/critical-findings';
import { SelfCheckInQrButton } from './self-check-in-qr';
import {
  appointmentDashboardKeys,
  appointmentDashboardQueries,
  type AppointmentDashboardFilter,
} from './appointment-dashboard.api';

type Row = AppointmentDashboard['rows'][number];
type Intake = NonNullable<Row['intake']>;

const DAY_MS = 86_400_000;
const upcoming: number = AppointmentStatus.Upcoming;

/** The MM/DD/YYYY `days` calendar days after a valid MM/DD/YYYY (negative: before). */
export function shiftMdy(mdy: string, days: number): string {
  const [month, day, year] = mdy.split('/').map(Number) as [number, number, number];
  const shifted = new Date(Date.UTC(year, month - 1, day) + days * DAY_MS);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(shifted.getUTCMonth() + 1)}/${pad(shifted.getUTCDate())}/${shifted.getUTCFullYear()}`;
}

const isStatusCode = (status: number): status is AppointmentStatusCode =>
  (appointmentStatusCodes as readonly number[]).includes(status);

const intakeComplete = (intake: Row['intake']) =>
  intake !== null && (intake.linkStatus === 'completed' || (intake.steps.length > 0 && intake.steps.every((step) => step.done)));

const linkStatusColor: Record<Exclude<Intake['linkStatus'], 'active'>, string> = {
  completed: 'green',
  expired: 'gray',
  revoked: 'gray',
  locked: 'red',
};

/** One small icon per planned intake step (green check done, grey circle to do), each named for screen readers. */
function IntakeProgress({ row }: { row: Row }) {
  const { t } = useTranslation('apptDashboard');
  const { intake } = row;
  if (!intake) {
    return (
      <Text size="xs" c="dimmed" data-testid="intake-none">
        {t('noIntake')}
      </Text>
    );
  }
  const steps = [...intake.steps].sort((a, b) => a.step - b.step);
  const done = steps.filter((step) => step.done).length;
  const badge =
    intake.linkStatus === 'active' ? null : (
      <Badge
        size="xs"
        variant="light"
        color={linkStatusColor[intake.linkStatus]}
        styles={{ root: { flexShrink: 0, maxWidth: 'none' }, label: { overflow: 'visible' } }}
        data-testid="intake-link-status"
      >
        {t(`linkStatus.${intake.linkStatus}`)}
      </Badge>
    );
  return (
    <Stack gap={4} align="flex-start">
      {steps.length === 0 ? (
        <Text size="xs" c="dimmed">
          {t('noSteps')}
        </Text>
      ) : (
        <Group
          component="ul"
          gap={2}
          wrap="nowrap"
          aria-label={t('stepsLabel', { name: row.patientName, done, total: steps.length })}
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
          data-testid="intake-steps"
        >
          {steps.map(({ step, done: stepDone }) => {
            const label = t(stepDone ? 'stepState.done' : 'stepState.todo', { step: t(`steps.${step}`) });
            return (
              <li key={step} style={{ display: 'flex' }}>
                <Tooltip label={label} withArrow openDelay={150}>
                  <span
                    role="img"
                    aria-label={label}
                    data-testid="intake-step"
                    data-step={step}
                    data-done={stepDone}
                    style={{ display: 'inline-flex' }}
                  >
                    {stepDone ? (
                      <IconCircleCheckFilled size={18} color="var(--mantine-color-green-6)" aria-hidden />
                    ) : (
                      <IconCircle size={18} color="var(--mantine-color-gray-5)" aria-hidden />
                    )}
                  </span>
                </Tooltip>
              </li>
            );
          })}
        </Group>
      )}
      {badge}
    </Stack>
  );
}

function CheckedIn({ checkedIn }: { checkedIn: boolean }) {
  const { t } = useTranslation('apptDashboard');
  return (
    <Group gap={4} wrap="nowrap" data-testid="checked-in" data-checked-in={checkedIn}>
      {checkedIn ? (
        <IconUserCheck size={16} color="var(--mantine-color-green-7)" aria-hidden />
      ) : (
        <IconClock size={16} color="var(--mantine-color-gray-6)" aria-hidden />
      )}
      <Text size="sm" c={checkedIn ? undefined : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
        {checkedIn ? t('checkedIn.yes') : t('checkedIn.no')}
      </Text>
    </Group>
  );
}

/**
 * /patients/appointmentdashboard: one clinic day's appointments with each patient's intake progress,
 * kept live by the staff event stream (an intake completing raises a notification) and a 30-second refresh.
 */
export function AppointmentDashboardView() {
  const { t } = useTranslation('apptDashboard');
  const session = useSession();
  const timeZone = session.instance.timeZoneId;
  const queryClient = useQueryClient();
  const [dayInput, setDayInput] = useState(() => clinicToday(timeZone));
  const [date, setDate] = useState(() => clinicToday(timeZone));
  const [dayTouched, setDayTouched] = useState(false);
  // The top-bar doctor selector (section 4) is the natural first provider; a change there reloads the page.
  const [doctorId, setDoctorFilter] = useState<string | null>(getDoctorId);
  const [roomId, setRoomId] = useState<string | null>(null);
  const doctors = useQuery(appointmentQueries.doctors());
  const rooms = useQuery(appointmentQueries.rooms());
  const filter: AppointmentDashboardFilter = {
    date,
    ...(doctorId ? { doctorId } : {}),
    ...(roomId ? { roomId } : {}),
  };
  const query = useQuery(appointmentDashboardQueries.day(filter));
  useStaffEvent('notification', () => void queryClient.invalidateQueries({ queryKey: appointmentDashboardKeys.all }));

  const chooseDay = (next: string) => {
    setDayInput(next);
    setDate(next);
    setDayTouched(false);
  };
  const typedDay = dayInput.trim();
  const typedValid = isValidMdyDate(typedDay);
  const serverDateError = query.error instanceof ApiError ? query.error.fields.date : undefined;
  const dayError =
    !typedValid && (dayTouched || typedDay.length >= 10)
      ? translateValidation('dateInvalid')
      : translateValidation(serverDateError);
  const today = clinicToday(timeZone);

  return (
    <Stack gap="lg">
      <PageHeader title={t('title')} description={t('description')} />
      <Card withBorder radius="lg" padding="md" component="section" aria-label={t('filters.label')}>
        <Group align="flex-start" wrap="wrap" gap="sm">
          <TextInput
            label={t('filters.day')}
            placeholder={t('filters.datePlaceholder')}
            inputMode="numeric"
            maxLength={10}
            value={dayInput}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setDayInput(value);
              if (isValidMdyDate(value.trim())) setDate(value.trim());
            }}
            onBlur={() => setDayTouched(true)}
            error={dayError}
            w={140}
            data-testid="appt-dashboard-day"
          />
          {/* Level with the inputs under their labels, whether or not the day shows an error. */}
          <Group gap={4} wrap="nowrap" style={{ marginTop: 'calc(var(--mantine-font-size-sm) * var(--mantine-line-height))' }}>
            <Tooltip label={t('filters.previousDay')}>
              <ActionIcon
                variant="default"
                size="input-sm"
                aria-label={t('filters.previousDay')}
                onClick={() => chooseDay(shiftMdy(date, -1))}
                data-testid="appt-dashboard-previous-day"
              >
                <IconChevronLeft size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Button variant="default" onClick={() => chooseDay(today)} disabled={date === today && typedDay === today}>
              {t('filters.today')}
            </Button>
            <Tooltip label={t('filters.nextDay')}>
              <ActionIcon
                variant="default"
                size="input-sm"
                aria-label={t('filters.nextDay')}
                onClick={() => chooseDay(shiftMdy(date, 1))}
                data-testid="appt-dashboard-next-day"
              >
                <IconChevronRight size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
          <Select
            label={t('filters.provider')}
            placeholder={t('filters.anyProvider')}
            data={doctors.data ?? []}
            value={doctorId}
            onChange={setDoctorFilter}
            searchable
            clearable
            nothingFoundMessage={t('filters.noMatch')}
            w={220}
            data-testid="appt-dashboard-provider"
          />
          <Select
            label={t('filters.room')}
            placeholder={t('filters.anyRoom')}
            data={rooms.data ?? []}
            value={roomId}
            onChange={setRoomId}
            searchable
            clearable
            nothingFoundMessage={t('filters.noMatch')}
            w={180}
            data-testid="appt-dashboard-room"
          />
        </Group>
      </Card>
      <QueryState
        query={query}
        errorTestId="appt-dashboard-error"
        errorPrefix={t('loadFailed')}
        retryLabel={t('retry')}
        retryIcon
        keepDataOnError
      >
        {(data) => {
          const checkedIn = data.rows.filter((row) => row.checkedIn).length;
          const complete = data.rows.filter((row) => intakeComplete(row.intake)).length;
          return (
            <Stack gap="sm">
              <Text size="sm" c="dimmed" aria-live="polite" data-testid="appt-dashboard-summary">
                {[
                  data.date,
                  [
                    t('summary.appointments', { count: data.rows.length }),
                    t('summary.checkedIn', { count: checkedIn }),
                    t('summary.intakesComplete', { count: complete }),
                  ].join(' · '),
                ].join(': ')}
              </Text>
              {query.isError ? (
                <Text size="sm" c="orange.8" role="status" data-testid="appt-dashboard-refresh-failed">
                  {t('refreshFailed')}
                </Text>
              ) : null}
              <Box
                aria-busy={query.isPlaceholderData}
                style={{ opacity: query.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}
              >
                <DataTable
                  rows={data.rows}
                  rowKey={(row) => row.appointmentId}
                  rowTestId="appt-dashboard-row"
                  minWidth={760}
                  verticalSpacing="xs"
                  ariaLabel={t('table', { date: data.date })}
                  emptyText={t('empty')}
                  emptyTestId="appt-dashboard-empty"
                  columns={[
                    {
                      key: 'time',
                      header: t('columns.time'),
                      cell: (row) => <time dateTime={row.startsAt}>{row.timeText}</time>,
                      tdProps: { style: { whiteSpace: 'nowrap' } },
                    },
                    {
                      key: 'patient',
                      header: t('columns.patient'),
                      cell: (row) => (
                        <Stack gap={4} align="flex-start">
                          <Anchor component={Link} to={`/patients/patientdashboard/${row.patientId}`} size="sm" fw={500}>
                            {row.patientName}
                          </Anchor>
                          <CriticalFindingBadge findings={row.criticalFindings} linked />
                        </Stack>
                      ),
                    },
                    { key: 'provider', header: t('columns.provider'), cell: (row) => row.doctorName ?? t('none') },
                    { key: 'room', header: t('columns.room'), cell: (row) => row.roomName ?? t('none') },
                    {
                      key: 'status',
                      header: t('columns.status'),
                      cell: (row) =>
                        isStatusCode(row.status) ? <AppointmentStatusBadge status={row.status} compact /> : t('none'),
                    },
                    { key: 'checkedIn', header: t('columns.checkedIn'), cell: (row) => <CheckedIn checkedIn={row.checkedIn} /> },
                    { key: 'intake', header: t('columns.intake'), cell: (row) => <IntakeProgress row={row} /> },
                    ...(data.selfCheckIn
                      ? [
                          {
                            key: 'selfCheckIn',
                            header: t('columns.selfCheckIn'),
                            cell: (row: Row) =>
                              row.checkedIn || row.status !== upcoming ? null : (
                                <SelfCheckInQrButton
                                  patientId={row.patientId}
                                  appointmentId={row.appointmentId}
                                  patientName={row.patientName}
                                  timeText={row.timeText}
                                />
                              ),
                          },
                        ]
                      : []),
                  ]}
                />
              </Box>
            </Stack>
          );
        }}
      </QueryState>
    </Stack>
  );
}
