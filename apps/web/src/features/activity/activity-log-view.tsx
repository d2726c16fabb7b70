import { Button, Center, Group, Loader, Pagination, Stack, Table, Text } from '@mantine/core';
import { IconDownload, IconRefresh } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ACTIVITY_EXPORT_MAX_ROWS,
  type ActivityEntry,
  type ActivityFilterFields,
  type LoginDetail,
} from '@pathwell/contracts/activity';
import { PAGE_NUMBER_DEFAULT, PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import { useSession } from '../../app/session-context';
import { ErrorAlert } from '../../components/error-alert';
import { errorText } from '../../lib/error-text';
import { isLanguage } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { ActivityFilters } from './activity-filters';
import { ActionBadge, ActorCell, ClinicTime, ResultBadge, TargetCell } from './activity-parts';
import { activityApi, activityKeys, activityQueries } from './activity.api';

function useLanguage() {
  const { i18n } = useTranslation();
  return isLanguage(i18n.language) ? i18n.language : 'en';
}

/** Export of what the filters show; refused in the browser too when it would pass the server's cap. */
function ExportButton({ totalRecords, run }: { totalRecords: number | undefined; run: () => Promise<string> }) {
  const { t, i18n } = useTranslation('activity');
  const queryClient = useQueryClient();
  const exporting = useMutation({
    mutationFn: run,
    onSuccess: () => {
      notify('success', t('exported'));
      // The export is itself written to the log.
      void queryClient.invalidateQueries({ queryKey: activityKeys.all });
    },
    onError: (failure) => notify('error', errorText(failure)),
  });
  const onClick = () => {
    if (totalRecords !== undefined && totalRecords > ACTIVITY_EXPORT_MAX_ROWS) {
      const format = (value: number) => value.toLocaleString(i18n.language);
      notify('warning', t('exportTooLarge', { total: format(totalRecords), limit: format(ACTIVITY_EXPORT_MAX_ROWS) }));
      return;
    }
    exporting.mutate();
  };
  return (
    <Button
      variant="light"
      leftSection={<IconDownload size={16} aria-hidden />}
      onClick={onClick}
      loading={exporting.isPending}
      disabled={totalRecords === 0}
    >
      {t('export')}
    </Button>
  );
}

type Paged<T> = { totalRecords: number; data: T[] };

/** Loading, error, empty, table and pages: the same on both log pages. */
function LogResults<T>({
  query,
  pageNumber,
  onPage,
  emptyText,
  exportButton,
  children,
}: {
  query: UseQueryResult<Paged<T>>;
  pageNumber: number;
  onPage: (page: number) => void;
  emptyText: string;
  exportButton: ReactNode;
  children: (rows: T[]) => ReactNode;
}) {
  const { t } = useTranslation('activity');
  if (query.isError) {
    return (
      <Stack gap="sm" align="flex-start">
        <ErrorAlert testId="activity-error">{errorText(query.error)}</ErrorAlert>
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
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="activity-total">
          {t('total', { count: totalRecords })}
        </Text>
        {exportButton}
      </Group>
      {data.length === 0 ? (
        <Text c="dimmed" py="lg" ta="center" data-testid="activity-empty">
          {emptyText}
        </Text>
      ) : (
        children(data)
      )}
      {pages > 1 ? (
        <Group justify="center">
          <Pagination total={pages} value={pageNumber + 1} onChange={(value) => onPage(value - 1)} aria-label={t('pages')} />
        </Group>
      ) : null}
    </Stack>
  );
}

function ActivityTable({ rows, offsetHours }: { rows: ActivityEntry[]; offsetHours: number }) {
  const { t } = useTranslation('activity');
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label={t('table')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('columns.time')}</Table.Th>
            <Table.Th>{t('columns.user')}</Table.Th>
            <Table.Th>{t('columns.area')}</Table.Th>
            <Table.Th>{t('columns.action')}</Table.Th>
            <Table.Th>{t('columns.target')}</Table.Th>
            <Table.Th>{t('columns.description')}</Table.Th>
            <Table.Th>{t('columns.ip')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id} data-testid="activity-row">
              <Table.Td>
                <ClinicTime at={row.createdAt} offsetHours={offsetHours} />
              </Table.Td>
              <Table.Td>
                <ActorCell name={row.userName} email={row.email} />
              </Table.Td>
              <Table.Td>{t(`areas.${row.area}`)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <ActionBadge action={row.action} />
              </Table.Td>
              <Table.Td maw={220}>
                <TargetCell targetType={row.targetType} targetId={row.targetId} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{row.description}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {row.ip}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function LoginTable({ rows, offsetHours }: { rows: LoginDetail[]; offsetHours: number }) {
  const { t } = useTranslation('activity');
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label={t('loginTable')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('columns.time')}</Table.Th>
            <Table.Th>{t('columns.user')}</Table.Th>
            <Table.Th>{t('columns.event')}</Table.Th>
            <Table.Th>{t('columns.result')}</Table.Th>
            <Table.Th>{t('columns.ip')}</Table.Th>
            <Table.Th>{t('columns.userAgent')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id} data-testid="activity-row">
              <Table.Td>
                <ClinicTime at={row.createdAt} offsetHours={offsetHours} />
              </Table.Td>
              <Table.Td>
                <ActorCell name={row.userName} email={row.email} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{row.event}</Text>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <ResultBadge result={row.result} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {row.ip}
                </Text>
              </Table.Td>
              <Table.Td maw={280}>
                <Text size="xs" c="dimmed" lineClamp={2} title={row.userAgent ?? undefined}>
                  {row.userAgent ?? '—'}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Filters and page number of one log page; a new filter starts again at the first page. */
function useLogFilter() {
  const [filter, setFilter] = useState<ActivityFilterFields>({} as ActivityFilterFields);
  const [pageNumber, setPageNumber] = useState(PAGE_NUMBER_DEFAULT);
  const apply = (next: ActivityFilterFields) => {
    setFilter(next);
    setPageNumber(PAGE_NUMBER_DEFAULT);
  };
  return { filter, pageNumber, setPageNumber, apply, paginationFilter: { pageSize: PAGE_SIZE_DEFAULT, pageNumber } };
}

export function ActivityLogView() {
  const { t } = useTranslation('activity');
  const offsetHours = useSession().instance.timeZoneOffsetHours;
  const language = useLanguage();
  const { filter, pageNumber, setPageNumber, apply, paginationFilter } = useLogFilter();
  const log = useQuery(activityQueries.page({ ...filter, paginationFilter }));
  const actors = useQuery(activityQueries.actors());
  return (
    <Stack gap="md">
      <ActivityFilters actors={actors.data ?? []} onApply={apply} />
      <LogResults
        query={log}
        pageNumber={pageNumber}
        onPage={setPageNumber}
        emptyText={t('empty')}
        exportButton={
          <ExportButton totalRecords={log.data?.totalRecords} run={() => activityApi.exportActivity({ ...filter, language })} />
        }
      >
        {(rows) => <ActivityTable rows={rows} offsetHours={offsetHours} />}
      </LogResults>
    </Stack>
  );
}

export function LoginDetailsView() {
  const { t } = useTranslation('activity');
  const offsetHours = useSession().instance.timeZoneOffsetHours;
  const language = useLanguage();
  const { filter, pageNumber, setPageNumber, apply, paginationFilter } = useLogFilter();
  const { area: _area, ...loginFilter } = filter;
  const log = useQuery(activityQueries.loginPage({ ...loginFilter, paginationFilter }));
  const actors = useQuery(activityQueries.actors('Login Activity'));
  return (
    <Stack gap="md">
      <ActivityFilters actors={actors.data ?? []} showArea={false} onApply={apply} />
      <LogResults
        query={log}
        pageNumber={pageNumber}
        onPage={setPageNumber}
        emptyText={t('loginEmpty')}
        exportButton={
          <ExportButton
            totalRecords={log.data?.totalRecords}
            run={() => activityApi.exportLoginDetails({ ...loginFilter, language })}
          />
        }
      >
        {(rows) => <LoginTable rows={rows} offsetHours={offsetHours} />}
      </LogResults>
    </Stack>
  );
}
