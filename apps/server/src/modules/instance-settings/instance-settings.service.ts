import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  configurationKeys,
  decodeSettings,
  defaultConfigurationTexts,
  extendedPatientQuestionKeys,
  formIdsSchema,
  instanceSettingsFormSchema,
  isSecretKey,
  parseSettingText,
  secretKeys,
  serializeSetting,
  settingDefinitions,
  settingFieldErrors,
  settingFlagReads,
  type DailyCap,
  type FormId,
  type InstanceSettingsUpdate,
  type InstanceSettingsView,
  type SettingFlagRead,
  type ValueKey,
} from '@pathwell/contracts/instance-settings';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { customForms, instances, instanceSettings } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { idleMinutesFrom } from '../../plugins/auth';
import { clinicTimeZoneFrom, readSettings, readStoredSettings, readTypedSettings, isOn } from '../settings/settings.service';
import { formsWithoutWording } from '../form-responses/wording-availability.service';
import { zoneOffsetMinutes } from '@pathwell/contracts/clinic-time';
import { listFiles, primaryLogoUrl } from './instance-files.service';
import { decryptSetting, encryptSetting } from '../../lib/settings-crypto';

export async function fetchSettings(ctx: SignedInContext): Promise<InstanceSettingsView> {
  const stored = await readStoredSettings(ctx.db, ctx.instanceId);
  return {
    values: decodeSettings(stored),
    secrets: Object.fromEntries(
      secretKeys.map((key) => [key, { isSet: Boolean(stored[key]) }]),
    ) as InstanceSettingsView['secrets'],
    files: await listFiles(ctx.db, ctx.instanceId),
  };
}

/** The wire format read back; secrets are write-only, so their slot is always "". */
export async function fetchConfigurationValues(ctx: SignedInContext) {
  const stored = await readStoredSettings(ctx.db, ctx.instanceId);
  const values = decodeSettings(stored) as Record<string, unknown>;
  return {
    configurationIds: [...configurationKeys],
    configurationValues: configurationKeys.map((key) =>
      isSecretKey(key) ? '' : serializeSetting(settingDefinitions.get(key)!, values[key]),
    ),
  };
}

function decryptOrNull(ctx: SignedInContext, key: string, stored: string): string | null {
  try {
    return decryptSetting(ctx.config.appSecret, ctx.instanceId, key, stored);
  } catch {
    return null;
  }
}

/** Settings that name a clinic's own custom forms. */
const formSettingKeys = ['defaultRandForm', 'applicableForms'] as const;

/**
 * A custom form id in a setting must be one of this clinic's forms: another clinic's id is invalid
 * input, a 400 naming the setting (issue #9: Lakeside stored Riverside's form).
 */
async function checkFormIds(ctx: SignedInContext, db: Database, update: InstanceSettingsUpdate) {
  // An outcome form the clinic cannot give (decision 0061) is not a default or applicable form either.
  for (const key of formSettingKeys) {
    const value: unknown = update[key];
    const codes = (Array.isArray(value) ? value : [value]).filter((code): code is number => typeof code === 'number');
    if ((await formsWithoutWording(db, ctx.instanceId, codes)).length > 0) {
      throw new AppError('VALIDATION', 'formWordingNotLoaded', { fields: { [key]: 'formWordingNotLoaded' } });
    }
  }
  const named = formSettingKeys.map((key) => {
    const value: unknown = update[key];
    const ids = (Array.isArray(value) ? value : [value]).filter((id): id is string => typeof id === 'string');
    return { key, ids };
  });
  const wanted = [...new Set(named.flatMap((entry) => entry.ids.map((id) => id.toLowerCase())))];
  if (wanted.length === 0) return;
  const own = await db
    .select({ id: customForms.id })
    .from(customForms)
    .where(and(eq(customForms.instanceId, ctx.instanceId), inArray(customForms.id, wanted)));
  const ownIds = new Set(own.map((form) => form.id));
  const fields: Record<string, 'formUnknown'> = {};
  for (const { key, ids } of named) if (ids.some((id) => !ownIds.has(id.toLowerCase()))) fields[key] = 'formUnknown';
  if (Object.keys(fields).length > 0) throw new AppError('VALIDATION', 'formUnknown', { fields });
}

