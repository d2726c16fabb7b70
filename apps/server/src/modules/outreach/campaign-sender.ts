import { and, asc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import { fillMergeFields, type CampaignFunnel } from '@pathwell/contracts/campaigns';
import type { CampaignChannel } from '@pathwell/contracts/outreach';
import type { Config } from '../../config';
import type { ServiceContext } from '../../context';
import type { Database } from '../../db/client';
import { campaignRecipients, campaigns, patients } from '../../db/schema';
import { withClinics, withSystemAccess } from '../../db/tenancy';
import { recordActivity } from '../audit/audit.service';
import { isOptedOut, nextDaytime, queueMessage } from '../outbox/outbox.service';
import { lockDailyCap } from '../outbox/daily-cap.service';
import { clinicTimeZoneFrom, readSettings, readTypedSettings } from '../settings/settings.service';
import { campaignFunnel } from './campaign-responses';
import { publicLink } from '../../lib/public-url';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';

/*
 * The campaign sweep (issue #15 §3, decision 0051), run by pg-boss every minute: each approved campaign
 * whose time has come sends its next `throttlePerMinute` recipients, in their frozen order, inside the
 * clinic's daytime hours, through the outbox (the messages issue's jobs and providers). When nobody is
 * left waiting, the campaign finishes and the clinic's `campaignEmails` get a summary. `now` is a
 * parameter so tests move the clock instead of waiting.
 */

/** Every minute: the throttle is a number per minute. */
export const CAMPAIGN_SWEEP_CRON = '* * * * *';
/** Campaigns looked at per sweep; the rest wait for the next minute. */
const SWEEP_LIMIT = 200;

export type CampaignSweepDeps = Pick<ServiceContext, 'config' | 'mailer' | 'jobs'>;
type CampaignRow = typeof campaigns.$inferSelect;

interface CampaignSweepResult {
  /** Recipients handed to the outbox on at least one channel. */
  queued: number;
  /** Channels skipped at send time (the number answered STOP since approval). */
  skipped: number;
  finished: number;
  /** Campaigns outside daytime hours now. */
  waiting: number;
}

/** Texts end with how to stop them, in the patient's language (unless the message already says it). */
export function textWithStop(text: string, language: 'en' | 'es'): string {
  if (/\b(STOP|PARAR)\b/.test(text)) return text;
  return `${text} ${language === 'es' ? 'Responda PARAR para no recibir más.' : 'Reply STOP to opt out.'}`;
}

interface MergeValues {
  firstName: string;
  clinic: string;
  provider: string | null;
  linkCode: string | null;
}

/** A campaign's message, subject and text for one patient in their language. */
export function campaignMessageFor(
  campaign: Pick<CampaignRow, 'messageEn' | 'messageEs' | 'subjectEn' | 'subjectEs' | 'instructionEn' | 'instructionEs'>,
  language: 'en' | 'es',
  values: MergeValues,
  config: Pick<Config, 'publicUrl'>,
) {
  const es = language === 'es';
  const fields = {
    firstName: values.firstName,
    clinic: values.clinic,
    provider: values.provider,
    instruction: (es ? campaign.instructionEs : campaign.instructionEn) ?? '',
    link: values.linkCode ? publicLink(config, `/l/${values.linkCode}`) : null,
  };
  const body = fillMergeFields(es ? campaign.messageEs : campaign.messageEn, fields);
  const subject = fillMergeFields((es ? campaign.subjectEs : campaign.subjectEn) ?? '', fields);
  return { body, subject, text: textWithStop(body, language) };
}

/** Approved campaigns due now in every clinic, each then sent in its own clinic's transaction. */
export async function runCampaignSends(root: Database, deps: CampaignSweepDeps, now = new Date()): Promise<CampaignSweepResult> {
  const due = await withSystemAccess(root, 'campaign-sweep', (tx) =>
    tx
      .select({ id: campaigns.id, instanceId: campaigns.instanceId })
      .from(campaigns)
      .where(
        and(
          eq(campaigns.status, 'approved'),
          isNull(campaigns.deletedAt),
          or(isNull(campaigns.scheduledAt), lte(campaigns.scheduledAt, now)),
        ),
      )
      .orderBy(asc(campaigns.approvedAt), asc(campaigns.id))
      .limit(SWEEP_LIMIT),
  );
  const result: CampaignSweepResult = { queued: 0, skipped: 0, finished: 0, waiting: 0 };
  for (const campaign of due) {
    const outcome = await withClinics(root, [campaign.instanceId], (tx) =>
      sendBatch(tx, deps, campaign.instanceId, campaign.id, now),
    );
    result.queued += outcome.queued;
    result.skipped += outcome.skipped;
    if (outcome.finished) result.finished += 1;
    if (outcome.waiting) result.waiting += 1;
  }
  return result;
}

async function sendBatch(tx: Database, deps: CampaignSweepDeps, instanceId: string, campaignId: string, now: Date) {
  const outcome = { queued: 0, skipped: 0, finished: false, waiting: false };
  // Locked: a second sweep running at the same time passes this campaign by.
  const [campaign] = await tx
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.instanceId, instanceId), eq(campaigns.id, campaignId)))
    .for('update', { skipLocked: true });
  if (!campaign || campaign.status !== 'approved' || campaign.deletedAt) return outcome;
  const settings = await readSettings(tx, instanceId);
  const daytime = nextDaytime(now, clinicTimeZoneFrom(settings)).getTime() === now.getTime();
  const channels = campaign.channels as CampaignChannel[];
  const textsOn = campaign.textSending && channels.includes('sms');
  if (!daytime) outcome.waiting = true;
  else {
    const clinic = await clinicDisplayName(tx, instanceId, settings);
    const batch = await tx
      .select({ recipient: campaignRecipients, firstName: patients.firstName })
      .from(campaignRecipients)
      .innerJoin(
        patients,
        and(eq(patients.instanceId, campaignRecipients.instanceId), eq(patients.id, campaignRecipients.patientId)),
      )
      .where(
        and(
          eq(campaignRecipients.instanceId, instanceId),
          eq(campaignRecipients.campaignId, campaignId),
          or(textsOn ? eq(campaignRecipients.smsStatus, 'pending') : sql`false`, eq(campaignRecipients.emailStatus, 'pending')),
        ),
      )
      .orderBy(asc(campaignRecipients.position))
      .limit(campaign.throttlePerMinute)
      .for('update', { of: campaignRecipients, skipLocked: true });
    // The daily cap counts and queues under a lock per patient; the whole batch in one order (no deadlock).
    await lockDailyCap(
      tx,
      instanceId,
      batch.map(({ recipient }) => recipient.patientId),
    );
    for (const { recipient, firstName } of batch) {
      const message = campaignMessageFor(
        campaign,
        recipient.language,
        { firstName, clinic, provider: recipient.providerName, linkCode: recipient.linkCode },
        deps.config,
      );
      const change: Partial<typeof campaignRecipients.$inferInsert> = {};
      // Optional messages are held past the patient's daily cap like the other automatic ones (decision 0066).
      const common = {
        instanceId,
        patientId: recipient.patientId,
        template: 'campaign',
        batchId: campaign.id,
        automatic: true,
      };
      if (textsOn && recipient.smsStatus === 'pending') {
        if (!recipient.phone) Object.assign(change, { smsStatus: 'skipped', smsSkipReason: 'noAddress' });
        else if (await isOptedOut(tx, instanceId, recipient.phone)) {
          Object.assign(change, { smsStatus: 'skipped', smsSkipReason: 'optedOut' });
        } else {
          const sent = await queueMessage(deps, tx, { ...common, channel: 'sms', to: recipient.phone, body: message.text });
          // A text the outbox kept back (texts turned off since approval, the patient's switch) says why.
          Object.assign(change, { smsStatus: 'queued', smsMessageId: sent.id, smsSkipReason: sent.suppressed });
        }
        if (change.smsStatus === 'skipped') outcome.skipped += 1;
      }
      if (recipient.emailStatus === 'pending') {
        if (!recipient.email) Object.assign(change, { emailStatus: 'skipped', emailSkipReason: 'noAddress' });
        else {
          const sent = await queueMessage(deps, tx, {
            ...common,
            channel: 'email',
            to: recipient.email,
            subject: message.subject,
            body: message.body,
          });
          Object.assign(change, { emailStatus: 'queued', emailMessageId: sent.id, emailSkipReason: sent.suppressed });
        }
      }
      if (change.smsStatus === 'queued' || change.emailStatus === 'queued') {
        change.queuedAt = recipient.queuedAt ?? now;
        outcome.queued += 1;
      }
      await tx.update(campaignRecipients).set(change).where(eq(campaignRecipients.id, recipient.id));
    }
    if (batch.length > 0 && !campaign.startedAt) {
      await tx.update(campaigns).set({ startedAt: now, updatedAt: now }).where(eq(campaigns.id, campaign.id));
    }
  }
  const [left] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(campaignRecipients)
    .where(
      and(
        eq(campaignRecipients.instanceId, instanceId),
        eq(campaignRecipients.campaignId, campaignId),
        or(eq(campaignRecipients.smsStatus, 'pending'), eq(campaignRecipients.emailStatus, 'pending')),
      ),
    );
  if (Number(left?.count ?? 0) === 0) {
    await finishCampaign(tx, deps, campaign, now);
    outcome.finished = true;
  }
  return outcome;
}

