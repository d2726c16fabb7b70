import { SESSION_EXPIRY_STEP_MS } from '@pathwell/contracts/constants';
import type { Authenticated } from '@pathwell/contracts/users';

/** Browser-storage keys of specification section 3 "User" (local keys). */
export const storageKeys = {
  token: 'token',
  userId: 'userId',
  userRole: 'userRole',
  isParent: 'isParent',
  isChild: 'isChild',
  clinicId: 'clinicId',
  doctorId: 'doctorId',
  expireTime: 'expireTime',
  caseStatus: 'caseStatus',
  rememberedEmail: 'rememberedEmail',
  language: 'language',
  sideMenuCollapsed: 'sideMenuCollapsed',
} as const;

/** What an invalid token and a sign-out clear (section 4); preferences such as the language stay. */
export const sessionKeys = [
  storageKeys.token,
  storageKeys.userId,
  storageKeys.userRole,
  storageKeys.isParent,
  storageKeys.isChild,
  storageKeys.clinicId,
  storageKeys.doctorId,
  storageKeys.expireTime,
] as const;

/** The all-clinics view of a parent user, sent as `ClinicId: all`. */
export const ALL_CLINICS = 'all';

const RETURN_TO_KEY = 'returnTo';

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode, quota); the session then lives only in memory.
  }
}

export const getToken = () => read(storageKeys.token);
export const getClinicId = () => read(storageKeys.clinicId);
export const getDoctorId = () => read(storageKeys.doctorId);
export const setDoctorId = (id: string | null) => write(storageKeys.doctorId, id);
export const isSignedIn = () => Boolean(getToken());

export function setClinicId(id: string) {
  write(storageKeys.clinicId, id);
  // A doctor of one clinic means nothing in another (section 4).
  write(storageKeys.doctorId, null);
}

export function storeSignIn(result: Authenticated) {
  write(storageKeys.token, result.token);
  write(storageKeys.userId, result.id);
  write(storageKeys.userRole, result.role);
  write(storageKeys.isParent, String(result.isParent));
  write(storageKeys.isChild, String(result.isChild));
  // A Doctor works as the clinic's selected doctor (section 4).
  write(storageKeys.doctorId, result.role === 'Doctor' ? result.id : null);
  write(storageKeys.clinicId, null);
  touchExpireTime();
}

/** Section 4: when loading the current user fails, the stored token and user id go. */
export function forgetSignedInUser() {
  write(storageKeys.token, null);
  write(storageKeys.userId, null);
}

export function clearSession() {
  for (const key of sessionKeys) write(key, null);
}

/** Session expiry is stored as now plus one minute and pushed forward by user activity (section 4). */
export function touchExpireTime(now = Date.now()) {
  write(storageKeys.expireTime, String(now + SESSION_EXPIRY_STEP_MS));
}

/** When the person was last active, shared by every tab through storage. */
export function lastActivityAt(): number | null {
  const value = Number(read(storageKeys.expireTime));
  return Number.isFinite(value) && value > 0 ? value - SESSION_EXPIRY_STEP_MS : null;
}

export const getRememberedEmail = () => read(storageKeys.rememberedEmail);
export const setRememberedEmail = (email: string | null) => write(storageKeys.rememberedEmail, email);

export const getStoredLanguage = () => read(storageKeys.language);
export const setStoredLanguage = (language: string) => write(storageKeys.language, language);

export const isSideMenuCollapsed = () => read(storageKeys.sideMenuCollapsed) === 'true';
export const setSideMenuCollapsed = (collapsed: boolean) => write(storageKeys.sideMenuCollapsed, String(collapsed));

/** Account pages: never remembered as the place to return to after sign-in. */
const accountPaths = [
  '/',
  '/signin',
  '/signup',
  '/confirm-signup',
  '/forget-password',
  '/reset-password',
  '/set-password',
  '/already-set-up',
  '/terms-and-conditions',
];

/** Keeps the first path an unauthenticated visit asked for, so sign-in can return there. */
export function rememberReturnPath(path: string) {
  const pathname = path.split(/[?#]/, 1)[0] ?? '';
  if (accountPaths.includes(pathname)) return;
  try {
    if (!sessionStorage.getItem(RETURN_TO_KEY)) sessionStorage.setItem(RETURN_TO_KEY, path);
  } catch {
    // Without storage the person lands on the home page after sign-in.
  }
}

export function takeReturnPath(): string | null {
  try {
    const path = sessionStorage.getItem(RETURN_TO_KEY);
    sessionStorage.removeItem(RETURN_TO_KEY);
    return path && path.startsWith('/') && !path.startsWith('//') ? path : null;
  } catch {
    return null;
  }
}
