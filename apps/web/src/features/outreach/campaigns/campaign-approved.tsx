import { Anchor, Badge, Button, Group, Paper, Progress, Select, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { IconFlag, IconMessages } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { campaignRecipientFilters, type CampaignDetail, type CampaignRecipient } from '@pathwell/contracts/campaigns';
import type { RecipientChannelStatus } from '@pathwell/contracts/outreach';
import type { OutboxStatus } from '@pathwell/contracts/messaging';
import { useSession } from '../../../app/session-context';
import { DataTable, Pager, QueryState, rangeText } from '../../../components/data-table';
import { ErrorAlert } from '../../../components/error-alert';
import { PageHeader } from '../../../components/page-header';
import { formatClinicDateTime } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
import { ConfirmAction } from '../../../components/confirm-action';
import { notify } from '../../../lib/notify';
import { campaignApi, campaignKeys, campaignQueries, isSending, type RecipientFilter } from './campaigns.api';
import { ArchiveCampaignConfirm, CampaignStatusBadge, WaitingNote, channelsText, formatNumber } from './campaign-shared';

/** /approvedcampaign/:id (issue #15 §3): the send's progress, its switches, and every frozen recipient. */
export function CampaignApproved({ campaignId }: { campaignId: string }) {
  const { t } = useTranslation('outreachCampaigns');
  const campaign = useQuery(campaignQueries.live(campaignId));
  return (
    <QueryState
      query={campaign}
      retryLabel={t('retry')}
      errorPrefix={t('overview.loadFailed')}
      errorTestId="campaign-error"
      loadingLabel={t('loading')}
      retryIcon
      keepDataOnError
    >
      {(data) => <ApprovedView campaign={data} />}
    </QueryState>
  );
}

function ApprovedView({ campaign }: { campaign: CampaignDetail }) {
  const { t } = useTranslation('outreachCampaigns');
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<'finish' | 'archive' | null>(null);
  const sending = isSending(campaign);
  // Progress counts every recipient the sweep is through with (handed over, or reachable on no channel):
  // without an SMS provider nothing is "sent", yet the campaign has done its work.
  const done = campaign.funnel.recipients - campaign.funnel.pending;
  const saved = (detail: CampaignDetail) => {
    queryClient.setQueryData(campaignKeys.one(detail.id), detail);
    void queryClient.invalidateQueries({ queryKey: ['campaigns', 'list'] });
  };
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => campaignApi.textSending(campaign.id, enabled),
    onSuccess: (detail) => {
      saved(detail);
      notify('success', detail.textSending ? t('approved.textOn') : t('approved.textOff'));
    },
  });

  return (
    <>
      <PageHeader
        title={campaign.name}
        description={
          <Group gap="xs" component="span">
            <CampaignStatusBadge status={campaign.status} />
            <Text span size="sm">
              {channelsText(campaign.channels)}
            </Text>
          </Group>
        }
        actions={
          <Group gap="xs">
            <Button
              component={Link}
              to={`/campaignResponse/${campaign.id}`}
              variant="default"
              leftSection={<IconMessages size={16} aria-hidden />}
              data-testid="campaign-responses-link"
            >
              {t('approved.responses')}
            </Button>
            {campaign.can.archive ? (
              <Button variant="default" onClick={() => setPending('archive')} data-testid="campaign-archive">
                {t('actions.archive')}
              </Button>
            ) : null}
            {campaign.can.finish ? (
              <Button
                color="red"
                leftSection={<IconFlag size={16} aria-hidden />}
                onClick={() => setPending('finish')}
                data-testid="campaign-finish"
              >
                {t('actions.finish')}
              </Button>
            ) : null}
          </Group>
        }
      />
      <Stack gap="lg">
        <Paper withBorder radius="lg" p="md" data-testid="campaign-progress">
          <Group justify="space-between" mb="xs" wrap="wrap">
            <Title order={2} size="h4">
              {t('approved.progress')}
            </Title>
            {sending ? (
              <Badge variant="light" color="blue">
                {t('approved.sendingNow')}
              </Badge>
            ) : null}
          </Group>
          <WaitingNote waiting={campaign.waiting} />
          <Text mb={6} data-testid="campaign-progress-text">
            {t('approved.sentOf', {
              done: formatNumber(done),
              sent: formatNumber(campaign.funnel.sent),
              recipients: formatNumber(campaign.funnel.recipients),
            })}
          </Text>
          <Progress
            value={campaign.funnel.recipients === 0 ? 0 : (done / campaign.funnel.recipients) * 100}
            size="lg"
            radius="md"
            aria-label={t('approved.progressLabel')}
            animated={sending}
          />
          <SimpleGrid cols={{ base: 3, sm: 5, lg: 9 }} mt="md" data-testid="campaign-counts">
            {(['sent', 'delivered', 'pending', 'skipped', 'failed', 'clicked', 'replied', 'optedOut', 'booked'] as const).map(
              (key) => (
                <Stack key={key} gap={0}>
                  <Text fw={700} size="lg">
                    {formatNumber(campaign.funnel[key])}
                  </Text>
                  <Text size="sm">{t(`funnel.${key}`)}</Text>
                </Stack>
              ),
            )}
          </SimpleGrid>
          {campaign.channels.includes('sms') ? (
            <Stack gap={4} mt="md">
              <Switch
                label={t('approved.textSending')}
                description={t('approved.textSendingHelp')}
                checked={campaign.textSending}
                disabled={!campaign.can.toggleText || toggle.isPending}
                onChange={(event) => toggle.mutate(event.currentTarget.checked)}
                data-testid="campaign-text-sending"
              />
              {toggle.isError ? <ErrorAlert testId="campaign-toggle-error">{errorText(toggle.error)}</ErrorAlert> : null}
            </Stack>
          ) : null}
        </Paper>
        <Recipients campaignId={campaign.id} sending={sending} />
        <Group>
          <Anchor component={Link} to={`/patientcampaigns/${campaign.id}`}>
            {t('approved.overviewLink')}
          </Anchor>
          <Anchor component={Link} to="/patientcampaigns/dashboard">
            {t('actions.backToCampaigns')}
          </Anchor>
        </Group>
      </Stack>
      <ConfirmAction
        opened={pending === 'finish'}
        title={t('approved.finishTitle')}
        action={t('actions.finish')}
        color="red"
        testId="campaign-finish-confirm"
        onClose={() => setPending(null)}
        onConfirm={async () => {
          saved(await campaignApi.finish(campaign.id));
          notify('success', t('approved.finished'));
        }}
      >
        {t('approved.finishText')}
      </ConfirmAction>
      <ArchiveCampaignConfirm
        campaignId={campaign.id}
        opened={pending === 'archive'}
        onClose={() => setPending(null)}
        onArchived={saved}
      />
    </>
  );
}

