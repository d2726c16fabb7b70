import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { mergeFieldsIn, type CampaignDetail, type campaignApprovalAudienceQuerySchema } from '@pathwell/contracts/campaigns';
import type { AudiencePatient, CampaignChannel } from '@pathwell/contracts/outreach';
import { PatientPhoneType } from '@pathwell/contracts/patients';
import type { SignedInContext } from '../../context';
import { campaignRecipients, campaigns } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { jobQueues } from '../../jobs/job-queue';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { toE164 } from '../outbox/outbox.service';
import { readSettings } from '../settings/settings.service';
import { previewAudience, resolveAudience } from './audience.service';
import { rowsOf } from '../../lib/sql-rows';
import { pgArray } from './campaign-responses';
import { approveBlockedReason, campaignContentHash, channelsOffIn, currentRuleOf } from './campaign-review';
import { campaignRow, getCampaign } from './campaigns.service';
import { requireOutreach } from './outreach-access';

/*
 * A campaign's approval (issue #15 §3, decisions 0051 and 0064): who the approver is about to message,
 * and the approval itself, which freezes the recipients.
 */

/** Recipients are written in chunks: one statement per chunk, not per patient. */
const INSERT_CHUNK = 500;

const activity = (ctx: SignedInContext, id: string, description: string) =>
  staffActivity(ctx, 'Patient List', 'Updated', { type: 'campaign', id, description });

/**
 * Who approving now would message, a page at a time in the order they would be sent (the template's rule
 * as it stands, with the campaign's channels): the approver sees the count and the names first. Audited.
 */
export async function campaignApprovalAudience(
  ctx: SignedInContext,
  id: string,
  query: z.output<typeof campaignApprovalAudienceQuerySchema>,
): Promise<{ totalRecords: number; data: AudiencePatient[] }> {
  await requireOutreach(ctx);
  const row = await campaignRow(ctx, id);
  const rule = row.status === 'draft' ? await currentRuleOf(ctx.db, row) : row.rule;
  if (!rule) throw new AppError('CONFLICT', 'templateNotFound');
  const channels = row.channels as CampaignChannel[];
  const page = await previewAudience(ctx.db, ctx.instanceId, rule, { kind: 'campaign', channels }, new Date(), {
    offset: query.pageNumber * query.pageSize,
    limit: query.pageSize,
  });
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Patient List', 'Viewed', {
      type: 'campaign',
      id,
      description: `Viewed ${page.sample.length} of the ${page.count} patients campaign "${row.name}" would message`,
    }),
  );
  return { totalRecords: page.count, data: page.sample };
}

interface Freezable {
  patient_id: string;
  first_name: string;
  preferred_language: 'en' | 'es';
  email: string | null;
  enable_email: boolean;
  enable_text: boolean;
  outreach_email: boolean;
  outreach_text: boolean;
  mobile: string | null;
  provider_name: string | null;
}

interface OptOutRow {
  phone: string;
}

/** A short link's code: 12 url-safe characters (72 random bits). */
const newLinkCode = () => randomBytes(9).toString('base64url');

/**
 * Approval (a System Manager or Admin who neither wrote nor changed the content) freezes the audience:
 * the template's rule is resolved now and copied onto the campaign, and each patient becomes a recipient
 * with the addresses, language and provider the campaign will use. Whatever changes later (new coded
 * visits, new patients) does not shift the list. It binds to the content the approver reviewed: the
 * digest they send must be the campaign's digest now (decision 0064).
 */
