import { Anchor, Badge, Group, Loader, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isoToMdy } from '@pathwell/contracts/patients';
import { useSession } from '../../app/session-context';
import { ErrorAlert } from '../../components/error-alert';
import { ApiError } from '../../lib/api-client';
import { pumpRefillQueries } from './interventions.api';

/** Those who refill pumps and book the refills (decision 0062); System Managers do not get the card. */
const bookers = ['Admin', 'Doctor', 'Staff'];
const windows = [7, 30, 90] as const;

/**
 * Pain-pump refills coming due on the staff dashboard (issue #24): each patient's latest next refill
 * date, overdue first, with a link to the patient.
 */
export function PumpRefillsDueCard() {
  const { t } = useTranslation('interventions');
  const titleId = useId();
  const role = useSession().user.role;
  const [withinDays, setWithinDays] = useState<number>(30);
  const due = useQuery({ ...pumpRefillQueries.due(withinDays), enabled: bookers.includes(role) });
  // A role or clinic the list is not for answers 403/404: no card, as for the notes to sign.
  if (!bookers.includes(role) || (due.error instanceof ApiError && (due.error.status === 403 || due.error.status === 404)))
    return null;
  const rows = due.data?.data ?? [];
  return (
    <Paper withBorder p="md" mb="md" component="section" aria-labelledby={titleId} data-testid="pump-refills-due">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4" id={titleId}>
            {t('refills.title')}
            {rows.length > 0 ? ` (${rows.length})` : ''}
          </Title>
          <SegmentedControl
            size="xs"
            aria-label={t('refills.window')}
            value={String(withinDays)}
            onChange={(value) => setWithinDays(Number(value))}
            data={windows.map((days) => ({ value: String(days), label: t('refills.days', { count: days }) }))}
          />
        </Group>
        {due.isPending ? <Loader size="sm" aria-label={t('refills.loading')} /> : null}
        {due.isError ? <ErrorAlert>{t('refills.loadFailed')}</ErrorAlert> : null}
        {due.data && rows.length === 0 ? <Text c="dimmed">{t('refills.none', { count: withinDays })}</Text> : null}
        {rows.map((row) => (
          <Group key={row.interventionId} justify="space-between" wrap="nowrap" data-testid="pump-refill-due-row">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Anchor component={Link} to={`/patients/patientdashboard/${row.patientId}`} fw={600} size="sm">
                {row.patientName}
              </Anchor>
              <Text size="xs" c="dimmed">
                {[
                  t('refills.due', { date: isoToMdy(row.nextRefillDate) }),
                  row.medicines.filter(Boolean).join(', '),
                  t('refills.lastVisit', { date: isoToMdy(row.performedOn) }),
                  row.providerName,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
            </Stack>
            <Badge
              variant="light"
              color={row.daysUntil < 0 ? 'red' : row.daysUntil <= 7 ? 'orange' : 'gray'}
              miw="max-content"
              style={{ flexShrink: 0 }}
            >
              {row.daysUntil < 0
                ? t('refills.overdue', { count: -row.daysUntil })
                : row.daysUntil === 0
                  ? t('refills.today')
                  : t('refills.inDays', { count: row.daysUntil })}
            </Badge>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