/**
 * Writes the keys of `update` that differ from what is stored, in one transaction with one activity
 * entry naming the changed keys (never a secret's value). A secret that is absent or blank is kept,
 * null clears it, text replaces it.
 */
async function applyUpdate(ctx: SignedInContext, update: InstanceSettingsUpdate): Promise<string[]> {
  return ctx.db.transaction(async (tx) => {
    // One save at a time per clinic, so that two administrators' saves do not interleave.
    await tx.select({ id: instances.id }).from(instances).where(eq(instances.id, ctx.instanceId)).for('update');
    await checkFormIds(ctx, tx, update);
    const stored = await readStoredSettings(tx, ctx.instanceId);
    const upserts: { configurationId: string; configurationValue: string }[] = [];
    const cleared: string[] = [];
    const changed: string[] = [];

    for (const [key, value] of Object.entries(update)) {
      const def = settingDefinitions.get(key);
      if (!def || def.type === 'file' || value === undefined) continue;
      if (def.type === 'secret') {
        if (value === '') continue;
        if (value === null) {
          if (stored[key] !== undefined) cleared.push(key);
          continue;
        }
        const text = String(value);
        if (stored[key] !== undefined && decryptOrNull(ctx, key, stored[key]) === text) continue;
        upserts.push({
          configurationId: key,
          configurationValue: encryptSetting(ctx.config.appSecret, ctx.instanceId, key, text),
        });
        continue;
      }
      const text = serializeSetting(def, value);
      if (text === (stored[key] ?? defaultConfigurationTexts[key as ValueKey])) continue;
      upserts.push({ configurationId: key, configurationValue: text });
    }
    changed.push(...upserts.map((row) => row.configurationId), ...cleared);
    if (changed.length === 0) return changed;

    if (upserts.length > 0) {
      await tx
        .insert(instanceSettings)
        .values(upserts.map((row) => ({ instanceId: ctx.instanceId, ...row })))
        .onConflictDoUpdate({
          target: [instanceSettings.instanceId, instanceSettings.configurationId],
          set: { configurationValue: sql`excluded.configuration_value`, updatedAt: sql`now()` },
        });
    }
    const renamed = upserts.find((row) => row.configurationId === 'clinicName')?.configurationValue.trim();
    // The clinic's name lives on the instance too (selector, instances page): both must say the same.
    if (renamed) await tx.update(instances).set({ name: renamed }).where(eq(instances.id, ctx.instanceId));
    if (cleared.length > 0) {
      await tx
        .delete(instanceSettings)
        .where(and(eq(instanceSettings.instanceId, ctx.instanceId), inArray(instanceSettings.configurationId, cleared)));
    }
    const order = new Map(configurationKeys.map((key, index) => [key as string, index]));
    changed.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    await recordActivity(
      tx,
      staffActivity(ctx, 'Admin Configuration', 'Updated', {
        type: 'InstanceSettings',
        id: ctx.instanceId,
        description: `Instance settings updated: ${changed.join(', ')}`,
      }),
    );
    return changed;
  });
}

/** `PUT /api/instancesettings`: the typed format (already validated by the route's schema). */
export async function saveSettings(ctx: SignedInContext, update: InstanceSettingsUpdate): Promise<InstanceSettingsView> {
  await applyUpdate(ctx, update);
  return fetchSettings(ctx);
}

/**
 * `POST /api/instancesettings/addorupdate`: the specification's `configurationValues`, one string per
 * key of the catalogue in order. The texts are typed and validated exactly like the typed format, and
 * errors name the setting key rather than a list position.
 */
