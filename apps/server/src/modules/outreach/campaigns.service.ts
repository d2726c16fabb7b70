import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type CampaignDetail,
  type CampaignInput,
  type CampaignAudiencePreview,
  type CampaignRecipient,
  type CampaignResponse,
  type CampaignSkipReason,
  type CampaignSummary,
  type campaignListQuerySchema,
  type campaignRecipientsQuerySchema,
  type campaignResponsesQuerySchema,
  type campaignResultsQuerySchema,
} from '@pathwell/contracts/campaigns';
import type { CampaignChannel, CampaignStatus } from '@pathwell/contracts/outreach';
import type { SignedInContext } from '../../context';
import { audienceTemplates, campaignRecipients, campaigns } from '../../db/schema';
import { AppError, fieldError, notFound } from '../../lib/app-error';
import { listTotal } from '../../lib/list-total';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { maskRecipient } from '../outbox/outbox.service';
import { clinicTimeZoneFrom, readSettings } from '../settings/settings.service';
import { previewAudience } from './audience.service';
import { rowsOf } from '../../lib/sql-rows';
import { bookedAtOf, campaignResponses, funnelLateral, funnelOf, type FunnelRow } from './campaign-responses';
import { approveBlockedReason, campaignContentHash, channelsOffIn, currentRuleOf, editorsOf, waitingOf } from './campaign-review';
import { campaignMessageFor, finishCampaign } from './campaign-sender';
import { requireOutreach, requireSingleClinic } from './outreach-access';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';
import { reportPatients } from '../patients/patient-visibility.service';

/*
 * Campaigns (issue #15 §3, decision 0051): draft → approved (recipients frozen) → finished → archived.
 * Only a draft is edited; a campaign is deleted only before anything was queued, and archived after.
 */

type CampaignRow = typeof campaigns.$inferSelect;
/** Raw SQL answers timestamps as PostgreSQL's text (drizzle leaves them unparsed); the API answers ISO. */
const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());
const nameOf = (first: string | null, last: string | null) => (first === null ? null : `${first} ${last ?? ''}`.trim());
/** The example patient of a campaign's message preview. */
const EXAMPLE = { firstName: 'Maria', provider: 'Dr. Rivera', linkCode: 'Ab3dE5gH7jK9' };

const activity = (ctx: SignedInContext, action: 'Created' | 'Updated' | 'Deleted' | 'Viewed', id: string, description: string) =>
  staffActivity(ctx, 'Patient List', action, { type: 'campaign', id, description });

// ---------------------------------------------------------------------------------------------------
// Reads

/** A campaign with the names of its author and approver (null when that user is gone or never was) and its funnel. */
interface SummaryRow extends FunnelRow {
  id: string;
  name: string;
  status: CampaignStatus;
  channels: CampaignChannel[];
  template_name: string | null;
  scheduled_at: string | null;
  text_sending: boolean;
  created_at: string;
  created_first: string | null;
  created_last: string | null;
  approved_at: string | null;
  approved_first: string | null;
  approved_last: string | null;
  finished_at: string | null;
  any_queued: boolean;
}

/** Campaign summaries with their funnels, one statement for the whole page. */
async function summaries(
  ctx: SignedInContext,
  where: SQL,
  tail: SQL,
  ofPatients?: SQL,
): Promise<(CampaignSummary & { anyQueued: boolean })[]> {
  const settings = await readSettings(ctx.db, ctx.instanceId);
  const now = new Date();
  const rows = await rowsOf<SummaryRow>(
    ctx.db,
    sql`
    select c.id, c.name, c.status, c.channels, t.name as template_name, c.scheduled_at, c.text_sending, c.created_at,
           cu.first_name as created_first, cu.last_name as created_last, c.approved_at,
           au.first_name as approved_first, au.last_name as approved_last, c.finished_at,
           exists (select 1 from campaign_recipients q
                    where q.instance_id = c.instance_id and q.campaign_id = c.id and q.queued_at is not null) as any_queued,
           f.*
      from campaigns c
      left join audience_templates t on t.instance_id = c.instance_id and t.id = c.template_id
      left join users cu on cu.id = c.created_by
      left join users au on au.id = c.approved_by
      cross join lateral (${funnelLateral(ofPatients)}) f
     where c.instance_id = ${ctx.instanceId} and c.deleted_at is null and ${where}
     ${tail}`,
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    status: row.status,
    channels: row.channels,
    templateName: row.template_name,
    scheduledAt: iso(row.scheduled_at),
    textSending: row.text_sending,
    createdAt: iso(row.created_at)!,
    createdByName: nameOf(row.created_first, row.created_last),
    approvedAt: iso(row.approved_at),
    approvedByName: nameOf(row.approved_first, row.approved_last),
    finishedAt: iso(row.finished_at),
    funnel: funnelOf(row),
    waiting: waitingOf(
      { status: row.status, scheduledAt: row.scheduled_at === null ? null : new Date(row.scheduled_at) },
      settings,
      now,
    ),
    anyQueued: row.any_queued,
  }));
}