export async function approveCampaign(
  ctx: SignedInContext,
  id: string,
  input: { contentHash: string },
  now = new Date(),
): Promise<CampaignDetail> {
  await requireOutreach(ctx);
  const row = await campaignRow(ctx, id, true);
  const settings = await readSettings(ctx.db, ctx.instanceId);
  const blocked = approveBlockedReason(ctx, row, settings);
  if (blocked === 'status') throw new AppError('CONFLICT', 'campaignStateInvalid');
  if (blocked === 'author') throw new AppError('FORBIDDEN', 'campaignApproveOwn');
  const channels = row.channels as CampaignChannel[];
  // Approved with a channel off, the campaign would finish "0 sent" with nobody told why.
  const off = channelsOffIn(settings, channels);
  if (off.includes('sms')) throw new AppError('CONFLICT', 'campaignTextsOff');
  if (off.includes('email')) throw new AppError('CONFLICT', 'campaignEmailsOff');
  const rule = await currentRuleOf(ctx.db, row);
  if (!rule) throw new AppError('CONFLICT', 'templateNotFound');
  if (campaignContentHash(row, rule) !== input.contentHash) throw new AppError('CONFLICT', 'campaignContentChanged');
  const members = await resolveAudience(ctx.db, ctx.instanceId, rule, { kind: 'campaign', channels }, now);
  const details = new Map<string, Freezable>();
  if (members.length > 0) {
    const rows = await rowsOf<Freezable>(
      ctx.db,
      sql`
      select p.id as patient_id, p.first_name, p.preferred_language, nullif(trim(p.email), '') as email, p.enable_email, p.enable_text,
             p.outreach_email, p.outreach_text,
             nullif(trim(coalesce(d.first_name, '') || ' ' || coalesce(d.last_name, '')), '') as provider_name,
             (select ph.number from patient_phone_numbers ph
               where ph.instance_id = p.instance_id and ph.patient_id = p.id and ph.phone_type = ${PatientPhoneType.MOBILE}
               order by ph.is_primary desc, ph.created_at limit 1) as mobile
        from patients p
        left join users d on d.id = p.doctor_id
       where p.instance_id = ${ctx.instanceId} and p.id = any(${pgArray(members.map((m) => m.patientId))}::uuid[])`,
    );
    for (const detail of rows) details.set(detail.patient_id, detail);
  }
  const phones = [...details.values()].flatMap((detail) => (detail.mobile ? [toE164(detail.mobile)] : []));
  const stopped = new Set(
    phones.length
      ? (
          await rowsOf<OptOutRow>(
            ctx.db,
            sql`select phone from sms_opt_outs where instance_id = ${ctx.instanceId} and opted_out
                   and phone = any(${pgArray(phones)}::text[])`,
          )
        ).map((stop) => stop.phone)
      : [],
  );
  const usesLink = [row.messageEn, row.messageEs].some((text) => mergeFieldsIn(text).includes('link'));
  const values: (typeof campaignRecipients.$inferInsert)[] = [];
  members.forEach((member, position) => {
    const detail = details.get(member.patientId);
    if (!detail) return;
    const phone = detail.mobile ? toE164(detail.mobile) : null;
    const sms = !channels.includes('sms')
      ? { status: 'none' as const, reason: null }
      : !phone
        ? { status: 'skipped' as const, reason: 'noAddress' }
        : !detail.enable_text
          ? { status: 'skipped' as const, reason: 'patientTextOff' }
          : !detail.outreach_text
            ? { status: 'skipped' as const, reason: 'patientOptionalOff' }
            : stopped.has(phone)
              ? { status: 'skipped' as const, reason: 'optedOut' }
              : { status: 'pending' as const, reason: null };
    const email = !channels.includes('email')
      ? { status: 'none' as const, reason: null }
      : !detail.email
        ? { status: 'skipped' as const, reason: 'noAddress' }
        : !detail.enable_email
          ? { status: 'skipped' as const, reason: 'patientEmailOff' }
          : !detail.outreach_email
            ? { status: 'skipped' as const, reason: 'patientOptionalOff' }
            : { status: 'pending' as const, reason: null };
    values.push({
      instanceId: ctx.instanceId,
      campaignId: id,
      patientId: member.patientId,
      language: detail.preferred_language === 'es' ? 'es' : 'en',
      phone,
      email: detail.email,
      providerName: detail.provider_name,
      matchedCodes: member.matchedCodes,
      smsStatus: sms.status,
      smsSkipReason: sms.reason,
      emailStatus: email.status,
      emailSkipReason: email.reason,
      position,
      linkCode: usesLink ? newLinkCode() : null,
    });
  });
  for (let start = 0; start < values.length; start += INSERT_CHUNK) {
    // The (campaign, patient) key: a patient is never on a campaign twice.
    await ctx.db
      .insert(campaignRecipients)
      .values(values.slice(start, start + INSERT_CHUNK))
      .onConflictDoNothing();
  }
  const [count] = await ctx.db
    .select({ count: sql<number>`count(*)::int` })
    .from(campaignRecipients)
    .where(and(eq(campaignRecipients.instanceId, ctx.instanceId), eq(campaignRecipients.campaignId, id)));
  const recipientCount = Number(count?.count ?? 0);
  await ctx.db
    .update(campaigns)
    .set({ status: 'approved', approvedBy: ctx.actor.userId, approvedAt: now, rule, recipientCount, updatedAt: now })
    .where(and(eq(campaigns.instanceId, ctx.instanceId), eq(campaigns.id, id)));
  // The first batch goes out now rather than at the next minute's sweep (and where the schedule is off).
  await ctx.jobs.enqueue(ctx.db, jobQueues.campaignSweep, {});
  await recordActivity(ctx.db, activity(ctx, id, `Approved campaign "${row.name}": ${recipientCount} recipients frozen`));
  return getCampaign(ctx, id);
}