/**
 * Ends a campaign (the sweep when nobody is left, or a manager by hand): whoever is still waiting is
 * skipped as 'finished', and the clinic's `campaignEmails` get the funnel as it stands.
 */
export async function finishCampaign(db: Database, deps: CampaignSweepDeps, campaign: CampaignRow, now: Date): Promise<void> {
  const mine = and(eq(campaignRecipients.instanceId, campaign.instanceId), eq(campaignRecipients.campaignId, campaign.id));
  await db
    .update(campaignRecipients)
    .set({ smsStatus: 'skipped', smsSkipReason: 'finished' })
    .where(and(mine, eq(campaignRecipients.smsStatus, 'pending')));
  await db
    .update(campaignRecipients)
    .set({ emailStatus: 'skipped', emailSkipReason: 'finished' })
    .where(and(mine, eq(campaignRecipients.emailStatus, 'pending')));
  await db
    .update(campaigns)
    .set({ status: 'finished', finishedAt: now, updatedAt: now })
    .where(and(eq(campaigns.instanceId, campaign.instanceId), eq(campaigns.id, campaign.id)));
  const { campaignEmails } = await readTypedSettings(db, campaign.instanceId);
  if (campaignEmails.length > 0 && !campaign.summarySentAt) {
    const funnel = await campaignFunnel(db, campaign.instanceId, campaign.id);
    const summary = summaryEmail(campaign.name, funnel);
    for (const to of campaignEmails) {
      await queueMessage(deps, db, {
        instanceId: campaign.instanceId,
        channel: 'email',
        to,
        subject: summary.subject,
        body: summary.body,
        template: 'campaign-summary',
      });
    }
    await db
      .update(campaigns)
      .set({ summarySentAt: now })
      .where(and(eq(campaigns.instanceId, campaign.instanceId), eq(campaigns.id, campaign.id)));
  }
  await recordActivity(db, {
    instanceId: campaign.instanceId,
    actorUserId: null,
    actorEmail: null,
    area: 'Patient List',
    action: 'Updated',
    targetType: 'campaign',
    targetId: campaign.id,
    description: `Campaign "${campaign.name}" finished`,
    ip: null,
  });
}

