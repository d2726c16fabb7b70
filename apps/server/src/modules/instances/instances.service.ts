import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  timeZoneOffsetHours,
  type CreateInstanceParsed,
  type CurrentInstance,
  type Instance,
  type UpdateInstanceParsed,
} from '@pathwell/contracts/instances';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { instances, instanceSettings, organisations, sessions, users } from '../../db/schema';
import { seedInstanceDefaults } from './instance-defaults';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { listClinics } from '../session/session.service';
import { readSettings } from '../settings/settings.service';
import { clinicDisplayNameFrom } from '../patient-contact/clinic-name.service';

const isSystemManager = (ctx: SignedInContext) => ctx.actor.role === 'SystemManager';

/** Instances the actor may see: every one for a System Manager, else those they act for. */
async function visibleInstanceIds(ctx: SignedInContext, db: Database): Promise<string[] | 'all'> {
  if (isSystemManager(ctx)) return 'all';
  // The caller's transaction, never ctx.db: PGlite has one connection and would wait forever.
  return (await listClinics({ ...ctx, db })).map((clinic) => clinic.id);
}

async function selectInstances(ctx: SignedInContext, db: Database, onlyId?: string): Promise<Instance[]> {
  const visible = await visibleInstanceIds(ctx, db);
  if (visible !== 'all' && visible.length === 0) return [];
  const conditions = [
    ...(visible === 'all' ? [] : [inArray(instances.id, visible)]),
    ...(onlyId ? [eq(instances.id, onlyId)] : []),
  ];
  const rows = await db
    .select({
      id: instances.id,
      name: instances.name,
      organisationId: organisations.id,
      organisationName: organisations.name,
      isActive: instances.isActive,
      createdAt: instances.createdAt,
      timeZoneId: instanceSettings.configurationValue,
      userCount: sql<number>`(select count(*)::int from ${users} where ${users.instanceId} = ${instances.id} and ${users.deletedAt} is null)`,
    })
    .from(instances)
    .leftJoin(organisations, and(eq(organisations.id, instances.organisationId), isNull(organisations.deletedAt)))
    .leftJoin(
      instanceSettings,
      and(eq(instanceSettings.instanceId, instances.id), eq(instanceSettings.configurationId, 'timeZoneId')),
    )
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(asc(instances.name), asc(instances.id));
  return rows.map((row) => ({
    ...row,
    userCount: Number(row.userCount),
    canManage: isSystemManager(ctx),
    createdAt: row.createdAt.toISOString(),
  }));
}

export const listInstances = (ctx: SignedInContext) => selectInstances(ctx, ctx.db);

export async function getInstance(ctx: SignedInContext, id: string, db: Database = ctx.db): Promise<Instance> {
  const [found] = await selectInstances(ctx, db, id);
  if (!found) throw notFound('instanceNotFound');
  return found;
}

export async function currentInstance(ctx: SignedInContext): Promise<CurrentInstance> {
  const [instance] = await ctx.db.select().from(instances).where(eq(instances.id, ctx.instanceId));
  if (!instance) throw notFound('instanceNotFound');
  const settings = await readSettings(ctx.db, ctx.instanceId);
  return { id: instance.id, name: clinicDisplayNameFrom(settings, instance.name) };
}

async function assertOrganisationExists(db: Database, organisationId: string | null) {
  if (!organisationId) return;
  const [found] = await db
    .select({ id: organisations.id })
    .from(organisations)
    .where(and(eq(organisations.id, organisationId), isNull(organisations.deletedAt)));
  if (!found) throw new AppError('VALIDATION', 'organisationMissing', { fields: { organisationId: 'invalid' } });
}

async function writeSettings(db: Database, instanceId: string, values: Record<string, string>) {
  const rows = Object.entries(values).map(([configurationId, configurationValue]) => ({
    instanceId,
    configurationId,
    configurationValue,
  }));
  await db
    .insert(instanceSettings)
    .values(rows)
    .onConflictDoUpdate({
      target: [instanceSettings.instanceId, instanceSettings.configurationId],
      set: { configurationValue: sql`excluded.configuration_value`, updatedAt: new Date() },
    });
}

