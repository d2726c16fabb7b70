import { Badge, Group, Text } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { CampaignDetail, CampaignFunnel, CampaignSummary, CampaignWaiting } from '@pathwell/contracts/campaigns';
import { useSession } from '../../../app/session-context';
import { formatClinicDateTime } from '../../../lib/dates';
import type { CampaignChannel, CampaignStatus } from '@pathwell/contracts/outreach';
import { ConfirmAction } from '../../../components/confirm-action';
import { i18n } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { campaignApi } from './campaigns.api';

/** Where a campaign leads: a draft to its overview (edit, approve), a sent one to its progress. */
export const campaignPath = (campaign: Pick<CampaignSummary, 'id' | 'status'>) =>
  campaign.status === 'draft' ? `/patientcampaigns/${campaign.id}` : `/approvedcampaign/${campaign.id}`;

const statusColors: Record<CampaignStatus, string> = { draft: 'gray', approved: 'blue', finished: 'teal', archived: 'dark' };

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  const { t } = useTranslation('outreachCampaigns');
  return (
    <Badge component="span" variant="light" color={statusColors[status]} miw="max-content" data-testid="campaign-status">
      {t(`status.${status}`)}
    </Badge>
  );
}

export function channelsText(channels: readonly CampaignChannel[]): string {
  return channels.map((channel) => i18n.t(`outreachCampaigns:channels.${channel}`)).join(', ');
}

/**
 * An approved campaign that is not sending yet says why and when it starts (issue #24 §3): its scheduled
 * time, or the clinic's sending hours.
 */
export function WaitingNote({ waiting, size = 'sm' }: { waiting: CampaignWaiting; size?: 'xs' | 'sm' }) {
  const { t } = useTranslation('outreachCampaigns');
  const timeZone = useSession().instance.timeZoneId;
  if (!waiting) return null;
  return (
    <Group gap={4} wrap="nowrap" align="flex-start" data-testid="campaign-waiting">
      <IconClock size={16} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
      <Text size={size}>{t(`waiting.${waiting.reason}`, { when: formatClinicDateTime(waiting.until, timeZone) })}</Text>
    </Group>
  );
}

/** A number as the user's language writes it. */
export const formatNumber = (value: number) => new Intl.NumberFormat(i18n.language === 'es' ? 'es-ES' : 'en-US').format(value);

/** A share of a whole ("—" when the whole is 0). */
export function rateText(part: number, whole: number): string {
  if (whole === 0) return '—';
  return new Intl.NumberFormat(i18n.language === 'es' ? 'es-ES' : 'en-US', {
    style: 'percent',
    maximumFractionDigits: 1,
  }).format(part / whole);
}

/** Recipients → sent → replied → booked in one line of a table cell. */
export function CompactFunnel({ funnel }: { funnel: CampaignFunnel }) {
  const { t } = useTranslation('outreachCampaigns');
  const steps = [
    ['recipients', funnel.recipients],
    ['sent', funnel.sent],
    ['replied', funnel.replied],
    ['booked', funnel.booked],
  ] as const;
  return (
    <Group gap={6} wrap="nowrap" data-testid="campaign-funnel">
      {steps.map(([key, value], index) => (
        <Text key={key} size="sm" span>
          {index > 0 ? <span aria-hidden>→ </span> : null}
          <Text span fw={600} size="sm">
            {formatNumber(value)}
          </Text>{' '}
          {t(`funnel.${key}`)}
        </Text>
      ))}
    </Group>
  );
}

/** Archiving a campaign that has sent (a draft or a sent campaign's overview and its progress page). */
export function ArchiveCampaignConfirm({
  campaignId,
  opened,
  onClose,
  onArchived,
}: {
  campaignId: string;
  opened: boolean;
  onClose: () => void;
  onArchived: (detail: CampaignDetail) => void;
}) {
  const { t } = useTranslation('outreachCampaigns');
  return (
    <ConfirmAction
      opened={opened}
      title={t('overview.archiveTitle')}
      action={t('actions.archive')}
      color="blue"
      testId="campaign-archive-confirm"
      onClose={onClose}
      onConfirm={async () => {
        onArchived(await campaignApi.archive(campaignId));
        notify('success', t('overview.archived'));
      }}
    >
      {t('overview.archiveText')}
    </ConfirmAction>
  );
}
