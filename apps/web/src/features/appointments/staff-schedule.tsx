import { Box, Button, Group, Menu, Paper, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Appointment, AppointmentStatusCode, DaySchedule } from '@pathwell/contracts/appointments';
import { isValidMdyDate } from '@pathwell/contracts/validation';
import { useSession } from '../../app/session-context';
import { EmptyText, QueryState } from '../../components/data-table';
import { clinicToday, formatClinicTime } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { AppointmentStatusBadge } from '../../components/appointment-status-badge';
import { appointmentApi, appointmentKeys, appointmentQueries } from './appointments.api';

type Action = 'checkIn' | 'delay' | 'cancelCheckIn' | 'complete' | 'noShow';
type Step = { action: Action; appointment: Appointment; minutes?: number };

/** What the row shows the moment a person clicks, before the server answers (rolled back on error). */
const optimisticStatus: Record<Action, AppointmentStatusCode | null> = {
  checkIn: 1,
  delay: null,
  cancelCheckIn: 2,
  complete: 3,
  noShow: 4,
};
const doneText: Record<Action, string> = {
  checkIn: 'staff.checkedIn',
  delay: 'staff.delayed',
  cancelCheckIn: 'staff.cancelled',
  complete: 'staff.completed',
  noShow: 'staff.markedNoShow',
};
const DELAY_CHOICES = [5, 10, 15, 30] as const;

function run({ action, appointment, minutes }: Step): Promise<Appointment> {
  switch (action) {
    case 'checkIn':
      return appointmentApi.checkIn(appointment.id);
    case 'delay':
      return appointmentApi.delayCheckIn(appointment.id, minutes ?? DELAY_CHOICES[0]);
    case 'cancelCheckIn':
      return appointmentApi.cancelCheckIn(appointment.id);
    case 'complete':
      return appointmentApi.setStatus(appointment.id, 3);
    case 'noShow':
      return appointmentApi.setStatus(appointment.id, 4);
  }
}

