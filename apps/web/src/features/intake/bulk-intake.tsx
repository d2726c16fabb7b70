import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCircleCheck, IconEye, IconRefresh, IconSend } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import { intakeSendChannels } from '@pathwell/contracts/intake';
import { isValidMdyDate } from '@pathwell/contracts/validation';
import { useSession } from '../../app/session-context';
import { DataTable, EmptyText, QueryState } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { ApiError } from '../../lib/api-client';
import { clinicToday } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { appointmentQueries } from '../appointments/appointments.api';
import {
  bulkIntakeApi,
  bulkIntakeKeys,
  bulkIntakeQueries,
  type BulkIntakeCandidate,
  type BulkIntakeChannel,
  type BulkIntakeProgress,
  type BulkIntakeQuery,
} from './bulk-intake.api';

const DAY_MS = 86_400_000;
/** The search parameter that keeps a sent batch on screen across a reload. */
const BATCH_PARAM = 'batch';

const formSchema = z.object({
  date: z.string().trim().min(1, 'required').max(10, 'dateInvalid').refine(isValidMdyDate, 'dateInvalid'),
  doctorIds: z.array(z.string()),
  send: z.array(z.enum(intakeSendChannels)).min(1, 'channelRequired'),
});
type FormValues = z.infer<typeof formSchema>;

const channelColor: Record<BulkIntakeChannel, string> = { email: 'blue', sms: 'grape' };

/** The server's validation key for the day, from a failed preview or send (400, `fields.date`). */
const dateFieldError = (error: unknown) => (error instanceof ApiError ? error.fields.date : undefined);

/**
 * /patients/bulkintakenotification: one day's patients (some or all providers) get their intake link
 * by email and/or text. A preview says who will get it and why not; a sent batch is followed with a
 * progress bar, its id kept in the address (?batch=) so a reload keeps showing it.
 */
export function BulkIntakeNotification() {
  const { t } = useTranslation('bulkIntake');
  const [params, setParams] = useSearchParams();
  const batchId = params.get(BATCH_PARAM);
  // Only a batch sent from this page takes the focus; after a reload the page title keeps it.
  const [justSent, setJustSent] = useState(false);

  const showBatch = (id: string) => {
    setJustSent(true);
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      next.set(BATCH_PARAM, id);
      return next;
    });
  };
  const startOver = () => {
    setJustSent(false);
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      next.delete(BATCH_PARAM);
      return next;
    });
  };

  return (
    <Stack gap="lg">
      <PageHeader title={t('title')} description={t('description')} />
      {batchId ? (
        <BatchProgress key={batchId} batchId={batchId} focusOnMount={justSent} onStartOver={startOver} />
      ) : (
        <BulkIntakeForm onSent={showBatch} />
      )}
    </Stack>
  );
}

