import { lazy } from 'react';

/**
 * Pieces other patient pages show now and then (asking the clinic for access, closing an account),
 * split from the entry like the pages of `lazy-pages.ts`. They live apart from those pages because the
 * pages themselves use them: one list for both would import itself back through them.
 */
export const AccessRequestForm = lazy(() => import('./access-request').then((module) => ({ default: module.AccessRequestForm })));
export const CloseAccountRequest = lazy(() =>
  import('./close-account').then((module) => ({ default: module.CloseAccountRequest })),
);
