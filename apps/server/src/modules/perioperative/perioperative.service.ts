import { and, asc, desc, eq, ilike, isNull, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  PerioperativeDetail,
  PerioperativeTemplate,
  PerioperativeTemplateSummary,
  perioperativeDetailInputSchema,
  perioperativeTemplateInputSchema,
  perioperativeTemplateListQuerySchema,
} from '@pathwell/contracts/managed-lists';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { perioperativeTemplateDetails, perioperativeTemplates } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { listTotal } from '../../lib/list-total';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { escapeLike } from '../managed-lists/managed-lists.service';

type TemplateRow = typeof perioperativeTemplates.$inferSelect;
type DetailRow = typeof perioperativeTemplateDetails.$inferSelect;
type TemplateListQuery = z.output<typeof perioperativeTemplateListQuerySchema>;
type TemplateInput = z.output<typeof perioperativeTemplateInputSchema>;
type DetailInput = z.output<typeof perioperativeDetailInputSchema>;

const toDetail = (row: DetailRow): PerioperativeDetail => ({
  id: row.id,
  templateId: row.templateId,
  dayOffset: row.dayOffset,
  channel: row.channel,
  subject: row.subject,
  messageEn: row.messageEn,
  messageEs: row.messageEs,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const toSummary = (row: TemplateRow, detailCount: number): PerioperativeTemplateSummary => ({
  id: row.id,
  name: row.name,
  codes: row.codes,
  isActive: row.isActive,
  detailCount,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const activity = (
  ctx: SignedInContext,
  action: 'Created' | 'Updated' | 'Deleted',
  target: { type: string; id: string; description: string },
) => staffActivity(ctx, 'Admin Configuration', action, { type: target.type, id: target.id, description: target.description });

const ownTemplate = (ctx: SignedInContext) =>
  and(eq(perioperativeTemplates.instanceId, ctx.instanceId), isNull(perioperativeTemplates.deletedAt));

async function findTemplate(db: Database, ctx: SignedInContext, id: string): Promise<TemplateRow> {
  const [row] = await db
    .select()
    .from(perioperativeTemplates)
    .where(and(eq(perioperativeTemplates.id, id), ownTemplate(ctx)));
  if (!row) throw notFound('templateNotFound');
  return row;
}

async function detailsOf(db: Database, templateId: string): Promise<DetailRow[]> {
  return db
    .select()
    .from(perioperativeTemplateDetails)
    .where(eq(perioperativeTemplateDetails.templateId, templateId))
    .orderBy(asc(perioperativeTemplateDetails.dayOffset), asc(perioperativeTemplateDetails.createdAt));
}

async function withDetails(db: Database, row: TemplateRow): Promise<PerioperativeTemplate> {
  const details = await detailsOf(db, row.id);
  return { ...toSummary(row, details.length), details: details.map(toDetail) };
}

/** Template names are unique per clinic among templates not deleted, like the managed lists. */
async function assertNameFree(db: Database, ctx: SignedInContext, name: string, exceptId?: string) {
  const [clash] = await db
    .select({ id: perioperativeTemplates.id })
    .from(perioperativeTemplates)
    .where(
      and(
        ownTemplate(ctx),
        sql`lower(${perioperativeTemplates.name}) = lower(${name})`,
        exceptId ? ne(perioperativeTemplates.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (clash) throw new AppError('CONFLICT', 'nameTaken', { fields: { name: 'nameTaken' } });
}

export async function listTemplates(ctx: SignedInContext, query: TemplateListQuery) {
  const where = and(
    ownTemplate(ctx),
    query.search ? ilike(perioperativeTemplates.name, `%${escapeLike(query.search)}%`) : undefined,
    query.active === undefined ? undefined : eq(perioperativeTemplates.isActive, query.active),
    query.code ? sql`${query.code} = any(${perioperativeTemplates.codes})` : undefined,
  );
  // Spelled out: in a one-table select drizzle drops table names, which would turn the correlation into d.template_id = d.id.
  const detailCount = sql<number>`(select count(*)::int from ${perioperativeTemplateDetails} as d where d.template_id = ${perioperativeTemplates}.id)`;
  const sortColumn = query.sortBy === 'name' ? sql`lower(${perioperativeTemplates.name})` : perioperativeTemplates.createdAt;
  const direction = query.sortDirection === 'desc' ? desc : asc;
  const rows = await ctx.db
    .select({ template: perioperativeTemplates, detailCount })
    .from(perioperativeTemplates)
    .where(where)
    .orderBy(direction(sortColumn), asc(perioperativeTemplates.id))
    .limit(query.pageSize)
    .offset(query.pageNumber * query.pageSize);
  // Exact: the list's answer has no "more than" form.
  const { totalRecords } = await listTotal(
    ctx.db,
    ctx.db.select({ id: perioperativeTemplates.id }).from(perioperativeTemplates).where(where),
    { pageNumber: query.pageNumber, pageSize: query.pageSize, rowsOnPage: rows.length, exact: true },
  );
  return {
    totalRecords,
    pageNumber: query.pageNumber,
    pageSize: query.pageSize,
    data: rows.map((row) => toSummary(row.template, Number(row.detailCount))),
  };
}

export async function getTemplate(ctx: SignedInContext, id: string): Promise<PerioperativeTemplate> {
  return withDetails(ctx.db, await findTemplate(ctx.db, ctx, id));
}

export async function createTemplate(ctx: SignedInContext, input: TemplateInput): Promise<PerioperativeTemplate> {
  return ctx.db.transaction(async (tx) => {
    await assertNameFree(tx, ctx, input.name);
    const [row] = await tx
      .insert(perioperativeTemplates)
      .values({ instanceId: ctx.instanceId, name: input.name, codes: input.codes, isActive: input.isActive })
      .returning();
    await recordActivity(
      tx,
      activity(ctx, 'Created', {
        type: 'perioperative_template',
        id: row!.id,
        description: `Created perioperative template "${row!.name}"`,
      }),
    );
    return { ...toSummary(row!, 0), details: [] };
  });
}

export async function updateTemplate(ctx: SignedInContext, id: string, input: TemplateInput): Promise<PerioperativeTemplate> {
  return ctx.db.transaction(async (tx) => {
    await findTemplate(tx, ctx, id);
    await assertNameFree(tx, ctx, input.name, id);
    const [row] = await tx
      .update(perioperativeTemplates)
      .set({ name: input.name, codes: input.codes, isActive: input.isActive, updatedAt: new Date() })
      .where(eq(perioperativeTemplates.id, id))
      .returning();
    await recordActivity(
      tx,
      activity(ctx, 'Updated', {
        type: 'perioperative_template',
        id,
        description: `Updated perioperative template "${row!.name}"`,
      }),
    );
    return withDetails(tx, row!);
  });
}

/** Soft delete: messages already scheduled or sent keep naming their template. */
export async function deleteTemplate(ctx: SignedInContext, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const existing = await findTemplate(tx, ctx, id);
    const now = new Date();
    await tx.update(perioperativeTemplates).set({ deletedAt: now, updatedAt: now }).where(eq(perioperativeTemplates.id, id));
    await recordActivity(
      tx,
      activity(ctx, 'Deleted', {
        type: 'perioperative_template',
        id,
        description: `Deleted perioperative template "${existing.name}"`,
      }),
    );
  });
}

const detailValues = (input: DetailInput) => ({
  dayOffset: input.dayOffset,
  channel: input.channel,
  // A text message has no subject; one left over from an email version is dropped.
  subject: input.channel === 'email' ? input.subject : null,
  messageEn: input.messageEn,
  messageEs: input.messageEs,
});

export async function createDetail(ctx: SignedInContext, templateId: string, input: DetailInput): Promise<PerioperativeDetail> {
  return ctx.db.transaction(async (tx) => {
    const template = await findTemplate(tx, ctx, templateId);
    const [row] = await tx
      .insert(perioperativeTemplateDetails)
      .values({ instanceId: ctx.instanceId, templateId: template.id, ...detailValues(input) })
      .returning();
    await recordActivity(
      tx,
      activity(ctx, 'Created', {
        type: 'perioperative_template_detail',
        id: row!.id,
        description: `Added a day ${row!.dayOffset} ${row!.channel} message to perioperative template "${template.name}"`,
      }),
    );
    return toDetail(row!);
  });
}

async function findDetail(db: Database, ctx: SignedInContext, templateId: string, detailId: string) {
  const template = await findTemplate(db, ctx, templateId);
  const [row] = await db
    .select()
    .from(perioperativeTemplateDetails)
    .where(
      and(
        eq(perioperativeTemplateDetails.id, detailId),
        eq(perioperativeTemplateDetails.templateId, template.id),
        eq(perioperativeTemplateDetails.instanceId, ctx.instanceId),
      ),
    );
  if (!row) throw notFound('messageNotFound');
  return { template, row };
}

export async function updateDetail(
  ctx: SignedInContext,
  templateId: string,
  detailId: string,
  input: DetailInput,
): Promise<PerioperativeDetail> {
  return ctx.db.transaction(async (tx) => {
    const { template } = await findDetail(tx, ctx, templateId, detailId);
    const [row] = await tx
      .update(perioperativeTemplateDetails)
      .set({ ...detailValues(input), updatedAt: new Date() })
      .where(eq(perioperativeTemplateDetails.id, detailId))
      .returning();
    await recordActivity(
      tx,
      activity(ctx, 'Updated', {
        type: 'perioperative_template_detail',
        id: detailId,
        description: `Updated a day ${row!.dayOffset} ${row!.channel} message of perioperative template "${template.name}"`,
      }),
    );
    return toDetail(row!);
  });
}

/**
 * Details have no history of their own (the table has no deleted_at): a message that was sent is
 * recorded in the outbox with its text, so removing the planned message loses nothing that was sent.
 */
export async function deleteDetail(ctx: SignedInContext, templateId: string, detailId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const { template, row } = await findDetail(tx, ctx, templateId, detailId);
    await tx.delete(perioperativeTemplateDetails).where(eq(perioperativeTemplateDetails.id, detailId));
    await recordActivity(
      tx,
      activity(ctx, 'Deleted', {
        type: 'perioperative_template_detail',
        id: detailId,
        description: `Deleted the day ${row.dayOffset} ${row.channel} message of perioperative template "${template.name}"`,
      }),
    );
  });
}

/** A copy of a template and its messages, named "… (copy)" (or "(copy 2)" and on while that is taken). */
export async function duplicateTemplate(ctx: SignedInContext, id: string): Promise<PerioperativeTemplate> {
  return ctx.db.transaction(async (tx) => {
    const source = await findTemplate(tx, ctx, id);
    let name = `${source.name} (copy)`;
    for (let n = 2; await nameTaken(tx, ctx, name); n++) name = `${source.name} (copy ${n})`;
    const [copy] = await tx
      .insert(perioperativeTemplates)
      .values({ instanceId: ctx.instanceId, name, codes: source.codes, isActive: source.isActive })
      .returning();
    const details = await detailsOf(tx, source.id);
    if (details.length > 0) {
      await tx.insert(perioperativeTemplateDetails).values(
        details.map((detail) => ({
          instanceId: ctx.instanceId,
          templateId: copy!.id,
          dayOffset: detail.dayOffset,
          channel: detail.channel,
          subject: detail.subject,
          messageEn: detail.messageEn,
          messageEs: detail.messageEs,
        })),
      );
    }
    await recordActivity(
      tx,
      activity(ctx, 'Created', {
        type: 'perioperative template',
        id: copy!.id,
        description: `Duplicated "${source.name}" as "${name}"`,
      }),
    );
    return withDetails(tx, copy!);
  });
}

async function nameTaken(db: Database, ctx: SignedInContext, name: string): Promise<boolean> {
  const [clash] = await db
    .select({ id: perioperativeTemplates.id })
    .from(perioperativeTemplates)
    .where(and(ownTemplate(ctx), sql`lower(${perioperativeTemplates.name}) = lower(${name})`))
    .limit(1);
  return clash !== undefined;
}
