import { Anchor, Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { IconChartBar, IconPlus, IconTemplate } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { campaignStatuses, type CampaignStatus } from '@pathwell/contracts/outreach';
import { useSession } from '../../../app/session-context';
import { DataTable, Pager, QueryState, rangeText } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { formatClinicDate } from '../../../lib/dates';
import { campaignQueries } from './campaigns.api';
import { CampaignStatusBadge, CompactFunnel, WaitingNote, campaignPath, channelsText } from './campaign-shared';

/**
 * /patientcampaigns/dashboard (issue #15 §3): the clinic's campaigns with their funnel. Creating one
 * needs a single clinic, so the button is hidden in a parent's all-clinics view (section 6).
 */
export function CampaignDashboard() {
  const { t } = useTranslation('outreachCampaigns');
  const session = useSession();
  const timeZone = session.instance.timeZoneId;
  const [status, setStatus] = useState<CampaignStatus | null>(null);
  const [pageNumber, setPageNumber] = useState(0);
  const list = useQuery(campaignQueries.list(status, pageNumber));
  const date = (value: string | null) => (value ? formatClinicDate(value, timeZone) : '—');

  return (
    <>
      <PageHeader
        title={t('dashboard.title')}
        description={t('dashboard.description')}
        actions={
          <Group gap="xs">
            <Button component={Link} to="/templateList" variant="default" leftSection={<IconTemplate size={16} aria-hidden />}>
              {t('dashboard.templates')}
            </Button>
            <Button
              component={Link}
              to="/patientcampaigns/results"
              variant="default"
              leftSection={<IconChartBar size={16} aria-hidden />}
            >
              {t('dashboard.results')}
            </Button>
            {session.allClinics ? null : (
              <Button
                component={Link}
                to="/patientcampaigns/newcampaign"
                leftSection={<IconPlus size={16} aria-hidden />}
                data-testid="campaign-create"
              >
                {t('dashboard.create')}
              </Button>
            )}
          </Group>
        }
      />
      <Stack gap="md">
        <Group>
          <Select
            label={t('dashboard.statusFilter')}
            data={campaignStatuses.map((value) => ({ value, label: t(`status.${value}`) }))}
            value={status}
            onChange={(value) => {
              setStatus(value as CampaignStatus | null);
              setPageNumber(0);
            }}
            placeholder={t('dashboard.allStatuses')}
            clearable
            w={220}
            data-testid="campaign-status-filter"
          />
        </Group>
        <QueryState
          query={list}
          retryLabel={t('retry')}
          errorPrefix={t('dashboard.loadFailed')}
          errorTestId="campaign-list-error"
          loadingLabel={t('loading')}
          retryIcon
          keepDataOnError
        >
          {({ totalRecords, data }) =>
            totalRecords === 0 && status === null ? (
              <EmptyDashboard />
            ) : (
              <Paper withBorder radius="lg" p="md">
                <DataTable
                  rows={data}
                  rowKey={(row) => row.id}
                  rowTestId="campaign-row"
                  testId="campaign-table"
                  ariaLabel={t('dashboard.tableLabel')}
                  minWidth={860}
                  emptyText={t('dashboard.noneWithStatus')}
                  emptyTestId="campaign-none-with-status"
                  columns={[
                    {
                      key: 'name',
                      header: t('columns.name'),
                      cell: (row) => (
                        <Stack gap={0}>
                          <Anchor component={Link} to={campaignPath(row)} fw={600}>
                            {row.name}
                          </Anchor>
                          {row.templateName ? <Text size="xs">{row.templateName}</Text> : null}
                        </Stack>
                      ),
                    },
                    {
                      key: 'status',
                      header: t('columns.status'),
                      cell: (row) => (
                        <Stack gap={4}>
                          <CampaignStatusBadge status={row.status} />
                          <WaitingNote waiting={row.waiting} size="xs" />
                        </Stack>
                      ),
                    },
                    { key: 'channels', header: t('columns.channels'), cell: (row) => channelsText(row.channels) },
                    {
                      key: 'scheduled',
                      header: t('columns.scheduled'),
                      cell: (row) => (row.scheduledAt ? date(row.scheduledAt) : t('dashboard.whenApproved')),
                    },
                    { key: 'approved', header: t('columns.approved'), cell: (row) => date(row.approvedAt) },
                    { key: 'finished', header: t('columns.finished'), cell: (row) => date(row.finishedAt) },
                    { key: 'funnel', header: t('columns.funnel'), cell: (row) => <CompactFunnel funnel={row.funnel} /> },
                  ]}
                  footer={
                    <Pager
                      totalRecords={totalRecords}
                      pageNumber={pageNumber}
                      onPage={setPageNumber}
                      ariaLabel={t('dashboard.pages')}
                      summary={data.length > 0 ? rangeText(pageNumber, data.length, totalRecords, true) : undefined}
                    />
                  }
                />
              </Paper>
            )
          }
        </QueryState>
      </Stack>
    </>
  );
}

function EmptyDashboard() {
  const { t } = useTranslation('outreachCampaigns');
  return (
    <Paper withBorder radius="lg" p="xl" data-testid="campaign-empty">
      <Stack gap="sm" maw={640}>
        <Title order={2} size="h4">
          {t('dashboard.emptyTitle')}
        </Title>
        <Text>{t('dashboard.emptyWhat')}</Text>
        <Text>{t('dashboard.emptyHow')}</Text>
        <Group>
          <Anchor component={Link} to="/templateList">
            {t('dashboard.emptyTemplates')}
          </Anchor>
        </Group>
      </Stack>
    </Paper>
  );
}
