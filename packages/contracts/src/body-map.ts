import { z } from 'zod';

/**
 * Pain body map (decision 0031): the patient marks the body areas that hurt, front and back, and gives
 * each a pain level from 1 (mild) to 10 (worst possible). Stored as `{ regions: { [regionId]: level } }`.
 *
 * Region scheme. Modelled on the Michigan Body Map (MBM): Brummett CM, Bakshi RR, Goesling J, Leung D,
 * Moser SE, Zollars JW, Williams DA, Clauw DJ, Hassett AL. "Preliminary validation of the Michigan Body
 * Map." Pain 2016;157(6):1205-12, doi:10.1097/j.pain.0000000000000506 (PMID 26835782, PMCID PMC4868633):
 * 35 body areas on a front and a back figure, each area with its side.
 *
 * The MBM's own figure and its area names were NOT available to us, so this list is NOT the MBM and
 * must not be reported as an MBM score. What it keeps of the publication: 35 areas, two views, an
 * explicit left or right for every paired area (the revision the authors made because patients confused
 * the sides). The list itself is built on the 19 regions of the Widespread Pain Index of the 2011
 * Fibromyalgia Survey Criteria (Wolfe F et al., J Rheumatol 2011;38(6):1113-22), which the MBM was made
 * to replace: left/right jaw, shoulder, upper arm, lower arm, hip, upper leg and lower leg; neck, chest,
 * abdomen, upper back and lower back. To these we added 16 areas: head; groin/pelvis; left/right elbow,
 * wrist and hand, knee, ankle and foot, buttock; and on the back figure the back of each thigh and each
 * calf (so a spine patient can show sciatic pain running down the back of the leg). The WPI's "upper
 * leg" and "lower leg" are therefore split into a front and a back area each, and its "hip (buttock,
 * trochanter)" into hip (front) and buttock (back).
 *
 * `side` is always the PATIENT's side: on the front figure the patient's left is drawn on the viewer's
 * right, on the back figure on the viewer's left.
 */

export const bodyMapViews = ['front', 'back'] as const;
export type BodyMapView = (typeof bodyMapViews)[number];

export interface BodyMapRegion {
  id: string;
  view: BodyMapView;
  side: 'left' | 'right' | 'center';
  label: { en: string; es: string };
}

export const PAIN_LEVEL_MIN = 1;
export const PAIN_LEVEL_MAX = 10;

function center(id: string, view: BodyMapView, en: string, es: string): BodyMapRegion {
  return { id, view, side: 'center', label: { en, es } };
}

type Label = BodyMapRegion['label'];

/** The patient's right and left area of one part, right first. */
function pair(part: string, view: BodyMapView, right: Label, left: Label): BodyMapRegion[] {
  return [
    { id: `right-${part}`, view, side: 'right', label: right },
    { id: `left-${part}`, view, side: 'left', label: left },
  ];
}

