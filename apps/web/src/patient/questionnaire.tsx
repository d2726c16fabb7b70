import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { answerProblem, keepVisibleAnswers, takesAnswer, visibleQuestions } from '@pathwell/contracts/form-logic';
import {
  type AnswerValue,
  type Answers,
  type FormLanguage,
  type FormQuestion,
  QuestionType,
  quizDefaults,
} from '@pathwell/contracts/forms';
import type { Draft, LinkForm, LinkStatus } from '@pathwell/contracts/patient-links';
import { isNetworkError, PatientApiError, patientApi } from './api';
import { answerDisplay } from './answer-format';
import { lookupKindFor, useLookup } from './lookups';
import { QuestionInput } from './question-input';
import { linkStorage } from './storage';
import { localized } from './text';

const DRAFT_DEBOUNCE_MS = 800;
const OFFLINE_RETRY_MS = 5000;

/** Where a form's draft and submission go: a form link's own calls, or a form inside an intake. */
export interface FormEndpoints {
  saveDraft: (draft: Draft) => Promise<unknown>;
  submit: (body: { idempotencyKey: string; answers: Answers; language: FormLanguage }) => Promise<{ crisisResources?: boolean }>;
}

/** What the page does next: crisis resources first when the answers include a critical item (decision 0058). */
type SubmitOutcome = { crisisResources: boolean };

type Props = {
  token: string;
  /** Default: the form link's calls for `token`. */
  endpoints?: FormEndpoints;
  /** Device copy key; default the token. */
  storageKey?: string;
  accessToken: string;
  linkForm: LinkForm;
  /** The patient's chosen language; the form falls back to English where it has no Spanish. */
  language: FormLanguage;
  onGone: (status: Exclude<LinkStatus, 'active'>) => void;
  onSessionEnded: () => void;
  onSubmitted: (outcome: SubmitOutcome) => void;
  /** Waits between automatic submit retries after a network failure. */
  retryDelaysMs: number[];
  /** Move focus to the first question on arrival (after the identity step, not on a page load). */
  focusOnMount: boolean;
};

type SaveState = 'idle' | 'saving' | 'saved' | 'offline';
type FieldError = { questionId: string; problem: string } | null;