const strip = ({ anyQueued: _anyQueued, ...summary }: CampaignSummary & { anyQueued: boolean }): CampaignSummary => summary;

export async function listCampaigns(ctx: SignedInContext, query: z.output<typeof campaignListQuerySchema>) {
  await requireOutreach(ctx);
  const where = query.status ? sql`c.status = ${query.status}` : sql`true`;
  const data = await summaries(
    ctx,
    where,
    sql`order by c.created_at desc, c.id limit ${query.pageSize} offset ${query.pageNumber * query.pageSize}`,
  );
  // Exact: the list's answer has no "more than" form.
  const { totalRecords } = await listTotal(
    ctx.db,
    sql`select 1 from campaigns c where c.instance_id = ${ctx.instanceId} and c.deleted_at is null and ${where}`,
    { pageNumber: query.pageNumber, pageSize: query.pageSize, rowsOnPage: data.length, exact: true },
  );
  return { totalRecords, data: data.map(strip) };
}

export async function campaignRow(ctx: SignedInContext, id: string, lock = false): Promise<CampaignRow> {
  const query = ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.instanceId, ctx.instanceId), eq(campaigns.id, id), isNull(campaigns.deletedAt)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('campaignNotFound');
  return row;
}

export async function getCampaign(ctx: SignedInContext, id: string): Promise<CampaignDetail> {
  await requireOutreach(ctx);
  const row = await campaignRow(ctx, id);
  const [summary] = await summaries(ctx, sql`c.id = ${id}`, sql``);
  const settings = await readSettings(ctx.db, ctx.instanceId);
  const blocked = approveBlockedReason(ctx, row, settings);
  const clinic = await clinicDisplayName(ctx.db, ctx.instanceId, settings);
  // The preview is written for an example patient (never a recipient's name or short link: the page
  // refreshes every few seconds while sending, and a real patient shown would be a read of that patient
  // each time); the clinic and the provider are the campaign's own.
  const [first] = await ctx.db
    .select({ providerName: campaignRecipients.providerName })
    .from(campaignRecipients)
    .where(and(eq(campaignRecipients.instanceId, ctx.instanceId), eq(campaignRecipients.campaignId, id)))
    .orderBy(campaignRecipients.position)
    .limit(1);
  const provider = first?.providerName ?? EXAMPLE.provider;
  const values = { ...EXAMPLE, clinic, provider };
  const texts = (row.channels as CampaignChannel[]).includes('sms');
  const preview = (language: 'en' | 'es') => {
    const message = campaignMessageFor(row, language, values, ctx.config);
    return texts ? message.text : message.body;
  };
  const running = row.status === 'approved';
  return {
    ...strip(summary!),
    templateId: row.templateId,
    messageEn: row.messageEn,
    messageEs: row.messageEs,
    subjectEn: row.subjectEn,
    subjectEs: row.subjectEs,
    instructionEn: row.instructionEn,
    instructionEs: row.instructionEs,
    linkUrl: row.linkUrl,
    throttlePerMinute: row.throttlePerMinute,
    attributionDays: row.attributionDays,
    createdBy: row.createdBy,
    can: {
      edit: row.status === 'draft',
      approve: blocked === null,
      toggleText: running && texts,
      finish: running,
      delete: !summary!.anyQueued,
      archive: running || row.status === 'finished',
    },
    approveBlockedReason: blocked,
    channelsOff: channelsOffIn(settings, row.channels as CampaignChannel[]),
    contentHash: campaignContentHash(row, await currentRuleOf(ctx.db, row)),
    preview: { en: preview('en'), es: preview('es') },
  };
}

// ---------------------------------------------------------------------------------------------------
// Changes

