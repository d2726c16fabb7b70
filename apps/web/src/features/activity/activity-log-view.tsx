import { Button, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ACTIVITY_EXPORT_MAX_ROWS,
  type ActivityEntry,
  type ActivityFilterFields,
  type LoginDetail,
} from '@pathwell/contracts/activity';
import { PAGE_NUMBER_DEFAULT, PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import { useSession } from '../../app/session-context';
import { DataTable, formatCount, PagedResults } from '../../components/data-table';
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

const noWrap = { style: { whiteSpace: 'nowrap' } } as const;
const monospace = (text: string | null) => (
  <Text size="sm" ff="monospace">
    {text}
  </Text>
);

function ActivityTable({ rows, timeZone }: { rows: ActivityEntry[]; timeZone: string }) {
  const { t } = useTranslation('activity');
  return (
    <DataTable
      rows={rows}
      rowKey={(row) => row.id}
      rowTestId="activity-row"
      ariaLabel={t('table')}
      minWidth={900}
      verticalSpacing="xs"
      emptyText={t('empty')}
      emptyTestId="activity-empty"
      columns={[
        { key: 'time', header: t('columns.time'), cell: (row) => <ClinicTime at={row.createdAt} timeZone={timeZone} /> },
        { key: 'user', header: t('columns.user'), cell: (row) => <ActorCell name={row.userName} email={row.email} /> },
        { key: 'area', header: t('columns.area'), cell: (row) => t(`areas.${row.area}`) },
        { key: 'action', header: t('columns.action'), tdProps: noWrap, cell: (row) => <ActionBadge action={row.action} /> },
        {
          key: 'target',
          header: t('columns.target'),
          tdProps: { maw: 220 },
          cell: (row) => <TargetCell targetType={row.targetType} targetId={row.targetId} />,
        },
        { key: 'description', header: t('columns.description'), cell: (row) => <Text size="sm">{row.description}</Text> },
        { key: 'ip', header: t('columns.ip'), cell: (row) => monospace(row.ip) },
      ]}
    />
  );
}

function LoginTable({ rows, timeZone }: { rows: LoginDetail[]; timeZone: string }) {
  const { t } = useTranslation('activity');
  return (
    <DataTable
      rows={rows}
      rowKey={(row) => row.id}
      rowTestId="activity-row"
      ariaLabel={t('loginTable')}
      minWidth={860}
      verticalSpacing="xs"
      emptyText={t('loginEmpty')}
      emptyTestId="activity-empty"
      columns={[
        { key: 'time', header: t('columns.time'), cell: (row) => <ClinicTime at={row.createdAt} timeZone={timeZone} /> },
        { key: 'user', header: t('columns.user'), cell: (row) => <ActorCell name={row.userName} email={row.email} /> },
        { key: 'event', header: t('columns.event'), cell: (row) => <Text size="sm">{row.event}</Text> },
        { key: 'result', header: t('columns.result'), tdProps: noWrap, cell: (row) => <ResultBadge result={row.result} /> },
        { key: 'ip', header: t('columns.ip'), cell: (row) => monospace(row.ip) },
        {
          key: 'userAgent',
          header: t('columns.userAgent'),
          tdProps: { maw: 280 },
          cell: (row) => (
            <Text size="xs" c="dimmed" lineClamp={2} title={row.userAgent ?? undefined}>
              {row.userAgent ?? '—'}
            </Text>
          ),
        },
      ]}
    />
  );
}

/** Filters and page number of one log page; a new filter starts again at the first page. */
function useLogFilter() {
  const [filter, setFilter] = useState<ActivityFilterFields>({} as ActivityFilterFields);
  const [pageNumber, setPageNumber] = useState(PAGE_NUMBER_DEFAULT);
  const [exactTotal, setExactTotal] = useState(false);
  const apply = (next: ActivityFilterFields) => {
    setFilter(next);
    setPageNumber(PAGE_NUMBER_DEFAULT);
  };
  const paginationFilter = { pageSize: PAGE_SIZE_DEFAULT, pageNumber, exactTotal: exactTotal || undefined };
  return { filter, pageNumber, setPageNumber, apply, paginationFilter, countAll: () => setExactTotal(true) };
}

export function ActivityLogView() {
  const { t } = useTranslation('activity');
  const timeZone = useSession().instance.timeZoneId;
  const language = useLanguage();
  const { filter, pageNumber, setPageNumber, apply, paginationFilter, countAll } = useLogFilter();
  const log = useQuery(activityQueries.page({ ...filter, paginationFilter }));
  const actors = useQuery(activityQueries.actors());
  return (
    <Stack gap="md">
      <ActivityFilters actors={actors.data ?? []} onApply={apply} />
      <PagedResults
        query={log}
        pageNumber={pageNumber}
        onPage={setPageNumber}
        errorTestId="activity-error"
        retryLabel={t('retry')}
        totalText={(count, exact) => (exact ? t('total', { count }) : t('totalMoreThan', { total: formatCount(count) }))}
        onCountAll={countAll}
        totalTestId="activity-total"
        pagesLabel={t('pages')}
        action={
          <ExportButton totalRecords={log.data?.totalRecords} run={() => activityApi.exportActivity({ ...filter, language })} />
        }
      >
        {(rows) => <ActivityTable rows={rows} timeZone={timeZone} />}
      </PagedResults>
    </Stack>
  );
}

export function LoginDetailsView() {
  const { t } = useTranslation('activity');
  const timeZone = useSession().instance.timeZoneId;
  const language = useLanguage();
  const { filter, pageNumber, setPageNumber, apply, paginationFilter, countAll } = useLogFilter();
  const { area: _area, ...loginFilter } = filter;
  const log = useQuery(activityQueries.loginPage({ ...loginFilter, paginationFilter }));
  const actors = useQuery(activityQueries.actors('Login Activity'));
  return (
    <Stack gap="md">
      <ActivityFilters actors={actors.data ?? []} showArea={false} onApply={apply} />
      <PagedResults
        query={log}
        pageNumber={pageNumber}
        onPage={setPageNumber}
        errorTestId="activity-error"
        retryLabel={t('retry')}
        totalText={(count, exact) => (exact ? t('total', { count }) : t('totalMoreThan', { total: formatCount(count) }))}
        onCountAll={countAll}
        totalTestId="activity-total"
        pagesLabel={t('pages')}
        action={
          <ExportButton
            totalRecords={log.data?.totalRecords}
            run={() => activityApi.exportLoginDetails({ ...loginFilter, language })}
          />
        }
      >
        {(rows) => <LoginTable rows={rows} timeZone={timeZone} />}
      </PagedResults>
    </Stack>
  );
}