const deliveryColors: Partial<Record<OutboxStatus, string>> = {
  sent: 'blue',
  delivered: 'teal',
  undelivered: 'red',
  failed: 'red',
  suppressed: 'orange',
};

/** One channel's state: waiting, skipped, or once handed over, what the provider said. */
function ChannelStatus({ status, delivery }: { status: RecipientChannelStatus; delivery: OutboxStatus | null }) {
  const { t } = useTranslation('outreachCampaigns');
  if (status === 'none') return <Text size="sm">—</Text>;
  if (status === 'queued' && delivery)
    return (
      <Badge variant="light" color={deliveryColors[delivery] ?? 'gray'} miw="max-content">
        {t(`delivery.${delivery}`)}
      </Badge>
    );
  return (
    <Badge variant="light" color={status === 'skipped' ? 'orange' : 'gray'} miw="max-content">
      {t(`channelStatus.${status}`)}
    </Badge>
  );
}

function Marks({ recipient }: { recipient: CampaignRecipient }) {
  const { t } = useTranslation('outreachCampaigns');
  const marks = [
    ['clicked', recipient.clickedAt, 'grape'],
    ['replied', recipient.repliedAt, 'blue'],
    ['optedOut', recipient.optedOutAt, 'red'],
    ['booked', recipient.bookedAt, 'teal'],
  ] as const;
  const shown = marks.filter(([, at]) => at);
  if (shown.length === 0) return <Text size="sm">—</Text>;
  return (
    <Group gap={4}>
      {shown.map(([key, , color]) => (
        <Badge key={key} variant="light" color={color} miw="max-content">
          {t(`funnel.${key}`)}
        </Badge>
      ))}
    </Group>
  );
}

