import { Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CampaignFunnel, CampaignSummary } from '@pathwell/contracts/campaigns';
import type { CampaignChannel, CampaignStatus } from '@pathwell/contracts/outreach';
import { ErrorAlert } from '../../../components/error-alert';
import { errorText } from '../../../lib/error-text';
import { i18n } from '../../../lib/i18n';

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

/** Asks before a step that cannot be undone; the server's refusal shows inside the dialog. */
export function ConfirmAction({
  opened,
  title,
  children,
  action,
  color = 'blue',
  onConfirm,
  onClose,
  testId = 'campaign-confirm',
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  action: string;
  color?: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
  testId?: string;
}) {
  const { t } = useTranslation('outreachCampaigns');
  const run = useMutation({ mutationFn: onConfirm, onSuccess: onClose });
  const close = () => {
    run.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <Stack gap="md">
        {run.isError ? <ErrorAlert testId={`${testId}-error`}>{errorText(run.error)}</ErrorAlert> : null}
        <Text>{children}</Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={close}>
            {t('actions.cancel')}
          </Button>
          <Button color={color} loading={run.isPending} onClick={() => run.mutate()} data-testid={testId}>
            {action}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
