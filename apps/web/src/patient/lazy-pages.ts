import { lazy } from 'react';

/**
 * Patient pages few visits need, split from the entry so the intake and questionnaire links stay within
 * the bundle budget (decision 0032): each loads the first time it is shown, under the page's Suspense.
 */
export const SelfCheckIn = lazy(() => import('./self-check-in').then((module) => ({ default: module.SelfCheckIn })));
export const CloseAccountPage = lazy(() => import('./close-account').then((module) => ({ default: module.CloseAccountPage })));
export const CloseAccountRequest = lazy(() =>
  import('./close-account').then((module) => ({ default: module.CloseAccountRequest })),
);
export const ConsentLink = lazy(() => import('./consent-link').then((module) => ({ default: module.ConsentLink })));
export const AccessRequestForm = lazy(() => import('./access-request').then((module) => ({ default: module.AccessRequestForm })));
