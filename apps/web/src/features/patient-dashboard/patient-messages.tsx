import { Badge, Button, Group, Loader, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconCalendarPlus, IconSend } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PerioperativeTemplate, PerioperativeTemplateSummary } from '@pathwell/contracts/managed-lists';
import { isMessageReason, type PatientMessage, type PerioperativeScheduleResult } from '@pathwell/contracts/messaging';
import { isValidMdyDate } from '@pathwell/contracts/validation';
import { ErrorAlert } from '../../components/error-alert';
import { api } from '../../lib/api-client';
import { formatClinicDateTime } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { outboxStatusColor } from '../communications/status';

const messagesKey = (patientId: string) => ['patientMessages', patientId] as const;

/**
 * The patient's messages (issue #11 §6): scheduled and sent, with their status, and perioperative
 * messages scheduled from a template relative to the procedure date, or one sent now.
 */
export function PatientMessages({ patientId, timeZone }: { patientId: string; timeZone: string }) {
  const { t } = useTranslation('communications');
  const queryClient = useQueryClient();
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [procedureDate, setProcedureDate] = useState('');
  const [dateError, setDateError] = useState<string | null>(null);
  const messages = useQuery({
    queryKey: messagesKey(patientId),
    queryFn: () => api.get<PatientMessage[]>(`/api/patients/${patientId}/messages`),
  });
  const templates = useQuery({
    queryKey: ['perioperativeTemplates', 'active'],
    queryFn: () =>
      api.get<{ data: PerioperativeTemplateSummary[] }>('/api/perioperativemessagetemplates', {
        query: { active: 'true', pageSize: 999 },
        background: true,
      }),
  });
  const template = useQuery({
    queryKey: ['perioperativeTemplates', 'one', templateId],
    queryFn: () => api.get<PerioperativeTemplate>(`/api/perioperativemessagetemplates/${templateId}`),
    enabled: templateId !== null,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: messagesKey(patientId) });
  const schedule = useMutation({
    mutationFn: () =>
      api.post<PerioperativeScheduleResult>('/api/perioperativemessages/schedule', { patientId, templateId, procedureDate }),
    onSuccess: (result) => {
      notify('success', t('periop.scheduled', { count: result.messages.length, skipped: result.skipped.length }));
      void refresh();
    },
    onError: (error) => notify('error', errorText(error)),
  });
  const sendNow = useMutation({
    mutationFn: (detailId: string) =>
      api.post<PatientMessage>('/api/perioperativemessages/send', { patientId, templateId, detailId }),
    onSuccess: () => {
      notify('success', t('periop.sent'));
      void refresh();
    },
    onError: (error) => notify('error', errorText(error)),
  });

  const submit = () => {
    if (!isValidMdyDate(procedureDate.trim())) {
      setDateError(t('validation:dateInvalid'));
      return;
    }
    setDateError(null);
    schedule.mutate();
  };
  const when = (message: PatientMessage) =>
    message.sentAt
      ? formatClinicDateTime(message.sentAt, timeZone)
      : message.sendAfter
        ? t('scheduledFor', { time: formatClinicDateTime(message.sendAfter, timeZone) })
        : formatClinicDateTime(message.createdAt, timeZone);

  return (
    <Paper
      withBorder
      radius="lg"
      p="md"
      component="section"
      aria-labelledby="patient-messages-title"
      data-testid="patient-messages"
    >
      <Title order={2} size="h4" id="patient-messages-title" mb="sm">
        {t('periop.title')}
      </Title>
      <Stack gap="sm">
        {messages.isPending ? <Loader size="sm" aria-label={t('common:loading')} /> : null}
        {messages.isError ? <ErrorAlert>{errorText(messages.error)}</ErrorAlert> : null}
        {messages.data && messages.data.length === 0 ? (
          <Text c="dimmed" size="sm" data-testid="patient-messages-empty">
            {t('periop.empty')}
          </Text>
        ) : null}
        {messages.data && messages.data.length > 0 ? (
          <Table.ScrollContainer minWidth={420}>
            <Table verticalSpacing={6} fz="sm">
              <Table.Tbody>
                {messages.data.map((message) => (
                  <Table.Tr key={message.id} data-testid="patient-message">
                    <Table.Td>{when(message)}</Table.Td>
                    <Table.Td>
                      {t(`channel.${message.channel}`)} · {t(`templates.${message.template}`, { defaultValue: message.template })}
                    </Table.Td>
                    <Table.Td>
                      <Badge color={outboxStatusColor[message.status]} variant="light">
                        {t(`status.${message.status}`)}
                      </Badge>
                      {message.error ? (
                        <Text size="xs" c="dimmed">
                          {isMessageReason(message.error) ? t(`reasons.${message.error}`) : message.error}
                        </Text>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Select
            label={t('periop.template')}
            placeholder={t('periop.choose')}
            data={(templates.data?.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
            value={templateId}
            onChange={setTemplateId}
            w={240}
            data-testid="periop-template"
          />
          <TextInput
            label={t('periop.procedureDate')}
            placeholder="MM/DD/YYYY"
            value={procedureDate}
            onChange={(event) => setProcedureDate(event.currentTarget.value)}
            error={dateError}
            w={150}
            data-testid="periop-date"
          />
          <Button
            leftSection={<IconCalendarPlus size={16} aria-hidden />}
            disabled={!templateId}
            loading={schedule.isPending}
            onClick={submit}
            data-testid="periop-schedule"
          >
            {t('periop.schedule')}
          </Button>
        </Group>
        {template.data && template.data.details.length > 0 ? (
          <Stack gap={4}>
            {template.data.details.map((detail) => (
              <Group key={detail.id} justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm" lineClamp={1}>
                  {t('periop.day', { count: detail.dayOffset })} · {t(`channel.${detail.channel}`)} · {detail.messageEn}
                </Text>
                <Button
                  size="compact-sm"
                  variant="light"
                  leftSection={<IconSend size={14} aria-hidden />}
                  loading={sendNow.isPending && sendNow.variables === detail.id}
                  onClick={() => sendNow.mutate(detail.id)}
                >
                  {t('periop.sendNow')}
                </Button>
              </Group>
            ))}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
