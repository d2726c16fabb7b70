import type { CustomFieldKind } from '@pathwell/contracts/enumerations';
import { findManagedList } from '@pathwell/contracts/managed-lists';
import type { Database } from '../../db/client';
import { managedItems } from '../../db/schema';
import { seedProcedureNoteTemplates } from '../procedure-notes/procedure-note-defaults.service';

type DefaultEntry = { name: string; attributes?: Record<string, unknown> };

/** Body regions are the numbered values of the `bodyRegions` enumeration. */
const region = {
  head: 1,
  neck: 2,
  shoulder: 3,
  arm: 4,
  hand: 5,
  chest: 6,
  abdomen: 7,
  upperBack: 8,
  lowerBack: 9,
  pelvis: 10,
  hip: 11,
  leg: 12,
  foot: 13,
  wholeBody: 14,
} as const;

const bodyLocation = (name: string, nameEs: string, bodyRegion: number, hasSide: boolean): DefaultEntry => ({
  name,
  attributes: { bodyRegion, hasSide, nameEs },
});

const bilingual = (name: string, nameEs: string, code?: string): DefaultEntry => ({
  name,
  attributes: code ? { nameEs, code } : { nameEs },
});

/**
 * Custom field values a clinic would otherwise type in. Race and ethnicity are the OMB minimum
 * categories with their CDC Race and Ethnicity Code Set codes; marital status carries the HL7 v3 MaritalStatus codes FHIR uses.
 */
const customFieldDefaults: Record<CustomFieldKind, DefaultEntry[]> = {
  gender: [
    bilingual('Male', 'Masculino'),
    bilingual('Female', 'Femenino'),
    bilingual('Non-binary', 'No binario'),
    bilingual('Other', 'Otro'),
    bilingual('Unknown', 'Desconocido'),
    bilingual('Prefer not to say', 'Prefiere no decirlo'),
  ],
  maritalstatus: [
    bilingual('Single', 'Soltero/a', 'S'),
    bilingual('Married', 'Casado/a', 'M'),
    bilingual('Domestic partner', 'Pareja de hecho', 'T'),
    bilingual('Divorced', 'Divorciado/a', 'D'),
    bilingual('Legally separated', 'Separado/a legalmente', 'L'),
    bilingual('Widowed', 'Viudo/a', 'W'),
    bilingual('Unknown', 'Desconocido', 'UNK'),
  ],
  occupationstatus: [
    bilingual('Employed full time', 'Empleo a tiempo completo'),
    bilingual('Employed part time', 'Empleo a tiempo parcial'),
    bilingual('Self-employed', 'Trabajador/a por cuenta propia'),
    bilingual('Unemployed', 'Desempleado/a'),
    bilingual('Unable to work (disabled)', 'Incapacitado/a para trabajar'),
    bilingual('Retired', 'Jubilado/a'),
    bilingual('Student', 'Estudiante'),
    bilingual('Homemaker', 'Labores del hogar'),
  ],
  payorstatus: [
    bilingual('Commercial insurance', 'Seguro comercial'),
    bilingual('Medicare', 'Medicare'),
    bilingual('Medicare Advantage', 'Medicare Advantage'),
    bilingual('Medicaid', 'Medicaid'),
    bilingual("Workers' compensation", 'Compensación laboral'),
    bilingual('Personal injury', 'Lesiones personales'),
    bilingual('TRICARE / VA', 'TRICARE / VA'),
    bilingual('Self-pay', 'Pago por cuenta propia'),
    bilingual('Other', 'Otro'),
  ],
  race: [
    bilingual('American Indian or Alaska Native', 'Indígena americano o nativo de Alaska', '1002-5'),
    bilingual('Asian', 'Asiático', '2028-9'),
    bilingual('Black or African American', 'Negro o afroamericano', '2054-5'),
    bilingual('Native Hawaiian or Other Pacific Islander', 'Nativo de Hawái o de otras islas del Pacífico', '2076-8'),
    bilingual('White', 'Blanco', '2106-3'),
    bilingual('Other Race', 'Otra raza', '2131-1'),
    bilingual('Declined to specify', 'Prefiere no responder'),
  ],
  appointmenttype: [
    bilingual('New Patient', 'Paciente nuevo'),
    bilingual('Follow-up', 'Seguimiento'),
    bilingual('Procedure', 'Procedimiento'),
    bilingual('Post-procedure follow-up', 'Seguimiento posterior al procedimiento'),
    bilingual('Medication management', 'Control de medicación'),
    bilingual('Telehealth', 'Telemedicina'),
  ],
  ethnicity: [
    bilingual('Hispanic or Latino', 'Hispano o latino', '2135-2'),
    bilingual('Not Hispanic or Latino', 'No hispano ni latino', '2186-5'),
    bilingual('Declined to specify', 'Prefiere no responder'),
  ],
};

