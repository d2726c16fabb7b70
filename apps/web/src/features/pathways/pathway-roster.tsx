import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PathwayRosterStep } from '@pathwell/contracts/pathways';
import { DataTable, Pager, QueryState } from '../../components/data-table';
import { formatClinicDate } from '../../lib/dates';
import { ROSTER_PAGE_SIZE, pathwayQueries } from './pathways.api';
import { runStatusColors } from './pathway-timeline';

/** One step's result in a line: its status (answered, with the score), then the day, what it was, why skipped, and when. */
function StepLine({ step, timeZone }: { step: PathwayRosterStep; timeZone: string }) {
  const { t, i18n } = useTranslation('pathways');
  const what = step.kind === 'pro' ? (step.formTitle ?? t('kinds.pro')) : t(`kinds.${step.kind}`);
  const answered = step.status === 'completed' && (step.kind === 'pro' || step.kind === 'painJournal');
  const status = answered ? t('roster.answered') : t(`statuses.${step.status}`);
  const score =
    step.headlineScore === null
      ? null
      : new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(step.headlineScore);
  const when =
    step.status === 'pending'
      ? t('roster.dueOn', { date: formatClinicDate(step.dueAt, timeZone) })
      : formatClinicDate(step.completedAt ?? step.sentAt ?? step.dueAt, timeZone);
  const detail = [
    t('timeline.dayLabel', { day: step.dayOffset }),
    what,
    step.skipReason ? t(`skipReasons.${step.skipReason}`) : null,
    step.notScored ? t('notScored') : null,
    when,
  ]
    .filter(Boolean)
    .join(' · ');
  // Written out rather than in a tooltip, so it reads the same by mouse, keyboard and screen reader.
  return (
    <Group gap={6} wrap="nowrap" align="baseline" data-testid="roster-step">
      <Badge variant="light" color={runStatusColors[step.status]} tt="none" fw={500} miw="max-content">
        {score === null ? status : `${status} · ${t('roster.score', { score })}`}
      </Badge>
      <Text size="xs">{detail}</Text>
    </Group>
  );
}

/**
 * A pathway's roster (issue #24 §5): the patients enrolled, running ones first, with each step's
 * result; a Doctor's list holds their own patients only (the server decides).
 */
export function PathwayRoster({ pathwayId, timeZone }: { pathwayId: string; timeZone: string }) {
  const { t } = useTranslation('pathways');
  const [pageNumber, setPageNumber] = useState(0);
  const roster = useQuery({ ...pathwayQueries.roster(pathwayId, pageNumber), placeholderData: keepPreviousData });

  return (
    <QueryState
      query={roster}
      retryLabel={t('retry')}
      errorPrefix={t('roster.loadFailed')}
      loadingLabel={t('roster.loading')}
      errorTestId="pathway-roster-error"
    >
      {(page) => (
        <Stack gap="sm" data-testid="pathway-roster">
          <Text size="sm" c="dimmed" data-testid="pathway-roster-total">
            {t('roster.total', { count: page.totalRecords })}
          </Text>
          <DataTable
            rows={page.data}
            rowKey={(row) => row.enrolmentId}
            rowTestId="pathway-roster-row"
            minWidth={720}
            ariaLabel={t('roster.title')}
            emptyText={t('roster.empty')}
            emptyTestId="pathway-roster-empty"
            columns={[
              {
                key: 'patient',
                header: t('timeline.patient'),
                cell: (row) => (
                  <Stack gap={2}>
                    <Anchor component={Link} to={`/pathwaysresponse/${row.enrolmentId}`} fw={600} size="sm">
                      {row.patientName}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {t('timeline.startedOn', { date: formatClinicDate(row.anchorAt, timeZone) })}
                    </Text>
                  </Stack>
                ),
              },
              {
                key: 'status',
                header: t('timeline.status'),
                cell: (row) => (
                  <Badge
                    variant="light"
                    color={row.status === 'active' ? 'blue' : row.status === 'completed' ? 'green' : 'gray'}
                    miw="max-content"
                  >
                    {t(`enrolmentStatuses.${row.status}`)}
                  </Badge>
                ),
              },
              {
                key: 'steps',
                header: t('roster.steps'),
                cell: (row) => (
                  <Stack gap={4}>
                    {row.steps.map((step) => (
                      <StepLine key={step.runId} step={step} timeZone={timeZone} />
                    ))}
                  </Stack>
                ),
              },
            ]}
          />
          <Pager
            totalRecords={page.totalRecords}
            pageSize={ROSTER_PAGE_SIZE}
            pageNumber={pageNumber}
            onPage={setPageNumber}
            ariaLabel={t('roster.pages')}
            testId="pathway-roster-pager"
          />
        </Stack>
      )}
    </QueryState>
  );
}
