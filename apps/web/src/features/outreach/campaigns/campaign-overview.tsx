import { Alert, Anchor, Button, Group, List, Loader, Modal, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconCheck, IconEdit, IconInfoCircle, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { CampaignDetail } from '@pathwell/contracts/campaigns';
import { isoToMdy } from '@pathwell/contracts/patients';
import { useSession } from '../../../app/session-context';
import { Pager, QueryState } from '../../../components/data-table';
import { ErrorAlert } from '../../../components/error-alert';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-client';
import { formatClinicDateTime } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
import { ConfirmAction } from '../../../components/confirm-action';
import { notify } from '../../../lib/notify';
import { campaignApi, campaignKeys, campaignQueries } from './campaigns.api';
import { ArchiveCampaignConfirm, CampaignStatusBadge, WaitingNote, channelsText, formatNumber } from './campaign-shared';

type Pending = 'approve' | 'delete' | 'archive' | null;

/** /patientcampaigns/:id (issue #15 §3): what a campaign says and to whom, and what may be done with it now. */
export function CampaignOverview({ campaignId }: { campaignId: string }) {
  const { t } = useTranslation('outreachCampaigns');
  const campaign = useQuery(campaignQueries.one(campaignId));
  return (
    <QueryState
      query={campaign}
      retryLabel={t('retry')}
      errorPrefix={t('overview.loadFailed')}
      errorTestId="campaign-error"
      loadingLabel={t('loading')}
      retryIcon
    >
      {(data) => <OverviewView campaign={data} />}
    </QueryState>
  );
}

function OverviewView({ campaign }: { campaign: CampaignDetail }) {
  const { t } = useTranslation('outreachCampaigns');
  const timeZone = useSession().instance.timeZoneId;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Pending>(null);
  const [deleteRefused, setDeleteRefused] = useState(false);
  const when = (value: string | null) => (value ? formatClinicDateTime(value, timeZone) : '—');
  const saved = (detail: CampaignDetail) => {
    queryClient.setQueryData(campaignKeys.one(detail.id), detail);
    void queryClient.invalidateQueries({ queryKey: ['campaigns', 'list'] });
  };

  const details: [string, string][] = [
    [t('columns.status'), t(`status.${campaign.status}`)],
    [t('overview.template'), campaign.templateName ?? '—'],
    [t('columns.channels'), channelsText(campaign.channels)],
    [t('columns.scheduled'), campaign.scheduledAt ? when(campaign.scheduledAt) : t('dashboard.whenApproved')],
    [t('overview.throttle'), t('overview.perMinute', { count: campaign.throttlePerMinute })],
    [t('overview.attribution'), t('overview.days', { count: campaign.attributionDays })],
    [t('overview.link'), campaign.linkUrl ?? '—'],
    [t('overview.createdBy'), `${campaign.createdByName ?? '—'} · ${when(campaign.createdAt)}`],
    [t('columns.approved'), campaign.approvedAt ? `${campaign.approvedByName ?? '—'} · ${when(campaign.approvedAt)}` : '—'],
    [t('columns.finished'), when(campaign.finishedAt)],
  ];

  return (
    <>
      <PageHeader
        title={campaign.name}
        description={<CampaignStatusBadge status={campaign.status} />}
        actions={
          <Group gap="xs">
            {campaign.can.edit ? (
              <Button
                component={Link}
                to={`/editcampaign/${campaign.id}`}
                variant="default"
                leftSection={<IconEdit size={16} aria-hidden />}
                data-testid="campaign-edit"
              >
                {t('actions.edit')}
              </Button>
            ) : null}
            {campaign.can.delete ? (
              <Button
                variant="default"
                color="red"
                leftSection={<IconTrash size={16} aria-hidden />}
                onClick={() => setPending('delete')}
                data-testid="campaign-delete"
              >
                {t('actions.delete')}
              </Button>
            ) : null}
            {campaign.can.archive ? (
              <Button variant="default" onClick={() => setPending('archive')} data-testid="campaign-archive">
                {t('actions.archive')}
              </Button>
            ) : null}
            {campaign.can.approve ||
            campaign.approveBlockedReason === 'author' ||
            campaign.approveBlockedReason === 'channelOff' ? (
              <Button
                leftSection={<IconCheck size={16} aria-hidden />}
                onClick={() => setPending('approve')}
                disabled={!campaign.can.approve}
                aria-describedby={
                  campaign.can.approve
                    ? undefined
                    : campaign.approveBlockedReason === 'author'
                      ? 'campaign-approve-blocked'
                      : 'campaign-channel-off'
                }
                data-testid="campaign-approve"
              >
                {t('actions.approve')}
              </Button>
            ) : null}
          </Group>
        }
      />
      <Stack gap="lg">
        {campaign.approveBlockedReason === 'author' ? (
          <Alert
            id="campaign-approve-blocked"
            color="blue"
            variant="light"
            icon={<IconInfoCircle size={18} aria-hidden />}
            data-testid="campaign-approve-blocked"
          >
            {t('overview.approveBlockedAuthor')}
          </Alert>
        ) : null}
        {campaign.status === 'draft' && campaign.channelsOff.length > 0 ? (
          <Alert id="campaign-channel-off" color="yellow" variant="light" data-testid="campaign-channel-off">
            <Stack gap={4}>
              {campaign.channelsOff.map((channel) => (
                <Text key={channel} size="sm">
                  {t(`form.channelsOff_${channel}`)}
                </Text>
              ))}
            </Stack>
          </Alert>
        ) : null}
        <WaitingNote waiting={campaign.waiting} />
        {deleteRefused ? (
          <Alert color="yellow" variant="light" data-testid="campaign-delete-refused">
            {t('overview.deleteRefused')}
          </Alert>
        ) : null}
        {campaign.status !== 'draft' ? (
          <Anchor component={Link} to={`/approvedcampaign/${campaign.id}`} data-testid="campaign-progress-link">
            {t('overview.progressLink')}
          </Anchor>
        ) : null}
        <Paper withBorder radius="lg" p="md">
          <Title order={2} size="h4" mb="sm">
            {t('overview.details')}
          </Title>
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing={6} data-testid="campaign-details">
              <Table.Tbody>
                {details.map(([label, value]) => (
                  <Table.Tr key={label}>
                    <Table.Th scope="row" w={240}>
                      {label}
                    </Table.Th>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
        <Paper withBorder radius="lg" p="md">
          <Title order={2} size="h4">
            {t('overview.preview')}
          </Title>
          <Text size="sm" mb="sm">
            {t('overview.previewHelp')}
          </Text>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {(['en', 'es'] as const).map((language) => (
              <Stack key={language} gap={4}>
                <Text fw={600}>{t(`overview.previewIn.${language}`)}</Text>
                {campaign.channels.includes('email') ? (
                  <Text size="sm">
                    {t('overview.subject')}: {(language === 'en' ? campaign.subjectEn : campaign.subjectEs) ?? '—'}
                  </Text>
                ) : null}
                <Paper
                  withBorder
                  radius="md"
                  p="sm"
                  bg="gray.0"
                  style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                  data-testid={`campaign-preview-${language}`}
                >
                  {campaign.preview[language]}
                </Paper>
              </Stack>
            ))}
          </SimpleGrid>
        </Paper>
        <Group>
          <Anchor component={Link} to="/patientcampaigns/dashboard">
            {t('actions.backToCampaigns')}
          </Anchor>
        </Group>
      </Stack>

      {pending === 'approve' ? (
        <ApproveDialog
          campaign={campaign}
          onClose={() => setPending(null)}
          onApproved={(detail) => {
            saved(detail);
            notify('success', t('overview.approved'));
            void navigate(`/approvedcampaign/${detail.id}`);
          }}
        />
      ) : null}
      <ConfirmAction
        opened={pending === 'delete'}
        title={t('overview.deleteTitle')}
        action={t('actions.delete')}
        color="red"
        testId="campaign-delete-confirm"
        onClose={() => setPending(null)}
        onConfirm={async () => {
          try {
            await campaignApi.remove(campaign.id);
          } catch (error) {
            // Something was sent meanwhile: the campaign can only be archived now.
            if (error instanceof ApiError && error.status === 409) {
              setDeleteRefused(true);
              void queryClient.invalidateQueries({ queryKey: campaignKeys.one(campaign.id) });
            }
            throw error;
          }
          queryClient.removeQueries({ queryKey: campaignKeys.one(campaign.id) });
          void queryClient.invalidateQueries({ queryKey: ['campaigns', 'list'] });
          notify('success', t('overview.deleted'));
          void navigate('/patientcampaigns/dashboard');
        }}
      >
        {t('overview.deleteText')}
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

/**
 * Approving: the approver reads how many and which patients will be messaged (paged) before saying yes,
 * and the approval names the content digest of the page they read (issue #24 §3). When someone changed
 * the campaign meanwhile the server refuses (409); the page reloads the new content for review.
 */
function ApproveDialog({
  campaign,
  onClose,
  onApproved,
}: {
  campaign: CampaignDetail;
  onClose: () => void;
  onApproved: (detail: CampaignDetail) => void;
}) {
  const { t } = useTranslation('outreachCampaigns');
  const queryClient = useQueryClient();
  const [pageNumber, setPageNumber] = useState(0);
  const audience = useQuery(campaignQueries.approvalAudience(campaign.id, pageNumber));
  const approve = useMutation({
    mutationFn: () => campaignApi.approve(campaign.id, campaign.contentHash),
    onSuccess: onApproved,
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) {
        void queryClient.invalidateQueries({ queryKey: campaignKeys.one(campaign.id) });
        void queryClient.invalidateQueries({ queryKey: ['campaigns', 'approvalAudience', campaign.id] });
      }
    },
  });
  let who;
  if (audience.isError) {
    who = <ErrorAlert testId="campaign-approve-audience-error">{t('overview.approveAudienceFailed')}</ErrorAlert>;
  } else if (!audience.data) {
    who = (
      <Group gap="xs">
        <Loader size="xs" aria-hidden />
        <Text size="sm">{t('loading')}</Text>
      </Group>
    );
  } else if (audience.data.totalRecords === 0) {
    who = <Text data-testid="campaign-approve-audience-empty">{t('overview.approveAudienceEmpty')}</Text>;
  } else {
    const { totalRecords, data } = audience.data;
    who = (
      <Stack gap="xs">
        <Text fw={600} data-testid="campaign-approve-count">
          {t('overview.approveAudience', { count: totalRecords, formatted: formatNumber(totalRecords) })}
        </Text>
        <List size="sm" data-testid="campaign-approve-audience">
          {data.map((patient) => (
            <List.Item key={patient.patientId}>
              {patient.lastName}, {patient.firstName} · {isoToMdy(patient.dateOfBirth)}
            </List.Item>
          ))}
        </List>
        <Pager
          totalRecords={totalRecords}
          pageNumber={pageNumber}
          onPage={setPageNumber}
          ariaLabel={t('overview.approveAudiencePages')}
        />
      </Stack>
    );
  }
  return (
    <Modal opened onClose={onClose} title={t('overview.approveTitle')} centered size="lg">
      <Stack gap="md">
        {approve.isError ? <ErrorAlert testId="campaign-approve-confirm-error">{errorText(approve.error)}</ErrorAlert> : null}
        <Text>{t('overview.approveText')}</Text>
        {who}
        <Text size="sm">{t('overview.approveReviewed')}</Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          <Button
            loading={approve.isPending}
            disabled={!audience.data || (approve.error instanceof ApiError && approve.error.status === 409)}
            onClick={() => approve.mutate()}
            data-testid="campaign-approve-confirm"
          >
            {t('actions.approve')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
