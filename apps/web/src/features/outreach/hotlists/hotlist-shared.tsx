import { Badge, Group, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { HotlistProgress } from '@pathwell/contracts/hotlists';
import type { HotlistOutcome } from '@pathwell/contracts/outreach';
import type { Role } from '@pathwell/contracts/roles';
import { formatCount } from '../../../components/data-table';

export const outcomeColors: Record<HotlistOutcome, string> = {
  reachedBooked: 'green',
  reachedDeclined: 'orange',
  voicemail: 'blue',
  wrongNumber: 'gray',
  doNotCall: 'red',
};

/** Making, finishing and deleting lists is for managers (decision 0049); Staff work them. */
export const canManageHotlists = (role: Role) => role === 'SystemManager' || role === 'Admin';

export function OutcomeBadge({ outcome }: { outcome: HotlistOutcome | null }) {
  const { t } = useTranslation('outreachHotlists');
  if (!outcome) {
    return (
      <Badge variant="outline" color="gray" miw="max-content" data-testid="hotlist-outcome">
        {t('notCalled')}
      </Badge>
    );
  }
  return (
    <Badge variant="light" color={outcomeColors[outcome]} miw="max-content" data-testid="hotlist-outcome">
      {t(`outcome.${outcome}`)}
    </Badge>
  );
}

export function HotlistStatusBadge({ status }: { status: 'active' | 'finished' }) {
  const { t } = useTranslation('outreachHotlists');
  return (
    <Badge variant="light" color={status === 'active' ? 'teal' : 'gray'} miw="max-content" data-testid="hotlist-status">
      {t(`status.${status}`)}
    </Badge>
  );
}

/**
 * A list's progress as one bar: booked, declined and other final outcomes, call-backs waiting; the
 * empty rest is still to call. The sentence under it says the same in words.
 */
export function HotlistProgressBar({ name, progress }: { name: string; progress: HotlistProgress }) {
  const { t } = useTranslation('outreachHotlists');
  const total = Math.max(progress.total, 1);
  const otherSettled = progress.wrongNumber + progress.doNotCall;
  const sections = [
    { key: 'booked', value: progress.booked, color: 'green.7', label: t('progress.booked') },
    { key: 'declined', value: progress.declined, color: 'orange.7', label: t('progress.declined') },
    { key: 'otherSettled', value: otherSettled, color: 'gray.6', label: t('progress.otherSettled') },
    { key: 'callbacks', value: progress.callbacks, color: 'blue.6', label: t('progress.callbacks') },
  ].filter((section) => section.value > 0);
  return (
    <Stack gap={4} miw={220}>
      <Progress.Root size="lg" aria-label={t('progress.label', { name })} role="group">
        {sections.map((section) => (
          <Tooltip key={section.key} label={`${section.label}: ${formatCount(section.value)}`}>
            <Progress.Section
              value={(section.value / total) * 100}
              color={section.color}
              aria-label={`${section.label}: ${formatCount(section.value)}`}
            />
          </Tooltip>
        ))}
      </Progress.Root>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" data-testid="hotlist-progress-text">
          {t('progress.summary', {
            settled: formatCount(progress.settled),
            total: formatCount(progress.total),
            callbacks: formatCount(progress.callbacks),
            remaining: formatCount(progress.remaining),
          })}
        </Text>
        {progress.inCall > 0 ? (
          <Text size="sm" fw={500}>
            {t('progress.inCall', { count: progress.inCall })}
          </Text>
        ) : null}
      </Group>
    </Stack>
  );
}
