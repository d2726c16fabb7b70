import { Alert, Anchor, Badge, Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PathwayRunStatus, PathwayStepRun } from '@pathwell/contracts/pathways';
import { DataTable, QueryState } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { ApiError } from '../../lib/api-client';
import { formatClinicDate } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { pathwayApi, pathwayKeys, pathwayQueries } from './pathways.api';

export const runStatusColors: Record<PathwayRunStatus, string> = {
  pending: 'gray',
  sent: 'blue',
  completed: 'green',
  missed: 'red',
  skipped: 'yellow',
};

/** What a step does, in a few words: the questionnaire's title, or the message's start. */
export function useStepText() {
  const { t, i18n } = useTranslation('pathways');
  return (step: Pick<PathwayStepRun, 'kind' | 'formTitle' | 'messageEn' | 'messageEs'>) => {
    if (step.kind === 'pro') return step.formTitle ?? t('kinds.pro');
    if (step.kind === 'painJournal') return t('kinds.painJournal');
    const text = (i18n.language === 'es' && step.messageEs) || step.messageEn || '';
    return `${t(`kinds.${step.kind}`)}: ${text}`;
  };
}

function ScoreCell({ step }: { step: PathwayStepRun }) {
  const { t, i18n } = useTranslation('pathways');
  const score = step.score;
  if (!score) return <Text size="sm">—</Text>;
  const number = (value: number, signed = false) =>
    new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1, signDisplay: signed ? 'exceptZero' : 'auto' }).format(value);
  return (
    <Stack gap={2} data-testid="pathway-score">
      <Text size="sm" fw={600}>
        {score.headlineScore === null ? '—' : number(score.headlineScore)}
      </Text>
      {score.notScored ? (
        <Text size="xs" c="dimmed" data-testid="pathway-not-scored">
          {t('notScored')}
        </Text>
      ) : score.isBaseline ? (
        <Text size="xs" c="dimmed">
          {t('timeline.baseline')}
        </Text>
      ) : score.change === null ? (
        <Text size="xs" c="dimmed">
          {t('timeline.noBaseline')}
        </Text>
      ) : (
        <Text size="xs">{t('timeline.change', { change: number(score.change, true) })}</Text>
      )}
      {!score.isBaseline && score.change !== null ? (
        score.mcidPoints === null ? (
          <Text size="xs" c="dimmed">
            {t('timeline.noMcid')}
          </Text>
        ) : (
          <Badge size="sm" variant="light" color={score.meetsMcid ? 'green' : 'gray'} data-testid="pathway-mcid">
            {t(score.meetsMcid ? 'timeline.meetsMcid' : 'timeline.belowMcid', { points: score.mcidPoints })}
          </Badge>
        )
      ) : null}
    </Stack>
  );
}

