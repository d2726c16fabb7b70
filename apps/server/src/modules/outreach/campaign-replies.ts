import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { campaignRecipients } from '../../db/schema';
import type { InboundClaim, InboundText } from '../patient-contact/inbound-texts.service';
import { rowsOf } from '../../lib/sql-rows';
import { pgArray } from './campaign-responses';

/** The campaign recipient an inbound text answers. */
interface RepliedRecipientRow {
  id: string;
  campaign_id: string;
  patient_id: string;
}

/**
 * A text a patient sent, as a campaign hears it (decision 0051, subscribed in app.ts through
 * patient-contact's `onInboundText`, decision 0069): it answers the campaign recipient whose campaign
 * last queued a text to that number within the campaign's attribution window. A STOP also marks that
 * recipient opted out and skips every still-pending text to the patient in running campaigns.
 */
export async function recordCampaignReply(db: Database, text: InboundText): Promise<InboundClaim | null> {
  const { instanceId, phone, keyword, receivedAt: now } = text;
  const [recipient] = await rowsOf<RepliedRecipientRow>(
    db,
    sql`
    select r.id, r.campaign_id, r.patient_id
      from campaign_recipients r
      join campaigns c on c.instance_id = r.instance_id and c.id = r.campaign_id
     where r.instance_id = ${instanceId} and r.phone = ${phone} and r.sms_status = 'queued'
       and c.deleted_at is null
       and r.queued_at <= ${now.toISOString()}::timestamptz
       and r.queued_at >= ${now.toISOString()}::timestamptz - make_interval(days => c.attribution_days)
     order by r.queued_at desc, r.id
     limit 1`,
  );
  if (recipient) {
    await db
      .update(campaignRecipients)
      .set(
        keyword?.kind === 'stop'
          ? { optedOutAt: sql`coalesce(${campaignRecipients.optedOutAt}, ${now.toISOString()}::timestamptz)` }
          : { repliedAt: sql`coalesce(${campaignRecipients.repliedAt}, ${now.toISOString()}::timestamptz)` },
      )
      .where(and(eq(campaignRecipients.instanceId, instanceId), eq(campaignRecipients.id, recipient.id)));
  }
  if (keyword?.kind === 'stop') {
    // Texts not yet sent to this number or these patients in running campaigns are never sent.
    await db.execute(sql`
      update campaign_recipients r
         set sms_status = 'skipped', sms_skip_reason = 'optedOut'
        from campaigns c
       where c.instance_id = r.instance_id and c.id = r.campaign_id and c.status = 'approved'
         and r.instance_id = ${instanceId} and r.sms_status = 'pending'
         and (r.phone = ${phone} or r.patient_id = any(${pgArray(text.keywordPatientIds)}::uuid[]))`);
  }
  if (!recipient) return null;
  return {
    patientId: recipient.patient_id,
    campaignId: recipient.campaign_id,
    campaignRecipientId: recipient.id,
  };
}
