import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { CampaignWaiting } from '@pathwell/contracts/campaigns';
import type { AudienceRule, CampaignChannel } from '@pathwell/contracts/outreach';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import type { campaigns } from '../../db/schema';
import { nextDaytime } from '../outbox/outbox.service';
import { clinicTimeZoneFrom, isOn, type SettingsMap } from '../settings/settings.service';
import { rowsOf } from '../../lib/sql-rows';

/*
 * What a campaign's approver reviews and what stops them (issue #24 §3, decision 0064): the content digest
 * approval is bound to, the rule that nobody who wrote or changed the content approves it, the channels
 * the clinic has turned off, and why an approved campaign is not sending yet.
 */

type CampaignRow = typeof campaigns.$inferSelect;

/**
 * A digest of everything that decides what goes out and to whom: name, template and its rule, channels,
 * both messages, subjects and instructions, the link, the schedule, the pace and the attribution window.
 * Fields are listed in a fixed order so the same content always gives the same digest.
 */
export function campaignContentHash(row: CampaignRow, rule: AudienceRule | null): string {
  const content = [
    row.name,
    row.templateId,
    rule,
    [...row.channels].sort(),
    row.messageEn,
    row.messageEs,
    row.subjectEn,
    row.subjectEs,
    row.instructionEn,
    row.instructionEs,
    row.linkUrl,
    row.scheduledAt ? row.scheduledAt.toISOString() : null,
    row.throttlePerMinute,
    row.attributionDays,
  ];
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

interface TemplateRuleRow {
  rule: AudienceRule;
}

/** The template's rule as it stands (what approval would freeze), or null when the template is gone. */
export async function currentRuleOf(db: Database, row: CampaignRow): Promise<AudienceRule | null> {
  if (!row.templateId) return null;
  const [template] = await rowsOf<TemplateRuleRow>(
    db,
    sql`select rule from audience_templates where instance_id = ${row.instanceId} and id = ${row.templateId}`,
  );
  return template?.rule ?? null;
}

/** The chosen channels the clinic has turned off (its email and text switches). */
export function channelsOffIn(settings: SettingsMap, channels: readonly CampaignChannel[]): CampaignChannel[] {
  return [...new Set(channels)].filter((channel) => !isOn(settings, channel === 'sms' ? 'enableSms' : 'enableEmail'));
}

/** Everyone who wrote or changed the campaign's content (the author counts even on rows from before 0064). */
export const editorsOf = (row: Pick<CampaignRow, 'createdBy' | 'editorIds'>) =>
  new Set([row.createdBy, ...row.editorIds].filter((id): id is string => id !== null));

/**
 * Why this user may not approve now: the campaign is past draft; they wrote or changed its content (never
 * approved by one of its own editors, even in a clinic with a single admin: decision 0064 replaces 0051's
 * exception); or a channel it uses is turned off in the clinic.
 */
export function approveBlockedReason(
  ctx: SignedInContext,
  row: CampaignRow,
  settings: SettingsMap,
): 'author' | 'status' | 'channelOff' | null {
  if (row.status !== 'draft') return 'status';
  if (editorsOf(row).has(ctx.actor.userId)) return 'author';
  if (channelsOffIn(settings, row.channels as CampaignChannel[]).length > 0) return 'channelOff';
  return null;
}

/**
 * An approved campaign that cannot send now says why: its scheduled time is still ahead, or the clinic is
 * outside its sending hours (texts and campaign emails both wait for 8:00–21:00 clinic time).
 */
export function waitingOf(
  row: Pick<CampaignRow, 'status' | 'scheduledAt'>,
  settings: SettingsMap,
  now = new Date(),
): CampaignWaiting {
  if (row.status !== 'approved') return null;
  const timeZone = clinicTimeZoneFrom(settings);
  if (row.scheduledAt && row.scheduledAt.getTime() > now.getTime()) {
    return { reason: 'scheduled', until: nextDaytime(row.scheduledAt, timeZone).toISOString() };
  }
  const opens = nextDaytime(now, timeZone);
  return opens.getTime() > now.getTime() ? { reason: 'sendingHours', until: opens.toISOString() } : null;
}
