import { and, asc, eq, inArray, isNull, notInArray } from 'drizzle-orm';
import type { Organisation, SaveOrganisationParsed } from '@pathwell/contracts/instances';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { instances, organisations } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { listClinics } from '../session/session.service';

/**
 * Parent organisations (Clinic Information) group instances. A System Manager manages all of them;
 * an Admin sees those holding an instance they act for and changes only those whose every instance
 * they act for (docs/decisions/0010-instances-and-clinics.md).
 */
type Reach = { all: true } | { all: false; ids: Set<string> };

async function reachOf(ctx: SignedInContext, db: Database): Promise<Reach> {
  if (ctx.actor.role === 'SystemManager') return { all: true };
  // The caller's transaction, never ctx.db: PGlite has one connection and would wait forever.
  return { all: false, ids: new Set((await listClinics({ ...ctx, db })).map((clinic) => clinic.id)) };
}

const reaches = (reach: Reach, instanceId: string) => reach.all || reach.ids.has(instanceId);

async function loadOrganisations(ctx: SignedInContext, db: Database, onlyId?: string): Promise<Organisation[]> {
  const reach = await reachOf(ctx, db);
  const rows = await db
    .select()
    .from(organisations)
    .where(and(isNull(organisations.deletedAt), onlyId ? eq(organisations.id, onlyId) : undefined))
    .orderBy(asc(organisations.name), asc(organisations.id));
  if (rows.length === 0) return [];
  const members = await db
    .select({ id: instances.id, name: instances.name, isActive: instances.isActive, organisationId: instances.organisationId })
    .from(instances)
    .where(
      inArray(
        instances.organisationId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(instances.name));
  return rows.flatMap((row) => {
    const all = members.filter((member) => member.organisationId === row.id);
    const shown = all.filter((member) => reaches(reach, member.id));
    if (!reach.all && shown.length === 0) return [];
    return [
      {
        id: row.id,
        name: row.name,
        instances: shown.map(({ id, name, isActive }) => ({ id, name, isActive })),
        canManage: reach.all || all.every((member) => reaches(reach, member.id)),
        createdAt: row.createdAt.toISOString(),
      },
    ];
  });
}

export const listOrganisations = (ctx: SignedInContext) => loadOrganisations(ctx, ctx.db);

export async function getOrganisation(ctx: SignedInContext, id: string, db: Database = ctx.db): Promise<Organisation> {
  const [found] = await loadOrganisations(ctx, db, id);
  if (!found) throw notFound('clinicNotFound');
  return found;
}

async function assertInstancesAllowed(ctx: SignedInContext, db: Database, instanceIds: string[]) {
  const reach = await reachOf(ctx, db);
  const invalid = () => new AppError('VALIDATION', 'instancesNotYours', { fields: { instanceIds: 'invalid' } });
  if (!reach.all && instanceIds.length === 0) {
    // An Admin's organisation without any of their instances would vanish from their own list.
    throw new AppError('VALIDATION', 'instanceRequired', { fields: { instanceIds: 'required' } });
  }
  if (instanceIds.some((id) => !reaches(reach, id))) throw invalid();
  if (instanceIds.length === 0) return;
  const found = await db.select({ id: instances.id }).from(instances).where(inArray(instances.id, instanceIds));
  if (found.length !== new Set(instanceIds).size) throw invalid();
}

async function setMembers(db: Database, organisationId: string, instanceIds: string[]) {
  await db
    .update(instances)
    .set({ organisationId: null })
    .where(
      and(eq(instances.organisationId, organisationId), instanceIds.length ? notInArray(instances.id, instanceIds) : undefined),
    );
  if (instanceIds.length) await db.update(instances).set({ organisationId }).where(inArray(instances.id, instanceIds));
}

function activity(ctx: SignedInContext, organisationId: string, action: 'Created' | 'Updated' | 'Deleted', description: string) {
  return staffActivity(ctx, 'Admin Configuration', action, {
    type: 'organisation',
    id: organisationId,
    description: description,
  });
}

export async function createOrganisation(ctx: SignedInContext, input: SaveOrganisationParsed): Promise<Organisation> {
  return ctx.db.transaction(async (tx) => {
    await assertInstancesAllowed(ctx, tx, input.instanceIds);
    const [created] = await tx.insert(organisations).values({ name: input.name }).returning();
    await setMembers(tx, created!.id, input.instanceIds);
    await recordActivity(tx, activity(ctx, created!.id, 'Created', `Created parent organisation ${input.name}`));
    return getOrganisation(ctx, created!.id, tx);
  });
}

async function loadManageable(ctx: SignedInContext, db: Database, id: string) {
  const current = await getOrganisation(ctx, id, db);
  if (!current.canManage) {
    throw new AppError('FORBIDDEN', 'organisationHasOtherInstances');
  }
  return current;
}

export async function updateOrganisation(ctx: SignedInContext, id: string, input: SaveOrganisationParsed): Promise<Organisation> {
  return ctx.db.transaction(async (tx) => {
    const current = await loadManageable(ctx, tx, id);
    await assertInstancesAllowed(ctx, tx, input.instanceIds);
    await tx.update(organisations).set({ name: input.name }).where(eq(organisations.id, id));
    await setMembers(tx, id, input.instanceIds);
    const renamed = current.name !== input.name ? `: renamed ${current.name} → ${input.name}` : '';
    await recordActivity(tx, activity(ctx, id, 'Updated', `Updated parent organisation${renamed}`));
    return getOrganisation(ctx, id, tx);
  });
}

/** Soft delete; its instances stay and simply belong to no organisation. */
export async function deleteOrganisation(ctx: SignedInContext, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const current = await loadManageable(ctx, tx, id);
    await tx.update(organisations).set({ deletedAt: new Date() }).where(eq(organisations.id, id));
    await setMembers(tx, id, []);
    await recordActivity(tx, activity(ctx, id, 'Deleted', `Deleted parent organisation ${current.name}`));
  });
}