async function campaignTemplate(ctx: SignedInContext, templateId: string) {
  const [template] = await ctx.db
    .select({ id: audienceTemplates.id, rule: audienceTemplates.rule, name: audienceTemplates.name })
    .from(audienceTemplates)
    .where(
      and(
        eq(audienceTemplates.instanceId, ctx.instanceId),
        eq(audienceTemplates.id, templateId),
        eq(audienceTemplates.kind, 'campaign'),
        isNull(audienceTemplates.deletedAt),
      ),
    );
  if (!template) throw fieldError('templateId', 'optionInvalid');
  return template;
}

const columnsOf = (input: CampaignInput) => ({
  name: input.name,
  templateId: input.templateId,
  channels: input.channels,
  messageEn: input.messageEn,
  messageEs: input.messageEs,
  subjectEn: input.subjectEn,
  subjectEs: input.subjectEs,
  instructionEn: input.instructionEn,
  instructionEs: input.instructionEs,
  linkUrl: input.linkUrl,
  scheduledAt: input.scheduledAt ? new Date(input.scheduledAt) : null,
  throttlePerMinute: input.throttlePerMinute,
  attributionDays: input.attributionDays,
});

export async function createCampaign(ctx: SignedInContext, input: CampaignInput): Promise<CampaignDetail> {
  await requireOutreach(ctx);
  requireSingleClinic(ctx);
  await campaignTemplate(ctx, input.templateId);
  const [row] = await ctx.db
    .insert(campaigns)
    .values({ instanceId: ctx.instanceId, ...columnsOf(input), createdBy: ctx.actor.userId, editorIds: [ctx.actor.userId] })
    .returning({ id: campaigns.id });
  await recordActivity(ctx.db, activity(ctx, 'Created', row!.id, `Created campaign "${input.name}"`));
  return getCampaign(ctx, row!.id);
}

export async function updateCampaign(ctx: SignedInContext, id: string, input: CampaignInput): Promise<CampaignDetail> {
  await requireOutreach(ctx);
  const row = await campaignRow(ctx, id, true);
  if (row.status !== 'draft') throw new AppError('CONFLICT', 'campaignNotDraft');
  await campaignTemplate(ctx, input.templateId);
  // Whoever changes the content joins its editors, none of whom may approve it (decision 0064).
  const editorIds = editorsOf(row).has(ctx.actor.userId) ? row.editorIds : [...row.editorIds, ctx.actor.userId];
  await ctx.db
    .update(campaigns)
    .set({ ...columnsOf(input), editorIds, updatedAt: new Date() })
    .where(and(eq(campaigns.instanceId, ctx.instanceId), eq(campaigns.id, id)));
  await recordActivity(ctx.db, activity(ctx, 'Updated', id, `Changed campaign "${input.name}"`));
  return getCampaign(ctx, id);
}

/** Deleted only before anything was queued (soft delete); afterwards the campaign is archived instead. */
export async function deleteCampaign(ctx: SignedInContext, id: string): Promise<void> {
  await requireOutreach(ctx);
  const row = await campaignRow(ctx, id, true);
  const [queued] = await ctx.db
    .select({ id: campaignRecipients.id })
    .from(campaignRecipients)
    .where(
      and(
        eq(campaignRecipients.instanceId, ctx.instanceId),
        eq(campaignRecipients.campaignId, id),
        sql`${campaignRecipients.queuedAt} is not null`,
      ),
    )
    .limit(1);
  if (queued) throw new AppError('CONFLICT', 'campaignAlreadySending');
  await ctx.db
    .update(campaigns)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(campaigns.instanceId, ctx.instanceId), eq(campaigns.id, id)));
  await recordActivity(ctx.db, activity(ctx, 'Deleted', id, `Deleted campaign "${row.name}"`));
}

export async function setTextSending(ctx: SignedInContext, id: string, enabled: boolean): Promise<CampaignDetail> {
  await requireOutreach(ctx);
  const row = await campaignRow(ctx, id, true);
  if (row.status !== 'approved' || !row.channels.includes('sms')) throw new AppError('CONFLICT', 'campaignStateInvalid');
  await ctx.db
    .update(campaigns)
    .set({ textSending: enabled, updatedAt: new Date() })
    .where(and(eq(campaigns.instanceId, ctx.instanceId), eq(campaigns.id, id)));
  await recordActivity(
    ctx.db,
    activity(ctx, 'Updated', id, `Text sending of campaign "${row.name}" turned ${enabled ? 'on' : 'off'}`),
  );
  return getCampaign(ctx, id);
}

