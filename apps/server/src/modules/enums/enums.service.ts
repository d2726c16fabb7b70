import { enumerations, enumerationTypes, findEnumerationType, type Enumeration } from '@pathwell/contracts/enumerations';
import type { TimeZone } from '@pathwell/contracts/managed-lists';
import { AppError } from '../../lib/app-error';

export function getEnumeration(type: string): Enumeration {
  const found = findEnumerationType(type);
  if (!found) {
    throw new AppError('VALIDATION', 'enumerationTypeUnknown', {
      params: { type, types: enumerationTypes.join(', ') },
      fields: { type: 'invalid' },
    });
  }
  return { type: found, values: enumerations[found] };
}

/**
 * The zones of the 50 states, DC and the inhabited territories (IANA zone.tab, country US and the
 * territories), main zones first in the order clinics look for them, so a US clinic finds its zone at once.
 */
const US_TIME_ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
  'America/Detroit',
  'America/Kentucky/Louisville',
  'America/Kentucky/Monticello',
  'America/Indiana/Indianapolis',
  'America/Indiana/Vincennes',
  'America/Indiana/Winamac',
  'America/Indiana/Marengo',
  'America/Indiana/Petersburg',
  'America/Indiana/Vevay',
  'America/Indiana/Tell_City',
  'America/Indiana/Knox',
  'America/Menominee',
  'America/North_Dakota/Center',
  'America/North_Dakota/New_Salem',
  'America/North_Dakota/Beulah',
  'America/Boise',
  'America/Juneau',
  'America/Sitka',
  'America/Metlakatla',
  'America/Yakutat',
  'America/Nome',
  'America/Adak',
  'America/Puerto_Rico',
  'America/St_Thomas',
  'Pacific/Guam',
  'Pacific/Saipan',
  'Pacific/Pago_Pago',
] as const;

/** Generic zone names of today's rules (1970 named Alaska's zones differently). */
const NAMING_DATE = new Date(Date.UTC(2025, 0, 15));

function zoneName(id: string): string {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: id, timeZoneName: 'longGeneric' }).formatToParts(NAMING_DATE);
    const generic = parts.find((part) => part.type === 'timeZoneName')?.value;
    return generic && generic !== id ? `${id.replaceAll('_', ' ')} (${generic})` : id.replaceAll('_', ' ');
  } catch {
    return id;
  }
}

let cached: TimeZone[] | null = null;

/** Every zone the runtime knows (`Intl.supportedValuesOf`), US zones first, then the rest by id. */
export function listTimeZones(): TimeZone[] {
  if (cached) return cached;
  const supported = new Set<string>(Intl.supportedValuesOf('timeZone'));
  supported.add('UTC');
  const us = US_TIME_ZONES.filter((id) => supported.has(id) || isKnownZone(id));
  const usSet = new Set<string>(us);
  const rest = [...supported].filter((id) => !usSet.has(id)).sort((a, b) => a.localeCompare(b, 'en'));
  cached = [...us, ...rest].map((id) => ({ id, name: zoneName(id) }));
  return cached;
}

/** Some runtimes list a zone only under its canonical alias (America/St_Thomas → America/Port_of_Spain). */
function isKnownZone(id: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: id });
    return true;
  } catch {
    return false;
  }
}