/** Where to resume: a draft kept on this device that never reached the server wins over the server's. */
function initialDraft(token: string, linkForm: LinkForm) {
  const local = linkStorage.draft(token);
  const source = local?.unsynced ? local : (linkForm.draft ?? local);
  return { answers: source?.answers ?? {}, position: source?.position ?? 0 };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function Questionnaire({
  token: linkToken,
  endpoints: givenEndpoints,
  storageKey,
  accessToken,
  linkForm,
  language,
  onGone,
  onSessionEnded,
  onSubmitted,
  retryDelaysMs,
  focusOnMount,
}: Props) {
  const { t } = useTranslation('patient');
  const token = storageKey ?? linkToken;
  const endpoints = useMemo<FormEndpoints>(
    () =>
      givenEndpoints ?? {
        saveDraft: (draft) => patientApi.saveDraft(linkToken, accessToken, draft),
        submit: (body) => patientApi.submit(linkToken, accessToken, body),
      },
    [accessToken, givenEndpoints, linkToken],
  );
  const form = linkForm.form;
  const formLanguage: FormLanguage = form.languages.includes(language) ? language : 'en';
  const [start] = useState(() => initialDraft(token, linkForm));
  const [answers, setAnswers] = useState<Answers>(start.answers);
  const visible = useMemo(() => visibleQuestions(form, answers), [form, answers]);
  const [position, setPosition] = useState(() => Math.min(Math.max(0, start.position), visible.length));
  const [error, setError] = useState<FieldError>(null);
  const [fromReview, setFromReview] = useState(false);
  const [saveState, setSaveState] = useState<SaveState>('idle');
  const [submitState, setSubmitState] = useState<'idle' | 'sending' | 'retrying' | 'networkFailed' | 'failed'>('idle');
  const headingRef = useRef<HTMLHeadingElement>(null);

  // ---- drafts ---------------------------------------------------------------------------------
  const latest = useRef({ answers, position, formLanguage });
  latest.current = { answers, position, formLanguage };
  const version = useRef(0);
  const debounce = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const offlineRetry = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const handlers = useRef({ onGone, onSessionEnded });
  handlers.current = { onGone, onSessionEnded };
  const finished = useRef(false);

  const keepLocal = useCallback(
    (unsynced: boolean) => {
      const { answers: current, position: at, formLanguage: lang } = latest.current;
      linkStorage.setDraft(token, { answers: current, position: at, language: lang, unsynced });
    },
    [token],
  );

  const saveNow = useCallback(() => {
    clearTimeout(debounce.current);
    clearTimeout(offlineRetry.current);
    if (finished.current) return queue.current;
    const savingVersion = version.current;
    const { answers: current, position: at, formLanguage: lang } = latest.current;
    const draft = { answers: keepVisibleAnswers(form, current), position: at, language: lang };
    keepLocal(true);
    queue.current = queue.current.then(async () => {
      if (finished.current) return;
      setSaveState('saving');
      try {
        await endpoints.saveDraft(draft);
        if (version.current === savingVersion) keepLocal(false);
        setSaveState('saved');
      } catch (failure) {
        if (failure instanceof PatientApiError) {
          setSaveState('idle');
          const gone = failure.goneStatus;
          if (gone) handlers.current.onGone(gone);
          else if (failure.status === 401) handlers.current.onSessionEnded();
          return;
        }
        setSaveState('offline');
        offlineRetry.current = setTimeout(() => void saveNow(), OFFLINE_RETRY_MS);
      }
    });
    return queue.current;
  }, [endpoints, form, keepLocal]);

  useEffect(() => {
    const online = () => void saveNow();
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('online', online);
      clearTimeout(debounce.current);
      clearTimeout(offlineRetry.current);
    };
  }, [saveNow]);

  const setAnswer = (questionId: string, value: AnswerValue) => {
    const next = { ...answers, [questionId]: value };
    setAnswers(next);
    latest.current = { ...latest.current, answers: next };
    version.current += 1;
    keepLocal(true);
    if (error?.questionId === questionId) setError(null);
    clearTimeout(debounce.current);
    debounce.current = setTimeout(() => void saveNow(), DRAFT_DEBOUNCE_MS);
  };

  // A language switch is part of the draft too.
  const firstLanguage = useRef(formLanguage);
  useEffect(() => {
    if (firstLanguage.current === formLanguage) return;
    firstLanguage.current = formLanguage;
    void saveNow();
  }, [formLanguage, saveNow]);

  // ---- paging ---------------------------------------------------------------------------------
  const goTo = (next: number, options: { fromReview?: boolean } = {}) => {
    const clamped = Math.min(Math.max(0, next), visible.length);
    setPosition(clamped);
    setFromReview(Boolean(options.fromReview));
    latest.current = { ...latest.current, position: clamped };
    void saveNow();
  };

  // Focus follows a page change (and the arrival from the identity step), not a page load.
  const focusedPosition = useRef<number | null>(focusOnMount ? null : position);
  useEffect(() => {
    if (focusedPosition.current === position) return;
    focusedPosition.current = position;
    headingRef.current?.focus();
  }, [position]);

  const isReview = position >= visible.length;
  const question = isReview ? null : visible[position];

  const next = () => {
    if (!question) return;
    const problem = answerProblem(question, answers[question.id]);
    if (problem) {
      setError({ questionId: question.id, problem });
      return;
    }
    setError(null);
    goTo(position + 1, { fromReview: fromReview && position + 1 < visible.length });
  };

  const back = () => {
    setError(null);
    goTo(position - 1);
  };

  // ---- submit ---------------------------------------------------------------------------------
  const attempt = useRef<{ key: string; answersJson: string } | null>(null);

  const submit = async () => {
    const clean = keepVisibleAnswers(form, answers);
    for (const [index, candidate] of visible.entries()) {
      const problem = answerProblem(candidate, clean[candidate.id]);
      if (problem) {
        goTo(index, { fromReview: true });
        setError({ questionId: candidate.id, problem });
        return;
      }
    }
    const answersJson = JSON.stringify(clean);
    // One key per attempt: the same answers sent again (a retry) carry the same key.
    if (!attempt.current || attempt.current.answersJson !== answersJson) {
      attempt.current = { key: crypto.randomUUID(), answersJson };
    }
    const body = { idempotencyKey: attempt.current.key, answers: clean, language: formLanguage };
    clearTimeout(debounce.current);
    await queue.current;
    setSubmitState('sending');
    let networkFailures = 0;
    for (;;) {
      try {
        const stored = await endpoints.submit(body);
        finished.current = true;
        clearTimeout(offlineRetry.current);
        onSubmitted({ crisisResources: stored?.crisisResources === true });
        return;
      } catch (failure) {
        if (isNetworkError(failure)) {
          if (networkFailures < retryDelaysMs.length) {
            setSubmitState('retrying');
            await wait(retryDelaysMs[networkFailures] ?? 0);
            networkFailures += 1;
            continue;
          }
          setSubmitState('networkFailed');
          return;
        }
        if (failure instanceof PatientApiError) {
          const gone = failure.goneStatus;
          // After a lost answer the first attempt may have been stored: the link then reads completed.
          if (gone === 'completed' && networkFailures > 0) {
            finished.current = true;
            // The stored answer was lost with the first reply; the same key again tells whether it was critical.
            const stored = await endpoints.submit(body).catch(() => null);
            onSubmitted({ crisisResources: stored?.crisisResources === true });
            return;
          }
          if (gone) return onGone(gone);
          if (failure.status === 401) return onSessionEnded();
          const fields = failure.body.fields ?? {};
          const index = visible.findIndex((candidate) => fields[candidate.id] || fields[`answers.${candidate.id}`]);
          const target = visible[index];
          if (target) {
            goTo(index, { fromReview: true });
            setError({ questionId: target.id, problem: fields[target.id] ?? fields[`answers.${target.id}`] ?? 'invalid' });
            setSubmitState('idle');
            return;
          }
        }
        setSubmitState('failed');
        return;
      }
    }
  };

  // ---- rendering ------------------------------------------------------------------------------
  const total = visible.length;
  const progressText = isReview ? t('form.reviewProgress') : t('form.progress', { current: position + 1, total });
  const section = question?.sectionId ? form.sections.find((candidate) => candidate.id === question.sectionId) : undefined;
  const previousSection = position > 0 ? visible[position - 1]?.sectionId : undefined;

  return (
    <div className="pw-questionnaire">
      <div className="pw-progress-block">
        <p className="pw-progress-text" aria-live="polite" data-testid="progress">
          {progressText}
        </p>
        <progress className="pw-progress" max={total || 1} value={isReview ? total : position + 1} aria-hidden="true" />
      </div>

      {question ? (
        <form
          className="pw-card"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            next();
          }}
        >
          {position === 0 && form.instructions && <p className="pw-instructions">{localized(form.instructions, formLanguage)}</p>}
          {section && (position === 0 || previousSection !== section.id) && (
            <div className="pw-section">
              <p className="pw-section-title">{localized(section.title, formLanguage)}</p>
              {section.intro && <p>{localized(section.intro, formLanguage)}</p>}
            </div>
          )}
          <QuestionPage
            key={question.id}
            question={question}
            value={answers[question.id]}
            onChange={(value) => setAnswer(question.id, value)}
            language={formLanguage}
            error={error?.questionId === question.id ? error.problem : null}
            headingRef={headingRef}
          />
          <div className="pw-nav">
            {quizDefaults.allowBack && position > 0 && (
              <button type="button" className="pw-button pw-button-secondary" onClick={back}>
                {t('form.back')}
              </button>
            )}
            <button type="submit" className="pw-button pw-button-primary">
              {t('form.next')}
            </button>
          </div>
          {fromReview && (
            <button
              type="button"
              className="pw-button pw-button-link"
              onClick={() => {
                const problem = answerProblem(question, answers[question.id]);
                if (problem) return setError({ questionId: question.id, problem });
                goTo(visible.length);
              }}
            >
              {t('form.toReview')}
            </button>
          )}
        </form>
      ) : (
        <Review
          questions={visible}
          answers={answers}
          language={formLanguage}
          headingRef={headingRef}
          onChange={(index) => goTo(index, { fromReview: true })}
          onBack={() => goTo(visible.length - 1)}
          onSubmit={() => void submit()}
          submitState={submitState}
        />
      )}

      <p className="pw-save-state" role="status" data-testid="save-state">
        {saveState === 'saving'
          ? t('form.saving')
          : saveState === 'saved'
            ? t('form.saved')
            : saveState === 'offline'
              ? t('form.offline')
              : ''}
      </p>
    </div>
  );
}