/** Finish by hand: whoever is still waiting is skipped ('finished'), and the summary goes out. */
export async function finishCampaignByHand(ctx: SignedInContext, id: string, now = new Date()): Promise<CampaignDetail> {
  await requireOutreach(ctx);
  const row = await campaignRow(ctx, id, true);
  if (row.status !== 'approved') throw new AppError('CONFLICT', 'campaignStateInvalid');
  await finishCampaign(ctx.db, ctx, row, now);
  await recordActivity(ctx.db, activity(ctx, 'Updated', id, `Finished campaign "${row.name}"`));
  return getCampaign(ctx, id);
}

/** Archived: finished (a running campaign is finished first) and out of the dashboard's working list. */
export async function archiveCampaign(ctx: SignedInContext, id: string, now = new Date()): Promise<CampaignDetail> {
  await requireOutreach(ctx);
  const row = await campaignRow(ctx, id, true);
  if (row.status !== 'approved' && row.status !== 'finished') throw new AppError('CONFLICT', 'campaignStateInvalid');
  if (row.status === 'approved') await finishCampaign(ctx.db, ctx, row, now);
  await ctx.db
    .update(campaigns)
    .set({ status: 'archived', archivedAt: now, updatedAt: now })
    .where(and(eq(campaigns.instanceId, ctx.instanceId), eq(campaigns.id, id)));
  await recordActivity(ctx.db, activity(ctx, 'Updated', id, `Archived campaign "${row.name}"`));
  return getCampaign(ctx, id);
}

// ---------------------------------------------------------------------------------------------------
// Audience, recipients, responses, results

/** Who a campaign with this template and these channels would reach now (count and the first 25 by name). */
export async function campaignAudience(
  ctx: SignedInContext,
  input: { templateId: string; channels: CampaignChannel[] },
): Promise<CampaignAudiencePreview> {
  await requireOutreach(ctx);
  const template = await campaignTemplate(ctx, input.templateId);
  const channels = [...new Set(input.channels)];
  const settings = await readSettings(ctx.db, ctx.instanceId);
  const preview = await previewAudience(ctx.db, ctx.instanceId, template.rule, { kind: 'campaign', channels });
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient List', 'Viewed', {
      type: 'audience template',
      id: template.id,
      description: `Previewed the campaign audience of "${template.name}": ${preview.count} patients`,
    }),
  );
  return { ...preview, channelsOff: channelsOffIn(settings, channels) };
}

/**
 * Why a channel did not reach the recipient: the reason stored on the row (skipped at approval or at send
 * time, or the outbox's suppression), else what the outbox did with the message since (kept back for want
 * of a provider, or failed).
 */
const reasonOf = (channel: 'sms' | 'email', message: 'sm' | 'em') =>
  sql.raw(`case when r.${channel}_skip_reason is not null then r.${channel}_skip_reason
     when ${message}.status = 'stored' then 'noProvider'
     when ${message}.status in ('failed', 'undelivered') then 'failed' end`);

interface RecipientRow {
  id: string;
  patient_id: string;
  first_name: string;
  last_name: string;
  language: string;
  phone: string | null;
  email: string | null;
  sms_status: CampaignRecipient['smsStatus'];
  email_status: CampaignRecipient['emailStatus'];
  sms_delivery: CampaignRecipient['smsDelivery'];
  email_delivery: CampaignRecipient['emailDelivery'];
  skip_reason: string | null;
  sms_reason: CampaignSkipReason | null;
  email_reason: CampaignSkipReason | null;
  queued_at: string | null;
  clicked_at: string | null;
  replied_at: string | null;
  opted_out_at: string | null;
  booked_at: string | null;
}

