import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type {
  AudiencePreview,
  AudienceRule,
  AudienceTemplate,
  AudienceTemplateInput,
  AudienceTemplateKind,
} from '@pathwell/contracts/outreach';
import type { ValidationMessageKey } from '@pathwell/contracts/messages';
import type { SignedInContext } from '../../context';
import { audienceTemplates, codeGroups, managedItems, userInstances, users } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { previewAudience, type AudiencePurpose } from './audience.service';

/*
 * Code pull and hot-list templates (issue #15 §2 and §4, decision 0049): saved audience rules of one
 * clinic, and the preview of a rule (`patientscontrollistfortemplate`, section 7).
 */

type TemplateRow = typeof audienceTemplates.$inferSelect;

/** What a template's audience is for: a code pull counts patients reachable by text or email. */
const purposeOf = (kind: AudienceTemplateKind): AudiencePurpose =>
  kind === 'hotlist' ? { kind: 'hotlist' } : { kind: 'campaign', channels: [] };

const toTemplate = (row: TemplateRow, createdByName: string | null): AudienceTemplate => ({
  id: row.id,
  kind: row.kind,
  name: row.name,
  description: row.description,
  rule: row.rule,
  updatedAt: row.updatedAt.toISOString(),
  createdByName,
});

const authorName = sql<
  string | null
>`nullif(trim(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')), '')`;

async function selectTemplates(ctx: SignedInContext, where: ReturnType<typeof and>) {
  return ctx.db
    .select({ row: audienceTemplates, createdByName: authorName })
    .from(audienceTemplates)
    .leftJoin(users, eq(users.id, audienceTemplates.createdBy))
    .where(where)
    .orderBy(asc(sql`lower(${audienceTemplates.name})`), asc(audienceTemplates.id));
}

const live = (ctx: SignedInContext) => and(eq(audienceTemplates.instanceId, ctx.instanceId), isNull(audienceTemplates.deletedAt));

export async function listTemplates(ctx: SignedInContext, kind?: AudienceTemplateKind): Promise<AudienceTemplate[]> {
  const rows = await selectTemplates(ctx, and(live(ctx), kind ? eq(audienceTemplates.kind, kind) : undefined));
  return rows.map((entry) => toTemplate(entry.row, entry.createdByName));
}

async function findTemplate(ctx: SignedInContext, id: string) {
  const [entry] = await selectTemplates(ctx, and(live(ctx), eq(audienceTemplates.id, id)));
  if (!entry) throw notFound('templateNotFound');
  return entry;
}

export async function getTemplate(ctx: SignedInContext, id: string): Promise<AudienceTemplate> {
  const entry = await findTemplate(ctx, id);
  return toTemplate(entry.row, entry.createdByName);
}

/**
 * The rule names only this clinic's things: its live code groups, its doctors, its payor statuses and
 * study groups. Another clinic's ids are refused with a field error (they would match nobody).
 */
async function checkRule(ctx: SignedInContext, rule: AudienceRule): Promise<void> {
  const fields: Record<string, ValidationMessageKey> = {};
  const unknown = async (field: string, ids: string[], found: () => Promise<{ id: string }[]>) => {
    if (ids.length === 0) return;
    const known = new Set((await found()).map((row) => row.id));
    const index = ids.findIndex((id) => !known.has(id));
    if (index >= 0) fields[`rule.${field}.${index}`] = 'invalid';
  };
  const inList = (ids: string[], listType: string) => () =>
    ctx.db
      .select({ id: managedItems.id })
      .from(managedItems)
      .where(
        and(
          eq(managedItems.instanceId, ctx.instanceId),
          eq(managedItems.listType, listType),
          sql`${managedItems.id} = any(${`{${ids.join(',')}}`}::uuid[])`,
        ),
      );
  await unknown('codeGroupIds', rule.codeGroupIds, () =>
    ctx.db
      .select({ id: codeGroups.id })
      .from(codeGroups)
      .where(
        and(
          eq(codeGroups.instanceId, ctx.instanceId),
          isNull(codeGroups.deletedAt),
          sql`${codeGroups.id} = any(${`{${rule.codeGroupIds.join(',')}}`}::uuid[])`,
        ),
      ),
  );
  await unknown('providerIds', rule.providerIds, () =>
    ctx.db
      .select({ id: userInstances.userId })
      .from(userInstances)
      .where(
        and(
          eq(userInstances.instanceId, ctx.instanceId),
          sql`${userInstances.userId} = any(${`{${rule.providerIds.join(',')}}`}::uuid[])`,
        ),
      ),
  );
  await unknown('payorStatusIds', rule.payorStatusIds, inList(rule.payorStatusIds, 'customfield:payorstatus'));
  await unknown('studyGroupIds', rule.studyGroupIds, inList(rule.studyGroupIds, 'studygroups'));
  if (Object.keys(fields).length > 0) throw new AppError('VALIDATION', 'fieldsInvalid', { fields });
}

