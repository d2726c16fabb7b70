import type { Answers, FormLanguage } from '@pathwell/contracts/forms';

/**
 * Per-link browser storage (sessionStorage: gone when the tab closes). The access token lets a reload
 * go straight back to the form; the draft copy keeps answers while the server cannot be reached.
 */
type LocalDraft = { answers: Answers; position: number; language: FormLanguage; unsynced: boolean };

const accessKey = (token: string) => `patientLink.access.${token}`;
const draftKey = (token: string) => `patientLink.draft.${token}`;

function read(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null) {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // Private mode or a full storage: the server draft still holds the answers.
  }
}

export const linkStorage = {
  accessToken: (token: string) => read(accessKey(token)),
  setAccessToken: (token: string, value: string | null) => write(accessKey(token), value),
  draft(token: string): LocalDraft | null {
    const raw = read(draftKey(token));
    if (!raw) return null;
    try {
      const parsed = JSON.parse(raw) as LocalDraft;
      return parsed && typeof parsed.answers === 'object' && typeof parsed.position === 'number' ? parsed : null;
    } catch {
      return null;
    }
  },
  setDraft: (token: string, draft: LocalDraft | null) => write(draftKey(token), draft === null ? null : JSON.stringify(draft)),
  clear(token: string) {
    write(accessKey(token), null);
    write(draftKey(token), null);
  },
};
