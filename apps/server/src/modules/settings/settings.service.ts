import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { instanceSettings } from '../../db/schema';

export type SettingsMap = Record<string, string>;

export async function readSettings(db: Database, instanceId: string): Promise<SettingsMap> {
  const rows = await db
    .select({ key: instanceSettings.configurationId, value: instanceSettings.configurationValue })
    .from(instanceSettings)
    .where(eq(instanceSettings.instanceId, instanceId));
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}

/** Booleans travel and are stored as the text "true" (specification section 3). */
export const isOn = (settings: SettingsMap, key: string) => settings[key] === 'true';

export function numberSetting(settings: SettingsMap, key: string): number | null {
  const raw = settings[key];
  if (raw === undefined || raw.trim() === '') return null;
  const value = Number(raw);
  return Number.isFinite(value) ? value : null;
}
