import { Button, Center, Group, Loader, Modal, Pagination, Stack, Table, Text } from '@mantine/core';
import { IconCalendarPlus, IconDownload, IconRefresh } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { appointmentFilterDefaults, type Appointment, type AppointmentFilterInput } from '@pathwell/contracts/appointments';
import { PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import { useSession } from '../../app/session-context';
import { ErrorAlert } from '../../components/error-alert';
import { formatClinicDateTime } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { isLanguage } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { AppointmentFilters } from './appointment-filters';
import { AppointmentForm } from './appointment-form';
import { AppointmentStatusBadge } from './appointment-status-badge';
import { appointmentApi, appointmentQueries } from './appointments.api';

export const birthDateText = (isoDate: string) => `${isoDate.slice(5, 7)}/${isoDate.slice(8, 10)}/${isoDate.slice(0, 4)}`;

/** Extra per-row actions a page composes in from another feature (e.g. the visit's outcome forms). */
export type AppointmentRowAction = (appointment: Appointment) => ReactNode;

function AppointmentTable({
  rows,
  offsetHours,
  rowAction,
}: {
  rows: Appointment[];
  offsetHours: number;
  rowAction?: AppointmentRowAction;
}) {
  const { t } = useTranslation('appointments');
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label={t('table')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('columns.patient')}</Table.Th>
            <Table.Th>{t('columns.birthDate')}</Table.Th>
            <Table.Th>{t('columns.doctor')}</Table.Th>
            <Table.Th>{t('columns.type')}</Table.Th>
            <Table.Th>{t('columns.room')}</Table.Th>
            <Table.Th>{t('columns.start')}</Table.Th>
            <Table.Th>{t('columns.status')}</Table.Th>
            {rowAction ? <Table.Th>{t('columns.actions')}</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id} data-testid="appointment-row">
              <Table.Td>{row.patient.fullName}</Table.Td>
              <Table.Td>{birthDateText(row.patient.birthDate)}</Table.Td>
              <Table.Td>{row.doctor?.name}</Table.Td>
              <Table.Td>{row.appointmentType?.name}</Table.Td>
              <Table.Td>{row.room?.name}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <time dateTime={row.startsAt}>{formatClinicDateTime(row.startsAt, offsetHours)}</time>
              </Table.Td>
              <Table.Td>
                <AppointmentStatusBadge status={row.status} />
              </Table.Td>
              {rowAction ? <Table.Td>{rowAction(row)}</Table.Td> : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** /patients/appointments: the filtered, paged list with CSV export and a schedule-new dialog. */
export function AppointmentsView({ rowAction }: { rowAction?: AppointmentRowAction } = {}) {
  const { t, i18n } = useTranslation('appointments');
  const session = useSession();
  const offsetHours = session.instance.timeZoneOffsetHours;
  const [fields, setFields] = useState<AppointmentFilterInput>(() => {
    const { paginationFilter: _paging, ...rest } = appointmentFilterDefaults;
    return rest;
  });
  const [pageNumber, setPageNumber] = useState(0);
  const [scheduling, setScheduling] = useState(false);
  const filter = { ...fields, paginationFilter: { pageSize: PAGE_SIZE_DEFAULT, pageNumber } };
  const query = useQuery(appointmentQueries.page(filter));
  const exporting = useMutation({
    mutationFn: () => appointmentApi.exportCsv({ ...fields, language: isLanguage(i18n.language) ? i18n.language : 'en' }),
    onSuccess: () => notify('success', t('exported')),
    onError: (failure) => notify('error', errorText(failure)),
  });

  const results = (() => {
    if (query.isError) {
      return (
        <Stack gap="sm" align="flex-start">
          <ErrorAlert testId="appointments-error">{errorText(query.error)}</ErrorAlert>
          <Button variant="light" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void query.refetch()}>
            {t('retry')}
          </Button>
        </Stack>
      );
    }
    if (!query.data) {
      return (
        <Center py="xl">
          <Loader aria-label={t('common:loading')} />
        </Center>
      );
    }
    const { totalRecords, data } = query.data;
    const pages = Math.max(1, Math.ceil(totalRecords / PAGE_SIZE_DEFAULT));
    return (
      <Stack gap="sm">
        <Group justify="space-between">
          <Text size="sm" c="dimmed" aria-live="polite" data-testid="appointments-total">
            {t('total', { count: totalRecords })}
          </Text>
          <Button
            variant="light"
            leftSection={<IconDownload size={16} aria-hidden />}
            onClick={() => exporting.mutate()}
            loading={exporting.isPending}
            disabled={totalRecords === 0}
          >
            {t('export')}
          </Button>
        </Group>
        {data.length === 0 ? (
          <Text c="dimmed" py="lg" ta="center" data-testid="appointments-empty">
            {t('empty')}
          </Text>
        ) : (
          <AppointmentTable rows={data} offsetHours={offsetHours} rowAction={rowAction} />
        )}
        {pages > 1 ? (
          <Group justify="center">
            <Pagination
              total={pages}
              value={pageNumber + 1}
              onChange={(value) => setPageNumber(value - 1)}
              aria-label={t('pages')}
            />
          </Group>
        ) : null}
      </Stack>
    );
  })();

  return (
    <Stack gap="md">
      <Group justify="flex-end">
        <Button leftSection={<IconCalendarPlus size={16} aria-hidden />} onClick={() => setScheduling(true)}>
          {t('schedule.button')}
        </Button>
      </Group>
      <AppointmentFilters
        onApply={(next) => {
          setFields(next);
          setPageNumber(0);
        }}
      />
      {results}
      <Modal opened={scheduling} onClose={() => setScheduling(false)} title={t('schedule.title')} size="lg" fullScreen={false}>
        {scheduling ? <AppointmentForm onDone={() => setScheduling(false)} /> : null}
      </Modal>
    </Stack>
  );
}