/** The finished campaign's numbers, in English and Spanish (the list's readers may use either). */
function summaryEmail(name: string, funnel: CampaignFunnel) {
  const lines = (labels: Record<keyof CampaignFunnel, string>) =>
    (Object.keys(labels) as (keyof CampaignFunnel)[]).map((key) => `${labels[key]}: ${funnel[key]}`).join('\n');
  const en = lines({
    recipients: 'Recipients',
    sent: 'Sent',
    delivered: 'Delivered',
    failed: 'Failed',
    skipped: 'Not sent',
    pending: 'Still waiting',
    clicked: 'Clicked the link',
    replied: 'Replied',
    optedOut: 'Opted out',
    booked: 'Booked',
  });
  const es = lines({
    recipients: 'Destinatarios',
    sent: 'Enviados',
    delivered: 'Entregados',
    failed: 'Fallidos',
    skipped: 'No enviados',
    pending: 'En espera',
    clicked: 'Abrieron el enlace',
    replied: 'Respondieron',
    optedOut: 'Se dieron de baja',
    booked: 'Pidieron cita',
  });
  return {
    subject: `Campaign finished: ${name} / Campaña terminada: ${name}`,
    body: `The campaign "${name}" has finished.\n\n${en}\n\n---\n\nLa campaña "${name}" ha terminado.\n\n${es}\n`,
  };
}
