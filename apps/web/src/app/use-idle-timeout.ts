import { useEffect, useRef } from 'react';
import { sessionApi } from '../features/session/session.api';
import { lastActivityAt, touchExpireTime } from '../lib/session-storage';

const ACTIVITY_EVENTS = ['click', 'keydown', 'scroll'] as const;
/** Storage writes on every scroll event would be wasteful; a second of precision is plenty. */
const TOUCH_THROTTLE_MS = 1000;
const KEEPALIVE_EVERY_MS = 60_000;
const CHECK_EVERY_MS = 15_000;

/**
 * Section 4 idle logout: activity (click, keydown, scroll) pushes the stored expiry forward, shared by
 * every tab; idle longer than the clinic's timeout signs out. Activity also pings the server at most
 * once a minute so its own idle timeout follows the person rather than the API traffic.
 */
export function useIdleTimeout(idleTimeoutMinutes: number, onIdle: () => void) {
  const onIdleRef = useRef(onIdle);
  useEffect(() => {
    onIdleRef.current = onIdle;
  }, [onIdle]);

  useEffect(() => {
    const idleMs = idleTimeoutMinutes * 60_000;
    let fired = false;
    const isIdle = () => {
      const last = lastActivityAt();
      return last !== null && Date.now() - last > idleMs;
    };
    const check = () => {
      if (fired || !isIdle()) return;
      fired = true;
      onIdleRef.current();
    };

    check();
    if (fired) return;
    touchExpireTime();

    let lastTouch = Date.now();
    let lastKeepAlive = Date.now();
    const onActivity = () => {
      const now = Date.now();
      if (fired || now - lastTouch < TOUCH_THROTTLE_MS) return;
      lastTouch = now;
      touchExpireTime(now);
      if (now - lastKeepAlive >= KEEPALIVE_EVERY_MS) {
        lastKeepAlive = now;
        sessionApi.keepAlive().catch(() => undefined);
      }
    };

    for (const event of ACTIVITY_EVENTS) document.addEventListener(event, onActivity, { capture: true, passive: true });
    const timer = window.setInterval(check, CHECK_EVERY_MS);
    return () => {
      for (const event of ACTIVITY_EVENTS) document.removeEventListener(event, onActivity, { capture: true });
      window.clearInterval(timer);
    };
  }, [idleTimeoutMinutes]);
}
