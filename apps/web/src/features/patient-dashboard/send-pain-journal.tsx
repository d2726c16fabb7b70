import { Alert, Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SentPainJournal } from '@pathwell/contracts/pain-journal';
import { absoluteUrl, CopyLinkButton } from '../../components/copy-link-button';
import { ErrorAlert } from '../../components/error-alert';
import { ApiError } from '../../lib/api-client';
import { errorText } from '../../lib/error-text';
import { translateValidation } from '../../lib/i18n';
import { painJournalApi } from './pain-journal.api';

/** Issues a pain journal link (30 days) and sends it by email or text; the URL is shown for the tablet or to copy. */
export function SendPainJournal({ patientId, onClose }: { patientId: string; onClose: () => void }) {
  const { t } = useTranslation('patientDashboard');
  const [channels, setChannels] = useState<string[]>(['email']);
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<SentPainJournal | null>(null);
  const send = useMutation({
    mutationFn: () => painJournalApi.send(patientId, { send: channels as ('email' | 'sms')[] }),
    onSuccess: setCreated,
    onError: (failure) => {
      const field = failure instanceof ApiError ? failure.fields.send : undefined;
      setProblem((field && translateValidation(field)) ?? errorText(failure));
    },
  });

  if (created) {
    const url = absoluteUrl(created.url);
    const channelNames = (status: 'sent' | 'notSent') =>
      created.sent
        .filter((item) => (item.status === 'notSent') === (status === 'notSent'))
        .map((item) => t(`pain.send.${item.channel}`))
        .join(', ');
    const sent = channelNames('sent');
    const notSent = channelNames('notSent');
    return (
      <Stack gap="md">
        <Alert color="teal" variant="light" icon={<IconCheck size={18} aria-hidden />} data-testid="pain-journal-link-created">
          {sent ? t('pain.send.sent', { channels: sent }) : t('pain.send.created')}
        </Alert>
        {notSent ? (
          <Alert color="orange" variant="light" data-testid="pain-journal-not-sent">
            {t('pain.send.notSent', { channels: notSent })}
          </Alert>
        ) : null}
        <TextInput
          label={t('pain.send.url')}
          value={url}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
          data-testid="pain-journal-url"
        />
        <Text size="sm" c="dimmed">
          {t('pain.send.tablet')}
        </Text>
        <Group justify="flex-end">
          <CopyLinkButton url={url} label={t('pain.send.copy')} copiedLabel={t('pain.send.copied')} />
          <Button onClick={onClose}>{t('pain.send.done')}</Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <Text size="sm">{t('pain.send.intro')}</Text>
      <Checkbox.Group label={t('pain.send.by')} value={channels} onChange={setChannels}>
        <Group mt="xs">
          <Checkbox value="email" label={t('pain.send.email')} />
          <Checkbox value="sms" label={t('pain.send.sms')} />
        </Group>
      </Checkbox.Group>
      {problem ? <ErrorAlert>{problem}</ErrorAlert> : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('pain.send.cancel')}
        </Button>
        <Button loading={send.isPending} onClick={() => send.mutate()}>
          {channels.length ? t('pain.send.send') : t('pain.send.makeLink')}
        </Button>
      </Group>
    </Stack>
  );
}
