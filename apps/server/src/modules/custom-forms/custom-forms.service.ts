import { and, asc, count, eq, ilike, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  customFormContentProblems,
  type CustomFormDetail,
  type CustomFormPage,
  type CustomFormVersion,
  type customFormListQuerySchema,
} from '@pathwell/contracts/custom-forms';
import type { FormContent } from '@pathwell/contracts/forms';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { customFormVersions, customForms, formResponses } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { listTotal } from '../../lib/list-total';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { escapeLike } from '../managed-lists/managed-lists.service';

type FormRow = typeof customForms.$inferSelect;
type CustomFormListQueryParsed = z.output<typeof customFormListQuerySchema>;

function assertWellFormed(content: FormContent) {
  const fields = customFormContentProblems(content);
  if (Object.keys(fields).length > 0) throw new AppError('VALIDATION', 'fieldsInvalid', { fields });
}

const activity = (ctx: SignedInContext, action: 'Created' | 'Updated' | 'Deleted', form: FormRow, description: string) =>
  staffActivity(ctx, 'Admin Configuration', action, { type: 'customForm', id: form.id, description: description });

async function findForm(db: Database, ctx: SignedInContext, id: string): Promise<FormRow> {
  const [row] = await db
    .select()
    .from(customForms)
    .where(and(eq(customForms.id, id), eq(customForms.instanceId, ctx.instanceId)));
  if (!row) throw notFound('customFormNotFound');
  return row;
}

/** Responses per form version, over one form or several. */
const responsesPerVersion = (db: Database, formIds: string[]) =>
  db
    .select({ formId: customFormVersions.customFormId, version: customFormVersions.version, responses: count(formResponses.id) })
    .from(customFormVersions)
    .leftJoin(formResponses, eq(formResponses.customFormVersionId, customFormVersions.id))
    .where(inArray(customFormVersions.customFormId, formIds))
    .groupBy(customFormVersions.customFormId, customFormVersions.version);

export async function listForms(ctx: SignedInContext, query: CustomFormListQueryParsed): Promise<CustomFormPage> {
  const where = and(
    eq(customForms.instanceId, ctx.instanceId),
    query.archived ? isNotNull(customForms.archivedAt) : isNull(customForms.archivedAt),
    query.title ? ilike(customForms.title, `%${escapeLike(query.title)}%`) : undefined,
  );
  const rows = await ctx.db
    .select({
      form: customForms,
      questionCount: sql<number>`coalesce(jsonb_array_length(${customFormVersions.content}->'questions'), 0)`.mapWith(Number),
    })
    .from(customForms)
    .leftJoin(
      customFormVersions,
      and(eq(customFormVersions.customFormId, customForms.id), eq(customFormVersions.version, customForms.currentVersion)),
    )
    .where(where)
    .orderBy(asc(sql`lower(${customForms.title})`), asc(customForms.id))
    .limit(query.pageSize)
    .offset(query.pageNumber * query.pageSize);
  const counts = rows.length
    ? await responsesPerVersion(
        ctx.db,
        rows.map((row) => row.form.id),
      )
    : [];
  const responsesOf = (formId: string) =>
    counts.filter((entry) => entry.formId === formId).reduce((sum, entry) => sum + Number(entry.responses), 0);
  // Exact: the list's answer has no "more than" form.
  const { totalRecords } = await listTotal(ctx.db, ctx.db.select({ id: customForms.id }).from(customForms).where(where), {
    pageNumber: query.pageNumber,
    pageSize: query.pageSize,
    rowsOnPage: rows.length,
    exact: true,
  });
  return {
    totalRecords,
    pageNumber: query.pageNumber,
    pageSize: query.pageSize,
    data: rows.map(({ form, questionCount }) => ({
      id: form.id,
      title: form.title,
      currentVersion: form.currentVersion,
      questionCount,
      responseCount: responsesOf(form.id),
      updatedAt: form.updatedAt.toISOString(),
      archived: form.archivedAt !== null,
    })),
    message: totalRecords === 0 ? 'No custom forms found' : 'OK',
  };
}

async function detailOf(db: Database, form: FormRow): Promise<CustomFormDetail> {
  const versions = await db
    .select()
    .from(customFormVersions)
    .where(eq(customFormVersions.customFormId, form.id))
    .orderBy(asc(customFormVersions.version));
  const counts = await responsesPerVersion(db, [form.id]);
  const current = versions.find((version) => version.version === form.currentVersion);
  if (!current) throw new Error(`custom form ${form.id} has no version ${form.currentVersion}`);
  return {
    id: form.id,
    currentVersion: form.currentVersion,
    archived: form.archivedAt !== null,
    content: current.content,
    versions: versions.map((version) => ({
      version: version.version,
      createdAt: version.createdAt.toISOString(),
      responseCount: Number(counts.find((entry) => entry.version === version.version)?.responses ?? 0),
    })),
  };
}