function QuestionPage({
  question,
  value,
  onChange,
  language,
  error,
  headingRef,
}: {
  question: FormQuestion;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue) => void;
  language: FormLanguage;
  error: string | null;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
}) {
  const { t } = useTranslation(['patient', 'validation']);
  const base = `question-${question.id}`;
  const helpId = question.help ? `${base}-help` : undefined;
  const errorId = error ? `${base}-error` : undefined;
  const rangeId =
    question.type === QuestionType.NUMBER && (question.min !== undefined || question.max !== undefined)
      ? `${base}-range`
      : undefined;
  const describedBy = [helpId, rangeId, errorId].filter(Boolean).join(' ') || undefined;
  const hint = hintFor(question, t);
  const hintId = hint ? `${base}-hint` : undefined;
  const fullDescribedBy = [describedBy, hintId].filter(Boolean).join(' ') || undefined;

  return (
    <fieldset className="pw-question" aria-describedby={fullDescribedBy}>
      <legend className="pw-legend">
        <h2 id={`${base}-title`} ref={headingRef} tabIndex={-1} className="pw-question-title">
          {localized(question.text, language)}
        </h2>
      </legend>
      {takesAnswer(question) && <p className="pw-required">{question.required ? t('form.required') : t('form.optional')}</p>}
      {question.help && (
        <p className="pw-hint" id={helpId}>
          {localized(question.help, language)}
        </p>
      )}
      {hint && (
        <p className="pw-hint" id={hintId}>
          {hint}
        </p>
      )}
      {rangeId && (
        <p className="pw-hint" id={rangeId}>
          {question.min !== undefined && question.max !== undefined
            ? t('form.numberRange', { min: question.min, max: question.max })
            : question.min !== undefined
              ? t('form.numberMin', { min: question.min })
              : t('form.numberMax', { max: question.max })}
        </p>
      )}
      <QuestionInput
        question={question}
        value={value}
        onChange={onChange}
        language={language}
        labelId={`${base}-title`}
        describedBy={fullDescribedBy}
        invalid={Boolean(error)}
      />
      {error && (
        <p className="pw-error" id={errorId} role="alert">
          {t(`validation:${error}`, { defaultValue: t('validation:invalid') })}
        </p>
      )}
    </fieldset>
  );
}