/** The 35 areas, front figure first, each figure from head to feet. */
export const bodyMapRegions: readonly BodyMapRegion[] = [
  // ---- front ----
  center('head', 'front', 'Head', 'Cabeza'),
  ...pair(
    'jaw',
    'front',
    { en: 'Right jaw', es: 'Mandíbula, lado derecho' },
    { en: 'Left jaw', es: 'Mandíbula, lado izquierdo' },
  ),
  ...pair('shoulder', 'front', { en: 'Right shoulder', es: 'Hombro derecho' }, { en: 'Left shoulder', es: 'Hombro izquierdo' }),
  center('chest', 'front', 'Chest', 'Pecho'),
  ...pair(
    'upper-arm',
    'front',
    { en: 'Right upper arm', es: 'Brazo derecho (parte de arriba)' },
    { en: 'Left upper arm', es: 'Brazo izquierdo (parte de arriba)' },
  ),
  ...pair('elbow', 'front', { en: 'Right elbow', es: 'Codo derecho' }, { en: 'Left elbow', es: 'Codo izquierdo' }),
  center('abdomen', 'front', 'Belly (abdomen)', 'Vientre (abdomen)'),
  ...pair(
    'lower-arm',
    'front',
    { en: 'Right forearm', es: 'Antebrazo derecho' },
    { en: 'Left forearm', es: 'Antebrazo izquierdo' },
  ),
  ...pair(
    'hand',
    'front',
    { en: 'Right wrist and hand', es: 'Muñeca y mano derechas' },
    { en: 'Left wrist and hand', es: 'Muñeca y mano izquierdas' },
  ),
  ...pair('hip', 'front', { en: 'Right hip', es: 'Cadera derecha' }, { en: 'Left hip', es: 'Cadera izquierda' }),
  center('pelvis', 'front', 'Groin and pelvis', 'Ingle y pelvis'),
  ...pair(
    'upper-leg',
    'front',
    { en: 'Right thigh (front)', es: 'Muslo derecho (delante)' },
    { en: 'Left thigh (front)', es: 'Muslo izquierdo (delante)' },
  ),
  ...pair('knee', 'front', { en: 'Right knee', es: 'Rodilla derecha' }, { en: 'Left knee', es: 'Rodilla izquierda' }),
  ...pair('lower-leg', 'front', { en: 'Right shin', es: 'Espinilla derecha' }, { en: 'Left shin', es: 'Espinilla izquierda' }),
  ...pair(
    'foot',
    'front',
    { en: 'Right ankle and foot', es: 'Tobillo y pie derechos' },
    { en: 'Left ankle and foot', es: 'Tobillo y pie izquierdos' },
  ),
  // ---- back ----
  center('neck', 'back', 'Neck', 'Cuello'),
  center('upper-back', 'back', 'Upper back', 'Parte alta de la espalda'),
  center('lower-back', 'back', 'Lower back', 'Parte baja de la espalda'),
  ...pair('buttock', 'back', { en: 'Right buttock', es: 'Nalga derecha' }, { en: 'Left buttock', es: 'Nalga izquierda' }),
  ...pair(
    'upper-leg-back',
    'back',
    { en: 'Right thigh (back)', es: 'Muslo derecho (detrás)' },
    { en: 'Left thigh (back)', es: 'Muslo izquierdo (detrás)' },
  ),
  ...pair(
    'lower-leg-back',
    'back',
    { en: 'Right calf', es: 'Pantorrilla derecha' },
    { en: 'Left calf', es: 'Pantorrilla izquierda' },
  ),
];

export const bodyMapRegionIds: readonly string[] = bodyMapRegions.map((region) => region.id);

const regionsById = new Map(bodyMapRegions.map((region) => [region.id, region]));

export const bodyMapSchema = z
  .object({
    regions: z.record(
      z.string().max(40, 'invalid'),
      z.number({ error: 'invalid' }).int('invalid').min(PAIN_LEVEL_MIN, 'invalid').max(PAIN_LEVEL_MAX, 'invalid'),
      { error: 'invalid' },
    ),
    /** The patient said "I have no pain anywhere" (decision 0061): the only way to finish with no area. */
    noPain: z.boolean({ error: 'invalid' }).optional(),
  })
  .superRefine((value, context) => {
    const ids = Object.keys(value.regions);
    if (ids.length > bodyMapRegions.length) {
      context.addIssue({ code: 'custom', path: ['regions'], message: 'invalid' });
      return;
    }
    for (const id of ids) {
      if (!regionsById.has(id)) context.addIssue({ code: 'custom', path: ['regions', id], message: 'invalid' });
    }
  });
export type BodyMap = z.infer<typeof bodyMapSchema>;

/**
 * What stops a finished body map (decision 0061): an empty map is an answer only when the patient said
 * "no pain anywhere", and that statement cannot stand beside marked areas. Drafts may be anything.
 */
export function bodyMapProblems(map: BodyMap): Record<string, 'bodyMapEmpty' | 'bodyMapNoPainWithAreas'> {
  const count = Object.keys(map.regions).length;
  if (count === 0 && !map.noPain) return { regions: 'bodyMapEmpty' };
  if (count > 0 && map.noPain) return { noPain: 'bodyMapNoPainWithAreas' };
  return {};
}

/**
 * How widespread the pain is: the number of marked areas (0..35). Shown to staff as a figure beside
 * the map; it is a count of areas, not a diagnosis or a validated score.
 */
export function widespreadCount(map: BodyMap): number {
  return Object.keys(map.regions).filter((id) => regionsById.has(id)).length;
}

/** The patient-facing name of an area; an unknown id is returned as it is. */
export function regionLabel(id: string, language: 'en' | 'es'): string {
  return regionsById.get(id)?.label[language] ?? id;
}