export async function saveConfigurationValues(ctx: SignedInContext, texts: string[]): Promise<InstanceSettingsView> {
  if (texts.length !== configurationKeys.length) {
    throw new AppError('VALIDATION', 'configurationValuesCount', {
      params: { count: configurationKeys.length },
      fields: { configurationValues: 'invalid' },
    });
  }
  const candidate: Record<string, unknown> = {};
  configurationKeys.forEach((key, index) => {
    const text = texts[index] ?? '';
    const def = settingDefinitions.get(key)!;
    candidate[key] = def.type === 'secret' ? (text === '' ? undefined : text) : parseSettingText(def, text);
  });
  const parsed = instanceSettingsFormSchema.safeParse(candidate);
  if (!parsed.success) {
    const fields = settingFieldErrors(parsed.error);
    throw new AppError('VALIDATION', 'settingInvalid', { params: { setting: Object.keys(fields)[0] ?? '' }, fields });
  }
  return saveSettings(ctx, parsed.data);
}

/** Applicable forms on their own (section 7): the list replaces the stored one. */
export async function saveApplicableForms(ctx: SignedInContext, formIds: unknown[]): Promise<{ applicableForms: FormId[] }> {
  const parsed = formIdsSchema.safeParse(formIds);
  if (!parsed.success) throw new AppError('VALIDATION', 'formIdsInvalid', { fields: { applicableForms: 'formIdsInvalid' } });
  await applyUpdate(ctx, { applicableForms: parsed.data });
  return { applicableForms: (await readTypedSettings(ctx.db, ctx.instanceId)).applicableForms };
}

/** The daily cap of automatic messages per patient (decision 0066): Admins set it without the whole settings page. */
export async function readDailyCap(ctx: SignedInContext): Promise<DailyCap> {
  return { maxPatientMessagesPerDay: (await readTypedSettings(ctx.db, ctx.instanceId)).maxPatientMessagesPerDay };
}

export async function saveDailyCap(ctx: SignedInContext, input: DailyCap): Promise<DailyCap> {
  await applyUpdate(ctx, { maxPatientMessagesPerDay: input.maxPatientMessagesPerDay });
  return readDailyCap(ctx);
}

export async function readApplicableForms(ctx: SignedInContext): Promise<{ applicableForms: FormId[] }> {
  return { applicableForms: (await readTypedSettings(ctx.db, ctx.instanceId)).applicableForms };
}

export async function readFlag(ctx: SignedInContext, flag: SettingFlagRead) {
  const key = settingFlagReads[flag];
  return { flag, key, enabled: isOn(await readSettings(ctx.db, ctx.instanceId), key) };
}

export async function readExtendedPatientQuestions(ctx: SignedInContext) {
  const settings = await readSettings(ctx.db, ctx.instanceId);
  const questions = Object.fromEntries(extendedPatientQuestionKeys.map((key) => [key, isOn(settings, key)])) as Record<
    (typeof extendedPatientQuestionKeys)[number],
    boolean
  >;
  return {
    enabled: Object.values(questions).some(Boolean),
    extendedPatientAskSexualOrientation: questions.extendedPatientAskSexualOrientation ?? false,
    extendedPatientAskAssignedSexAtBirth: questions.extendedPatientAskAssignedSexAtBirth ?? false,
    extendedPatientAskPreferredPronouns: questions.extendedPatientAskPreferredPronouns ?? false,
    extendedPatientAskCommunicationPreferences: questions.extendedPatientAskCommunicationPreferences ?? false,
  };
}

export async function readTimeZoneOffset(ctx: SignedInContext) {
  const settings = await readSettings(ctx.db, ctx.instanceId);
  const timeZone = clinicTimeZoneFrom(settings);
  // The offset in force now, so it follows daylight saving; the stored number is only a fallback.
  return { timeZoneId: settings.timeZoneId ?? '', timeZoneOffsetHours: zoneOffsetMinutes(new Date(), timeZone) / 60 };
}

/**
 * Minutes of inactivity before sign-out. The session's idle timeout follows the user's home clinic
 * (plugins/auth.ts), so this read does too, whichever clinic a parent user is looking at.
 */
export async function readAutoLogoutTime(ctx: SignedInContext) {
  const settings = await readSettings(ctx.db, ctx.actor.homeInstanceId ?? ctx.instanceId);
  return { autoLogoutTime: idleMinutesFrom(settings.autoLogoutTime) };
}

export async function readPrimaryLogoUrl(ctx: SignedInContext) {
  return { url: await primaryLogoUrl(ctx.db, ctx.instanceId) };
}