/** The default entries of every list that starts filled; the rest (medicines, referrals…) start empty. */
export const instanceDefaults: Record<string, DefaultEntry[]> = {
  bodylocations: [
    bodyLocation('Head', 'Cabeza', region.head, false),
    bodyLocation('Face and jaw', 'Cara y mandíbula', region.head, true),
    bodyLocation('Neck', 'Cuello', region.neck, false),
    bodyLocation('Shoulder', 'Hombro', region.shoulder, true),
    bodyLocation('Upper arm', 'Brazo', region.arm, true),
    bodyLocation('Elbow', 'Codo', region.arm, true),
    bodyLocation('Forearm', 'Antebrazo', region.arm, true),
    bodyLocation('Wrist', 'Muñeca', region.hand, true),
    bodyLocation('Hand', 'Mano', region.hand, true),
    bodyLocation('Chest', 'Pecho', region.chest, false),
    bodyLocation('Abdomen', 'Abdomen', region.abdomen, false),
    bodyLocation('Upper back', 'Parte superior de la espalda', region.upperBack, false),
    bodyLocation('Mid back', 'Parte media de la espalda', region.upperBack, false),
    bodyLocation('Lower back', 'Parte baja de la espalda', region.lowerBack, false),
    bodyLocation('Sacroiliac joint', 'Articulación sacroilíaca', region.pelvis, true),
    bodyLocation('Buttock', 'Glúteo', region.pelvis, true),
    bodyLocation('Groin', 'Ingle', region.pelvis, true),
    bodyLocation('Hip', 'Cadera', region.hip, true),
    bodyLocation('Thigh', 'Muslo', region.leg, true),
    bodyLocation('Knee', 'Rodilla', region.leg, true),
    bodyLocation('Lower leg', 'Pierna', region.leg, true),
    bodyLocation('Ankle', 'Tobillo', region.foot, true),
    bodyLocation('Foot', 'Pie', region.foot, true),
    bodyLocation('Whole body', 'Todo el cuerpo', region.wholeBody, false),
  ],
  rooms: [1, 2, 3, 4].map((number) => ({ name: `Room ${number}`, attributes: { capacity: 1 } })),
  interventionaldirections: [
    { name: 'Left', attributes: { abbreviation: 'L' } },
    { name: 'Right', attributes: { abbreviation: 'R' } },
    { name: 'Bilateral', attributes: { abbreviation: 'B' } },
    { name: 'Midline', attributes: { abbreviation: 'M' } },
  ],
  ...Object.fromEntries(Object.entries(customFieldDefaults).map(([kind, entries]) => [`customfield:${kind}`, entries])),
};

/**
 * Fills a new clinic's lists with the defaults above, inside the caller's transaction. Safe to run
 * again: names already in a list are left alone (the unique index on the name answers "do nothing").
 */
export async function seedInstanceDefaults(tx: Database, instanceId: string): Promise<void> {
  const rows = Object.entries(instanceDefaults).flatMap(([listType, entries]) => {
    const list = findManagedList(listType);
    if (!list) throw new Error(`Default entries for unknown list ${listType}`);
    return entries.map((entry, index) => ({
      instanceId,
      listType,
      name: entry.name,
      // Parsed by the list's own schema, so defaults can never hold what the admin page would refuse.
      attributes: list.attributes.parse(entry.attributes ?? {}) as Record<string, unknown>,
      sortOrder: index + 1,
    }));
  });
  await tx.insert(managedItems).values(rows).onConflictDoNothing();
  await seedProcedureNoteTemplates(tx, instanceId);
}
