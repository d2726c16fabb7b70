import { and, eq, sql } from 'drizzle-orm';
import { PatientPhoneType } from '@pathwell/contracts/patients';
import type { Database } from '../../db/client';
import { patientPhoneNumbers, smsOptOuts } from '../../db/schema';
import { isOptedOut } from '../outbox/outbox.service';
import { isOn, type SettingsMap } from '../settings/settings.service';

/*
 * How to reach a patient (issue #25 §1, decision 0069): the number texts go to, the channels a message
 * may use, and whether the patient stopped texts. The outbox itself refuses a text to a stopped number
 * when it queues and when it sends (`isOptedOut`); these answer the question before a message is made.
 */

/** The patient's mobile number, the one texts go to; null without one. */
export async function mobileOf(db: Database, instanceId: string, patientId: string): Promise<string | null> {
  const [phone] = await db
    .select({ number: patientPhoneNumbers.number })
    .from(patientPhoneNumbers)
    .where(
      and(
        eq(patientPhoneNumbers.instanceId, instanceId),
        eq(patientPhoneNumbers.patientId, patientId),
        eq(patientPhoneNumbers.phoneType, PatientPhoneType.MOBILE),
      ),
    )
    .limit(1);
  return phone?.number ?? null;
}

/** The channels a patient message can go out on: the clinic's and the patient's choices, and no opted-out number. */
export async function reachableChannels(
  db: Database,
  settings: SettingsMap,
  instanceId: string,
  person: { email: string | null; enableEmail: boolean; enableText: boolean } | undefined,
  mobile: string | null,
  wanted: readonly ('email' | 'sms')[],
) {
  const channels: ('email' | 'sms')[] = [];
  if (wanted.includes('email') && isOn(settings, 'enableEmail') && person?.email && person.enableEmail) channels.push('email');
  let optedOut = false;
  if (wanted.includes('sms') && isOn(settings, 'enableSms') && mobile && person?.enableText) {
    optedOut = await isOptedOut(db, instanceId, mobile);
    if (!optedOut) channels.push('sms');
  }
  return { channels, optedOut };
}

/** The patient's mobile number answered STOP (carrier rules: texts stay off until START, whatever the opt-in page says). */
export async function mobileTextStopped(db: Database, instanceId: string, patientId: string): Promise<boolean> {
  const [row] = await db
    .select({ optedOut: smsOptOuts.optedOut })
    .from(patientPhoneNumbers)
    .innerJoin(
      smsOptOuts,
      and(
        eq(smsOptOuts.instanceId, patientPhoneNumbers.instanceId),
        eq(smsOptOuts.phone, sql`'+1' || ${patientPhoneNumbers.digits}`),
      ),
    )
    .where(
      and(
        eq(patientPhoneNumbers.instanceId, instanceId),
        eq(patientPhoneNumbers.patientId, patientId),
        eq(patientPhoneNumbers.phoneType, PatientPhoneType.MOBILE),
        eq(smsOptOuts.optedOut, true),
      ),
    )
    .limit(1);
  return row?.optedOut ?? false;
}
