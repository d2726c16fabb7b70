import { Anchor, Badge, Button, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import { useSession } from '../../app/session-context';
import { useStaffEvent } from '../../app/staff-events';
import { DataTable, PagedResults, rangeText } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { notificationKeys, notificationQueries, useNotificationMarks } from './notifications.api';
import { notificationPath, notificationText } from './notification-text';

/** /patients/nevro/chatternotification: every notification, paged (the bell's "see all"). */
export function NotificationPage() {
  const { t } = useTranslation('notifications');
  const session = useSession();
  const timeZone = session.instance.timeZoneId;
  const queryClient = useQueryClient();
  const [pageNumber, setPageNumber] = useState(0);
  const page = useQuery(notificationQueries.page(pageNumber, PAGE_SIZE_DEFAULT));
  const marks = useNotificationMarks();
  useStaffEvent('notification', () => void queryClient.invalidateQueries({ queryKey: notificationKeys.all }));
  const unseen = page.data?.unseen ?? 0;

  return (
    <Stack gap="lg">
      <PageHeader
        title={t('pageTitle')}
        description={t('pageDescription')}
        actions={
          <Button
            variant="light"
            disabled={unseen === 0}
            loading={marks.clearAll.isPending}
            onClick={() => marks.clearAll.mutate()}
          >
            {t('clearAll')}
          </Button>
        }
      />
      <PagedResults
        query={page}
        pageNumber={pageNumber}
        onPage={setPageNumber}
        errorTestId="notifications-error"
        retryLabel={t('retry')}
        totalText={(count, exact) => rangeText(pageNumber, page.data?.data.length ?? 0, count, exact)}
        totalTestId="notifications-total"
        pagesLabel={t('pageTitle')}
        action={null}
      >
        {(rows) => (
          <DataTable
            rows={rows}
            rowKey={(row) => row.id}
            rowTestId="notification-row"
            minWidth={640}
            ariaLabel={t('pageTitle')}
            emptyText={t('empty')}
            emptyTestId="notifications-page-empty"
            columns={[
              {
                key: 'text',
                header: t('columns.notification'),
                cell: (row) => (
                  <Anchor
                    component={Link}
                    to={notificationPath(row)}
                    fw={row.seen && !row.urgent ? 400 : 700}
                    c={row.urgent ? 'red.9' : undefined}
                    data-urgent={row.urgent || undefined}
                    onClick={() => {
                      if (!row.seen) marks.seen.mutate([row.id]);
                    }}
                  >
                    {row.urgent ? <span className="visually-hidden">{t('urgent')} </span> : null}
                    {notificationText(t, row, timeZone)}
                  </Anchor>
                ),
              },
              {
                key: 'state',
                header: t('columns.state'),
                thProps: { w: 110 },
                cell: (row) => (
                  <Badge variant="light" color={row.seen ? 'gray' : 'teal'} style={{ overflow: 'visible' }}>
                    {t(row.seen ? 'states.seen' : 'states.new')}
                  </Badge>
                ),
              },
            ]}
          />
        )}
      </PagedResults>
    </Stack>
  );
}
