import { eq } from 'drizzle-orm';
import { sql, type SQL } from 'drizzle-orm';
import type { CampaignFunnel, CampaignResponse, CampaignResponseKind } from '@pathwell/contracts/campaigns';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { campaignRecipients } from '../../db/schema';
import { withClinics, withSystemAccess } from '../../db/tenancy';
import { rowsOf } from '../../lib/sql-rows';
import { openInbound } from '../patient-contact/inbound-texts.service';
import { stopWords } from '../patient-contact/sms-keywords.service';

/*
 * Campaign responses (issue #15 §3, decision 0051): inbound texts matched to the campaign that last
 * texted the number (campaign-replies.ts), short-link clicks, and "booked" — a new appointment made within the campaign's
 * attribution window after the patient was sent the campaign. Booked is computed when read.
 */

/** An array parameter as PostgreSQL's literal (ids and stop words only: no quoting needed). */
export const pgArray = (values: readonly string[]) => `{${values.join(',')}}`;

// ---------------------------------------------------------------------------------------------------
// Short links

/** A short link's code as it is made (12 url-safe characters); anything else is unknown. */
const LINK_CODE = /^[A-Za-z0-9_-]{8,64}$/;

/** The campaign link a counted click leads to. */
interface ClickedLinkRow {
  link_url: string;
}

/**
 * A click on a campaign's short link (`/l/{code}`): the code is found across clinics (it names no
 * clinic), then the click is counted in that clinic's rows only. Answers where to send the browser, or
 * null for an unknown code.
 */
export async function recordClick(root: Database, code: string, now = new Date()): Promise<string | null> {
  if (!LINK_CODE.test(code)) return null;
  const [found] = await withSystemAccess(root, 'campaign-short-link', (tx) =>
    tx
      .select({ id: campaignRecipients.id, instanceId: campaignRecipients.instanceId })
      .from(campaignRecipients)
      .where(eq(campaignRecipients.linkCode, code))
      .limit(1),
  );
  if (!found) return null;
  return withClinics(root, [found.instanceId], async (tx) => {
    const [row] = await rowsOf<ClickedLinkRow>(
      tx,
      sql`
      update campaign_recipients r
         set click_count = r.click_count + 1, clicked_at = coalesce(r.clicked_at, ${now.toISOString()}::timestamptz)
        from campaigns c
       where c.instance_id = r.instance_id and c.id = r.campaign_id and c.deleted_at is null and c.link_url is not null
         and r.instance_id = ${found.instanceId} and r.id = ${found.id}
      returning c.link_url`,
    );
    return row ? row.link_url : null;
  });
}

// ---------------------------------------------------------------------------------------------------
// Funnel and responses

/** The recipient's appointments that count as booked: made after the campaign reached them, within its window. */
const bookedAppointments = (r: SQL, c: SQL) => sql`
  from appointments a
 where a.instance_id = ${r}.instance_id and a.patient_id = ${r}.patient_id and a.deleted_at is null
   and ${r}.queued_at is not null
   and a.created_at > ${r}.queued_at
   and a.created_at <= ${r}.queued_at + make_interval(days => ${c}.attribution_days)`;

const reached = (message: string) => sql.raw(`${message}.status in ('sent', 'delivered', 'undelivered')`);

/**
 * A lateral subquery with the funnel of campaign `c` (counted in patients, not messages): sent — a
 * message reached the provider (sent, delivered or undelivered); delivered; failed (failed or
 * undelivered); skipped — reached on no channel; pending — still waiting on a channel; clicked, replied,
 * opted out; booked. `ofPatients` (over the patient row `dp`) narrows it: a Doctor's counts the patients
 * they treat only.
 */
export function funnelLateral(ofPatients: SQL | undefined): SQL {
  const r = sql.raw('r');
  const c = sql.raw('c');
  return sql`
    select count(*)::int as recipients,
           count(*) filter (where ${reached('sm')} or ${reached('em')})::int as sent,
           count(*) filter (where sm.status = 'delivered' or em.status = 'delivered')::int as delivered,
           count(*) filter (where sm.status in ('failed', 'undelivered') or em.status in ('failed', 'undelivered'))::int as failed,
           count(*) filter (where r.sms_status <> 'pending' and r.email_status <> 'pending'
                              and not (r.sms_status = 'queued' and coalesce(sm.status, '') <> 'suppressed')
                              and not (r.email_status = 'queued' and coalesce(em.status, '') <> 'suppressed'))::int as skipped,
           count(*) filter (where r.sms_status = 'pending' or r.email_status = 'pending')::int as pending,
           count(r.clicked_at)::int as clicked,
           count(r.replied_at)::int as replied,
           count(r.opted_out_at)::int as opted_out,
           count(*) filter (where exists (select 1 ${bookedAppointments(r, c)}))::int as booked
      from campaign_recipients r
      left join outbox_messages sm on sm.instance_id = r.instance_id and sm.id = r.sms_message_id
      left join outbox_messages em on em.instance_id = r.instance_id and em.id = r.email_message_id
      ${ofPatients ? sql`join patients dp on dp.instance_id = r.instance_id and dp.id = r.patient_id and ${ofPatients}` : sql``}
     where r.instance_id = c.instance_id and r.campaign_id = c.id`;
}

