/** Business constants of specification section 9. */
export const PAGE_SIZE_DEFAULT = 15;
export const PAGE_NUMBER_DEFAULT = 0;
export const DOCTOR_SELECTOR_PAGE_SIZE = 999;
export const NOTIFICATION_LIST_SIZE = 50;
export const SEARCH_MIN_CHARS = 3;
export const SEARCH_LIMIT = 300;
export const SEARCH_CLOSE_DELAY_MS = 500;
/** Pause after the last keystroke before the top-bar search asks the server. */
export const SEARCH_DEBOUNCE_MS = 250;
export const DEFAULT_IDLE_LOGOUT_MINUTES = 30;
export const SESSION_EXPIRY_STEP_MS = 60_000;
export const SIGN_OUT_DELAY_MS = 500;
export const CLINIC_SWITCH_RELOAD_MS = 500;
export const SET_PASSWORD_DIALOG_MS = 3000;
export const TOAST_AUTO_CLOSE_MS = 6000;
export const ROUTE_TRANSITION_MS = 300;
export const POPUP_NOTIFICATION_MS = 10_000;

export const TWO_FACTOR_CODE_TTL_MINUTES = 10;
export const PASSWORD_RESET_TTL_MINUTES = 60;
export const WELCOME_LINK_TTL_HOURS = 72;
export const SIGNUP_CONFIRM_TTL_HOURS = 24;

/** Failed sign-in throttling: per account and per IP address within a sliding window. */
export const SIGN_IN_WINDOW_MINUTES = 15;
export const SIGN_IN_MAX_FAILURES_PER_ACCOUNT = 5;
export const SIGN_IN_MAX_FAILURES_PER_IP = 20;

export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * Lists count their matches exactly up to this many; past it they answer "more than" this number
 * (`totalExact: false`) unless an exact count is asked for, so a page costs the same in a clinic of
 * ten thousand patients as in one of a million (issue #10 §1).
 */
export const LIST_COUNT_LIMIT = 10_000;
