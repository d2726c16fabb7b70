import { Anchor, Badge, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { campaignResponseKinds, type CampaignResponse, type CampaignResponseKind } from '@pathwell/contracts/campaigns';
import { useSession } from '../../../app/session-context';
import { DataTable, Pager, QueryState, rangeText } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { formatClinicDateTime } from '../../../lib/dates';
import { campaignQueries } from './campaigns.api';

/** A booking's detail is the appointment's date: a clinic date (YYYY-MM-DD) is shown as is, an instant on the clinic's clock. */
function appointmentDate(value: string, timeZone: string): string {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (day) return `${day[2]}/${day[3]}/${day[1]}`;
  return formatClinicDateTime(value, timeZone) || value;
}

const kindColors: Record<CampaignResponseKind, string> = { reply: 'blue', optOut: 'red', click: 'grape', booked: 'teal' };

/** /campaignResponse/:id (issue #15 §3): replies, opt-outs, link clicks and bookings the campaign brought. */
export function CampaignResponses({ campaignId }: { campaignId: string }) {
  const { t } = useTranslation('outreachCampaigns');
  const timeZone = useSession().instance.timeZoneId;
  const campaign = useQuery(campaignQueries.one(campaignId));
  const [kind, setKind] = useState<CampaignResponseKind | null>(null);
  const [pageNumber, setPageNumber] = useState(0);
  const responses = useQuery(campaignQueries.responses(campaignId, kind, pageNumber));

  const detail = (row: CampaignResponse) => {
    if (!row.detail) return '—';
    if (row.kind === 'booked') return t('responses.appointmentOn', { date: appointmentDate(row.detail, timeZone) });
    return row.detail;
  };

  return (
    <>
      <PageHeader
        title={t('responses.title')}
        description={campaign.data ? campaign.data.name : undefined}
        actions={
          <Group gap="xs">
            <Anchor component={Link} to={`/approvedcampaign/${campaignId}`}>
              {t('responses.progressLink')}
            </Anchor>
          </Group>
        }
      />
      <Stack gap="md">
        <Group>
          <Select
            label={t('responses.kindFilter')}
            data={campaignResponseKinds.map((value) => ({ value, label: t(`responseKinds.${value}`) }))}
            value={kind}
            onChange={(value) => {
              setKind(value as CampaignResponseKind | null);
              setPageNumber(0);
            }}
            placeholder={t('responses.allKinds')}
            clearable
            w={220}
            data-testid="response-kind-filter"
          />
        </Group>
        <QueryState
          query={responses}
          retryLabel={t('retry')}
          errorPrefix={t('responses.loadFailed')}
          errorTestId="responses-error"
          loadingLabel={t('loading')}
          retryIcon
          keepDataOnError
        >
          {({ totalRecords, data }) => (
            <Paper withBorder radius="lg" p="md">
              <DataTable
                rows={data}
                rowKey={(row) => `${row.kind}-${row.patientId}-${row.at}`}
                rowTestId="response-row"
                testId="response-table"
                ariaLabel={t('responses.title')}
                minWidth={760}
                emptyText={kind ? t('responses.noneOfKind') : t('responses.none')}
                emptyTestId="responses-empty"
                columns={[
                  {
                    key: 'at',
                    header: t('columns.when'),
                    cell: (row) => <Text size="sm">{formatClinicDateTime(row.at, timeZone)}</Text>,
                    tdProps: { style: { whiteSpace: 'nowrap' } },
                  },
                  {
                    key: 'kind',
                    header: t('columns.kind'),
                    cell: (row) => (
                      <Badge variant="light" color={kindColors[row.kind]} miw="max-content">
                        {t(`responseKinds.${row.kind}`)}
                      </Badge>
                    ),
                  },
                  {
                    key: 'patient',
                    header: t('columns.patient'),
                    cell: (row) => (
                      <Anchor component={Link} to={`/patients/patientdashboard/${row.patientId}`}>
                        {row.patientName}
                      </Anchor>
                    ),
                  },
                  {
                    key: 'detail',
                    header: t('columns.detail'),
                    cell: (row) => (
                      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                        {detail(row)}
                      </Text>
                    ),
                  },
                ]}
                footer={
                  <Pager
                    totalRecords={totalRecords}
                    pageNumber={pageNumber}
                    onPage={setPageNumber}
                    ariaLabel={t('responses.pages')}
                    summary={data.length > 0 ? rangeText(pageNumber, data.length, totalRecords, true) : undefined}
                  />
                }
              />
            </Paper>
          )}
        </QueryState>
      </Stack>
    </>
  );
}