function BulkIntakeForm({ onSent }: { onSent: (batchId: string) => void }) {
  const { t } = useTranslation('bulkIntake');
  const session = useSession();
  const queryClient = useQueryClient();
  const doctors = useQuery(appointmentQueries.doctors());
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    // Tomorrow on the clinic's calendar: links usually go out the day before the visits.
    defaultValues: { date: clinicToday(session.instance.timeZoneId, Date.now() + DAY_MS), doctorIds: [], send: ['email', 'sms'] },
  });
  const [applied, setApplied] = useState<BulkIntakeQuery | null>(null);
  const preview = useQuery({
    ...bulkIntakeQueries.preview(applied ?? { date: '', doctorIds: [], send: [] }),
    enabled: applied !== null,
  });
  const [confirming, setConfirming] = useState(false);
  const send = useMutation({
    mutationFn: bulkIntakeApi.send,
    onSuccess: (started) => {
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: bulkIntakeKeys.previews });
      notify('success', t('send.started', { count: started.links }));
      onSent(started.batchId);
    },
    onError: () => {
      setConfirming(false);
      // Someone may have sent links meanwhile: the preview shows the day as it is now.
      void queryClient.invalidateQueries({ queryKey: bulkIntakeKeys.previews });
    },
  });

  const submit = handleSubmit((values) => {
    const query: BulkIntakeQuery = {
      date: values.date,
      doctorIds: values.doctorIds,
      send: intakeSendChannels.filter((channel) => values.send.includes(channel)),
    };
    send.reset();
    if (applied && JSON.stringify(applied) === JSON.stringify(query)) void preview.refetch();
    else setApplied(query);
  });

  const serverDateError = dateFieldError(preview.error) ?? dateFieldError(send.error);
  const sendError = send.isError && !dateFieldError(send.error) ? send.error : null;

  return (
    <>
      <Card withBorder radius="lg" padding="md" component="form" onSubmit={submit} noValidate aria-label={t('form.label')}>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="sm">
            <TextInput
              label={t('form.date')}
              description={t('form.dateHint')}
              placeholder="MM/DD/YYYY"
              inputMode="numeric"
              maxLength={10}
              required
              error={translateValidation(errors.date?.message ?? serverDateError)}
              {...register('date')}
              data-testid="bulk-intake-date"
            />
            <Controller
              control={control}
              name="doctorIds"
              render={({ field }) => (
                <MultiSelect
                  label={t('form.providers')}
                  description={t('form.providersHint')}
                  placeholder={field.value.length === 0 ? t('form.allProviders') : undefined}
                  data={doctors.data ?? []}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  searchable
                  clearable
                  nothingFoundMessage={t('form.noProviderFound')}
                  comboboxProps={{ withinPortal: true }}
                  data-testid="bulk-intake-providers"
                />
              )}
            />
            <Controller
              control={control}
              name="send"
              render={({ field }) => (
                <Checkbox.Group
                  label={t('form.channels')}
                  description={t('form.channelsHint')}
                  value={field.value}
                  onChange={(value) => field.onChange(value)}
                  error={errors.send ? t('form.channelRequired') : undefined}
                  withAsterisk
                >
                  <Group gap="lg" mt="xs">
                    {intakeSendChannels.map((channel) => (
                      <Checkbox key={channel} value={channel} label={t(`channels.${channel}`)} onBlur={field.onBlur} />
                    ))}
                  </Group>
                </Checkbox.Group>
              )}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button
              type="submit"
              leftSection={<IconEye size={16} aria-hidden />}
              loading={preview.isFetching}
              data-testid="bulk-intake-preview"
            >
              {t('form.preview')}
            </Button>
          </Group>
        </Stack>
      </Card>

      {applied && !dateFieldError(preview.error) ? (
        <Card withBorder radius="lg" padding="md" component="section" aria-labelledby="bulk-intake-results-title">
          <Title order={2} size="h4" mb="sm" id="bulk-intake-results-title">
            {t('preview.title', { date: applied.date })}
          </Title>
          <QueryState
            query={preview}
            retryLabel={t('retry')}
            retryIcon
            errorTestId="bulk-intake-preview-error"
            loadingLabel={t('preview.loading')}
          >
            {({ candidates }) => (
              <PreviewResults query={applied} candidates={candidates} sendError={sendError} onSend={() => setConfirming(true)} />
            )}
          </QueryState>
        </Card>
      ) : null}

      <Modal
        opened={confirming}
        onClose={() => {
          if (!send.isPending) setConfirming(false);
        }}
        title={t('confirm.title')}
        centered
      >
        <Stack gap="md">
          <Text>
            {t('confirm.text', {
              count: preview.data?.candidates.filter((candidate) => candidate.channels.length > 0).length ?? 0,
              date: applied?.date ?? '',
            })}
          </Text>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setConfirming(false)} disabled={send.isPending}>
              {t('common:cancel')}
            </Button>
            <Button
              leftSection={<IconSend size={16} aria-hidden />}
              loading={send.isPending}
              onClick={() => {
                if (applied) send.mutate(applied);
              }}
              data-testid="bulk-intake-confirm"
            >
              {t('confirm.send')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function PreviewResults({
  query,
  candidates,
  sendError,
  onSend,
}: {
  query: BulkIntakeQuery;
  candidates: BulkIntakeCandidate[];
  sendError: unknown;
  onSend: () => void;
}) {
  const { t } = useTranslation('bulkIntake');
  if (candidates.length === 0) {
    return (
      <EmptyText testId="bulk-intake-empty">
        {t(query.doctorIds.length > 0 ? 'preview.emptyForProviders' : 'preview.empty', { date: query.date })}
      </EmptyText>
    );
  }
  const reachable = candidates.filter((candidate) => candidate.channels.length > 0).length;
  return (
    <Stack gap="sm">
      {sendError ? <ErrorAlert testId="bulk-intake-send-error">{errorText(sendError)}</ErrorAlert> : null}
      <Group justify="space-between" gap="sm">
        <Text fw={500} aria-live="polite" data-testid="bulk-intake-summary">
          {t('preview.summary', { reachable, count: candidates.length })}
        </Text>
        <Button
          leftSection={<IconSend size={16} aria-hidden />}
          disabled={reachable === 0}
          onClick={onSend}
          data-testid="bulk-intake-send"
        >
          {t('send.button', { count: reachable })}
        </Button>
      </Group>
      <DataTable
        rows={candidates}
        rowKey={(row) => row.appointmentId}
        rowTestId="bulk-intake-row"
        minWidth={640}
        ariaLabel={t('preview.tableLabel')}
        columns={[
          {
            key: 'time',
            header: t('columns.time'),
            cell: (row) => row.timeText,
            tdProps: { style: { whiteSpace: 'nowrap' } },
          },
          {
            key: 'patient',
            header: t('columns.patient'),
            cell: (row) => (
              <Anchor component={Link} to={`/patients/patientdashboard/${row.patientId}`}>
                {row.patientName}
              </Anchor>
            ),
          },
          { key: 'provider', header: t('columns.provider'), cell: (row) => row.doctorName ?? '—' },
          {
            key: 'receives',
            header: t('columns.receives'),
            cell: (row) =>
              row.channels.length > 0 ? (
                <Group gap={4} wrap="nowrap">
                  {row.channels.map((channel) => (
                    <Badge key={channel} variant="light" color={channelColor[channel]} data-testid="bulk-intake-channel">
                      {t(`channels.short.${channel}`)}
                    </Badge>
                  ))}
                </Group>
              ) : (
                <Text size="sm" c="dimmed" data-testid="bulk-intake-reason">
                  {t(`reasons.${row.reason ?? 'noContact'}`)}
                </Text>
              ),
          },
        ]}
      />
    </Stack>
  );
}

function BatchProgress({
  batchId,
  focusOnMount,
  onStartOver,
}: {
  batchId: string;
  focusOnMount: boolean;
  onStartOver: () => void;
}) {
  const { t } = useTranslation('bulkIntake');
  const progress = useQuery(bulkIntakeQueries.progress(batchId));
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusOnMount) headingRef.current?.focus();
  }, [focusOnMount]);
  const finished = progress.data?.waiting === 0;

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="bulk-intake-progress-title">
      <Stack gap="md">
        <Title order={2} size="h4" id="bulk-intake-progress-title" ref={headingRef} tabIndex={-1}>
          {t('progress.title')}
        </Title>
        <QueryState
          query={progress}
          retryLabel={t('retry')}
          retryIcon
          errorTestId="bulk-intake-progress-error"
          loadingLabel={t('progress.loading')}
        >
          {(data) => <ProgressDetails progress={data} />}
        </QueryState>
        {finished || progress.isError ? (
          <Group>
            <Button
              variant={finished ? 'filled' : 'light'}
              leftSection={<IconRefresh size={16} aria-hidden />}
              onClick={onStartOver}
              data-testid="bulk-intake-start-over"
            >
              {t('progress.startOver')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}

function ProgressDetails({ progress }: { progress: BulkIntakeProgress }) {
  const { t } = useTranslation('bulkIntake');
  const finished = progress.waiting === 0;
  const done = progress.total - progress.waiting;
  const value = progress.total > 0 ? Math.round((done / progress.total) * 100) : 100;
  // "12 of 14 messages sent · 1 failed · 1 not sent (no provider)"
  const parts = [t('progress.sent', { sent: progress.sent, count: progress.total })];
  if (progress.waiting > 0) parts.push(t('progress.waiting', { count: progress.waiting }));
  if (progress.failed > 0) parts.push(t('progress.failed', { count: progress.failed }));
  if (progress.notSent > 0) parts.push(t('progress.notSent', { count: progress.notSent }));
  return (
    <Stack gap="sm">
      <Progress
        value={value}
        size="lg"
        radius="xl"
        color={finished ? 'teal' : 'blue'}
        striped={!finished}
        animated={!finished}
        aria-label={t('progress.barLabel')}
        data-testid="bulk-intake-progress"
      />
      <Text aria-live="polite" data-testid="bulk-intake-progress-label">
        {parts.join(' · ')}
      </Text>
      {finished ? (
        <Alert
          color="teal"
          variant="light"
          icon={<IconCircleCheck size={18} aria-hidden />}
          title={t('progress.doneTitle')}
          data-testid="bulk-intake-done"
        >
          <Text size="sm">{t('progress.doneText', { count: progress.sent })}</Text>
          {progress.failed > 0 || progress.notSent > 0 ? (
            <Text size="sm" mt={4}>
              {t('progress.problemsHint')}{' '}
              <Anchor component={Link} to="/communicationdashboard" size="sm">
                {t('progress.communicationsLink')}
              </Anchor>
            </Text>
          ) : null}
        </Alert>
      ) : null}
    </Stack>
  );
}
