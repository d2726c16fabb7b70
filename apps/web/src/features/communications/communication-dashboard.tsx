import { BarChart } from '@mantine/charts';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconDownload, IconFilter, IconPaperclip, IconSend, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  COMMUNICATION_PAGE_SIZE,
  communicationFilterSchema,
  isMessageReason,
  messageTemplates,
  outboxChannels,
  outboxStatuses,
  type CommunicationFilter,
  type CommunicationMessage,
} from '@pathwell/contracts/messaging';
import { useSession } from '../../app/session-context';
import { DataTable, PagedResults, rangeText } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { DailyCapCard } from './daily-cap-card';
import { formatClinicDateTime } from '../../lib/dates';
import { downloadFile } from '../../lib/download';
import { errorText } from '../../lib/error-text';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { api } from '../../lib/api-client';
import { AttachmentPreview, type OpenedAttachment } from './attachment-preview';
import { communicationKeys, communicationQueries } from './communications.api';
import { formatFileSize } from './file-size';
import { outboxStatusColor } from './status';

type Filters = { startDate: string; endDate: string; channel: string; status: string; template: string };
const noFilters: Filters = { startDate: '', endDate: '', channel: '', status: '', template: '' };

/** Communication dashboard (issue #11 §3; System Manager and Admin). */
export function CommunicationDashboard() {
  const { t, i18n } = useTranslation('communications');
  const session = useSession();
  const timeZone = session.instance.timeZoneId;
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Filters>(noFilters);
  const [applied, setApplied] = useState<Filters>(noFilters);
  const [pageNumber, setPageNumber] = useState(0);
  const [exactTotal, setExactTotal] = useState(false);
  // The patient filter is set from a row ("only this patient") and shown as a removable chip.
  const [patient, setPatient] = useState<{ id: string; name: string } | null>(null);
  // A message's file (a support request's screenshot) open in a dialog.
  const [openedFile, setOpenedFile] = useState<OpenedAttachment | null>(null);
  const filter: CommunicationFilter = {
    ...applied,
    patientId: patient?.id,
    paginationFilter: { pageSize: COMMUNICATION_PAGE_SIZE, pageNumber, exactTotal },
  };
  const page = useQuery(communicationQueries.page(filter));
  const counts = useQuery(communicationQueries.counts());
  const resend = useMutation({
    mutationFn: (id: string) => api.post<CommunicationMessage>(`/api/communications/${id}/resend`),
    onSuccess: () => {
      notify('success', t('resent'));
      void queryClient.invalidateQueries({ queryKey: communicationKeys.all });
    },
    onError: (error) => notify('error', errorText(error)),
  });

  // The dates are checked here with the contract's own schema, so a mistyped one shows under its field.
  const dateErrors = (() => {
    const parsed = communicationFilterSchema.safeParse({ startDate: draft.startDate, endDate: draft.endDate });
    if (parsed.success) return {};
    return Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), translateValidation(issue.message)]));
  })();
  const [showDateErrors, setShowDateErrors] = useState(false);
  const apply = () => {
    setShowDateErrors(true);
    if (Object.keys(dateErrors).length > 0) return;
    setApplied(draft);
    setPageNumber(0);
  };
  const statusText = (message: CommunicationMessage) => t(`status.${message.status}`);
  const why = (message: CommunicationMessage) => (isMessageReason(message.error) ? t(`reasons.${message.error}`) : message.error);

  const chartData = (counts.data?.days ?? []).map((day) => ({ day: day.day.slice(0, 5), ...day.counts }));
  const series = outboxStatuses.map((status) => ({
    name: status,
    label: t(`status.${status}`),
    color: `${outboxStatusColor[status]}.6`,
  }));

  return (
    <Stack gap="lg">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <Button
            leftSection={<IconDownload size={16} aria-hidden />}
            variant="light"
            onClick={() =>
              void downloadFile('/api/communications/exporttocsv', filter, 'communications.csv').catch((error: unknown) =>
                notify('error', errorText(error)),
              )
            }
            data-testid="communications-export"
          >
            {t('export')}
          </Button>
        }
      />
      <DailyCapCard />
      {page.data && !page.data.providers.email ? (
        <Alert color="yellow" data-testid="no-email-provider">
          {t('noProvider.email')}
        </Alert>
      ) : null}
      {page.data && !page.data.providers.sms ? (
        <Alert color="yellow" data-testid="no-sms-provider">
          {t('noProvider.sms')}
        </Alert>
      ) : null}
      <Card withBorder radius="lg" padding="md">
        <Title order={2} size="h4" mb="sm">
          {t('chartTitle')}
        </Title>
        <div role="img" aria-label={t('chartLabel')} data-testid="communications-chart">
          <BarChart h={220} data={chartData} dataKey="day" type="stacked" series={series} withLegend tickLine="y" />
        </div>
      </Card>
      <Card withBorder radius="lg" padding="md" component="form" onSubmit={(event) => (event.preventDefault(), apply())}>
        <Title order={2} size="h4" mb="sm">
          {t('filters.title')}
        </Title>
        <Group align="flex-end" wrap="wrap" gap="sm">
          <TextInput
            label={t('filters.startDate')}
            placeholder="MM/DD/YYYY"
            value={draft.startDate}
            onChange={(event) => setDraft({ ...draft, startDate: event.currentTarget.value })}
            error={showDateErrors ? dateErrors.startDate : undefined}
            w={140}
          />
          <TextInput
            label={t('filters.endDate')}
            placeholder="MM/DD/YYYY"
            value={draft.endDate}
            onChange={(event) => setDraft({ ...draft, endDate: event.currentTarget.value })}
            error={showDateErrors ? dateErrors.endDate : undefined}
            w={140}
          />
          <Select
            label={t('filters.channel')}
            data={[
              { value: '', label: t('filters.any') },
              ...outboxChannels.map((value) => ({ value, label: t(`channel.${value}`) })),
            ]}
            value={draft.channel}
            onChange={(value) => setDraft({ ...draft, channel: value ?? '' })}
            w={140}
            allowDeselect={false}
          />
          <Select
            label={t('filters.status')}
            data={[
              { value: '', label: t('filters.any') },
              ...outboxStatuses.map((value) => ({ value, label: t(`status.${value}`) })),
            ]}
            value={draft.status}
            onChange={(value) => setDraft({ ...draft, status: value ?? '' })}
            w={200}
            allowDeselect={false}
            data-testid="communications-status-filter"
          />
          <Select
            label={t('filters.template')}
            data={[
              { value: '', label: t('filters.any') },
              ...messageTemplates.map((value) => ({ value, label: t(`templates.${value}`) })),
            ]}
            value={draft.template}
            onChange={(value) => setDraft({ ...draft, template: value ?? '' })}
            w={200}
            allowDeselect={false}
          />
          <Button type="submit">{t('filters.apply')}</Button>
          <Button
            variant="subtle"
            onClick={() => {
              setDraft(noFilters);
              setApplied(noFilters);
              setPatient(null);
              setPageNumber(0);
            }}
          >
            {t('filters.reset')}
          </Button>
        </Group>
        {patient ? (
          <Group mt="sm" gap="xs">
            <Text size="sm">{t('filters.patient')}:</Text>
            <Button
              size="compact-sm"
              variant="light"
              rightSection={<IconX size={14} aria-hidden />}
              onClick={() => {
                setPatient(null);
                setPageNumber(0);
              }}
              aria-label={t('filters.clearPatient', { name: patient.name })}
              data-testid="communications-patient-filter"
            >
              {patient.name}
            </Button>
          </Group>
        ) : null}
      </Card>
      <PagedResults
        query={page}
        pageNumber={pageNumber}
        onPage={setPageNumber}
        errorTestId="communications-error"
        retryLabel={t('retry')}
        totalText={(count, exact) => rangeText(pageNumber, page.data?.data.length ?? 0, count, exact)}
        onCountAll={() => setExactTotal(true)}
        totalTestId="communications-total"
        pagesLabel={t('title')}
        action={null}
      >
        {(rows) => (
          <DataTable
            rows={rows}
            rowKey={(row) => row.id}
            rowTestId="communication-row"
            minWidth={820}
            ariaLabel={t('title')}
            emptyText={t('empty')}
            emptyTestId="communications-empty"
            columns={[
              { key: 'time', header: t('columns.time'), cell: (row) => formatClinicDateTime(row.createdAt, timeZone) },
              {
                key: 'recipient',
                header: t('columns.recipient'),
                cell: (row) => (
                  <Stack gap={0}>
                    <Text size="sm">{row.recipient}</Text>
                    <Text size="xs" c="dimmed">
                      {t(`channel.${row.channel}`)}
                    </Text>
                  </Stack>
                ),
              },
              {
                key: 'template',
                header: t('columns.template'),
                cell: (row) => (
                  <Stack gap={2} align="flex-start">
                    <Text size="sm">
                      {(messageTemplates as readonly string[]).includes(row.template)
                        ? t(`templates.${row.template}`)
                        : row.template}
                    </Text>
                    {row.attachments.map((attachment) => (
                      <Button
                        key={attachment.id}
                        variant="subtle"
                        size="compact-xs"
                        leftSection={<IconPaperclip size={14} aria-hidden />}
                        onClick={() => setOpenedFile({ messageId: row.id, attachment })}
                        aria-label={t('attachments.open', {
                          name: attachment.fileName,
                          size: formatFileSize(attachment.size, i18n.language),
                        })}
                        data-testid="communication-attachment"
                      >
                        {attachment.fileName}
                      </Button>
                    ))}
                  </Stack>
                ),
              },
              {
                key: 'patient',
                header: t('columns.patient'),
                cell: (row) =>
                  row.patient ? (
                    <Group gap={4} wrap="nowrap">
                      <Anchor component={Link} to={`/patients/patientdashboard/${row.patient.id}`}>
                        {row.patient.name}
                      </Anchor>
                      {patient?.id === row.patient.id ? null : (
                        <Tooltip label={t('filters.onlyPatient', { name: row.patient.name })}>
                          <ActionIcon
                            variant="subtle"
                            size="sm"
                            aria-label={t('filters.onlyPatient', { name: row.patient.name })}
                            onClick={() => {
                              setPatient(row.patient);
                              setPageNumber(0);
                            }}
                            data-testid="communication-only-patient"
                          >
                            <IconFilter size={14} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </Group>
                  ) : (
                    '—'
                  ),
              },
              {
                key: 'status',
                header: t('columns.status'),
                cell: (row) => (
                  <Stack gap={2}>
                    <Badge color={outboxStatusColor[row.status]} variant="light" data-testid="communication-status">
                      {statusText(row)}
                    </Badge>
                    {row.error ? (
                      <Text size="xs" c="dimmed" data-testid="communication-error">
                        {why(row)}
                      </Text>
                    ) : null}
                    {row.status === 'scheduled' && row.sendAfter ? (
                      <Text size="xs" c="dimmed">
                        {t('scheduledFor', { time: formatClinicDateTime(row.sendAfter, timeZone) })}
                      </Text>
                    ) : null}
                  </Stack>
                ),
              },
              { key: 'tries', header: t('columns.tries'), cell: (row) => row.attempts },
              {
                key: 'actions',
                headerLabel: t('columns.actions'),
                cell: (row) =>
                  row.resendable ? (
                    <Tooltip label={t('resendLabel', { recipient: row.recipient })}>
                      <ActionIcon
                        variant="light"
                        size="lg"
                        loading={resend.isPending && resend.variables === row.id}
                        onClick={() => resend.mutate(row.id)}
                        aria-label={t('resendLabel', { recipient: row.recipient })}
                        data-testid="communication-resend"
                      >
                        <IconSend size={16} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  ) : null,
              },
            ]}
          />
        )}
      </PagedResults>
      <AttachmentPreview opened={openedFile} onClose={() => setOpenedFile(null)} />
    </Stack>
  );
}
