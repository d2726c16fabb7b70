import { useCallback, useEffect, useRef, useState } from 'react';
import type { FormLanguage } from '@pathwell/contracts/forms';
import type { IntakeStepSlug } from '@pathwell/contracts/intake';
import { intakeApi, isNetworkError, PatientApiError } from './api';

export const STEP_DRAFT_DEBOUNCE_MS = 800;
const OFFLINE_RETRY_MS = 5000;

type Stored<T> = { data: T; unsynced: boolean };
const key = (token: string, slug: IntakeStepSlug) => `intake.${token}.${slug}`;

function readLocal<T>(token: string, slug: IntakeStepSlug): Stored<T> | null {
  try {
    const raw = sessionStorage.getItem(key(token, slug));
    return raw ? (JSON.parse(raw) as Stored<T>) : null;
  } catch {
    return null;
  }
}
function writeLocal<T>(token: string, slug: IntakeStepSlug, value: Stored<T> | null) {
  try {
    if (value === null) sessionStorage.removeItem(key(token, slug));
    else sessionStorage.setItem(key(token, slug), JSON.stringify(value));
  } catch {
    // Private mode or full storage: the server draft still holds the answers.
  }
}

export type SaveState = 'idle' | 'saving' | 'saved' | 'offline';
export type FieldErrors = Record<string, string>;

interface Options<T> {
  token: string;
  accessToken: string;
  slug: IntakeStepSlug;
  language: FormLanguage;
  /** What the server holds for the step (its draft), or null. */
  saved: T | null;
  initial: T;
  onGone: (status: 'completed' | 'expired' | 'revoked' | 'locked') => void;
  onSessionEnded: () => void;
  /** The step's own rules, checked before it is sent as final (the server checks them again). */
  check?: (data: T) => FieldErrors;
}

/**
 * A step's answers, kept as in the questionnaire renderer (decision 0019): every change is written to
 * this device at once and to the server 800 ms later; a device copy the server never got wins on
 * resume; offline saves retry every 5 s and on the `online` event. `finish` sends the step as final.
 */
export function useStepDraft<T>({
  token,
  accessToken,
  slug,
  language,
  saved,
  initial,
  onGone,
  onSessionEnded,
  check,
}: Options<T>) {
  const [data, setData] = useState<T>(() => {
    const local = readLocal<T>(token, slug);
    if (local?.unsynced) return local.data;
    return saved ?? local?.data ?? initial;
  });
  const [saveState, setSaveState] = useState<SaveState>('idle');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [finishing, setFinishing] = useState(false);
  const latest = useRef(data);
  latest.current = data;
  const version = useRef(0);
  const debounce = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const retry = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const finished = useRef(false);
  const handlers = useRef({ onGone, onSessionEnded });
  handlers.current = { onGone, onSessionEnded };

  const failed = useCallback((failure: unknown): boolean => {
    if (failure instanceof PatientApiError) {
      const gone = failure.goneStatus;
      if (gone) handlers.current.onGone(gone);
      else if (failure.status === 401) handlers.current.onSessionEnded();
      return true;
    }
    return false;
  }, []);

  const saveNow = useCallback(() => {
    clearTimeout(debounce.current);
    clearTimeout(retry.current);
    if (finished.current) return queue.current;
    const savingVersion = version.current;
    const body = { final: false, language, data: latest.current };
    queue.current = queue.current.then(async () => {
      if (finished.current) return;
      setSaveState('saving');
      try {
        await intakeApi.saveStep(token, accessToken, slug, body);
        if (version.current === savingVersion) writeLocal(token, slug, { data: body.data, unsynced: false });
        setSaveState('saved');
      } catch (failure) {
        if (failure instanceof PatientApiError && failure.status === 400) {
          // A draft with a malformed field (say, half a ZIP code) stays on the device until it is fixed.
          setSaveState('idle');
          return;
        }
        if (failed(failure)) return setSaveState('idle');
        setSaveState('offline');
        retry.current = setTimeout(() => void saveNow(), OFFLINE_RETRY_MS);
      }
    });
    return queue.current;
  }, [accessToken, failed, language, slug, token]);

  useEffect(() => {
    const online = () => void saveNow();
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('online', online);
      clearTimeout(debounce.current);
      clearTimeout(retry.current);
    };
  }, [saveNow]);

  const update = useCallback(
    (next: T) => {
      version.current += 1;
      latest.current = next;
      setData(next);
      writeLocal(token, slug, { data: next, unsynced: true });
      clearTimeout(debounce.current);
      debounce.current = setTimeout(() => void saveNow(), STEP_DRAFT_DEBOUNCE_MS);
    },
    [saveNow, slug, token],
  );

  /** Sends the step as final; answers true when the server took it. */
  const finish = useCallback(
    async (final: T = latest.current): Promise<boolean> => {
      const problems = check?.(final) ?? {};
      if (Object.keys(problems).length > 0) {
        setErrors(problems);
        return false;
      }
      clearTimeout(debounce.current);
      await queue.current;
      setFinishing(true);
      setErrors({});
      try {
        await intakeApi.saveStep(token, accessToken, slug, { final: true, language, data: final });
        finished.current = true;
        writeLocal(token, slug, null);
        return true;
      } catch (failure) {
        if (failure instanceof PatientApiError && failure.status === 400) {
          setErrors((failure.body.fields as FieldErrors | undefined) ?? {});
          return false;
        }
        if (failed(failure)) return false;
        if (isNetworkError(failure)) setSaveState('offline');
        return false;
      } finally {
        setFinishing(false);
      }
    },
    [accessToken, check, failed, language, slug, token],
  );

  return { data, update, saveState, errors, finish, finishing };
}

export function clearIntakeDrafts(token: string) {
  for (const slug of ['paperwork', 'history', 'vas', 'bodymap', 'payment'] as const) writeLocal(token, slug, null);
}
