import { Anchor, Badge, Card, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { IconMail, IconMessage2 } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { outboxStatusColor } from '../communications/status';
import { PAGE_NUMBER_DEFAULT } from '@pathwell/contracts/constants';
import type { OutboxMessage } from '@pathwell/contracts/session';
import { Pager } from '../../components/data-table';
import { outboxQueries } from './outbox.api';

const URL_IN_TEXT = /(https?:\/\/[^\s<>"']+)/g;

/** Message text with its web addresses as links, so a newcomer can follow a set-password link. */
function LinkifiedText({ text }: { text: string }) {
  const parts = text.split(URL_IN_TEXT);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <Anchor key={index} href={part} data-testid="outbox-link">
            {part}
          </Anchor>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}

function OutboxCard({ message }: { message: OutboxMessage }) {
  const { t, i18n } = useTranslation('outbox');
  const Icon = message.channel === 'email' ? IconMail : IconMessage2;
  return (
    <Card withBorder radius="lg" padding="lg" component="article" data-testid="outbox-message">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs" mb="xs">
        <Group gap="xs" wrap="nowrap">
          <Icon size={18} aria-hidden />
          <Text fw={600}>{message.subject ?? t('noSubject')}</Text>
        </Group>
        <Group gap={6}>
          <Badge variant="light" color="gray">
            {t(`channel.${message.channel}`)}
          </Badge>
          <Badge variant="light" color={outboxStatusColor[message.status]}>
            {t(`communications:status.${message.status}`)}
          </Badge>
        </Group>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        {t('meta', {
          recipient: message.recipient,
          date: new Date(message.createdAt).toLocaleString(i18n.language),
          template: message.template,
        })}
      </Text>
      <Text component="div" size="sm" className="outbox-body">
        <LinkifiedText text={message.body} />
      </Text>
    </Card>
  );
}

export function OutboxList() {
  const { t } = useTranslation('outbox');
  const [page, setPage] = useState(PAGE_NUMBER_DEFAULT);
  const outbox = useQuery(outboxQueries.page(page));

  if (!outbox.data) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common:loading')} />
      </Center>
    );
  }
  return (
    <Stack gap="md">
      {outbox.data.data.length === 0 ? (
        <Text c="dimmed" data-testid="outbox-empty">
          {t('empty')}
        </Text>
      ) : (
        outbox.data.data.map((message) => <OutboxCard key={message.id} message={message} />)
      )}
      <Pager totalRecords={outbox.data.totalRecords} pageNumber={page} onPage={setPage} ariaLabel={t('pages')} />
    </Stack>
  );
}