export async function getForm(ctx: SignedInContext, id: string): Promise<CustomFormDetail> {
  return detailOf(ctx.db, await findForm(ctx.db, ctx, id));
}

export async function getVersion(ctx: SignedInContext, id: string, version: number): Promise<CustomFormVersion> {
  const form = await findForm(ctx.db, ctx, id);
  const [row] = await ctx.db
    .select()
    .from(customFormVersions)
    .where(and(eq(customFormVersions.customFormId, form.id), eq(customFormVersions.version, version)));
  if (!row) throw notFound('customFormVersionNotFound');
  return { id: form.id, version: row.version, createdAt: row.createdAt.toISOString(), content: row.content };
}

export async function createForm(ctx: SignedInContext, content: FormContent): Promise<CustomFormDetail> {
  assertWellFormed(content);
  return ctx.db.transaction(async (tx) => {
    const [form] = await tx
      .insert(customForms)
      .values({ instanceId: ctx.instanceId, title: content.title.en, currentVersion: 1, createdBy: ctx.actor.userId })
      .returning();
    await tx.insert(customFormVersions).values({
      instanceId: ctx.instanceId,
      customFormId: form!.id,
      version: 1,
      content,
      createdBy: ctx.actor.userId,
    });
    await recordActivity(tx, activity(ctx, 'Created', form!, `Created custom form "${form!.title}"`));
    return detailOf(tx, form!);
  });
}

/**
 * A version that patients have answered stays as they saw it: the edit becomes the next version.
 * A version nobody answered yet is corrected in place, so drafts do not pile up versions.
 */
export async function updateForm(ctx: SignedInContext, id: string, content: FormContent): Promise<CustomFormDetail> {
  assertWellFormed(content);
  return ctx.db.transaction(async (tx) => {
    // Row lock: two saves at once must not both decide "no responses yet" or both insert n+1.
    const [form] = await tx
      .select()
      .from(customForms)
      .where(and(eq(customForms.id, id), eq(customForms.instanceId, ctx.instanceId)))
      .for('update');
    if (!form) throw notFound('customFormNotFound');
    const [current] = await tx
      .select({ id: customFormVersions.id })
      .from(customFormVersions)
      .where(and(eq(customFormVersions.customFormId, form.id), eq(customFormVersions.version, form.currentVersion)));
    const [answered] = current
      ? await tx.select({ value: count() }).from(formResponses).where(eq(formResponses.customFormVersionId, current.id))
      : [];
    const hasResponses = Number(answered?.value ?? 0) > 0;
    let version = form.currentVersion;
    if (current && !hasResponses) {
      await tx.update(customFormVersions).set({ content }).where(eq(customFormVersions.id, current.id));
    } else {
      version = form.currentVersion + 1;
      await tx.insert(customFormVersions).values({
        instanceId: ctx.instanceId,
        customFormId: form.id,
        version,
        content,
        createdBy: ctx.actor.userId,
      });
    }
    const [updated] = await tx
      .update(customForms)
      .set({ title: content.title.en, currentVersion: version, updatedAt: new Date() })
      .where(eq(customForms.id, form.id))
      .returning();
    const description =
      version === form.currentVersion
        ? `Updated custom form "${updated!.title}" (version ${version})`
        : `Updated custom form "${updated!.title}": version ${version} created because version ${form.currentVersion} has responses`;
    await recordActivity(tx, activity(ctx, 'Updated', updated!, description));
    return detailOf(tx, updated!);
  });
}

export async function setArchived(ctx: SignedInContext, id: string, archived: boolean): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const form = await findForm(tx, ctx, id);
    if ((form.archivedAt !== null) === archived) return;
    const [updated] = await tx
      .update(customForms)
      .set({ archivedAt: archived ? new Date() : null, updatedAt: new Date() })
      .where(eq(customForms.id, form.id))
      .returning();
    await recordActivity(
      tx,
      archived
        ? activity(ctx, 'Deleted', updated!, `Archived custom form "${form.title}"`)
        : activity(ctx, 'Updated', updated!, `Restored custom form "${form.title}"`),
    );
  });
}
