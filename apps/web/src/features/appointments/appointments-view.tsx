import { Button, Group, Modal, Stack } from '@mantine/core';
import { IconCalendarPlus, IconDownload } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { appointmentFilterDefaults, type Appointment, type AppointmentFilterInput } from '@pathwell/contracts/appointments';
import { PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import { useSession } from '../../app/session-context';
import { DataTable, formatCount, PagedResults } from '../../components/data-table';
import { formatClinicDateTime } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { isLanguage } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { AppointmentFilters } from './appointment-filters';
import { AppointmentForm } from './appointment-form';
import { AppointmentStatusBadge } from '../../components/appointment-status-badge';
import { appointmentApi, appointmentQueries } from './appointments.api';

const birthDateText = (isoDate: string) => `${isoDate.slice(5, 7)}/${isoDate.slice(8, 10)}/${isoDate.slice(0, 4)}`;

/** Extra per-row actions a page composes in from another feature (e.g. the visit's outcome forms). */
type AppointmentRowAction = (appointment: Appointment) => ReactNode;

function AppointmentTable({
  rows,
  timeZone,
  rowAction,
}: {
  rows: Appointment[];
  timeZone: string;
  rowAction?: AppointmentRowAction;
}) {
  const { t } = useTranslation('appointments');
  return (
    <DataTable
      rows={rows}
      rowKey={(row) => row.id}
      rowTestId="appointment-row"
      ariaLabel={t('table')}
      minWidth={760}
      verticalSpacing="xs"
      emptyText={t('empty')}
      emptyTestId="appointments-empty"
      columns={[
        { key: 'patient', header: t('columns.patient'), cell: (row) => row.patient.fullName },
        { key: 'birthDate', header: t('columns.birthDate'), cell: (row) => birthDateText(row.patient.birthDate) },
        { key: 'doctor', header: t('columns.doctor'), cell: (row) => row.doctor?.name },
        { key: 'type', header: t('columns.type'), cell: (row) => row.appointmentType?.name },
        { key: 'room', header: t('columns.room'), cell: (row) => row.room?.name },
        {
          key: 'start',
          header: t('columns.start'),
          tdProps: { style: { whiteSpace: 'nowrap' } },
          cell: (row) => <time dateTime={row.startsAt}>{formatClinicDateTime(row.startsAt, timeZone)}</time>,
        },
        { key: 'status', header: t('columns.status'), cell: (row) => <AppointmentStatusBadge status={row.status} /> },
        rowAction ? { key: 'actions', header: t('columns.actions'), cell: rowAction } : null,
      ]}
    />
  );
}

/** /patients/appointments: the filtered, paged list with CSV export and a schedule-new dialog. */
export function AppointmentsView({ rowAction }: { rowAction?: AppointmentRowAction } = {}) {
  const { t, i18n } = useTranslation('appointments');
  const session = useSession();
  const timeZone = session.instance.timeZoneId;
  const [fields, setFields] = useState<AppointmentFilterInput>(() => {
    const { paginationFilter: _paging, ...rest } = appointmentFilterDefaults;
    return rest;
  });
  const [pageNumber, setPageNumber] = useState(0);
  const [exactTotal, setExactTotal] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const filter = {
    ...fields,
    paginationFilter: { pageSize: PAGE_SIZE_DEFAULT, pageNumber, exactTotal: exactTotal || undefined },
  };
  const query = useQuery(appointmentQueries.page(filter));
  const exporting = useMutation({
    mutationFn: () => appointmentApi.exportCsv({ ...fields, language: isLanguage(i18n.language) ? i18n.language : 'en' }),
    onSuccess: () => notify('success', t('exported')),
    onError: (failure) => notify('error', errorText(failure)),
  });

  const results = (
    <PagedResults
      query={query}
      pageNumber={pageNumber}
      onPage={setPageNumber}
      errorTestId="appointments-error"
      retryLabel={t('retry')}
      totalText={(count, exact) => (exact ? t('total', { count }) : t('totalMoreThan', { total: formatCount(count) }))}
      onCountAll={() => setExactTotal(true)}
      totalTestId="appointments-total"
      pagesLabel={t('pages')}
      action={
        <Button
          variant="light"
          leftSection={<IconDownload size={16} aria-hidden />}
          onClick={() => exporting.mutate()}
          loading={exporting.isPending}
          disabled={query.data?.totalRecords === 0}
        >
          {t('export')}
        </Button>
      }
    >
      {(rows) => <AppointmentTable rows={rows} timeZone={timeZone} rowAction={rowAction} />}
    </PagedResults>
  );

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
