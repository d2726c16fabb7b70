import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormLanguage } from '@pathwell/contracts/forms';
import { PAIN_NOTE_MAX_LENGTH, type PainJournalDay, type PainJournalSaved } from '@pathwell/contracts/pain-journal';
import { isNetworkError, PatientApiError, painJournalApi } from './api';
import './pain-journal.css';
import { PainScale } from './pain-scale';

/**
 * The answer not yet confirmed by the server, kept on this device (sessionStorage, like every link's
 * draft) from the first tap until the server has it. `sending`: a send was started, so a reload sends
 * it again with the same key and the server stores it once.
 */
type Pending = { score: number | null; note: string; key: string; sending: boolean };
const pendingKey = (token: string) => `painJournal.pending.${token}`;

function readPending(token: string): Pending | null {
  try {
    const raw = sessionStorage.getItem(pendingKey(token));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Pending;
    return typeof parsed.key === 'string' ? parsed : null;
  } catch {
    return null;
  }
}
function writePending(token: string, value: Pending | null) {
  try {
    if (value === null) sessionStorage.removeItem(pendingKey(token));
    else sessionStorage.setItem(pendingKey(token), JSON.stringify(value));
  } catch {
    // Private mode or a full storage: the answer stays in the page until sent.
  }
}

type View =
  | { name: 'loading' | 'notFound' | 'problem' }
  | { name: 'gone'; status: 'expired' | 'revoked' }
  | { name: 'form' }
  | { name: 'thanks'; saved: PainJournalSaved };

type Props = {
  journalToken: string;
  language: FormLanguage;
  /** Waits between automatic resends after a network failure; then every last delay until it goes. */
  retryDelaysMs?: number[];
  onClinicName: (name: string) => void;
  onLanguage: (language: FormLanguage) => void;
};

/**
 * /periodicvas/{patientId}/{token} (decision 0042): pain 0–10 and an optional note, one tap per number.
 * No identity check and nothing about the patient on the page: the link only takes a number and a note.
 */
