import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPlus, IconTemplate } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { HotlistStaffRow, HotlistSummary } from '@pathwell/contracts/hotlists';
import { useSession } from '../../../app/session-context';
import { DataTable, EmptyText, formatCount, QueryState } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { formatClinicDate, formatClinicRelative } from '../../../lib/dates';
import { hotlistQueries } from './hotlists.api';
import { canManageHotlists, HotlistProgressBar, HotlistStatusBadge } from './hotlist-shared';

/**
 * /patienthotlist/dashboard (issue #15 §4, decision 0052): every hot list with its progress, and calls
 * per staff member. Managers make lists from hot-list templates; Staff open a list to work it.
 */
export function HotlistDashboard() {
  const { t } = useTranslation('outreachHotlists');
  const session = useSession();
  const timeZone = session.instance.timeZoneId;
  const manager = canManageHotlists(session.user.role);
  const dashboard = useQuery(hotlistQueries.dashboard());

  return (
    <>
      <PageHeader
        title={t('dashboard.title')}
        description={t('dashboard.description')}
        actions={
          manager ? (
            <Group gap="xs">
              <Button
                component={Link}
                to="/hotlisttemplatelist"
                variant="default"
                leftSection={<IconTemplate size={16} aria-hidden />}
              >
                {t('dashboard.templates')}
              </Button>
              {session.allClinics ? null : (
                <Button
                  component={Link}
                  to="/patienthotlist/newcampaign"
                  leftSection={<IconPlus size={16} aria-hidden />}
                  data-testid="hotlist-create"
                >
                  {t('dashboard.create')}
                </Button>
              )}
            </Group>
          ) : null
        }
      />
      <QueryState
        query={dashboard}
        retryLabel={t('retry')}
        errorPrefix={t('dashboard.loadFailed')}
        errorTestId="hotlist-dashboard-error"
        loadingLabel={t('loading')}
      >
        {(data) => (
          <Stack gap="lg">
            <Paper withBorder radius="lg" p="md">
              <Title order={2} size="h4" mb="sm">
                {t('dashboard.lists')}
              </Title>
              {data.data.length === 0 ? (
                <EmptyText testId="hotlist-empty">{manager ? t('dashboard.emptyManager') : t('dashboard.empty')}</EmptyText>
              ) : (
                <DataTable<HotlistSummary>
                  rows={data.data}
                  rowKey={(row) => row.id}
                  rowTestId="hotlist-row"
                  testId="hotlist-table"
                  ariaLabel={t('dashboard.lists')}
                  minWidth={860}
                  columns={[
                    {
                      key: 'name',
                      header: t('dashboard.list'),
                      cell: (row) => (
                        <Stack gap={2}>
                          <Anchor component={Link} to={`/patienthotlist/${row.id}`} fw={600}>
                            {row.name}
                          </Anchor>
                          {row.reason ? (
                            <Text size="sm" lineClamp={2}>
                              {row.reason}
                            </Text>
                          ) : null}
                        </Stack>
                      ),
                    },
                    { key: 'status', header: t('dashboard.status'), cell: (row) => <HotlistStatusBadge status={row.status} /> },
                    { key: 'template', header: t('dashboard.template'), cell: (row) => row.templateName ?? '—' },
                    {
                      key: 'created',
                      header: t('dashboard.created'),
                      cell: (row) => (
                        <Stack gap={0}>
                          <Text size="sm">{formatClinicDate(row.createdAt, timeZone)}</Text>
                          {row.createdByName ? <Text size="sm">{row.createdByName}</Text> : null}
                        </Stack>
                      ),
                    },
                    {
                      key: 'progress',
                      header: t('dashboard.progressColumn'),
                      cell: (row) => <HotlistProgressBar name={row.name} progress={row.progress} />,
                      tdProps: { miw: 280 },
                    },
                  ]}
                />
              )}
            </Paper>
            <Paper withBorder radius="lg" p="md">
              <Title order={2} size="h4" mb="sm">
                {t('dashboard.staffTitle')}
              </Title>
              <StaffTable rows={data.staff} timeZone={timeZone} testId="hotlist-staff" />
            </Paper>
          </Stack>
        )}
      </QueryState>
    </>
  );
}

/** Calls, patients reached and bookings per staff member. */
export function StaffTable({ rows, timeZone, testId }: { rows: HotlistStaffRow[]; timeZone: string; testId: string }) {
  const { t } = useTranslation('outreachHotlists');
  return (
    <DataTable<HotlistStaffRow>
      rows={rows}
      rowKey={(row) => row.userId}
      rowTestId={`${testId}-row`}
      testId={testId}
      ariaLabel={t('dashboard.staffTitle')}
      minWidth={560}
      emptyText={t('dashboard.staffEmpty')}
      emptyTestId={`${testId}-empty`}
      columns={[
        { key: 'name', header: t('dashboard.staffName'), cell: (row) => row.name },
        { key: 'calls', header: t('dashboard.calls'), cell: (row) => formatCount(row.calls), tdProps: { ta: 'right' } },
        { key: 'reached', header: t('dashboard.reached'), cell: (row) => formatCount(row.reached), tdProps: { ta: 'right' } },
        { key: 'booked', header: t('dashboard.booked'), cell: (row) => formatCount(row.booked), tdProps: { ta: 'right' } },
        {
          key: 'last',
          header: t('dashboard.lastCall'),
          cell: (row) => (row.lastCallAt ? formatClinicRelative(row.lastCallAt, timeZone) : '—'),
        },
      ]}
    />
  );
}
