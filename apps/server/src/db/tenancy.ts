import { sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database } from './client';

/**
 * Row-level security (decision 0022). Every tenant-owned table has a policy for `pathwell_app` that
 * shows only the rows of the clinics named in the transaction-local setting `pathwell.instance_ids`,
 * and one for `pathwell_system` that shows everything. Neither role owns a table or can log in; the
 * connection's role switches to one of them for the length of one transaction (`set_config('role',
 * …, true)`), so nothing carries over to the next user of a pooled connection.
 */
export const APP_ROLE = 'pathwell_app';
export const SYSTEM_ROLE = 'pathwell_system';

/**
 * The only reasons to read or write across clinics. Each names work that is cross-tenant by nature;
 * adding one is a reviewed change (tenancy.test.ts lists every call site).
 */
export const systemAccessReasons = [
  /** Resolving a bearer token to its user, home clinic and memberships, before any clinic is known. */
  'session-lookup',
  /** Sign-in, sign-up, password reset and two-factor: a staff account is found by email or token. */
  'staff-account',
  /** A staff user's clinic memberships, which span clinics by nature (parent users). */
  'staff-memberships',
  /** An open patient link is found by the hash of its token; the link then names the clinic. */
  'patient-link-token',
  /** The self check-in QR page names an appointment; its clinic is read by the appointment's id. */
  'self-check-in',
  /** The intake sweep finds, in every clinic, visits whose intake link is due to go out on its own. */
  'intake-auto-send',
  /** The pathway sweep finds, in every clinic, pathway steps that are due, waiting for an answer or overdue. */
  'pathway-sweep',
  /** The campaign sweep finds, in every clinic, approved campaigns with recipients still to send (decision 0051). */
  'campaign-sweep',
  /** A campaign's short link (/l/{code}) is found by its code; the recipient then names the clinic. */
  'campaign-short-link',
  /** Delivering a stored outbound message after the request that queued it has committed. */
  'outbox-delivery',
  /** System Manager screens over every clinic (the email outbox). */
  'system-manager',
  /** Instances and parent organisations: screens of System Managers and parent users over several clinics. */
  'clinic-administration',
  /** Start-up: migrations' data, the demo seed and the first System Manager. */
  'bootstrap',
  /** `npm run audit:verify` walks every clinic's activity-log chain. */
  'audit-verify',
  /** `/api/health` reads the migration level. */
  'health',
] as const;
export type SystemAccessReason = (typeof systemAccessReasons)[number];

const asApp = (instanceIds: readonly string[]) =>
  sql`select set_config('role', ${APP_ROLE}, true), set_config('pathwell.instance_ids', ${instanceIds.join(',')}, true)`;
const asSystem = (reason: SystemAccessReason) =>
  sql`select set_config('role', ${SYSTEM_ROLE}, true), set_config('pathwell.system_reason', ${reason}, true)`;

/** Narrows the current transaction to these clinics (none: the app role sees no tenant row). */
export async function enterClinics(tx: Database, instanceIds: readonly string[]): Promise<void> {
  await tx.execute(asApp(instanceIds));
}

/** One transaction in which every statement sees only these clinics' rows. */
export function withClinics<T>(db: Database, instanceIds: readonly string[], work: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await enterClinics(tx as unknown as Database, instanceIds);
    return work(tx as unknown as Database);
  });
}

const isTransaction = (db: Database) => (db as unknown) instanceof PgTransaction;

/**
 * Cross-clinic work for one named reason. On a request's transaction (`restoreTo` given) the role
 * switches for the length of `work` and back to the request's clinics afterwards, whether `work`
 * succeeded or refused: what it wrote on purpose before refusing (a failed sign-in that counts toward a
 * lockout) stays, as it would without this door. On the pool it is a transaction of its own.
 */
export async function withSystemAccess<T>(
  db: Database,
  reason: SystemAccessReason,
  work: (tx: Database) => Promise<T>,
  restoreTo?: readonly string[],
): Promise<T> {
  if (restoreTo && isTransaction(db)) {
    await db.execute(asSystem(reason));
    try {
      return await work(db);
    } finally {
      await enterClinics(db, restoreTo);
    }
  }
  return db.transaction(async (tx) => {
    const scoped = tx as unknown as Database;
    await scoped.execute(asSystem(reason));
    return work(scoped);
  });
}

class RollbackRequest extends Error {}

/**
 * A statement sent on a request's transaction after that transaction ended (the client went away, or a
 * handler kept working after its answer). It must fail: on a pooled connection it would otherwise run
 * outside the transaction, as the login role, perhaps in the middle of another request's work.
 */
export class RequestTransactionEnded extends Error {
  constructor() {
    super('the request transaction has already ended');
    this.name = 'RequestTransactionEnded';
  }
}

/** The client went away before its request's work began: nothing is opened for it, nobody is answered. */
export class ClientGone extends Error {
  constructor() {
    super('the client closed the request');
    this.name = 'ClientGone';
  }
}

export interface RequestTransaction {
  db: Database;
  /** Ends the transaction; resolves once COMMIT or ROLLBACK has been answered. Later calls return the first. */
  finish(commit: boolean): Promise<void>;
}

/**
 * Limits each request transaction sets for itself (PostgreSQL servers; decision 0063). A statement that
 * runs for a minute is a fault, and a transaction left idle for half a minute is a request whose
 * process lost track of it: the server ends the session, so the connection can never be held forever.
 */
const REQUEST_STATEMENT_TIMEOUT_MS = 60_000;
const REQUEST_IDLE_IN_TRANSACTION_TIMEOUT_MS = 30_000;

