import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../test/fake-api';
import { lastActivityAt, storageKeys } from '../lib/session-storage';
import { useIdleTimeout } from './use-idle-timeout';

const MINUTE = 60_000;

describe('idle timeout', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    vi.setSystemTime(new Date('2026-03-02T09:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('signs out once the person has been idle longer than the clinic timeout', () => {
    fakeApi([{ method: 'POST', path: '/api/session/keepalive', status: 204 }]);
    const onIdle = vi.fn();
    renderHook(() => useIdleTimeout(30, onIdle));
    expect(lastActivityAt()).toBe(Date.now());

    vi.advanceTimersByTime(29 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2 * MINUTE);
    expect(onIdle).toHaveBeenCalledOnce();
  });

  it('keeps the session while the person clicks, types or scrolls, and pings the server at most once a minute', () => {
    const { calls } = fakeApi([{ method: 'POST', path: '/api/session/keepalive', status: 204 }]);
    const onIdle = vi.fn();
    renderHook(() => useIdleTimeout(30, onIdle));

    for (let minute = 0; minute < 40; minute += 1) {
      vi.advanceTimersByTime(MINUTE);
      document.dispatchEvent(new MouseEvent('click'));
      document.dispatchEvent(new KeyboardEvent('keydown'));
    }
    expect(onIdle).not.toHaveBeenCalled();
    expect(Number(localStorage.getItem(storageKeys.expireTime))).toBe(Date.now() + MINUTE);
    expect(calls.filter((call) => call.path === '/api/session/keepalive')).toHaveLength(40);
  });

  it('signs out at once when the stored activity is already too old', () => {
    localStorage.setItem(storageKeys.expireTime, String(Date.now() - 45 * MINUTE));
    const onIdle = vi.fn();
    renderHook(() => useIdleTimeout(30, onIdle));
    expect(onIdle).toHaveBeenCalledOnce();
  });
});