/** /pathwaysresponse/:id: one patient's pathway, step by step, with the scores collected. */
export function PathwayTimeline({ enrolmentId, timeZone }: { enrolmentId: string; timeZone: string }) {
  const { t } = useTranslation('pathways');
  const queryClient = useQueryClient();
  const enrolment = useQuery(pathwayQueries.enrolment(enrolmentId));
  const stepText = useStepText();
  const [confirmStop, setConfirmStop] = useState(false);
  const refresh = (message: string) => {
    notify('success', message);
    void queryClient.invalidateQueries({ queryKey: pathwayKeys.all });
  };
  const stop = useMutation({
    mutationFn: () => pathwayApi.stop(enrolmentId),
    onSuccess: () => {
      setConfirmStop(false);
      refresh(t('timeline.stopped'));
    },
    onError: (failure) => notify('error', errorText(failure)),
  });
  const done = useMutation({
    mutationFn: (runId: string) => pathwayApi.taskDone(runId),
    onSuccess: () => refresh(t('timeline.taskMarked')),
    onError: (failure) => notify('error', errorText(failure)),
  });
  const missing = enrolment.error instanceof ApiError && (enrolment.error.status === 404 || enrolment.error.status === 400);

  return (
    <>
      <PageHeader title={enrolment.data ? enrolment.data.pathwayName : t('timeline.title')} description={t('timeline.title')} />
      <QueryState
        query={enrolment}
        retryLabel={t('retry')}
        errorPrefix={missing ? t('timeline.notFound') : t('timeline.loadFailed')}
        loadingLabel={t('timeline.loading')}
        errorTestId="pathway-timeline-error"
      >
        {(data) => (
          <Stack gap="md">
            {data.isExample ? <Alert color="yellow">{t('exampleNotice')}</Alert> : null}
            <Paper withBorder p="md">
              <Group justify="space-between" align="flex-start" wrap="wrap">
                <Stack gap={4}>
                  <Text>
                    {t('timeline.patient')}:{' '}
                    <Anchor component={Link} to={`/patients/patientdashboard/${data.patientId}`}>
                      {data.patientName}
                    </Anchor>
                  </Text>
                  <Group gap="xs">
                    <Badge
                      variant="light"
                      color={data.status === 'active' ? 'blue' : data.status === 'completed' ? 'green' : 'gray'}
                      data-testid="pathway-enrolment-status"
                    >
                      {t(`enrolmentStatuses.${data.status}`)}
                    </Badge>
                    <Text size="sm">{t('timeline.startedOn', { date: formatClinicDate(data.anchorAt, timeZone) })}</Text>
                    <Text size="sm" c="dimmed">
                      {t('timeline.startedBy', { how: t(`timeline.started.${data.startedBy}`) })}
                    </Text>
                    {data.completedAt ? (
                      <Text size="sm" c="dimmed">
                        {t('timeline.completedOn', { date: formatClinicDate(data.completedAt, timeZone) })}
                      </Text>
                    ) : null}
                  </Group>
                </Stack>
                {data.status === 'active' ? (
                  <Button color="red" variant="light" onClick={() => setConfirmStop(true)} data-testid="pathway-stop">
                    {t('timeline.stop')}
                  </Button>
                ) : null}
              </Group>
            </Paper>
            <DataTable
              rows={data.steps}
              rowKey={(step) => step.id}
              rowTestId="pathway-run"
              minWidth={860}
              ariaLabel={t('timeline.title')}
              emptyText={t('editor.noSteps')}
              columns={[
                {
                  key: 'due',
                  header: t('timeline.due'),
                  cell: (step) => (
                    <Stack gap={0}>
                      <Text size="sm">{formatClinicDate(step.dueAt, timeZone)}</Text>
                      <Text size="xs" c="dimmed">
                        {t('timeline.dayLabel', { day: step.dayOffset })}
                      </Text>
                    </Stack>
                  ),
                },
                { key: 'step', header: t('timeline.step'), cell: (step) => <Text size="sm">{stepText(step)}</Text> },
                {
                  key: 'status',
                  header: t('timeline.status'),
                  cell: (step) => (
                    <Stack gap={2} align="flex-start">
                      <Badge variant="light" color={runStatusColors[step.status]} miw="max-content">
                        {t(`statuses.${step.status}`)}
                      </Badge>
                      {step.skipReason ? (
                        <Text size="xs" c="dimmed">
                          {t(`skipReasons.${step.skipReason}`)}
                        </Text>
                      ) : null}
                      {step.completedAt && step.status === 'completed' ? (
                        <Text size="xs" c="dimmed">
                          {formatClinicDate(step.completedAt, timeZone)}
                        </Text>
                      ) : null}
                      {step.kind === 'task' && step.status === 'sent' ? (
                        <Button
                          size="compact-xs"
                          variant="light"
                          aria-label={t('timeline.taskDoneOf', { day: step.dayOffset })}
                          loading={done.isPending && done.variables === step.id}
                          onClick={() => done.mutate(step.id)}
                        >
                          {t('timeline.taskDone')}
                        </Button>
                      ) : null}
                    </Stack>
                  ),
                },
                {
                  key: 'reminders',
                  header: t('timeline.reminders'),
                  cell: (step) =>
                    step.reminderDays.length === 0
                      ? t('timeline.noReminders')
                      : t('timeline.remindersSent', { sent: step.remindersSent, planned: step.reminderDays.length }),
                },
                { key: 'score', header: t('timeline.score'), cell: (step) => <ScoreCell step={step} /> },
              ]}
            />
          </Stack>
        )}
      </QueryState>
      <Modal opened={confirmStop} onClose={() => setConfirmStop(false)} title={t('timeline.stop')}>
        <Stack>
          <Text>{t('timeline.stopConfirm')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmStop(false)}>
              {t('cancel')}
            </Button>
            <Button color="red" loading={stop.isPending} onClick={() => stop.mutate()} data-testid="pathway-stop-confirm">
              {t('timeline.stop')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
