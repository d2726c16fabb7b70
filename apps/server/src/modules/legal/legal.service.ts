import { and, eq, inArray } from 'drizzle-orm';
import { decodeSettings } from '@pathwell/contracts/instance-settings';
import { defaultLegalTexts, legalTextSettingKeys, type LegalPage, type LegalText } from '@pathwell/contracts/legal-texts';
import { enterClinicOf, type ServiceContext } from '../../context';
import { instances, instanceSettings } from '../../db/schema';
import { notFound } from '../../lib/app-error';

/**
 * The text of /termsandconditions or /privacypolicy (decision 0033). Without a clinic: Pathwell's
 * defaults. With one: the open request's transaction enters that clinic alone (as a logo or a Twilio
 * callback does), reads its name and the page's two settings and nothing else; a language the clinic
 * left empty gets the default. An unknown clinic is a 404, whether or not it is switched off.
 */
export async function legalText(ctx: ServiceContext, page: LegalPage, clinicId: string | undefined): Promise<LegalText> {
  const defaults = defaultLegalTexts[page];
  if (!clinicId) return { page, clinicName: null, text: { ...defaults }, isDefault: { en: true, es: true } };

  const clinic = await enterClinicOf(ctx, clinicId.toLowerCase());
  const instanceId = clinic.instanceId!;
  const [instance] = await clinic.db.select({ name: instances.name }).from(instances).where(eq(instances.id, instanceId));
  if (!instance) throw notFound('clinicNotFound');

  const keys = legalTextSettingKeys[page];
  const rows = await clinic.db
    .select({ key: instanceSettings.configurationId, value: instanceSettings.configurationValue })
    .from(instanceSettings)
    .where(and(eq(instanceSettings.instanceId, instanceId), inArray(instanceSettings.configurationId, [keys.en, keys.es])));
  const own = decodeSettings(Object.fromEntries(rows.map((row) => [row.key, row.value])));
  const en = own[keys.en].trim();
  const es = own[keys.es].trim();
  return {
    page,
    clinicName: instance.name,
    text: { en: en || defaults.en, es: es || defaults.es },
    isDefault: { en: !en, es: !es },
  };
}