function Recipients({ campaignId, sending }: { campaignId: string; sending: boolean }) {
  const { t } = useTranslation('outreachCampaigns');
  const timeZone = useSession().instance.timeZoneId;
  const [status, setStatus] = useState<RecipientFilter | null>(null);
  const [pageNumber, setPageNumber] = useState(0);
  const recipients = useQuery(campaignQueries.recipients(campaignId, status, pageNumber, sending));
  // Each channel that did not reach the patient, in words (issue #24 §3): "Text: texts turned off for the clinic".
  const reasons = (row: CampaignRecipient) =>
    (
      [
        ['sms', row.smsReason],
        ['email', row.emailReason],
      ] as const
    )
      .filter(([, reason]) => reason !== null)
      .map(([channel, reason]) => t(`reasonIn.${channel}`, { reason: t(`skipReasons.${reason}`) }));

  return (
    <Paper withBorder radius="lg" p="md">
      <Group justify="space-between" align="flex-end" mb="sm" wrap="wrap">
        <Title order={2} size="h4">
          {t('approved.recipients')}
        </Title>
        <Select
          label={t('approved.recipientFilter')}
          data={campaignRecipientFilters.map((value) => ({ value, label: t(`recipientFilters.${value}`) }))}
          value={status}
          onChange={(value) => {
            setStatus(value as RecipientFilter | null);
            setPageNumber(0);
          }}
          placeholder={t('approved.allRecipients')}
          clearable
          w={220}
          data-testid="recipient-filter"
        />
      </Group>
      <QueryState
        query={recipients}
        retryLabel={t('retry')}
        errorPrefix={t('approved.recipientsFailed')}
        errorTestId="recipients-error"
        loadingLabel={t('loading')}
        retryIcon
        keepDataOnError
      >
        {({ totalRecords, data }) => (
          <DataTable
            rows={data}
            rowKey={(row) => row.id}
            rowTestId="recipient-row"
            testId="recipient-table"
            ariaLabel={t('approved.recipients')}
            minWidth={860}
            emptyText={status ? t('approved.noRecipientsFilter') : t('approved.noRecipients')}
            emptyTestId="recipients-empty"
            columns={[
              {
                key: 'patient',
                header: t('columns.patient'),
                cell: (row) => (
                  <Anchor component={Link} to={`/patients/patientdashboard/${row.patientId}`}>
                    {row.patientName}
                  </Anchor>
                ),
              },
              { key: 'language', header: t('columns.language'), cell: (row) => t(`languages.${row.language}`) },
              {
                key: 'sms',
                header: t('channels.sms'),
                cell: (row) => (
                  <Stack gap={2}>
                    <Text size="sm">{row.phoneMasked ?? '—'}</Text>
                    <ChannelStatus status={row.smsStatus} delivery={row.smsDelivery} />
                  </Stack>
                ),
              },
              {
                key: 'email',
                header: t('channels.email'),
                cell: (row) => (
                  <Stack gap={2}>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {row.emailMasked ?? '—'}
                    </Text>
                    <ChannelStatus status={row.emailStatus} delivery={row.emailDelivery} />
                  </Stack>
                ),
              },
              {
                key: 'skip',
                header: t('columns.skipReason'),
                cell: (row) => {
                  const lines = reasons(row);
                  return lines.length === 0 ? (
                    '—'
                  ) : (
                    <Stack gap={2} data-testid="recipient-reason">
                      {lines.map((line) => (
                        <Text key={line} size="sm">
                          {line}
                        </Text>
                      ))}
                    </Stack>
                  );
                },
              },
              {
                key: 'queued',
                header: t('columns.queuedAt'),
                cell: (row) => (row.queuedAt ? formatClinicDateTime(row.queuedAt, timeZone) : '—'),
              },
              { key: 'marks', header: t('columns.response'), cell: (row) => <Marks recipient={row} /> },
            ]}
            footer={
              <Pager
                totalRecords={totalRecords}
                pageNumber={pageNumber}
                onPage={setPageNumber}
                ariaLabel={t('approved.recipientPages')}
                summary={data.length > 0 ? rangeText(pageNumber, data.length, totalRecords, true) : undefined}
              />
            }
          />
        )}
      </QueryState>
    </Paper>
  );
}