/** The columns of `funnelLateral`. */
export interface FunnelRow {
  recipients: number;
  sent: number;
  delivered: number;
  failed: number;
  skipped: number;
  pending: number;
  clicked: number;
  replied: number;
  opted_out: number;
  booked: number;
}

/** A funnel as the API answers it; a campaign not found (no row) counts nothing. */
export function funnelOf(row: Partial<FunnelRow>): CampaignFunnel {
  return {
    recipients: row.recipients ?? 0,
    sent: row.sent ?? 0,
    delivered: row.delivered ?? 0,
    failed: row.failed ?? 0,
    skipped: row.skipped ?? 0,
    pending: row.pending ?? 0,
    clicked: row.clicked ?? 0,
    replied: row.replied ?? 0,
    optedOut: row.opted_out ?? 0,
    booked: row.booked ?? 0,
  };
}

/** The funnel of one campaign now (the summary email at the end). */
export async function campaignFunnel(db: Database, instanceId: string, campaignId: string): Promise<CampaignFunnel> {
  const [row] = await rowsOf<FunnelRow>(
    db,
    sql`select f.* from campaigns c, lateral (${funnelLateral(undefined)}) f where c.instance_id = ${instanceId} and c.id = ${campaignId}`,
  );
  return funnelOf(row ?? {});
}

/** The first booked appointment of recipient `r` (for the recipient list). */
export const bookedAtOf = (r: SQL, c: SQL) => sql`(select min(a.created_at) ${bookedAppointments(r, c)})`;

interface ResponseCountRow {
  count: number;
}

/** One response: `inbound_id` and `body` are set for replies and opt-outs, `detail` (the visit day) for bookings. */
interface ResponseRow {
  kind: CampaignResponseKind;
  at: string;
  patient_id: string;
  inbound_id: string | null;
  body: string | null;
  detail: string | null;
  first_name: string;
  last_name: string;
}

/**
 * A campaign's responses, newest first, one statement: replies and opt-outs (the inbound texts matched
 * to it, decrypted here), clicks (first click of each recipient) and bookings (each appointment made in
 * the window).
 */
export async function campaignResponses(
  db: Database,
  config: Pick<Config, 'appSecret'>,
  instanceId: string,
  campaignId: string,
  timeZone: string,
  query: { kind?: CampaignResponseKind; pageNumber: number; pageSize: number },
): Promise<{ totalRecords: number; data: CampaignResponse[] }> {
  const r = sql.raw('r');
  const c = sql.raw('c');
  const stops = sql`${pgArray(stopWords)}::text[]`;
  const parts: Record<CampaignResponseKind, SQL> = {
    reply: sql`select 'reply' as kind, t.received_at as at, t.patient_id, t.id as inbound_id, t.body, null::text as detail
                 from inbound_texts t
                where t.instance_id = ${instanceId} and t.campaign_id = ${campaignId}
                  and (t.keyword is null or not (t.keyword = any(${stops})))`,
    optOut: sql`select 'optOut', t.received_at, t.patient_id, t.id, t.body, null::text
                  from inbound_texts t
                 where t.instance_id = ${instanceId} and t.campaign_id = ${campaignId} and t.keyword = any(${stops})`,
    click: sql`select 'click', r.clicked_at, r.patient_id, null::uuid, null::text, null::text
                 from campaign_recipients r
                where r.instance_id = ${instanceId} and r.campaign_id = ${campaignId} and r.clicked_at is not null`,
    booked: sql`select 'booked', a.created_at, r.patient_id, null::uuid, null::text,
                       to_char(a.starts_at at time zone ${timeZone}, 'YYYY-MM-DD')
                  from campaign_recipients r
                  join campaigns c on c.instance_id = r.instance_id and c.id = r.campaign_id
                  join lateral (select a.created_at, a.starts_at ${bookedAppointments(r, c)}) a on true
                 where r.instance_id = ${instanceId} and r.campaign_id = ${campaignId}`,
  };
  const kinds = query.kind ? [query.kind] : (Object.keys(parts) as CampaignResponseKind[]);
  const union = sql.join(
    kinds.map((kind) => parts[kind]),
    sql` union all `,
  );
  const [total] = await rowsOf<ResponseCountRow>(db, sql`select count(*)::int as count from (${union}) x`);
  const rows = await rowsOf<ResponseRow>(
    db,
    sql`
    select x.kind, x.at, x.patient_id, x.inbound_id, x.body, x.detail, p.first_name, p.last_name
      from (${union}) x
      join patients p on p.instance_id = ${instanceId} and p.id = x.patient_id
     order by x.at desc, x.kind, x.patient_id
     limit ${query.pageSize} offset ${query.pageNumber * query.pageSize}`,
  );
  return {
    totalRecords: total?.count ?? 0,
    data: rows.map((row) => ({
      kind: row.kind,
      at: new Date(row.at).toISOString(),
      patientId: row.patient_id,
      patientName: `${row.first_name} ${row.last_name}`.trim(),
      detail:
        row.body !== null && row.inbound_id !== null
          ? openInbound(config, { id: row.inbound_id, instanceId, body: row.body })
          : row.detail,
    })),
  };
}
