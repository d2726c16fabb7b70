import { useCallback, useEffect, useState } from 'react';
import { type FormQuestion, QuestionType } from '@pathwell/contracts/forms';
import { loadLookup, type LookupKind, type LookupOption } from './api';

const lookupKinds: Partial<Record<number, LookupKind>> = {
  [QuestionType.STATES]: 'usStates',
  [QuestionType.COUNTRIES]: 'countries',
  [QuestionType.TIME_ZONE]: 'timeZones',
  [QuestionType.PATIENT_PHONENUMBER_TYPE]: 'patientPhoneTypes',
};

/** Which server list a question without its own options draws its choices from. */
export function lookupKindFor(question: FormQuestion): LookupKind | null {
  if (question.options?.length) return null;
  return lookupKinds[question.type] ?? null;
}

type LookupState = { status: 'idle' | 'loading' | 'ready' | 'failed'; options: LookupOption[]; retry: () => void };

export function useLookup(kind: LookupKind | null): LookupState {
  const [state, setState] = useState<Omit<LookupState, 'retry'>>({ status: kind ? 'loading' : 'idle', options: [] });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!kind) return;
    let alive = true;
    setState((previous) => (previous.status === 'ready' ? previous : { status: 'loading', options: [] }));
    loadLookup(kind).then(
      (options) => alive && setState({ status: 'ready', options }),
      () => alive && setState({ status: 'failed', options: [] }),
    );
    return () => {
      alive = false;
    };
  }, [kind, attempt]);
  const retry = useCallback(() => setAttempt((value) => value + 1), []);
  return { ...state, retry };
}