/** The frozen recipients of a campaign in send order, with delivery and responses (masked addresses). */
export async function campaignRecipientList(
  ctx: SignedInContext,
  query: z.output<typeof campaignRecipientsQuerySchema>,
): Promise<{ totalRecords: number; data: CampaignRecipient[] }> {
  await requireOutreach(ctx);
  const row = await campaignRow(ctx, query.campaignId);
  const filter =
    query.status === 'pending'
      ? sql`(r.sms_status = 'pending' or r.email_status = 'pending')`
      : query.status === 'queued'
        ? sql`(r.sms_status = 'queued' or r.email_status = 'queued')`
        : query.status === 'skipped'
          ? sql`(r.sms_status in ('skipped', 'none') and r.email_status in ('skipped', 'none'))`
          : sql`true`;
  const mine = sql`r.instance_id = ${ctx.instanceId} and r.campaign_id = ${row.id} and ${filter}`;
  const rows = await rowsOf<RecipientRow>(
    ctx.db,
    sql`
    select r.id, r.patient_id, p.first_name, p.last_name, r.language, r.phone, r.email, r.sms_status, r.email_status,
           sm.status as sms_delivery, em.status as email_delivery, coalesce(r.sms_skip_reason, r.email_skip_reason) as skip_reason,
           ${reasonOf('sms', 'sm')} as sms_reason, ${reasonOf('email', 'em')} as email_reason,
           r.queued_at, r.clicked_at, r.replied_at, r.opted_out_at, ${bookedAtOf(sql.raw('r'), sql.raw('c'))} as booked_at
      from campaign_recipients r
      join campaigns c on c.instance_id = r.instance_id and c.id = r.campaign_id
      join patients p on p.instance_id = r.instance_id and p.id = r.patient_id
      left join outbox_messages sm on sm.instance_id = r.instance_id and sm.id = r.sms_message_id
      left join outbox_messages em on em.instance_id = r.instance_id and em.id = r.email_message_id
     where ${mine}
     order by r.position
     limit ${query.pageSize} offset ${query.pageNumber * query.pageSize}`,
  );
  // Exact: the list's answer has no "more than" form.
  const { totalRecords } = await listTotal(ctx.db, sql`select 1 from campaign_recipients r where ${mine}`, {
    pageNumber: query.pageNumber,
    pageSize: query.pageSize,
    rowsOnPage: rows.length,
    exact: true,
  });
  await recordActivity(ctx.db, activity(ctx, 'Viewed', row.id, `Viewed ${rows.length} recipients of campaign "${row.name}"`));
  return {
    totalRecords,
    data: rows.map((r) => ({
      id: r.id,
      patientId: r.patient_id,
      patientName: `${r.first_name} ${r.last_name}`.trim(),
      language: r.language === 'es' ? 'es' : 'en',
      phoneMasked: r.phone === null ? null : maskRecipient('sms', r.phone),
      emailMasked: r.email === null ? null : maskRecipient('email', r.email),
      smsStatus: r.sms_status,
      emailStatus: r.email_status,
      smsDelivery: r.sms_delivery,
      emailDelivery: r.email_delivery,
      skipReason: r.skip_reason,
      smsReason: r.sms_reason,
      emailReason: r.email_reason,
      queuedAt: iso(r.queued_at),
      clickedAt: iso(r.clicked_at),
      repliedAt: iso(r.replied_at),
      optedOutAt: iso(r.opted_out_at),
      bookedAt: iso(r.booked_at),
    })),
  };
}

export async function listCampaignResponses(
  ctx: SignedInContext,
  id: string,
  query: z.output<typeof campaignResponsesQuerySchema>,
): Promise<{ totalRecords: number; data: CampaignResponse[] }> {
  await requireOutreach(ctx);
  const row = await campaignRow(ctx, id);
  const settings = await readSettings(ctx.db, ctx.instanceId);
  const page = await campaignResponses(ctx.db, ctx.config, ctx.instanceId, id, clinicTimeZoneFrom(settings), query);
  await recordActivity(ctx.db, activity(ctx, 'Viewed', id, `Viewed ${page.data.length} responses to campaign "${row.name}"`));
  return page;
}

/**
 * Campaign Results: each campaign approved in the window with its funnel, newest first. A Doctor's
 * numbers count their own patients only, and only campaigns that reached one of them are listed.
 */
export async function campaignResults(
  ctx: SignedInContext,
  query: z.output<typeof campaignResultsQuerySchema>,
): Promise<{ data: CampaignSummary[] }> {
  await requireOutreach(ctx);
  const ofPatients = reportPatients(ctx, null, 'dp');
  const timeZone = clinicTimeZoneFrom(await readSettings(ctx.db, ctx.instanceId));
  const approvedDay = sql`(c.approved_at at time zone ${timeZone})::date`;
  const where = [sql`c.status in ('approved', 'finished', 'archived')`, sql`c.approved_at is not null`];
  if (query.from) where.push(sql`${approvedDay} >= ${query.from}::date`);
  if (query.to) where.push(sql`${approvedDay} <= ${query.to}::date`);
  if (ofPatients) {
    where.push(sql`exists (select 1 from campaign_recipients dr
      join patients dp on dp.instance_id = dr.instance_id and dp.id = dr.patient_id
     where dr.instance_id = c.instance_id and dr.campaign_id = c.id and ${ofPatients})`);
  }
  const data = await summaries(ctx, sql.join(where, sql` and `), sql`order by c.approved_at desc, c.id limit 500`, ofPatients);
  return { data: data.map(strip) };
}