const startStatement = (start: { reason: SystemAccessReason } | 'no-clinic') =>
  start === 'no-clinic' ? asApp([]) : asSystem(start.reason);

const requestLimits = `select set_config('statement_timeout', '${REQUEST_STATEMENT_TIMEOUT_MS}', true), set_config('idle_in_transaction_session_timeout', '${REQUEST_IDLE_IN_TRANSACTION_TIMEOUT_MS}', true)`;

/** `startStatement` as text for a simple-protocol message: the reason is checked against the list first. */
function startText(start: { reason: SystemAccessReason } | 'no-clinic'): string {
  if (start === 'no-clinic')
    return `select set_config('role', '${APP_ROLE}', true), set_config('pathwell.instance_ids', '', true)`;
  if (!systemAccessReasons.includes(start.reason) || !/^[a-z-]+$/.test(start.reason)) {
    throw new Error(`unknown system access reason ${JSON.stringify(start.reason)}`);
  }
  return `select set_config('role', '${SYSTEM_ROLE}', true), set_config('pathwell.system_reason', '${start.reason}', true)`;
}

/**
 * A transaction that stays open across Fastify hooks: opened when the request arrives, finished just
 * before the answer is sent, so the client never hears "saved" for something that did not commit.
 * It starts as the system role (the session lookup) or as the app role with no clinic (open routes).
 */
export function openRequestTransaction(
  root: Database,
  start: { reason: SystemAccessReason } | 'no-clinic',
): Promise<RequestTransaction> {
  const pool = postgresPoolOf(root);
  return pool ? openPostgresRequestTransaction(root, pool, start) : openPgliteRequestTransaction(root, start);
}

/** PGlite's own transaction object refuses statements once it has ended ("Transaction is closed"). */
function openPgliteRequestTransaction(
  root: Database,
  start: { reason: SystemAccessReason } | 'no-clinic',
): Promise<RequestTransaction> {
  return new Promise((resolveOpen, rejectOpen) => {
    let settle!: (commit: boolean) => void;
    const decided = new Promise<boolean>((resolve) => {
      settle = resolve;
    });
    let opened = false;
    const done = root.transaction(async (tx) => {
      const scoped = tx as unknown as Database;
      await scoped.execute(startStatement(start));
      opened = true;
      resolveOpen({ db: scoped, finish });
      if (!(await decided)) throw new RollbackRequest();
    });
    const ended = done.then(
      () => undefined,
      (error: unknown) => {
        if (!opened) rejectOpen(error);
        if (error instanceof RollbackRequest || !opened) return;
        throw error;
      },
    );
    ended.catch(() => {});
    function finish(commit: boolean) {
      settle(commit);
      return ended;
    }
  });
}

/** What a Drizzle node-postgres database keeps, to build a transaction on one checked-out connection. */
interface NodePgInternals {
  $client: unknown;
  dialect: ConstructorParameters<typeof NodePgTransaction>[0];
  session: {
    schema: ConstructorParameters<typeof NodePgTransaction>[2];
    options: ConstructorParameters<typeof NodePgSession>[3];
  };
}

function postgresPoolOf(root: Database): pg.Pool | null {
  const client = (root as unknown as NodePgInternals).$client;
  return client instanceof pg.Pool ? client : null;
}

/**
 * On a PostgreSQL server the request holds one pooled connection for its whole length. Drizzle's own
 * transaction would hand that connection back to the pool while a handler could still use it, so the
 * request gets a guarded view of the connection instead: every statement after `finish` fails with
 * `RequestTransactionEnded`, COMMIT or ROLLBACK go out on the connection itself, and only then does it
 * return to the pool, in its base role (the role and clinic settings are transaction-local).
 */
async function openPostgresRequestTransaction(
  root: Database,
  pool: pg.Pool,
  start: { reason: SystemAccessReason } | 'no-clinic',
): Promise<RequestTransaction> {
  const connection = await pool.connect();
  let ended = false;
  const guarded = {
    query: (...args: Parameters<pg.PoolClient['query']>) =>
      ended ? Promise.reject(new RequestTransactionEnded()) : (connection.query as (...a: unknown[]) => unknown)(...args),
  };
  const internals = root as unknown as NodePgInternals;
  const session = new NodePgSession(
    guarded as unknown as pg.PoolClient,
    internals.dialect,
    internals.session.schema,
    internals.session.options,
  );
  const tx = new NodePgTransaction(internals.dialect, session, internals.session.schema) as unknown as Database;
  try {
    // One round trip instead of three (issue #26 §2): BEGIN, the limits and the starting role go as one
    // simple-protocol message. Every value is a constant of this file or a listed reason, never input.
    await connection.query(`begin; ${requestLimits}; ${startText(start)}`);
  } catch (error) {
    ended = true;
    await connection.query('rollback').then(
      () => connection.release(),
      () => connection.release(true),
    );
    throw error;
  }
  let finished: Promise<void> | null = null;
  const finish = (commit: boolean) => {
    finished ??= (async () => {
      ended = true;
      try {
        await connection.query(commit ? 'commit' : 'rollback');
      } catch (error) {
        // A failed COMMIT (or a connection that broke) must not go back to the pool mid-transaction.
        const clean = await connection.query('rollback').then(
          () => true,
          () => false,
        );
        connection.release(clean ? undefined : true);
        if (commit) throw error;
        return;
      }
      connection.release();
    })();
    return finished;
  };
  return { db: tx, finish };
}
