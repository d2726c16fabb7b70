import { Avatar, Badge, Button, Center, Group, Loader, Modal, Paper, Select, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconMessagePlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { Conversation } from '@pathwell/contracts/messaging';
import { useSession } from '../../app/session-context';
import { useStaffEvent } from '../../app/staff-events';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { formatClinicRelative } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { userMessageKeys, userMessageQueries } from './user-messages.api';

const threadPath = (userId: string) => `/user-messages/conversations/${encodeURIComponent(userId)}`;

export const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');

/** "New message": pick an active colleague of the clinic, then write to them in the thread. */
function NewMessageButton() {
  const { t } = useTranslation('userMessages');
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const contacts = useQuery({ ...userMessageQueries.contacts(), enabled: opened });
  const options = (contacts.data ?? []).map((contact) => ({
    value: contact.id,
    label: `${contact.name} · ${t(`users:roles.${contact.role}`)}`,
  }));

  return (
    <>
      <Button leftSection={<IconMessagePlus size={16} aria-hidden />} onClick={() => setOpened(true)} data-testid="new-message">
        {t('newMessage')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('newMessageTitle')} centered>
        {contacts.isError ? (
          <ErrorAlert testId="contacts-error">{errorText(contacts.error)}</ErrorAlert>
        ) : !contacts.data ? (
          <Center py="md">
            <Loader size="sm" aria-label={t('common:loading')} />
          </Center>
        ) : options.length === 0 ? (
          <Text c="dimmed" data-testid="contacts-empty">
            {t('noContacts')}
          </Text>
        ) : (
          <Select
            label={t('recipient')}
            placeholder={t('recipientPlaceholder')}
            data={options}
            searchable
            nothingFoundMessage={t('nothingFound')}
            data-autofocus
            comboboxProps={{ withinPortal: false }}
            onChange={(value) => {
              if (!value) return;
              setOpened(false);
              void navigate(threadPath(value));
            }}
            data-testid="contact-select"
          />
        )}
      </Modal>
    </>
  );
}

function ConversationRow({ conversation, timeZone }: { conversation: Conversation; timeZone: string }) {
  const { t } = useTranslation('userMessages');
  const unread = conversation.unread > 0;
  const excerpt = conversation.lastFromMe ? t('you', { text: conversation.lastMessage }) : conversation.lastMessage;
  return (
    <li>
      <UnstyledButton
        component={Link}
        to={threadPath(conversation.userId)}
        data-testid="conversation-row"
        style={{ display: 'block', width: '100%', borderRadius: 'var(--mantine-radius-md)' }}
      >
        <Paper withBorder radius="md" p="sm" bg={unread ? 'var(--mantine-color-teal-light)' : undefined}>
          <Group wrap="nowrap" gap="sm" align="flex-start">
            <Avatar radius="xl" color="teal" aria-hidden>
              {initialsOf(conversation.name)}
            </Avatar>
            <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                  <Text fw={unread ? 700 : 600} truncate>
                    {conversation.name}
                  </Text>
                  <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {t(`users:roles.${conversation.role}`, { defaultValue: conversation.role })}
                  </Text>
                </Group>
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {formatClinicRelative(conversation.lastMessageAt, timeZone)}
                </Text>
              </Group>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text
                  size="sm"
                  c={unread ? undefined : 'dimmed'}
                  fw={unread ? 600 : 400}
                  lineClamp={1}
                  style={{ overflowWrap: 'anywhere' }}
                >
                  {excerpt}
                </Text>
                {unread ? <span className="visually-hidden">{t('unread', { count: conversation.unread })}</span> : null}
                {unread ? (
                  <Badge color="red" circle={conversation.unread < 10} aria-hidden data-testid="conversation-unread">
                    {conversation.unread > 99 ? '99+' : conversation.unread}
                  </Badge>
                ) : null}
              </Group>
            </Stack>
          </Group>
        </Paper>
      </UnstyledButton>
    </li>
  );
}

/** /user-messages: the people the signed-in user has exchanged messages with in this clinic. */
export function ConversationListPage() {
  const { t } = useTranslation('userMessages');
  const session = useSession();
  const queryClient = useQueryClient();
  const listId = useId();
  const list = useQuery(userMessageQueries.conversations());
  useStaffEvent('message', () => void queryClient.invalidateQueries({ queryKey: userMessageKeys.all }));

  return (
    <Stack gap="lg" maw={900}>
      <PageHeader title={t('title')} description={t('description')} actions={<NewMessageButton />} />
      {list.isError && !list.data ? (
        <Stack gap="sm" align="flex-start">
          <ErrorAlert testId="conversations-error">
            {t('loadError')} {errorText(list.error)}
          </ErrorAlert>
          <Button variant="light" onClick={() => void list.refetch()}>
            {t('retry')}
          </Button>
        </Stack>
      ) : !list.data ? (
        <Center py="xl">
          <Loader aria-label={t('common:loading')} />
        </Center>
      ) : list.data.data.length === 0 ? (
        <Text c="dimmed" data-testid="conversations-empty">
          {t('empty')}
        </Text>
      ) : (
        <section aria-labelledby={listId}>
          <Text id={listId} component="h2" size="sm" fw={600} c="dimmed" mb="xs">
            {t('listLabel')}
          </Text>
          <Stack component="ul" gap="xs" style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="conversation-list">
            {list.data.data.map((conversation) => (
              <ConversationRow key={conversation.userId} conversation={conversation} timeZone={session.instance.timeZoneId} />
            ))}
          </Stack>
        </section>
      )}
    </Stack>
  );
}
