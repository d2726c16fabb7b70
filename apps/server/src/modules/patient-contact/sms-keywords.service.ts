import { and, eq, isNull } from 'drizzle-orm';
import { phoneDigits } from '@pathwell/contracts/patients';
import type { Database } from '../../db/client';
import { patientPhoneNumbers, patients, smsOptOuts } from '../../db/schema';
import type { SettingsMap } from '../settings/settings.service';

/**
 * Opt-out keywords. English ones are Twilio's standard opt-out, opt-in and help keywords
 * (https://help.twilio.com/articles/223134027); PARAR and ALTO (stop) and AYUDA (help) are the Spanish
 * ones issue #11 names. Carriers match the whole message, trimmed and in any case.
 */
const keywords = {
  stop: { en: ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE'], es: ['PARAR', 'ALTO'] },
  start: { en: ['START', 'YES', 'UNSTOP'], es: [] as string[] },
  help: { en: ['HELP', 'INFO'], es: ['AYUDA'] },
} as const;

/** Every word that stops texts (campaign replies tell opt-outs from answers by it). */
export const stopWords: readonly string[] = [...keywords.stop.en, ...keywords.stop.es];

export interface SmsKeyword {
  kind: 'stop' | 'start' | 'help';
  language: 'en' | 'es';
  word: string;
}

export function smsKeywordOf(text: string): SmsKeyword | null {
  const word = text
    .trim()
    .toUpperCase()
    .replace(/[.!¡]+$/u, '');
  for (const kind of ['stop', 'start', 'help'] as const) {
    for (const language of ['en', 'es'] as const) {
      if ((keywords[kind][language] as readonly string[]).includes(word)) return { kind, language, word };
    }
  }
  return null;
}

/** Records the opt-out or opt-in for the clinic and number; answers the patients who have that number. */
export async function recordSmsKeyword(db: Database, instanceId: string, phone: string, keyword: SmsKeyword): Promise<string[]> {
  const optedOut = keyword.kind === 'stop';
  await db
    .insert(smsOptOuts)
    .values({ instanceId, phone, optedOut, keyword: keyword.word })
    .onConflictDoUpdate({
      target: [smsOptOuts.instanceId, smsOptOuts.phone],
      set: { optedOut, keyword: keyword.word, updatedAt: new Date() },
    });
  const rows = await db
    .selectDistinct({ patientId: patientPhoneNumbers.patientId })
    .from(patientPhoneNumbers)
    .innerJoin(
      patients,
      and(eq(patients.instanceId, patientPhoneNumbers.instanceId), eq(patients.id, patientPhoneNumbers.patientId)),
    )
    .where(
      and(
        eq(patientPhoneNumbers.instanceId, instanceId),
        eq(patientPhoneNumbers.digits, phoneDigits(phone)),
        isNull(patients.deletedAt),
      ),
    );
  return rows.map((row) => row.patientId);
}

const clinicPhone = (settings: SettingsMap) => settings.clinicPhoneNumber?.trim() || '';

/** `clinic` is the clinic's display name (patient-contact/clinic-name). */
export function helpReply(language: 'en' | 'es', settings: SettingsMap, clinic: string): string {
  const phone = clinicPhone(settings);
  return language === 'es'
    ? `${clinic}: mensajes sobre sus citas y formularios.${phone ? ` Llame al ${phone}.` : ''} Responda PARAR para no recibir más mensajes.`
    : `${clinic}: messages about your appointments and forms.${phone ? ` Call ${phone}.` : ''} Reply STOP to opt out.`;
}

/**
 * Twilio answers the English STOP and START itself (its standard confirmation); the Spanish words it
 * does not know, so those are confirmed here.
 */
export function keywordReply(keyword: SmsKeyword, clinic: string): string | null {
  if (keyword.language === 'en') return null;
  return keyword.kind === 'stop'
    ? `${clinic}: no recibirá más mensajes de texto. Responda START para volver a recibirlos.`
    : null;
}
