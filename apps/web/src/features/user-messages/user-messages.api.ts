import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConversationList, ConversationThread, MessageContact, UserMessage } from '@pathwell/contracts/messaging';
import { api } from '../../lib/api-client';

/** How many of the latest messages the server sends for a thread (GET /api/usermessages/{userId}). */
export const THREAD_LIMIT = 200;

const userPath = (userId: string) => encodeURIComponent(userId);

/**
 * Every staff-message query starts with 'userMessages': a 'message' event (or the top bar's badge)
 * invalidates them all at once.
 */
export const userMessageKeys = {
  all: ['userMessages'] as const,
  conversations: ['userMessages', 'conversations'] as const,
  contacts: ['userMessages', 'contacts'] as const,
  thread: (userId: string) => ['userMessages', 'thread', userId] as const,
};

// The pages show their own loading and error states, so the global toast stays quiet (meta.silent).
export const userMessageQueries = {
  conversations: () =>
    queryOptions({
      queryKey: userMessageKeys.conversations,
      queryFn: () => api.get<ConversationList>('/api/usermessages/users', { background: true }),
      meta: { silent: true },
    }),
  contacts: () =>
    queryOptions({
      queryKey: userMessageKeys.contacts,
      queryFn: () => api.get<MessageContact[]>('/api/usermessages/contacts', { background: true }),
      staleTime: 60_000,
      meta: { silent: true },
    }),
  thread: (userId: string) =>
    queryOptions({
      queryKey: userMessageKeys.thread(userId),
      queryFn: () => api.get<ConversationThread>(`/api/usermessages/${userPath(userId)}`, { background: true }),
      meta: { silent: true },
    }),
};

const userMessageApi = {
  send: (userId: string, text: string) =>
    api.post<UserMessage>(`/api/usermessages/${userPath(userId)}`, { text }, { background: true }),
  markSeen: (fromUserId: string) =>
    api.post<{ marked: number }>(`/api/usermessages/markseen/${userPath(fromUserId)}`, {}, { background: true }),
};

/** Sends a message: it joins the open thread at once, and every message query is read again. */
export function useSendMessage(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => userMessageApi.send(userId, text),
    onSuccess: (message) => {
      queryClient.setQueryData(userMessageKeys.thread(userId), (current: ConversationThread | undefined) =>
        current && !current.data.some((row) => row.id === message.id)
          ? { ...current, data: [...current.data, message] }
          : current,
      );
      void queryClient.invalidateQueries({ queryKey: userMessageKeys.all });
    },
  });
}

/** Marks one colleague's messages to me as seen; the list and the top bar's badge follow. */
export function useMarkSeen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fromUserId: string) => userMessageApi.markSeen(fromUserId),
    onSuccess: (result) => {
      if (result.marked > 0) void queryClient.invalidateQueries({ queryKey: userMessageKeys.all });
    },
  });
}
