import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConversationList, ConversationThread, MessageContact } from '@pathwell/contracts/messaging';
import { SessionReactContext } from '../../app/session-context';
import { i18n } from '../../lib/i18n';
import enMessages from '../../locales/en/userMessages.json';
import esMessages from '../../locales/es/userMessages.json';
import { Component as ConversationsPage } from '../../routes/user-messages/conversations';
import { Component as ThreadPage } from '../../routes/user-messages/thread';
import { fakeApi, ids, makeSession, type FakeRoute } from '../../test/fake-api';
import { renderAt } from '../../test/render';

const manager = '55555555-5555-4555-8555-555555555555';
const threadUrl = `/user-messages/conversations/${ids.doctor}`;

beforeAll(() => {
  // Until lib/i18n.ts lists the namespace, the test brings it itself.
  if (!i18n.hasResourceBundle('en', 'userMessages')) {
    i18n.addResourceBundle('en', 'userMessages', enMessages);
    i18n.addResourceBundle('es', 'userMessages', esMessages);
  }
});

const conversations: ConversationList = {
  currentUserId: ids.admin,
  unread: 2,
  data: [
    {
      userId: ids.doctor,
      name: 'Daniela Ortiz',
      role: 'Doctor',
      lastMessage: 'Can you check room 3?',
      lastMessageAt: new Date().toISOString(),
      lastFromMe: false,
      unread: 2,
    },
    {
      userId: manager,
      name: 'Morgan Reyes',
      role: 'SystemManager',
      lastMessage: 'See you at 5',
      lastMessageAt: '2025-03-09T15:00:00.000Z',
      lastFromMe: true,
      unread: 0,
    },
  ],
};

const contacts: MessageContact[] = [
  { id: ids.doctor, name: 'Daniela Ortiz', role: 'Doctor' },
  { id: manager, name: 'Morgan Reyes', role: 'SystemManager' },
];

const thread = (overrides: Partial<ConversationThread> = {}): ConversationThread => ({
  currentUserId: ids.admin,
  other: { id: ids.doctor, name: 'Daniela Ortiz', role: 'Doctor' },
  data: [
    {
      id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
      fromUserId: ids.admin,
      toUserId: ids.doctor,
      text: 'Morning!',
      createdAt: '2025-03-09T14:00:00.000Z',
      seenAt: '2025-03-09T14:05:00.000Z',
    },
    {
      id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
      fromUserId: ids.doctor,
      toUserId: ids.admin,
      text: 'Can you check room 3?\nThe light is off.',
      createdAt: '2025-03-09T15:00:00.000Z',
      seenAt: null,
    },
  ],
  ...overrides,
});

const renderList = (routes: FakeRoute[]) => {
  const api = fakeApi(routes);
  const view = renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <ConversationsPage />
    </SessionReactContext.Provider>,
    { path: '/user-messages' },
  );
  return { ...api, ...view };
};

const renderThread = (routes: FakeRoute[]) => {
  const api = fakeApi(routes);
  const view = renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <ThreadPage />
    </SessionReactContext.Provider>,
    { path: '/user-messages/conversations/:userId', initialPath: threadUrl },
  );
  return { ...api, ...view };
};

