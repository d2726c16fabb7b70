import type { Role } from '@pathwell/contracts/roles';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Mailer } from './modules/outbox/outbox.service';
import type { JobQueue } from './jobs/job-queue';
import type { EventHub } from './modules/events/event-hub';
import { AppError } from './lib/app-error';
import { enterClinics, withSystemAccess, type SystemAccessReason } from './db/tenancy';

export interface Actor {
  userId: string;
  sessionId: string;
  email: string;
  role: Role;
  isParent: boolean;
  isChild: boolean;
  homeInstanceId: string | null;
}

/** What every service function receives: the database, who acts, and for which clinic. */
export interface ServiceContext {
  db: Database;
  config: Config;
  mailer: Mailer;
  jobs: JobQueue;
  events: EventHub;
  ip: string;
  userAgent: string | null;
  actor: Actor | null;
  /** The clinic the request acts for; null only on open routes. */
  instanceId: string | null;
  /** A parent user's all-clinics view: the clinics the request may read across. */
  allClinics: boolean;
  instanceIds: string[];
  /**
   * Report routes (`readReplica`) with a replica configured: a read-only transaction on it, under the same
   * clinic scope as `db`. Everything else, including the report's activity-log entry, uses `db`.
   */
  readDb?: Database;
}

export interface SignedInContext extends ServiceContext {
  actor: Actor;
  instanceId: string;
}

/** Where a report reads: the replica when one is configured for the route, else the request's own transaction. */
export const reportReader = (ctx: ServiceContext): Database => ctx.readDb ?? ctx.db;

export function requireSignedIn(ctx: ServiceContext): SignedInContext {
  if (!ctx.actor || !ctx.instanceId) throw new AppError('UNAUTHENTICATED', 'signInRequired');
  return ctx as SignedInContext;
}

/**
 * The provider a schedule or a provider report is narrowed to: a Doctor's day, their visits and their
 * signing queue are always their own, whatever the request names; other roles may pick one. This is a
 * filter, not who may see a patient: that is patients/patient-visibility.service (decision 0070).
 */
export function doctorScope(ctx: SignedInContext, requested?: string | null): string | null {
  return ctx.actor.role === 'Doctor' ? ctx.actor.userId : (requested ?? null);
}

/**
 * Runs `work` with row-level security widened to every clinic, for one named reason (decision 0022);
 * the request is back in its own clinic afterwards. The only door across tenants.
 */
export function withSystemContext<C extends ServiceContext, T>(
  ctx: C,
  reason: SystemAccessReason,
  work: (ctx: C) => Promise<T>,
): Promise<T> {
  return withSystemAccess(ctx.db, reason, (db) => work({ ...ctx, db }), ctx.instanceIds);
}

/**
 * An open route that has resolved which clinic it serves (a patient link): from here on its
 * transaction sees that clinic's rows and no other.
 */
export async function enterClinicOf<C extends ServiceContext>(ctx: C, instanceId: string): Promise<C> {
  await enterClinics(ctx.db, [instanceId]);
  return { ...ctx, instanceId, instanceIds: [instanceId] };
}
