import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LoginResult } from '@pathwell/contracts/activity';
import type { ActivityAction } from '@pathwell/contracts/enums';
import { formatClinicDateTime, formatClinicRelative } from '../../lib/dates';

const actionColor: Record<ActivityAction, string> = {
  Created: 'teal',
  Updated: 'blue',
  Deleted: 'red',
  Viewed: 'gray',
  Sent: 'violet',
  Failed: 'orange',
};

export function ActionBadge({ action }: { action: ActivityAction }) {
  const { t } = useTranslation('activity');
  return (
    <Badge variant="light" color={actionColor[action]} style={{ minWidth: 'max-content' }}>
      {t(`actions.${action}`)}
    </Badge>
  );
}

export function ResultBadge({ result }: { result: LoginResult }) {
  const { t } = useTranslation('activity');
  return (
    <Badge variant="light" color={result === 'Failed' ? 'red' : 'teal'} style={{ minWidth: 'max-content' }}>
      {t(`results.${result}`)}
    </Badge>
  );
}

/** 'Today at 03:15 PM' on the clinic's clock, with the full date and time on hover. */
export function ClinicTime({ at, timeZone }: { at: string; timeZone: string }) {
  return (
    <Text component="time" dateTime={at} title={formatClinicDateTime(at, timeZone)} size="sm" style={{ whiteSpace: 'nowrap' }}>
      {formatClinicRelative(at, timeZone)}
    </Text>
  );
}

export function ActorCell({ name, email }: { name: string | null; email: string | null }) {
  const { t } = useTranslation('activity');
  return (
    <>
      <Text size="sm" fw={500}>
        {name ?? t('unknownUser')}
      </Text>
      {email ? (
        <Text size="xs" c="dimmed">
          {email}
        </Text>
      ) : null}
    </>
  );
}

export function targetText(entry: { targetType: string | null; targetId: string | null }) {
  return [entry.targetType, entry.targetId].filter(Boolean).join(' ');
}

/** What was acted on; its id (often a long identifier) small underneath, for matching with other records. */
export function TargetCell({ targetType, targetId }: { targetType: string | null; targetId: string | null }) {
  return (
    <>
      <Text size="sm">{targetType}</Text>
      {targetId ? (
        <Text size="xs" c="dimmed" ff="monospace" lineClamp={1} title={targetId} style={{ wordBreak: 'break-all' }}>
          {targetId}
        </Text>
      ) : null}
    </>
  );
}