describe('/user-messages', () => {
  it('lists conversations with role, excerpt, time and unread count', async () => {
    renderList([{ path: '/api/usermessages/users', body: conversations }]);
    const rows = await screen.findAllByTestId('conversation-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Daniela Ortiz');
    expect(rows[0]).toHaveTextContent('Doctor');
    expect(rows[0]).toHaveTextContent('Can you check room 3?');
    expect(rows[0]).toHaveTextContent(/Today at/);
    expect(within(rows[0]!).getByTestId('conversation-unread')).toHaveTextContent('2');
    // The link is named by what it shows (label in name), the unread count read out after it.
    expect(rows[0]).toHaveAccessibleName(/^Daniela Ortiz Doctor .*2 unread messages/);
    expect(rows[0]).toHaveAttribute('href', threadUrl);
    expect(rows[1]).toHaveTextContent('System Manager');
    expect(rows[1]).toHaveTextContent('You: See you at 5');
    expect(rows[1]).toHaveTextContent('03/09/2025');
    expect(within(rows[1]!).queryByTestId('conversation-unread')).toBeNull();
  });

  it('says so when there is no conversation yet', async () => {
    renderList([{ path: '/api/usermessages/users', body: { currentUserId: ids.admin, unread: 0, data: [] } }]);
    expect(await screen.findByTestId('conversations-empty')).toHaveTextContent('No conversations yet');
  });

  it('shows a failure with a way to try again', async () => {
    renderList([
      { path: '/api/usermessages/users', status: 500, body: { error: 'Internal error', messageKey: 'internalError' } },
    ]);
    expect(await screen.findByTestId('conversations-error')).toHaveTextContent('The messages could not be loaded.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('starts a new conversation from the contact picker', async () => {
    const user = userEvent.setup();
    const { router } = renderList([
      { path: '/api/usermessages/users', body: conversations },
      { path: '/api/usermessages/contacts', body: contacts },
    ]);
    await user.click(await screen.findByTestId('new-message'));
    const picker = await screen.findByTestId('contact-select');
    await user.type(picker, 'Morg');
    await user.click(await screen.findByRole('option', { name: /Morgan Reyes/, hidden: true }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/user-messages/conversations/${manager}`));
  });

  it('shows the list in Spanish', async () => {
    renderList([{ path: '/api/usermessages/users', body: conversations }]);
    await i18n.changeLanguage('es');
    const rows = await screen.findAllByTestId('conversation-row');
    expect(screen.getByRole('heading', { name: 'Mensajes' })).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('Médico');
    expect(rows[1]).toHaveTextContent('Usted: See you at 5');
  });
});

describe('/user-messages/conversations/:userId', () => {
  it('shows the messages as bubbles, mine on the right, and marks the unseen ones seen', async () => {
    const { calls } = renderThread([
      { path: `/api/usermessages/${ids.doctor}`, body: thread() },
      { method: 'POST', path: `/api/usermessages/markseen/${ids.doctor}`, body: { marked: 1 } },
      { path: '/api/usermessages/users', body: conversations },
    ]);
    expect(await screen.findByRole('heading', { name: 'Daniela Ortiz' })).toBeInTheDocument();
    const bubbles = screen.getAllByTestId('thread-message');
    expect(bubbles).toHaveLength(2);
    expect(bubbles[0]).toHaveAttribute('data-mine', 'true');
    expect(bubbles[0]).toHaveTextContent('You: Morning!');
    expect(within(bubbles[0]!).getByTestId('message-seen')).toHaveTextContent('Seen');
    expect(bubbles[1]).toHaveAttribute('data-mine', 'false');
    expect(bubbles[1]).toHaveTextContent('Can you check room 3?');
    expect(screen.getByRole('log', { name: 'Messages with Daniela Ortiz' })).toBeInTheDocument();
    expect(screen.getByTestId('messages-back')).toHaveAttribute('href', '/user-messages');
    await waitFor(() =>
      expect(
        calls.filter((call) => call.method === 'POST' && call.path === `/api/usermessages/markseen/${ids.doctor}`),
      ).toHaveLength(1),
    );
  });

  it('does not mark anything when every message is seen', async () => {
    const seen = thread();
    seen.data[1]!.seenAt = '2025-03-09T15:01:00.000Z';
    const { calls } = renderThread([{ path: `/api/usermessages/${ids.doctor}`, body: seen }]);
    await screen.findByRole('heading', { name: 'Daniela Ortiz' });
    expect(calls.some((call) => call.path.includes('markseen'))).toBe(false);
  });

  it('Enter sends, Shift+Enter starts a new line, and the message joins the thread', async () => {
    const user = userEvent.setup();
    const sent = {
      id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc',
      fromUserId: ids.admin,
      toUserId: ids.doctor,
      text: 'Checking now\nback in 5',
      createdAt: new Date().toISOString(),
      seenAt: null,
    };
    const threadRoute = { path: `/api/usermessages/${ids.doctor}`, body: thread() };
    const { calls } = renderThread([
      threadRoute,
      { method: 'POST', path: `/api/usermessages/markseen/${ids.doctor}`, body: { marked: 1 } },
      { method: 'POST', path: `/api/usermessages/${ids.doctor}`, status: 201, body: sent },
      { path: '/api/usermessages/users', body: conversations },
    ]);
    const input = await screen.findByRole('textbox', { name: 'Message' });
    await user.type(input, 'Checking now{Shift>}{Enter}{/Shift}back in 5');
    expect(input).toHaveValue('Checking now\nback in 5');
    expect(calls.some((call) => call.method === 'POST' && call.path === `/api/usermessages/${ids.doctor}`)).toBe(false);
    // From now on the server's thread holds the new message too (the page reads it again after sending).
    threadRoute.body = { ...thread(), data: [...thread().data, sent] };
    await user.keyboard('{Enter}');
    await waitFor(() => expect(input).toHaveValue(''));
    const post = calls.find((call) => call.method === 'POST' && call.path === `/api/usermessages/${ids.doctor}`);
    expect(post?.body).toEqual({ text: 'Checking now\nback in 5' });
    await waitFor(() => expect(screen.getAllByTestId('thread-message')).toHaveLength(3));
    expect(screen.getAllByTestId('thread-message')[2]).toHaveTextContent('You: Checking now back in 5');
  });

  it('refuses an empty message without calling the server, and shows a server field error', async () => {
    const user = userEvent.setup();
    const { calls } = renderThread([
      { path: `/api/usermessages/${ids.doctor}`, body: thread({ data: [] }) },
      {
        method: 'POST',
        path: `/api/usermessages/${ids.doctor}`,
        status: 400,
        body: { error: 'Invalid input', code: 'VALIDATION', messageKey: 'requestInvalid', fields: { text: 'tooLong' } },
      },
    ]);
    expect(await screen.findByTestId('thread-empty')).toBeInTheDocument();
    const input = screen.getByRole('textbox', { name: 'Message' });
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await user.type(input, 'Hello{Enter}');
    expect(await screen.findByText('This value is too long')).toBeInTheDocument();
    expect(input).toHaveValue('Hello');
  });

  it('says the conversation is not available when the server does not find the colleague', async () => {
    renderThread([
      {
        path: `/api/usermessages/${ids.doctor}`,
        status: 404,
        body: { error: 'User not found', code: 'NOT_FOUND', messageKey: 'userNotFound' },
      },
    ]);
    expect(await screen.findByTestId('thread-error')).toHaveTextContent('This conversation is not available');
    expect(screen.getByTestId('messages-back')).toHaveAttribute('href', '/user-messages');
  });
});
