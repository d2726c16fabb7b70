import { lazy } from 'react';

/**
 * Patient pages split from the entry so it stays within the bundle budget (decision 0032): the intake
 * steps (fetched as soon as an intake link opens, while the patient passes the identity check) and the
 * pages few visits need. Each renders under the page's Suspense.
 */
export const loadIntakeFlow = () => import('./intake-flow');
export const IntakeFlow = lazy(() => loadIntakeFlow().then((module) => ({ default: module.IntakeFlow })));
export const SelfCheckIn = lazy(() => import('./self-check-in').then((module) => ({ default: module.SelfCheckIn })));
export const CloseAccountPage = lazy(() => import('./close-account').then((module) => ({ default: module.CloseAccountPage })));
export const ConsentLink = lazy(() => import('./consent-link').then((module) => ({ default: module.ConsentLink })));
export const PainJournalPage = lazy(() => import('./pain-journal').then((module) => ({ default: module.PainJournalPage })));
