import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ActivityEntry } from '@pathwell/contracts/activity';
import { ActionBadge, ClinicTime, targetText } from './activity-parts';

/** A short list of log entries (the admin dashboard shows the latest ten), linking to the full log. */
export function ActivityFeed({ entries, timeZone }: { entries: ActivityEntry[]; timeZone: string }) {
  const { t } = useTranslation('activity');
  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby="activity-feed-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="activity-feed-title">
          {t('latestTitle')}
        </Title>
        <Anchor component={Link} to="/activitylogs" size="sm">
          {t('viewAll')}
        </Anchor>
      </Group>
      {entries.length === 0 ? (
        <Text c="dimmed">{t('latestEmpty')}</Text>
      ) : (
        <Stack gap={0} component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {entries.map((entry) => (
            <Group
              key={entry.id}
              component="li"
              justify="space-between"
              align="flex-start"
              wrap="nowrap"
              gap="md"
              py="xs"
              style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
              data-testid="activity-feed-entry"
            >
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Group gap="xs" wrap="wrap">
                  <Text size="sm" fw={500}>
                    {entry.userName ?? entry.email ?? t('unknownUser')}
                  </Text>
                  <ActionBadge action={entry.action} />
                  <Text size="sm" c="dimmed">
                    {t(`areas.${entry.area}`)}
                  </Text>
                </Group>
                <Text size="sm" c="dimmed" lineClamp={1}>
                  {entry.description ?? targetText(entry)}
                </Text>
              </Stack>
              <ClinicTime at={entry.createdAt} timeZone={timeZone} />
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