function RowActions({ appointment, onStep, busy }: { appointment: Appointment; onStep: (step: Step) => void; busy: boolean }) {
  const { t } = useTranslation('appointments');
  const name = appointment.patient.fullName;
  const step = (action: Action, minutes?: number) => onStep({ action, appointment, minutes });
  // The buttons follow the status rules of decision 0013, so a person is never offered a refused move.
  if (appointment.status === 2) {
    const started = Date.parse(appointment.startsAt) <= Date.now();
    return (
      <Group gap={6} wrap="wrap" role="group" aria-label={t('staff.actionsFor', { name })}>
        <Button size="xs" onClick={() => step('checkIn')} disabled={busy}>
          {t('staff.checkIn')}
        </Button>
        <Menu position="bottom-end" withinPortal={false}>
          <Menu.Target>
            <Button size="xs" variant="light" rightSection={<IconChevronDown size={14} aria-hidden />} disabled={busy}>
              {t('staff.delay')}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {DELAY_CHOICES.map((minutes) => (
              <Menu.Item key={minutes} onClick={() => step('delay', minutes)}>
                {t('staff.delayBy', { minutes })}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
        {started ? (
          <Button size="xs" variant="subtle" color="gray" onClick={() => step('noShow')} disabled={busy}>
            {t('staff.noShow')}
          </Button>
        ) : null}
      </Group>
    );
  }
  if (appointment.status === 1) {
    return (
      <Group gap={6} wrap="wrap" role="group" aria-label={t('staff.actionsFor', { name })}>
        <Button size="xs" color="green" onClick={() => step('complete')} disabled={busy}>
          {t('staff.complete')}
        </Button>
        <Button size="xs" variant="light" color="orange" onClick={() => step('cancelCheckIn')} disabled={busy}>
          {t('staff.cancelCheckIn')}
        </Button>
      </Group>
    );
  }
  return null;
}

function groupRows(rows: Appointment[], by: 'provider' | 'room', none: string) {
  const groups = new Map<string, { title: string; rows: Appointment[] }>();
  for (const row of rows) {
    const owner = by === 'provider' ? row.doctor : row.room;
    const key = owner?.id ?? '';
    const group = groups.get(key) ?? { title: owner?.name ?? none, rows: [] };
    group.rows.push(row);
    groups.set(key, group);
  }
  return [...groups.entries()].sort(([, a], [, b]) => a.title.localeCompare(b.title));
}

/** /patients/staffappointments: one clinic day by provider or by room, with check-in steps per row. */
export function StaffSchedule({ rowAction }: { rowAction?: (appointment: Appointment) => ReactNode } = {}) {
  const { t } = useTranslation('appointments');
  const session = useSession();
  const timeZone = session.instance.timeZoneId;
  const queryClient = useQueryClient();
  const [dayInput, setDayInput] = useState(() => clinicToday(timeZone));
  const [by, setBy] = useState<'provider' | 'room'>('provider');
  const day = isValidMdyDate(dayInput.trim()) ? dayInput.trim() : clinicToday(timeZone);
  const options = appointmentQueries.day(day);
  const query = useQuery(options);

  const replaceRow = (id: string, change: (row: Appointment) => Appointment) =>
    queryClient.setQueryData<DaySchedule>(options.queryKey, (current) =>
      current ? { ...current, data: current.data.map((row) => (row.id === id ? change(row) : row)) } : current,
    );

  const stepping = useMutation({
    mutationFn: run,
    onMutate: async ({ action, appointment }) => {
      await queryClient.cancelQueries({ queryKey: options.queryKey });
      const previous = queryClient.getQueryData<DaySchedule>(options.queryKey);
      const status = optimisticStatus[action];
      if (status !== null) replaceRow(appointment.id, (row) => ({ ...row, status }));
      return { previous };
    },
    onError: (failure, _step, context) => {
      if (context?.previous) queryClient.setQueryData(options.queryKey, context.previous);
      notify('error', errorText(failure));
      // Someone else may have moved the appointment meanwhile: read the day again.
      void queryClient.invalidateQueries({ queryKey: options.queryKey });
    },
    onSuccess: (saved, { action, appointment }) => {
      replaceRow(saved.id, () => saved);
      notify('success', t(doneText[action], { name: appointment.patient.fullName }));
    },
    // The day already holds the server's answer; the paged lists are stale.
    onSettled: () => queryClient.invalidateQueries({ queryKey: appointmentKeys.pages }),
  });

  const body = (
    <QueryState query={query} errorTestId="schedule-load-error" retryLabel={t('retry')} retryIcon>
      {({ data }) => {
        if (data.length === 0) {
          return <EmptyText testId="schedule-empty">{t('staff.empty')}</EmptyText>;
        }
        return groupRows(data, by, by === 'provider' ? t('staff.noDoctor') : t('staff.noRoom')).map(([key, group]) => (
          <Paper key={key || 'none'} withBorder radius="lg" p="sm" component="section" aria-label={group.title}>
            <Title order={2} size="h4" mb="xs">
              {group.title}
            </Title>
            <Table.ScrollContainer minWidth={340}>
              <Table verticalSpacing="xs" horizontalSpacing="xs" highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('staff.time')}</Table.Th>
                    <Table.Th>{`${t('columns.patient')} · ${t('columns.status')}`}</Table.Th>
                    <Table.Th visibleFrom="sm">{by === 'provider' ? t('columns.room') : t('columns.doctor')}</Table.Th>
                    <Table.Th>{t('columns.actions')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {group.rows.map((row) => (
                    <Table.Tr key={row.id} data-testid="schedule-row">
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <time dateTime={row.startsAt}>{formatClinicTime(row.startsAt, timeZone)}</time>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {row.patient.fullName}
                        </Text>
                        {/* The status sits under the name so that on a phone the actions keep their room. */}
                        <Box mt={4}>
                          <AppointmentStatusBadge status={row.status} compact />
                        </Box>
                        {row.checkInDelayedUntil && row.status === 2 ? (
                          <Text size="xs" c="dimmed">
                            {t('staff.delayedUntil', { time: formatClinicTime(row.checkInDelayedUntil, timeZone) })}
                          </Text>
                        ) : null}
                      </Table.Td>
                      <Table.Td visibleFrom="sm">{by === 'provider' ? row.room?.name : row.doctor?.name}</Table.Td>
                      <Table.Td>
                        <RowActions
                          appointment={row}
                          busy={stepping.isPending && stepping.variables.appointment.id === row.id}
                          onStep={(step) => stepping.mutate(step)}
                        />
                        {rowAction?.(row)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        ));
      }}
    </QueryState>
  );

  return (
    <Stack gap="md">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label={t('staff.day')}
          placeholder={t('filters.datePlaceholder')}
          inputMode="numeric"
          maxLength={10}
          value={dayInput}
          onChange={(event) => setDayInput(event.currentTarget.value)}
          w={150}
        />
        <Button variant="subtle" onClick={() => setDayInput(clinicToday(timeZone))}>
          {t('staff.today')}
        </Button>
        <SegmentedControl
          aria-label={t('staff.view')}
          value={by}
          onChange={(value) => setBy(value === 'room' ? 'room' : 'provider')}
          data={[
            { value: 'provider', label: t('staff.byProvider') },
            { value: 'room', label: t('staff.byRoom') },
          ]}
        />
      </Group>
      {body}
    </Stack>
  );
}
