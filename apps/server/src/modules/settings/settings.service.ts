import { clinicTimeZoneOf } from '@pathwell/contracts/clinic-time';
import { eq } from 'drizzle-orm';
import { decodeSettings, defaultConfigurationTexts, type InstanceSettingsValues } from '@pathwell/contracts/instance-settings';
import type { Database } from '../../db/client';
import { instanceSettings } from '../../db/schema';

export type SettingsMap = Record<string, string>;

/** Only the rows a clinic has saved (secrets still encrypted); no defaults. */
export async function readStoredSettings(db: Database, instanceId: string): Promise<SettingsMap> {
  const rows = await db
    .select({ key: instanceSettings.configurationId, value: instanceSettings.configurationValue })
    .from(instanceSettings)
    .where(eq(instanceSettings.instanceId, instanceId));
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}

/**
 * Every setting as stored text, with the catalogue's defaults for keys the clinic never saved, so that
 * a raw read (`isOn`) and the typed one agree. Secrets stay encrypted here; see instance-settings.
 */
export async function readSettings(db: Database, instanceId: string): Promise<SettingsMap> {
  return { ...defaultConfigurationTexts, ...(await readStoredSettings(db, instanceId)) };
}

/** Every setting typed by the catalogue (packages/contracts/src/instance-settings.ts), secrets excluded. */
export async function readTypedSettings(db: Database, instanceId: string): Promise<InstanceSettingsValues> {
  return decodeSettings(await readStoredSettings(db, instanceId));
}

/** Booleans travel and are stored as the text "true" (specification section 3). */
export const isOn = (settings: SettingsMap, key: string) => settings[key] === 'true';

export function numberSetting(settings: SettingsMap, key: string): number | null {
  const raw = settings[key];
  if (raw === undefined || raw.trim() === '') return null;
  const value = Number(raw);
  return Number.isFinite(value) ? value : null;
}

/** The IANA zone the clinic's clock runs on (decision 0026): every "today", date filter and shown time. */
export function clinicTimeZoneFrom(settings: SettingsMap): string {
  return clinicTimeZoneOf(settings.timeZoneId, numberSetting(settings, 'timeZoneOffsetHours'));
}

export async function clinicTimeZone(db: Database, instanceId: string): Promise<string> {
  return clinicTimeZoneFrom(await readSettings(db, instanceId));
}