/** Two live templates of one kind do not share a name (the lists pick them by name). */
async function checkName(ctx: SignedInContext, input: AudienceTemplateInput, exceptId?: string) {
  const [clash] = await ctx.db
    .select({ id: audienceTemplates.id })
    .from(audienceTemplates)
    .where(
      and(
        live(ctx),
        eq(audienceTemplates.kind, input.kind),
        sql`lower(${audienceTemplates.name}) = lower(${input.name})`,
        exceptId ? ne(audienceTemplates.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (clash) throw new AppError('CONFLICT', 'nameTaken', { fields: { name: 'nameTaken' } });
}

const adminActivity = (ctx: SignedInContext, action: 'Created' | 'Updated' | 'Deleted', row: TemplateRow) =>
  staffActivity(ctx, 'Admin Configuration', action, {
    type: 'audienceTemplate',
    id: row.id,
    description: `${action} ${row.kind === 'hotlist' ? 'hot-list' : 'code pull'} template "${row.name}"`,
  });

export async function createTemplate(ctx: SignedInContext, input: AudienceTemplateInput): Promise<AudienceTemplate> {
  await checkRule(ctx, input.rule);
  await checkName(ctx, input);
  const [row] = await ctx.db
    .insert(audienceTemplates)
    .values({
      instanceId: ctx.instanceId,
      kind: input.kind,
      name: input.name,
      description: input.description,
      rule: input.rule,
      createdBy: ctx.actor.userId,
    })
    .returning();
  await recordActivity(ctx.db, adminActivity(ctx, 'Created', row!));
  return getTemplate(ctx, row!.id);
}

/** A template keeps its kind: a code pull template does not become a hot-list one. */
export async function updateTemplate(ctx: SignedInContext, id: string, input: AudienceTemplateInput): Promise<AudienceTemplate> {
  const { row: current } = await findTemplate(ctx, id);
  if (current.kind !== input.kind) throw new AppError('VALIDATION', 'fieldsInvalid', { fields: { kind: 'invalid' } });
  await checkRule(ctx, input.rule);
  await checkName(ctx, input, id);
  const [row] = await ctx.db
    .update(audienceTemplates)
    .set({ name: input.name, description: input.description, rule: input.rule, updatedAt: new Date() })
    .where(and(eq(audienceTemplates.id, id), eq(audienceTemplates.instanceId, ctx.instanceId)))
    .returning();
  await recordActivity(ctx.db, adminActivity(ctx, 'Updated', row!));
  return getTemplate(ctx, id);
}

/** Soft delete: campaigns and hot lists made from it keep their own copy of the rule. */
export async function deleteTemplate(ctx: SignedInContext, id: string): Promise<void> {
  const { row } = await findTemplate(ctx, id);
  await ctx.db
    .update(audienceTemplates)
    .set({ deletedAt: new Date() })
    .where(and(eq(audienceTemplates.id, id), eq(audienceTemplates.instanceId, ctx.instanceId)));
  await recordActivity(ctx.db, adminActivity(ctx, 'Deleted', row));
}

/**
 * `patientscontrollistfortemplate`: the count and the first patients by name of a saved template or of
 * a rule being built. It shows patients' names and birth dates, so the read is audited.
 */
export async function previewTemplate(
  ctx: SignedInContext,
  body: { templateId?: string; kind: AudienceTemplateKind; rule?: AudienceRule },
  now = new Date(),
): Promise<AudiencePreview> {
  let kind = body.kind;
  let rule = body.rule;
  let target = 'an unsaved rule';
  if (body.templateId) {
    const { row } = await findTemplate(ctx, body.templateId);
    kind = row.kind;
    rule = row.rule;
    target = `template "${row.name}"`;
  }
  const preview = await previewAudience(ctx.db, ctx.instanceId, rule!, purposeOf(kind), now);
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient List', 'Viewed', {
      type: 'audienceTemplate',
      id: body.templateId ?? null,
      description: `Previewed the audience of ${target}: ${preview.count} patients, ${preview.sample.length} shown`,
    }),
  );
  return preview;
}