function activity(ctx: SignedInContext, instanceId: string, action: 'Created' | 'Updated' | 'Deleted', description: string) {
  // An instance's changes are written to that instance's own log: its history starts with its creation.
  return { ...staffActivity(ctx, 'Admin Configuration', action, { type: 'instance', id: instanceId, description }), instanceId };
}

/**
 * A new instance starts with its identity settings and the default managed lists, in one transaction.
 * Every other setting reads as the catalogue's default until someone saves it (0007), so a new clinic
 * already has autoLogoutTime 30, email on and SMS off without rows of its own.
 */
export async function createInstance(ctx: SignedInContext, input: CreateInstanceParsed): Promise<Instance> {
  return ctx.db.transaction(async (tx) => {
    await assertOrganisationExists(tx, input.organisationId);
    const [created] = await tx.insert(instances).values({ name: input.name, organisationId: input.organisationId }).returning();
    const id = created!.id;
    await seedInstanceDefaults(tx, id);
    await writeSettings(tx, id, {
      clinicName: input.name,
      timeZoneId: input.timeZoneId,
      timeZoneOffsetHours: String(timeZoneOffsetHours(input.timeZoneId)),
    });
    await recordActivity(tx, activity(ctx, id, 'Created', `Created instance ${input.name}`));
    return getInstance(ctx, id, tx);
  });
}

async function endSessionsOfClinic(db: Database, instanceId: string) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        isNull(sessions.revokedAt),
        inArray(sessions.userId, db.select({ id: users.id }).from(users).where(eq(users.instanceId, instanceId))),
      ),
    );
}

function assertNotOwnHome(ctx: SignedInContext, id: string) {
  if (ctx.actor.homeInstanceId === id) {
    throw new AppError('FORBIDDEN', 'ownInstanceOff');
  }
}

/**
 * Renames an instance (the clinicName setting follows, so the page title changes at once); a System
 * Manager also moves it between parent organisations and switches it on or off.
 */
export async function updateInstance(ctx: SignedInContext, id: string, input: UpdateInstanceParsed): Promise<Instance> {
  return ctx.db.transaction(async (tx) => {
    const current = await getInstance(ctx, id, tx);
    const movesOrSwitches = input.organisationId !== current.organisationId || input.isActive !== current.isActive;
    if (movesOrSwitches && !isSystemManager(ctx)) {
      throw new AppError('FORBIDDEN', 'systemManagerOnly');
    }
    if (input.organisationId !== current.organisationId) await assertOrganisationExists(tx, input.organisationId);
    if (!input.isActive && current.isActive) assertNotOwnHome(ctx, id);
    await tx
      .update(instances)
      .set({ name: input.name, organisationId: input.organisationId, isActive: input.isActive })
      .where(eq(instances.id, id));
    if (input.name !== current.name) await writeSettings(tx, id, { clinicName: input.name });
    if (!input.isActive && current.isActive) await endSessionsOfClinic(tx, id);
    const changes = [
      input.name !== current.name ? `renamed ${current.name} → ${input.name}` : null,
      input.organisationId !== current.organisationId ? 'organisation changed' : null,
      input.isActive !== current.isActive ? (input.isActive ? 'switched on' : 'switched off') : null,
    ].filter(Boolean);
    await recordActivity(tx, activity(ctx, id, 'Updated', `Updated instance${changes.length ? `: ${changes.join(', ')}` : ''}`));
    return getInstance(ctx, id, tx);
  });
}

/** Deleting an instance only switches it off: its records and activity log must outlive it. */
export async function deleteInstance(ctx: SignedInContext, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const current = await getInstance(ctx, id, tx);
    assertNotOwnHome(ctx, id);
    if (!current.isActive) return;
    await tx.update(instances).set({ isActive: false }).where(eq(instances.id, id));
    await endSessionsOfClinic(tx, id);
    await recordActivity(tx, activity(ctx, id, 'Deleted', `Switched off instance ${current.name}`));
  });
}