export function PainJournalPage({ journalToken, language, retryDelaysMs = [1000, 3000, 6000], onClinicName, onLanguage }: Props) {
  const { t } = useTranslation('patient');
  const [view, setView] = useState<View>({ name: 'loading' });
  const [clinic, setClinic] = useState('');
  const [recent, setRecent] = useState<PainJournalDay[]>([]);
  const [pending, setPending] = useState<Pending>(
    () => readPending(journalToken) ?? { score: null, note: '', key: crypto.randomUUID(), sending: false },
  );
  const [busy, setBusy] = useState(false);
  const [offline, setOffline] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const attempts = useRef(0);
  const latest = useRef(pending);
  latest.current = pending;
  const scaleId = useId();
  const noteId = useId();
  const hintId = useId();

  const keep = useCallback(
    (next: Pending) => {
      setPending(next);
      writePending(journalToken, next);
    },
    [journalToken],
  );

  const send = useCallback(async () => {
    const current = latest.current;
    if (current.score === null) return setProblem(t('painJournal.chooseFirst'));
    clearTimeout(retryTimer.current);
    const sending = { ...current, sending: true };
    latest.current = sending;
    keep(sending);
    setBusy(true);
    setProblem(null);
    try {
      const saved = await painJournalApi.record(journalToken, {
        score: current.score,
        note: current.note.trim() || null,
        idempotencyKey: current.key,
      });
      writePending(journalToken, null);
      attempts.current = 0;
      setOffline(false);
      setRecent(saved.lastEntries);
      setView({ name: 'thanks', saved });
    } catch (failure) {
      if (failure instanceof PatientApiError) {
        const gone = failure.goneStatus;
        if (failure.status === 410) {
          writePending(journalToken, null);
          return setView({ name: 'gone', status: gone === 'revoked' ? 'revoked' : 'expired' });
        }
        if (failure.status === 404) return setView({ name: 'notFound' });
        // A refusal (a key used before, a field the server did not take): a fresh key for the next try.
        keep({ ...latest.current, key: crypto.randomUUID(), sending: false });
        return setProblem(t('painJournal.failed'));
      }
      if (isNetworkError(failure)) {
        setOffline(true);
        const delay = retryDelaysMs[Math.min(attempts.current, retryDelaysMs.length - 1)] ?? 5000;
        attempts.current += 1;
        retryTimer.current = setTimeout(() => void send(), delay);
        return;
      }
      setProblem(t('painJournal.failed'));
    } finally {
      setBusy(false);
    }
  }, [journalToken, keep, retryDelaysMs, t]);

  const load = useCallback(async () => {
    setView({ name: 'loading' });
    try {
      const journal = await painJournalApi.view(journalToken);
      setClinic(journal.clinicName);
      onClinicName(journal.clinicName);
      onLanguage(journal.language);
      setRecent(journal.lastEntries);
      if (journal.status !== 'active') {
        writePending(journalToken, null);
        return setView({ name: 'gone', status: journal.status });
      }
      setView({ name: 'form' });
      // A send that never got its answer (the page was closed or the network dropped) goes again.
      if (latest.current.sending && latest.current.score !== null) void send();
    } catch (failure) {
      if (failure instanceof PatientApiError && (failure.status === 404 || failure.status === 400)) {
        return setView({ name: 'notFound' });
      }
      setView({ name: 'problem' });
    }
  }, [journalToken, onClinicName, onLanguage, send]);

  useEffect(() => {
    void load();
    return () => clearTimeout(retryTimer.current);
    // The link is read once per page load.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (!offline) return;
    const again = () => void send();
    window.addEventListener('online', again);
    return () => window.removeEventListener('online', again);
  }, [offline, send]);

  useEffect(() => {
    if (view.name !== 'loading' && view.name !== 'form') headingRef.current?.focus();
  }, [view.name]);

  const dateText = (isoDate: string) => {
    const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
    return new Intl.DateTimeFormat(language === 'es' ? 'es-US' : 'en-US', {
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(Date.UTC(year, month - 1, day)));
  };

  const recentList =
    recent.length > 0 ? (
      <section className="pw-journal-recent" aria-labelledby={`${scaleId}-recent`}>
        <h3 id={`${scaleId}-recent`} className="pw-section-title">
          {t('painJournal.recent')}
        </h3>
        <ul className="pw-list" data-testid="pain-journal-recent">
          {recent.map((day) => (
            <li key={day.date}>{t('painJournal.recentItem', { date: dateText(day.date), score: day.score })}</li>
          ))}
        </ul>
      </section>
    ) : null;

  if (view.name === 'loading') {
    return (
      <p className="pw-hint" role="status">
        {t('loading')}
      </p>
    );
  }
  if (view.name === 'problem') {
    return (
      <section className="pw-card" role="alert">
        <h2 className="pw-question-title" tabIndex={-1} ref={headingRef}>
          {t('problem.title')}
        </h2>
        <p>{t('problem.body')}</p>
        <button type="button" className="pw-button pw-button-primary" onClick={() => void load()}>
          {t('problem.retry')}
        </button>
      </section>
    );
  }
  if (view.name === 'notFound' || view.name === 'gone') {
    const key = view.name === 'gone' ? `gone.${view.status}` : 'notFound';
    return (
      <section
        className="pw-card pw-message"
        data-testid={view.name === 'gone' ? `pain-journal-${view.status}` : 'pain-journal-not-found'}
      >
        <h2 className="pw-question-title" tabIndex={-1} ref={headingRef}>
          {t(`painJournal.${key}.title`)}
        </h2>
        <p>{t(`painJournal.${key}.body`)}</p>
      </section>
    );
  }
  if (view.name === 'thanks') {
    return (
      <section className="pw-card pw-message" data-testid="pain-journal-thanks">
        <h2 className="pw-question-title" tabIndex={-1} ref={headingRef}>
          {t('painJournal.thanks.title')}
        </h2>
        <p>{t('painJournal.thanks.body', { clinic })}</p>
        {view.saved.replaced && <p className="pw-hint">{t('painJournal.thanks.replaced')}</p>}
        {recentList}
      </section>
    );
  }

  return (
    <form
      className="pw-card pw-journal"
      data-testid="pain-journal-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <fieldset className="pw-journal-fieldset" aria-describedby={hintId}>
        <legend className="pw-question-title" id={scaleId}>
          {t('painJournal.question')}
        </legend>
        <p className="pw-hint" id={hintId}>
          {t('painJournal.scaleHint')}
        </p>
        <PainScale
          name={`${scaleId}-score`}
          value={pending.score}
          labelledBy={scaleId}
          disabled={busy}
          onChange={(score) => {
            setProblem(null);
            keep({ ...pending, score, key: crypto.randomUUID(), sending: false });
          }}
        />
        <div className="pw-journal-anchors" aria-hidden="true">
          <span>0 = {t('painJournal.anchorNone')}</span>
          <span>10 = {t('painJournal.anchorWorst')}</span>
        </div>
      </fieldset>

      <div className="pw-field">
        <label htmlFor={noteId} className="pw-section-title">
          {t('painJournal.noteLabel')}
        </label>
        <textarea
          id={noteId}
          className="pw-input pw-textarea pw-journal-note"
          rows={3}
          maxLength={PAIN_NOTE_MAX_LENGTH}
          value={pending.note}
          disabled={busy}
          aria-describedby={`${noteId}-hint`}
          onChange={(event) => keep({ ...pending, note: event.target.value, key: crypto.randomUUID(), sending: false })}
        />
        <p className="pw-hint" id={`${noteId}-hint`}>
          {t('painJournal.noteHint', { max: PAIN_NOTE_MAX_LENGTH })}
        </p>
      </div>

      {problem && (
        <p className="pw-error" role="alert">
          {problem}
        </p>
      )}
      {offline && (
        <div className="pw-notice" role="status" data-testid="pain-journal-offline">
          <p>{t('painJournal.offline')}</p>
          <button type="button" className="pw-button pw-button-secondary" disabled={busy} onClick={() => void send()}>
            {t('painJournal.retryNow')}
          </button>
        </div>
      )}
      <div className="pw-nav">
        <button type="submit" className="pw-button pw-button-primary" disabled={busy} aria-busy={busy || undefined}>
          {busy ? t('painJournal.sending') : t('painJournal.send')}
        </button>
      </div>
      {recentList}
    </form>
  );
}
