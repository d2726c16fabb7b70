import { useEffect, useRef } from 'react';
import { createParser } from 'eventsource-parser';
import { ALL_CLINICS, getClinicId, getToken } from '../lib/session-storage';

/**
 * The signed-in user's server-sent event stream (GET /api/events, issue #11 §4). One connection per
 * tab, opened by the shell. fetch() rather than EventSource, so the bearer token travels in the
 * Authorization header and never in a URL. An event only says what changed ("notification",
 * "message"); listeners read the change again through the API. After every (re)connect the listeners
 * of every kind run once, so whatever happened while the stream was down is caught up.
 */
type StaffEventKind = 'notification' | 'message';

const listeners = new Map<StaffEventKind, Set<() => void>>([
  ['notification', new Set()],
  ['message', new Set()],
]);

function emit(kind: StaffEventKind) {
  for (const listener of listeners.get(kind) ?? []) listener();
}

const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;

/** Opens the stream and keeps it open (reconnecting with back-off) until the returned stop is called. */
export function connectStaffEvents(): () => void {
  let stopped = false;
  let controller: AbortController | null = null;
  let retryMs = RETRY_FIRST_MS;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const scheduleReconnect = () => {
    if (stopped) return;
    timer = setTimeout(() => void connect(), retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };

  async function connect() {
    const token = getToken();
    if (!token || stopped) return;
    controller = new AbortController();
    const headers: Record<string, string> = { Accept: 'text/event-stream', Authorization: `Bearer ${token}` };
    const clinicId = getClinicId();
    if (clinicId) headers.ClinicId = clinicId === ALL_CLINICS ? ALL_CLINICS : clinicId;
    try {
      const response = await fetch('/api/events', { headers, signal: controller.signal, cache: 'no-store' });
      if (!response.ok || !response.body) {
        // A signed-out session stops here; the next API call takes the user to sign-in.
        if (response.status !== 401) scheduleReconnect();
        return;
      }
      const parser = createParser({
        onEvent(event) {
          if (event.event === 'ready') {
            retryMs = RETRY_FIRST_MS;
            emit('notification');
            emit('message');
          } else if (event.event === 'notification' || event.event === 'message') {
            emit(event.event);
          }
        },
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
      scheduleReconnect();
    } catch {
      if (!stopped) scheduleReconnect();
    }
  }

  void connect();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    controller?.abort();
  };
}

/** Runs `onEvent` when the server says something of this kind changed (and after each reconnect). */
export function useStaffEvent(kind: StaffEventKind, onEvent: () => void): void {
  const latest = useRef(onEvent);
  latest.current = onEvent;
  useEffect(() => {
    const listener = () => latest.current();
    const set = listeners.get(kind)!;
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }, [kind]);
}
