import { Button, Center, Loader, Stack } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session-context';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { ActivityFeed } from '../../features/activity/activity-feed';
import { adminDashboardQueries } from '../../features/admin-dashboard/admin-dashboard.api';
import { DashboardCards } from '../../features/admin-dashboard/dashboard-cards';
import { ProcedureNoteTemplatesLink } from '../../features/procedure-notes/templates-link';

/** /admin/dashboard: the clinic's counts and its latest activity (Admin and System Manager). */
export function Component() {
  const { t } = useTranslation('dashboard');
  const timeZone = useSession().instance.timeZoneId;
  const summary = useQuery(adminDashboardQueries.summary());
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} actions={<ProcedureNoteTemplatesLink />} />
      {summary.isError ? (
        <Stack gap="sm" align="flex-start">
          {/* Section 8: a dashboard that did not load says so in these words. */}
          <ErrorAlert testId="dashboard-error">{t('errors:texts.dashboardFailed')}</ErrorAlert>
          <Button variant="light" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void summary.refetch()}>
            {t('retry')}
          </Button>
        </Stack>
      ) : !summary.data ? (
        <Center py="xl">
          <Loader aria-label={t('common:loading')} />
        </Center>
      ) : (
        <Stack gap="lg">
          <DashboardCards summary={summary.data} />
          <ActivityFeed entries={summary.data.latestActivity} timeZone={timeZone} />
        </Stack>
      )}
    </>
  );
}
