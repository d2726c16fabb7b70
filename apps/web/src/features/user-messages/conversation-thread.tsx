import { Anchor, Avatar, Box, Button, Center, Group, Loader, Paper, Stack, Text, Textarea, VisuallyHidden } from '@mantine/core';
import { IconArrowLeft, IconCheck, IconSend } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { USER_MESSAGE_MAX_LENGTH, userMessageInputSchema, type UserMessage } from '@pathwell/contracts/messaging';
import { useSession } from '../../app/session-context';
import { useStaffEvent } from '../../app/staff-events';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { ApiError } from '../../lib/api-client';
import { formatClinicRelative } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { translateValidation } from '../../lib/i18n';
import { initialsOf } from './conversation-list';
import { THREAD_LIMIT, userMessageKeys, userMessageQueries, useMarkSeen, useSendMessage } from './user-messages.api';

function BackLink() {
  const { t } = useTranslation('userMessages');
  return (
    <Anchor component={Link} to="/user-messages" data-testid="messages-back" w="fit-content">
      <Group gap={4} wrap="nowrap">
        <IconArrowLeft size={16} aria-hidden />
        {t('back')}
      </Group>
    </Anchor>
  );
}

function Bubble({ message, mine, timeZone }: { message: UserMessage; mine: boolean; timeZone: string }) {
  const { t } = useTranslation('userMessages');
  return (
    <Group component="li" justify={mine ? 'flex-end' : 'flex-start'} data-testid="thread-message" data-mine={mine}>
      <Stack gap={2} maw="75%" align={mine ? 'flex-end' : 'flex-start'} style={{ minWidth: 0 }}>
        <Paper radius="lg" px="md" py="xs" bg={mine ? 'var(--mantine-color-teal-filled)' : 'var(--mantine-color-gray-1)'}>
          <Text size="sm" c={mine ? 'white' : undefined} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {mine ? <VisuallyHidden component="span">{`${t('sentByMe')}: `}</VisuallyHidden> : null}
            {message.text}
          </Text>
        </Paper>
        <Group gap={4} wrap="nowrap">
          <Text size="xs" c="dimmed">
            {formatClinicRelative(message.createdAt, timeZone)}
          </Text>
          {mine && message.seenAt ? (
            <Text size="xs" c="dimmed" data-testid="message-seen">
              <IconCheck size={12} aria-hidden style={{ verticalAlign: 'middle' }} /> {t('seen')}
            </Text>
          ) : null}
        </Group>
      </Stack>
    </Group>
  );
}

/** The text box: Enter sends, Shift+Enter starts a new line; the server's field error shows beside it. */
function Composer({ userId }: { userId: string }) {
  const { t } = useTranslation('userMessages');
  const send = useSendMessage(userId);
  const [text, setText] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (send.isPending) return;
    const parsed = userMessageInputSchema.safeParse({ text });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message);
      return;
    }
    setFieldError(undefined);
    setError(null);
    send.mutate(parsed.data.text, {
      onSuccess: () => setText(''),
      onError: (failure) => {
        const key = failure instanceof ApiError ? failure.fields.text : undefined;
        if (key) setFieldError(key);
        else setError(`${t('sendError')} ${errorText(failure)}`);
      },
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  return (
    <form noValidate onSubmit={submit} aria-label={t('messageLabel')} data-testid="message-form">
      <Stack gap="xs">
        {error ? <ErrorAlert testId="send-error">{error}</ErrorAlert> : null}
        <Textarea
          label={t('messageLabel')}
          placeholder={t('messagePlaceholder')}
          description={t('messageHint')}
          rows={3}
          resize="vertical"
          maxLength={USER_MESSAGE_MAX_LENGTH}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            if (fieldError) setFieldError(undefined);
          }}
          onKeyDown={onKeyDown}
          error={translateValidation(fieldError)}
          data-testid="message-input"
        />
        <Group justify="flex-end">
          <Button
            type="submit"
            loading={send.isPending}
            leftSection={<IconSend size={16} aria-hidden />}
            data-testid="message-send"
          >
            {t('send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /user-messages/conversations/:userId: the conversation with one colleague, oldest message first. */
export function ConversationThreadPage({ userId }: { userId: string }) {
  const { t } = useTranslation('userMessages');
  const session = useSession();
  const timeZone = session.instance.timeZoneId;
  const queryClient = useQueryClient();
  const thread = useQuery(userMessageQueries.thread(userId));
  const markSeen = useMarkSeen();
  const logRef = useRef<HTMLDivElement>(null);
  const lastMarked = useRef<string | null>(null);
  useStaffEvent('message', () => void queryClient.invalidateQueries({ queryKey: userMessageKeys.all }));

  const messages = thread.data?.data;
  const me = thread.data?.currentUserId;
  const newestUnseen = messages?.findLast((message) => message.toUserId === me && message.seenAt === null)?.id ?? null;

  // Seen when opened, and again whenever a new message from the colleague arrives while it is open.
  const { mutate: markSeenMutate } = markSeen;
  useEffect(() => {
    if (!newestUnseen || lastMarked.current === newestUnseen) return;
    lastMarked.current = newestUnseen;
    markSeenMutate(userId);
  }, [newestUnseen, userId, markSeenMutate]);

  // The newest message in view, as a chat reads.
  const lastId = messages?.at(-1)?.id;
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [lastId]);

  if (thread.isError && !thread.data) {
    const missing =
      thread.error instanceof ApiError &&
      (thread.error.status === 400 || thread.error.status === 404 || thread.error.status === 409);
    return (
      <Stack gap="md" maw={900}>
        <BackLink />
        <PageHeader title={t('title')} />
        <ErrorAlert testId="thread-error">
          {missing ? t('threadNotFound') : `${t('loadError')} ${errorText(thread.error)}`}
        </ErrorAlert>
        {missing ? null : (
          <Button variant="light" w="fit-content" onClick={() => void thread.refetch()}>
            {t('retry')}
          </Button>
        )}
      </Stack>
    );
  }
  if (!thread.data) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common:loading')} />
      </Center>
    );
  }

  const { other, data } = thread.data;
  return (
    <Stack gap="md" maw={900}>
      <BackLink />
      <PageHeader
        title={other.name}
        description={
          <Group gap="xs" component="span">
            <Avatar radius="xl" color="teal" size="sm" aria-hidden component="span">
              {initialsOf(other.name)}
            </Avatar>
            {t(`users:roles.${other.role}`, { defaultValue: other.role })}
          </Group>
        }
      />
      <Paper withBorder radius="lg" p={0}>
        <Box
          ref={logRef}
          role="log"
          aria-live="polite"
          aria-label={t('threadLabel', { name: other.name })}
          tabIndex={0}
          p="md"
          style={{ maxHeight: 'calc(100vh - 420px)', minHeight: 240, overflowY: 'auto', overflowX: 'hidden' }}
          data-testid="thread-log"
        >
          {data.length === 0 ? (
            <Text c="dimmed" data-testid="thread-empty">
              {t('threadEmpty')}
            </Text>
          ) : (
            <Stack component="ol" gap="sm" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {data.length >= THREAD_LIMIT ? (
                <Text component="li" size="xs" c="dimmed" ta="center">
                  {t('olderNotShown', { count: THREAD_LIMIT })}
                </Text>
              ) : null}
              {data.map((message) => (
                <Bubble
                  key={message.id}
                  message={message}
                  mine={message.fromUserId === thread.data.currentUserId}
                  timeZone={timeZone}
                />
              ))}
            </Stack>
          )}
        </Box>
      </Paper>
      <Composer userId={other.id} />
    </Stack>
  );
}
