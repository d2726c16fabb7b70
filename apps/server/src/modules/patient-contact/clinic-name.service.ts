import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { instances } from '../../db/schema';
import { readSettings, type SettingsMap } from '../settings/settings.service';

/**
 * The clinic's name as its patients and staff read it (issue #25 §1, decision 0069): the display name a
 * clinic sets (`clinicName` in its settings) when it has one, else the instance's own name. Every
 * message, PDF, SMS reply and screen that names the clinic asks here, so a clinic that renames itself
 * is named the same way everywhere. "Pathwell" only when even the instance is gone.
 */
export function clinicDisplayNameFrom(settings: SettingsMap, instanceName: string | null | undefined): string {
  return settings.clinicName?.trim() || instanceName?.trim() || 'Pathwell';
}

export async function clinicDisplayName(db: Database, instanceId: string, settings?: SettingsMap): Promise<string> {
  const read = settings ?? (await readSettings(db, instanceId));
  if (read.clinicName?.trim()) return clinicDisplayNameFrom(read, null);
  const [row] = await db.select({ name: instances.name }).from(instances).where(eq(instances.id, instanceId));
  return clinicDisplayNameFrom(read, row?.name);
}