const hintKeys: Partial<Record<number, string>> = {
  [QuestionType.PHONE_NUMBER]: 'form.phoneHint',
  [QuestionType.ZIP_CODE]: 'form.zipHint',
  [QuestionType.TAX_ID]: 'form.taxIdHint',
  [QuestionType.EMAIL]: 'form.emailHint',
};

function hintFor(question: FormQuestion, t: (key: string) => string): string | null {
  const key = hintKeys[question.type];
  return key ? t(key) : null;
}

function Review({
  questions,
  answers,
  language,
  headingRef,
  onChange,
  onBack,
  onSubmit,
  submitState,
}: {
  questions: FormQuestion[];
  answers: Answers;
  language: FormLanguage;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  onChange: (index: number) => void;
  onBack: () => void;
  onSubmit: () => void;
  submitState: 'idle' | 'sending' | 'retrying' | 'networkFailed' | 'failed';
}) {
  const { t } = useTranslation('patient');
  const busy = submitState === 'sending' || submitState === 'retrying';
  return (
    <section className="pw-card" aria-labelledby="review-title">
      <h2 id="review-title" ref={headingRef} tabIndex={-1} className="pw-question-title">
        {t('review.title')}
      </h2>
      <p>{t('review.intro')}</p>
      <ol className="pw-review-list">
        {questions.map((question, index) =>
          takesAnswer(question) ? (
            <li key={question.id} className="pw-review-item">
              <p className="pw-review-question">{localized(question.text, language)}</p>
              <div className="pw-review-answer">
                <AnswerText question={question} value={answers[question.id]} language={language} />
              </div>
              <button
                type="button"
                className="pw-button pw-button-secondary pw-review-change"
                aria-label={t('review.changeLabel', { question: localized(question.text, language) })}
                onClick={() => onChange(index)}
              >
                {t('review.change')}
              </button>
            </li>
          ) : null,
        )}
      </ol>
      <div role="status" aria-live="polite" className="pw-submit-state">
        {submitState === 'sending' && <p>{t('review.submitting')}</p>}
        {submitState === 'retrying' && <p>{t('review.retrying')}</p>}
      </div>
      {(submitState === 'networkFailed' || submitState === 'failed') && (
        <p className="pw-error" role="alert">
          {submitState === 'networkFailed' ? t('review.networkFailed') : t('review.failed')}
        </p>
      )}
      <div className="pw-nav">
        {questions.length > 0 && (
          <button type="button" className="pw-button pw-button-secondary" onClick={onBack} disabled={busy}>
            {t('form.back')}
          </button>
        )}
        <button
          type="button"
          className="pw-button pw-button-primary"
          onClick={onSubmit}
          disabled={busy}
          aria-busy={busy || undefined}
        >
          {t('review.submit')}
        </button>
      </div>
    </section>
  );
}

function AnswerText({
  question,
  value,
  language,
}: {
  question: FormQuestion;
  value: AnswerValue | undefined;
  language: FormLanguage;
}) {
  const { t } = useTranslation('patient');
  const lookup = useLookup(lookupKindFor(question));
  const shown = answerDisplay(question, value, language, lookup.options);
  switch (shown.kind) {
    case 'empty':
      return <span className="pw-muted">{t('review.noAnswer')}</span>;
    case 'yes':
      return <span>{t('review.yes')}</span>;
    case 'no':
      return <span>{t('review.no')}</span>;
    case 'signature':
      return (
        <span className="pw-review-signature">
          <img src={shown.image} alt={t('signature.yourSignature')} />
          <span>{t('review.signed')}</span>
        </span>
      );
    case 'text':
      return <span className="pw-review-text">{shown.text}</span>;
  }
}
