import { and, eq, sql } from 'drizzle-orm';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DEFAULT_IDLE_LOGOUT_MINUTES } from '@pathwell/contracts/constants';
import { TOKEN_NOT_VALID, type ErrorBody } from '@pathwell/contracts/errors';
import { menuAccessFor } from '@pathwell/contracts/menu';
import { roleFromCode, type Role } from '@pathwell/contracts/roles';
import { ID_PATTERN } from '@pathwell/contracts/validation';
import type { Config } from '../config';
import type { Actor, ServiceContext } from '../context';
import type { Database } from '../db/client';
import { reusableQuery } from '../db/reusable-query';
import { ClientGone, enterClinics, openRequestTransaction, type RequestTransaction } from '../db/tenancy';
import { instances, instanceSettings, sessions, userInstances, users } from '../db/schema';
import { AppError } from '../lib/app-error';
import { sha256 } from '../lib/secrets';
import type { Mailer } from '../modules/outbox/outbox.service';
import type { JobQueue } from '../jobs/job-queue';
import type { EventHub } from '../modules/events/event-hub';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Open route: no signed-in user required. */
    public?: boolean;
    /** Roles allowed. Every non-public API route names `roles`, `menuPath` or `anyRole` (checked at start-up). */
    roles?: readonly Role[];
    /** Guard the route with the access list of this side-menu path, the table the web draws its menu from. */
    menuPath?: string;
    /** Every signed-in role, said on purpose (own account, session, pickers). */
    anyRole?: boolean;
    /** Route accepts a parent user's all-clinics view (`ClinicId: all`). */
    allClinics?: boolean;
    /** A report: it may read from the read replica (`READ_DATABASE_URL`) through `ctx.readDb`. */
    readReplica?: boolean;
    /** An open route that opens no request transaction and manages its own database use (health). */
    ownTransaction?: boolean;
  }
  interface FastifyInstance {
    /** Every API route with who may call it, as checked at start-up. */
    routeAccess: RouteAccess[];
    /** This process's job queue and realtime hub (tests reach them here). */
    jobs: JobQueue;
    events: EventHub;
  }
  interface FastifyRequest {
    ctx: ServiceContext;
    /** The request's transaction (API routes): row-level security follows the clinic it acts for. */
    requestTransaction: RequestState | null;
    /** The response closed before the request's work was done (the client went away). */
    clientGone: boolean;
  }
}

/** Writing last_seen_at on every request would be a write per call; a short grace keeps it cheap. */
const LAST_SEEN_WRITE_GRACE_MS = 15_000;

function menuAccessOrThrow(menuPath: string): Role[] {
  const access = menuAccessFor(menuPath);
  // A route naming a path the menu does not have is a programming error, not an open door.
  if (!access) throw new Error(`No menu item has the path ${menuPath}`);
  return access;
}

export function idleMinutesFrom(rawSetting: string | null | undefined): number {
  const minutes = Number(rawSetting);
  return Number.isInteger(minutes) && minutes > 0 ? minutes : DEFAULT_IDLE_LOGOUT_MINUTES;
}

function invalidToken(reply: FastifyReply) {
  return reply.status(401).send({
    error: TOKEN_NOT_VALID,
    msg: TOKEN_NOT_VALID,
    code: 'UNAUTHENTICATED',
    messageKey: 'tokenNotValid',
  } satisfies ErrorBody);
}

/**
 * Runs on every signed-in request, so it is built once and sent as a named statement (parsed and
 * planned once per pooled connection). It still reads the row every time: a revoked, signed-out or
 * idle session is refused on the very next request.
 */
const sessionByTokenHash = reusableQuery('auth_session_by_token_hash', (db) =>
  db
    .select({
      sessionId: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      revokedAt: sessions.revokedAt,
      userId: users.id,
      email: users.email,
      role: users.role,
      isParent: users.isParent,
      isChild: users.isChild,
      status: users.status,
      deletedAt: users.deletedAt,
      homeInstanceId: users.instanceId,
      autoLogoutTime: instanceSettings.configurationValue,
      homeInstanceActive: instances.isActive,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(
      instanceSettings,
      and(eq(instanceSettings.instanceId, users.instanceId), eq(instanceSettings.configurationId, 'autoLogoutTime')),
    )
    .leftJoin(instances, eq(instances.id, users.instanceId))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash'))),
);

async function loadSession(db: Database, tokenHash: string) {
  const [row] = await sessionByTokenHash(db, { tokenHash });
  return row;
}

/**
 * Resolves the clinic a request acts for: the user's home clinic, or the one a parent user (or a
 * System Manager) names in the ClinicId header. Membership is checked on every request.
 */
async function resolveInstance(db: Database, actor: Actor, header: string | undefined, routeAllowsAll: boolean) {
  const memberships = async () =>
    (await db.select({ id: userInstances.instanceId }).from(userInstances).where(eq(userInstances.userId, actor.userId))).map(
      (row) => row.id,
    );
  if (!header) {
    if (!actor.homeInstanceId) throw new AppError('FORBIDDEN', 'accountWithoutClinic');
    return { instanceId: actor.homeInstanceId, allClinics: false, instanceIds: [actor.homeInstanceId] };
  }
  if (header === 'all') {
    if (!actor.isParent) throw new AppError('FORBIDDEN', 'parentOnly');
    if (!routeAllowsAll) throw new AppError('VALIDATION', 'oneClinicNeeded');
    const ids = [...new Set([...(await memberships()), ...(actor.homeInstanceId ? [actor.homeInstanceId] : [])])];
    return { instanceId: actor.homeInstanceId ?? ids[0]!, allClinics: true, instanceIds: ids };
  }
  if (!ID_PATTERN.test(header)) throw new AppError('VALIDATION', 'clinicIdHeaderInvalid', { fields: { ClinicId: 'idInvalid' } });
  const instanceId = header.toLowerCase();
  if (actor.role === 'SystemManager') {
    const [found] = await db.select({ id: instances.id }).from(instances).where(eq(instances.id, instanceId));
    if (!found) throw new AppError('FORBIDDEN', 'notInClinic');
  } else {
    if (instanceId !== actor.homeInstanceId && !(await memberships()).includes(instanceId)) {
      throw new AppError('FORBIDDEN', 'notInClinic');
    }
    const [target] = await db.select({ isActive: instances.isActive }).from(instances).where(eq(instances.id, instanceId));
    if (!target?.isActive) throw new AppError('FORBIDDEN', 'clinicSwitchedOff');
  }
  return { instanceId, allClinics: false, instanceIds: [instanceId] };
}

interface RequestState {
  transaction: RequestTransaction;
  /** The read-only transaction on the replica, for `readReplica` routes when one is configured. */
  readTransaction?: RequestTransaction;
  finished: boolean;
}

interface RouteAccess {
  method: string;
  url: string;
  /** 'open', 'any signed-in role', or the roles allowed. */
  access: 'open' | 'any signed-in role' | Role[];
  menuPath?: string;
}

/**
 * Who may call a route, decided once at start-up: an API route that declares nothing, names a menu
 * path the menu does not have, or declares two answers stops the app from starting.
 */
function routeAccessOf(method: string, url: string, config: FastifyContextConfig): RouteAccess {
  const declared = [config.public, config.roles, config.menuPath, config.anyRole].filter((value) => value !== undefined);
  if (declared.length !== 1) {
    throw new Error(
      `Route ${method} ${url} must declare exactly one of public, roles, menuPath or anyRole (it declares ${declared.length})`,
    );
  }
  if (config.public) return { method, url, access: 'open' };
  if (config.anyRole) return { method, url, access: 'any signed-in role' };
  if (config.roles) return { method, url, access: [...config.roles] };
  return { method, url, access: menuAccessOrThrow(config.menuPath!), menuPath: config.menuPath };
}

/**
 * For an answer that stays open (the event stream): the request's transaction commits before the
 * stream starts, so no connection or lock is held for its length. The handler must not use
 * `request.ctx.db` afterwards.
 */
export async function commitBeforeStreaming(request: FastifyRequest): Promise<void> {
  const state = request.requestTransaction;
  if (!state || state.finished) return;
  state.finished = true;
  await state.transaction.finish(true);
}

/** `/api/docs` and its pages (`/api/docs/json`, assets), not every path that merely starts alike. */
const isDocsRoute = (routeUrl: string) => routeUrl === '/api/docs' || routeUrl.startsWith('/api/docs/');

interface AuthPluginOptions {
  db: Database;
  /** The read replica, when `READ_DATABASE_URL` is set. */
  readDb?: Database;
  config: Config;
  mailer: Mailer;
  jobs: JobQueue;
  events: EventHub;
}

/** Authentication (bearer session with server-side idle timeout), tenancy and role checks. */
export const authPlugin = fp(async (app: FastifyInstance, options: AuthPluginOptions) => {
  const { db, readDb, config, mailer, jobs, events } = options;
  app.decorateRequest('ctx', null as unknown as ServiceContext);
  app.decorateRequest('requestTransaction', null);
  app.decorateRequest('clientGone', false);

  const inventory: RouteAccess[] = [];
  app.decorate('routeAccess', inventory);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || isDocsRoute(route.url)) return;
    const config = (route.config ?? {}) as FastifyContextConfig;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      inventory.push(routeAccessOf(method, route.url, config));
    }
  });

  const finishRequest = async (request: FastifyRequest, commit: boolean) => {
    const state = request.requestTransaction;
    if (!state || state.finished) return;
    state.finished = true;
    // Nothing is ever written on the replica: its transaction only ever rolls back.
    await Promise.all([state.transaction.finish(commit), state.readTransaction?.finish(false)]);
  };

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    request.ctx = {
      db,
      config,
      mailer,
      jobs,
      events,
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
      actor: null,
      instanceId: null,
      allClinics: false,
      instanceIds: [],
    };
    // Whatever the client does (closes the tab, loses signal, a proxy gives up, a hook fails), the
    // response's 'close' comes once: a transaction still open then is rolled back. After a normal answer
    // onSend has already committed it and this does nothing.
    reply.raw.once('close', () => {
      request.clientGone = true;
      finishRequest(request, false).catch((error: unknown) => request.log.warn({ err: error }, 'rollback after close failed'));
    });
  });

  // The request's transaction opens only once the whole request has arrived: a client that sends its
  // headers and then nothing (or half a body) holds no database connection while it dawdles.
  app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    const routeConfig = request.routeOptions.config;
    const routeUrl = request.routeOptions.url;
    if (!request.url.startsWith('/api/') || !routeUrl || isDocsRoute(routeUrl)) return;
    if (routeConfig.public && routeConfig.ownTransaction) return;

    const begin = async (start: Parameters<typeof openRequestTransaction>[1]) => {
      if (request.clientGone) throw new ClientGone();
      const transaction = await openRequestTransaction(db, start);
      request.requestTransaction = { transaction, finished: false };
      request.ctx.db = transaction.db;
      // The client left while the connection was being checked out: nobody will answer or close it.
      if (request.clientGone) {
        await finishRequest(request, false);
        throw new ClientGone();
      }
      return transaction.db;
    };
    // Open routes start with no clinic: they see no tenant row until they name one (a patient link).
    if (routeConfig.public) {
      await begin('no-clinic');
      return;
    }

    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (!token) return invalidToken(reply);
    const tx = await begin({ reason: 'session-lookup' });
    const row = await loadSession(tx, sha256(token));
    if (!row || row.revokedAt || row.deletedAt || row.status !== 'active') return invalidToken(reply);
    // A switched-off clinic ends its users' sessions (System Managers keep theirs to switch it back on).
    if (row.homeInstanceActive === false && roleFromCode(row.role) !== 'SystemManager') return invalidToken(reply);
    const idleMs = idleMinutesFrom(row.autoLogoutTime) * 60_000;
    const now = Date.now();
    if (now - row.lastSeenAt.getTime() > idleMs) {
      await tx
        .update(sessions)
        .set({ revokedAt: new Date(now) })
        .where(eq(sessions.id, row.sessionId));
      return invalidToken(reply);
    }
    if (now - row.lastSeenAt.getTime() > LAST_SEEN_WRITE_GRACE_MS) {
      await tx
        .update(sessions)
        .set({ lastSeenAt: sql`now()` })
        .where(eq(sessions.id, row.sessionId));
    }
    const actor: Actor = {
      userId: row.userId,
      sessionId: row.sessionId,
      email: row.email,
      role: roleFromCode(row.role),
      isParent: row.isParent,
      isChild: row.isChild,
      homeInstanceId: row.homeInstanceId,
    };
    const clinicHeader = request.headers.clinicid;
    const tenancy = await resolveInstance(
      tx,
      actor,
      typeof clinicHeader === 'string' ? clinicHeader : undefined,
      !!routeConfig.allClinics,
    );
    await enterClinics(tx, tenancy.instanceIds);
    request.ctx = { ...request.ctx, actor, ...tenancy };
    const allowed = routeConfig.roles ?? (routeConfig.menuPath ? menuAccessOrThrow(routeConfig.menuPath) : undefined);
    if (!routeConfig.anyRole && !allowed?.includes(actor.role)) {
      throw new AppError('FORBIDDEN', 'notAllowed');
    }
    if (routeConfig.readReplica && readDb && request.requestTransaction) {
      const readTransaction = await openRequestTransaction(readDb, 'no-clinic');
      request.requestTransaction.readTransaction = readTransaction;
      await readTransaction.db.execute(sql`set transaction_read_only = on`);
      await enterClinics(readTransaction.db, tenancy.instanceIds);
      request.ctx.readDb = readTransaction.db;
    }
  });

  // The answer leaves only after COMMIT succeeded; a failed COMMIT becomes an error answer instead.
  // A refusal (4xx) still commits what was written on purpose before it, as it did before requests had
  // a transaction: a failed sign-in or identity answer counts toward a lockout. A service's own
  // transactions are savepoints inside this one and have already rolled back their part. An unexpected
  // failure (5xx) rolls everything back.
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply) => {
    await finishRequest(request, reply.statusCode < 500);
  });
  app.addHook('onResponse', async (request: FastifyRequest) => {
    await finishRequest(request, false);
  });
});
