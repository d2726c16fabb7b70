import { and, eq, inArray, isNull } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { buildDemoResponses, insertDemoResponses } from './demo-forms';
import { createRandom, type Random } from './demo-random';
import type { Database } from '../client';
import { appointments, managedItems, patientNotes, patientPhoneNumbers, patients } from '../schema';

/**
 * The demo clinics' patients and appointments (issue #4 section 3). Everything but the row ids comes
 * from a seeded PRNG and a given "now", so two runs on the same day produce the same clinic; ids stay
 * random (ids made from the seed would collide between two clinics given the same seed). Dates are
 * relative to now so the demo always has a past, a today and a future. See docs/decisions/0015-demo-and-volume-data.md.
 */
export const DEMO_PATIENTS_PER_CLINIC = 150;

/** Picks by weight: `[[value, weight], ...]`. */
function weighted<T>(random: Random, entries: readonly (readonly [T, number])[]): T {
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random.next() * total;
  for (const [value, weight] of entries) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return entries[entries.length - 1]![0];
}

export const hispanicFemaleNames = [
  'María',
  'Lucía',
  'Sofía',
  'Ana',
  'Carmen',
  'Verónica',
  'Guadalupe',
  'Rocío',
  'Inés',
  'Mónica',
  'Beatriz',
  'Adriana',
  'Yolanda',
  'Rosa',
  'Elena',
  'Isabel',
  'Natalia',
  'Patricia',
  'Araceli',
  'Leticia',
];
export const hispanicMaleNames = [
  'José',
  'Jesús',
  'Andrés',
  'Ramón',
  'Joaquín',
  'Martín',
  'Raúl',
  'Héctor',
  'Rubén',
  'Óscar',
  'Sebastián',
  'Tomás',
  'Luis',
  'Miguel',
  'Alejandro',
  'Fernando',
  'Ángel',
  'Julián',
  'Iván',
  'Nicolás',
];
export const hispanicLastNames = [
  'González',
  'Núñez',
  'Peña',
  'Hernández',
  'Martínez',
  'Rodríguez',
  'García',
  'López',
  'Pérez',
  'Sánchez',
  'Ramírez',
  'Gómez',
  'Díaz',
  'Álvarez',
  'Jiménez',
  'Muñoz',
  'Gutiérrez',
  'Vásquez',
  'Castañeda',
  'Ibáñez',
  'Ordóñez',
  'Domínguez',
  'Fernández',
  'Suárez',
  'Morales',
  'Ortega',
  'Delgado',
  'Cortés',
  'Rivera',
  'Treviño',
];
export const otherFemaleNames = [
  'Emily',
  'Sarah',
  'Jessica',
  'Ashley',
  'Megan',
  'Linda',
  'Barbara',
  'Susan',
  'Karen',
  'Nancy',
  'Olivia',
  'Emma',
  'Hannah',
  'Grace',
  'Zoë',
  'Renée',
  'Mai',
  'Priya',
  'Aisha',
  'Chloé',
];
export const otherMaleNames = [
  'James',
  'Robert',
  'Michael',
  'William',
  'David',
  'Richard',
  'Thomas',
  'Charles',
  'Daniel',
  'Matthew',
  'Anthony',
  'Mark',
  'Steven',
  'Kevin',
  'Brian',
  'Tyler',
  'Ryan',
  'Noah',
  'Ethan',
  'Minh',
];
export const otherLastNames = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Miller',
  'Davis',
  'Wilson',
  'Anderson',
  'Taylor',
  'Thomas',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Thompson',
  'White',
  'Harris',
  'Clark',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Nguyen',
  'Tran',
  'Patel',
  'Kim',
  'Chen',
  "O'Brien",
  "O'Connor",
  'Smith-Jones',
  'Washington',
  'Brooks',
  'Bennett',
  'Hughes',
  'Foster',
];

/** Texas cities with one of their real ZIP codes and the area codes used there. */
const places = [
  { city: 'Austin', zips: ['78701', '78702', '78704', '78723', '78745', '78748', '78758'], areaCodes: ['512', '737'] },
  { city: 'Round Rock', zips: ['78664', '78665', '78681'], areaCodes: ['512', '737'] },
  { city: 'Pflugerville', zips: ['78660'], areaCodes: ['512'] },
  { city: 'Cedar Park', zips: ['78613'], areaCodes: ['512'] },
  { city: 'Georgetown', zips: ['78626', '78628'], areaCodes: ['512'] },
  { city: 'San Marcos', zips: ['78666'], areaCodes: ['512'] },
  { city: 'Kyle', zips: ['78640'], areaCodes: ['512'] },
  { city: 'San Antonio', zips: ['78205', '78207', '78228', '78240'], areaCodes: ['210', '726'] },
  { city: 'Houston', zips: ['77002', '77009', '77036', '77084'], areaCodes: ['713', '832', '281'] },
  { city: 'Dallas', zips: ['75201', '75208', '75214'], areaCodes: ['214', '469'] },
  { city: 'El Paso', zips: ['79901', '79912'], areaCodes: ['915'] },
  { city: 'Laredo', zips: ['78040', '78041'], areaCodes: ['956'] },
] as const;
const streets = [
  'Congress Ave',
  'Guadalupe St',
  'Lamar Blvd',
  'Oak Springs Dr',
  'Riverside Dr',
  'Cesar Chavez St',
  'Main St',
  'Pecan St',
  'Bluebonnet Ln',
  'Mesquite Trl',
  'Live Oak Dr',
  'Rio Grande St',
  'Alamo Plaza',
  'Sunset Blvd',
  'Cypress Creek Rd',
  'Magnolia Ave',
];
const relations = ['Spouse', 'Parent', 'Sibling', 'Son', 'Daughter', 'Friend', 'Partner'];
const archiveReasons = ['Moved out of the area', 'Transferred care to another clinic', 'Treatment completed'];
const appointmentNotes = [
  'Bring imaging results',
  'Prefers morning appointments',
  'Requested a call before the visit',
  'Review medication list',
  'Wheelchair access needed',
];
const patientNoteTexts = [
  'Patient reports better sleep since the last adjustment.',
  'Discussed home exercise program; patient agreed to daily stretching.',
  'Insurance pre-authorization requested for the next procedure.',
  'Patient asked for printed instructions in their language.',
  'Follow up on physical therapy referral.',
];

type DemoListItem = { id: string; name: string };
type DemoLists = Record<
  'gender' | 'maritalstatus' | 'ethnicity' | 'occupationstatus' | 'payorstatus' | 'appointmenttype' | 'rooms' | 'bodylocations',
  DemoListItem[]
>;

type PatientRow = typeof patients.$inferInsert;
type PhoneRow = typeof patientPhoneNumbers.$inferInsert;
type AppointmentRow = typeof appointments.$inferInsert;
type NoteRow = typeof patientNotes.$inferInsert;

interface DemoClinicInput {
  instanceId: string;
  /** The clinic's Doctor, or null when it has none (patients are then unassigned). */
  doctorId: string | null;
  seed: number;
  now: Date;
  /** The clinic's `timeZoneOffsetHours`: appointment hours are clinic-local. */
  offsetHours: number;
  lists: DemoLists;
  count?: number;
}

interface DemoClinicRows {
  patients: PatientRow[];
  phones: PhoneRow[];
  appointments: AppointmentRow[];
  notes: NoteRow[];
}

const DAY = 86_400_000;
const fold = (value: string) =>
  value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();
const isoDate = (time: number) => new Date(time).toISOString().slice(0, 10);
const byName = (items: DemoListItem[], name: string) => items.find((item) => item.name === name)?.id ?? null;

/** Pure: the rows of one demo clinic. */
export function buildDemoClinic(input: DemoClinicInput): DemoClinicRows {
  const random = createRandom(input.seed);
  const { lists, instanceId, doctorId } = input;
  const count = input.count ?? DEMO_PATIENTS_PER_CLINIC;
  const nowTime = input.now.getTime();
  const offset = input.offsetHours * 3_600_000;
  // Midnight of the clinic's current day, as a UTC instant.
  const localNow = nowTime + offset;
  const todayStart = localNow - (((localNow % DAY) + DAY) % DAY) - offset;
  const at = (dayStart: number, hour: number, minute: number) => new Date(dayStart + (hour * 60 + minute) * 60_000);
  const weekday = (dayStart: number) => {
    const day = new Date(dayStart + offset).getUTCDay();
    return day === 0 ? dayStart + DAY : day === 6 ? dayStart + 2 * DAY : dayStart;
  };
  const item = (kind: keyof DemoLists) => random.pick(lists[kind]).id;
  const types = lists.appointmenttype;
  const newPatientType = byName(types, 'New Patient');
  const followUpTypes = types.filter((type) => type.name !== 'New Patient');
  const rows: DemoClinicRows = { patients: [], phones: [], appointments: [], notes: [] };
  const phone = (areaCodes: readonly string[]) => {
    const area = random.pick(areaCodes);
    // 555-0100 … 555-0199 are the numbers reserved for fiction.
    const line = `01${String(random.int(0, 99)).padStart(2, '0')}`;
    return { number: `(${area}) 555-${line}`, digits: `${area}555${line}` };
  };
  const commonLocations = ['Lower back', 'Neck', 'Knee', 'Shoulder', 'Hip', 'Mid back', 'Sacroiliac joint', 'Foot'];
  const locationIds = lists.bodylocations.filter((entry) => commonLocations.includes(entry.name)).map((entry) => entry.id);

  for (let index = 0; index < count; index++) {
    const id = randomUUID();
    const hispanic = random.chance(0.45);
    const female = random.chance(0.55);
    const firstName = random.pick(
      hispanic ? (female ? hispanicFemaleNames : hispanicMaleNames) : female ? otherFemaleNames : otherMaleNames,
    );
    const lastName = hispanic
      ? random.chance(0.2)
        ? `${random.pick(hispanicLastNames)} ${random.pick(hispanicLastNames)}`
        : random.pick(hispanicLastNames)
      : random.pick(otherLastNames);
    const middleName = random.chance(0.3)
      ? random.pick(hispanic ? (female ? hispanicFemaleNames : hispanicMaleNames) : female ? otherFemaleNames : otherMaleNames)
      : null;
    const spanish = hispanic && random.chance(0.6);
    const age = random.int(18, 90);
    const birth = nowTime - age * 365.25 * DAY - random.int(1, 360) * DAY;
    const place = random.pick(places);
    const heightFeet = female ? random.int(4, 5) : random.int(5, 6);
    const heightInches = heightFeet === 4 ? random.int(10, 11) : heightFeet === 6 ? random.int(0, 4) : random.int(0, 11);
    const email = random.chance(0.78) ? `${fold(firstName)}.${fold(lastName)}${index + 1}@example.com` : null;
    const genderName = random.chance(0.03)
      ? random.pick(['Non-binary', 'Other', 'Prefer not to say'])
      : female
        ? 'Female'
        : 'Male';
    const status = weighted(random, [
      ['active', 90],
      ['inactive', 7],
      ['archived', 3],
    ] as const);

    // Visits: a first visit some time in the last six months, then every two to five weeks.
    const pastVisits: number[] = [];
    if (status !== 'archived' || random.chance(0.5)) {
      let day = todayStart - random.int(7, 180) * DAY;
      while (day < todayStart - DAY && pastVisits.length < 10) {
        pastVisits.push(weekday(day));
        day += random.int(14, 35) * DAY;
      }
    }
    const firstVisit = pastVisits[0] ?? todayStart - random.int(1, 30) * DAY;
    const createdAt = new Date(firstVisit - random.int(2, 400) * DAY + random.int(8 * 60, 17 * 60) * 60_000);
    const assignedDoctor = doctorId && random.chance(0.8) ? doctorId : null;

    rows.patients.push({
      id,
      instanceId,
      firstName,
      middleName,
      lastName,
      dateOfBirth: isoDate(birth),
      email,
      streetAddress1: `${random.int(100, 9899)} ${random.pick(streets)}`,
      streetAddress2: random.chance(0.15) ? `Apt ${random.int(1, 40)}${random.pick(['A', 'B', 'C'])}` : null,
      city: place.city,
      state: 'TX',
      zip: random.pick(place.zips),
      weight: random.int(female ? 105 : 130, female ? 240 : 290),
      heightFeet,
      heightInches,
      height: heightFeet * 12 + heightInches,
      genderId: byName(lists.gender, genderName),
      maritalStatusId: item('maritalstatus'),
      ethnicityId: random.chance(0.06)
        ? byName(lists.ethnicity, 'Declined to specify')
        : byName(lists.ethnicity, hispanic ? 'Hispanic or Latino' : 'Not Hispanic or Latino'),
      occupationId: age >= 67 && random.chance(0.8) ? byName(lists.occupationstatus, 'Retired') : item('occupationstatus'),
      payorStatusId: age >= 65 && random.chance(0.7) ? byName(lists.payorstatus, 'Medicare') : item('payorstatus'),
      nicotineStatusId: weighted(random, [
        [4, 55],
        [3, 20],
        [1, 12],
        [2, 8],
        [6, 5],
      ] as const),
      currentLawSuit: weighted(random, [
        ['no', 82],
        ['yes', 8],
        [null, 10],
      ] as const),
      historySubstanceAbuse: weighted(random, [
        ['no', 85],
        ['yes', 5],
        [null, 10],
      ] as const),
      agreementSignedDate: random.chance(0.85) ? isoDate(createdAt.getTime()) : null,
      doctorId: assignedDoctor,
      enableEmail: email !== null && random.chance(0.9),
      enableText: random.chance(0.85),
      preferredLanguage: spanish ? 'es' : 'en',
      externalId: random.chance(0.6) ? `EHR-${String(100000 + index * 37 + random.int(0, 36))}` : null,
      status: status === 'inactive' ? 'inactive' : 'active',
      archivedAt: status === 'archived' ? new Date(todayStart - random.int(1, 20) * DAY) : null,
      archiveReason: status === 'archived' ? random.pick(archiveReasons) : null,
      createdAt,
      updatedAt: createdAt,
    });

    const mobile = phone(place.areaCodes);
    rows.phones.push({
      id: randomUUID(),
      instanceId,
      patientId: id,
      phoneType: 7,
      ...mobile,
      isPrimary: true,
      createdAt,
      updatedAt: createdAt,
    });
    if (random.chance(0.35)) {
      rows.phones.push({
        id: randomUUID(),
        instanceId,
        patientId: id,
        phoneType: 1,
        ...phone(place.areaCodes),
        createdAt,
        updatedAt: createdAt,
      });
    }
    if (random.chance(0.25)) {
      rows.phones.push({
        id: randomUUID(),
        instanceId,
        patientId: id,
        phoneType: 2,
        ...phone(place.areaCodes),
        createdAt,
        updatedAt: createdAt,
      });
    }
    const contactFirst = random.pick(
      hispanic ? [...hispanicFemaleNames, ...hispanicMaleNames] : [...otherFemaleNames, ...otherMaleNames],
    );
    rows.phones.push({
      id: randomUUID(),
      instanceId,
      patientId: id,
      phoneType: 3,
      ...phone(place.areaCodes),
      contactName: `${contactFirst} ${random.chance(0.6) ? lastName : random.pick(hispanic ? hispanicLastNames : otherLastNames)}`,
      relation: random.pick(relations),
      createdAt,
      updatedAt: createdAt,
    });

    // Pain on the VAS: most patients improve under treatment, some stay put, a few get worse.
    const startPain = 4 + random.next() * 5.5;
    const trend = weighted(random, [
      [-(0.3 + random.next() * 0.6), 60],
      [0, 25],
      [0.2 + random.next() * 0.3, 15],
    ] as const);
    const painLocations = [random.pick(locationIds), ...(random.chance(0.3) ? [random.pick(locationIds)] : [])];
    const bodyLocationIds = [...new Set(painLocations.filter(Boolean))];
    let completed = 0;
    const visit = (startsAt: Date, status: number, first: boolean): AppointmentRow => {
      const type = first && newPatientType ? newPatientType : random.pick(followUpTypes).id;
      const typeName = types.find((entry) => entry.id === type)?.name;
      const duration = typeName === 'New Patient' ? 60 : typeName === 'Procedure' ? 45 : typeName === 'Telehealth' ? 20 : 30;
      const done = status === AppointmentStatus.Completed;
      const pain = done ? Math.max(0, Math.min(10, Math.round(startPain + trend * completed + (random.next() - 0.5) * 2))) : null;
      if (done) completed++;
      const created = new Date(Math.min(startsAt.getTime() - random.int(3, 30) * DAY, nowTime));
      return {
        id: randomUUID(),
        instanceId,
        patientId: id,
        doctorId: assignedDoctor,
        appointmentTypeId: type,
        roomId: typeName === 'Telehealth' ? null : item('rooms'),
        startsAt,
        durationMinutes: duration,
        status,
        reason: first ? 'new_patient' : 'follow_up',
        notes:
          spanish && random.chance(0.3)
            ? 'Interpreter requested (Spanish)'
            : random.chance(0.15)
              ? random.pick(appointmentNotes)
              : null,
        externalId: random.chance(0.5) ? `APT-${random.int(100000, 999999)}` : null,
        painScore: pain,
        bodyLocationIds,
        checkedInAt: done ? new Date(startsAt.getTime() - random.int(5, 20) * 60_000) : null,
        completedAt: done ? new Date(startsAt.getTime() + duration * 60_000) : null,
        createdAt: created,
        updatedAt: done ? new Date(startsAt.getTime() + duration * 60_000) : created,
      };
    };
    pastVisits.forEach((day, visitIndex) => {
      const startsAt = at(day, random.int(8, 16), random.pick([0, 15, 30, 45]));
      const status = random.chance(0.12) ? AppointmentStatus.No_Show : AppointmentStatus.Completed;
      rows.appointments.push(visit(startsAt, status, visitIndex === 0));
    });
    // Most active patients have their next visit booked within four weeks.
    if (status === 'active' && random.chance(0.55)) {
      const day = weekday(todayStart + random.int(1, 27) * DAY);
      rows.appointments.push(
        visit(at(day, random.int(8, 16), random.pick([0, 30])), AppointmentStatus.Upcoming, pastVisits.length === 0),
      );
    }
    if (random.chance(0.3)) {
      const author = doctorId;
      const noteTime = new Date(Math.max(createdAt.getTime(), (pastVisits.at(-1) ?? firstVisit) + 17 * 3_600_000));
      rows.notes.push({
        id: randomUUID(),
        instanceId,
        patientId: id,
        authorUserId: author,
        body: random.pick(patientNoteTexts),
        createdAt: noteTime,
        updatedAt: noteTime,
      });
    }
  }

  // Today's schedule: every half hour from 8:00, the first few already checking in.
  const todays = rows.patients.filter((patient) => patient.status === 'active' && !patient.archivedAt).slice(0, 12);
  todays.forEach((patient, slot) => {
    const startsAt = at(todayStart, 8 + Math.floor(slot / 2), (slot % 2) * 30);
    const checkingIn = slot < 4;
    const type = random.pick(followUpTypes);
    rows.appointments.push({
      id: randomUUID(),
      instanceId,
      patientId: patient.id!,
      doctorId: patient.doctorId ?? null,
      appointmentTypeId: type.id,
      roomId: type.name === 'Telehealth' ? null : item('rooms'),
      startsAt,
      durationMinutes: 30,
      status: checkingIn ? AppointmentStatus.Checking_In : AppointmentStatus.Upcoming,
      reason: 'follow_up',
      checkedInAt: checkingIn ? new Date(startsAt.getTime() - random.int(5, 15) * 60_000) : null,
      bodyLocationIds: [random.pick(locationIds)].filter(Boolean),
      createdAt: new Date(todayStart - random.int(3, 20) * DAY),
      updatedAt: new Date(todayStart - random.int(1, 2) * DAY),
    });
  });
  return rows;
}

/** The clinic's list entries the demo picks from (the defaults of `seedInstanceDefaults`). */
export async function readDemoLists(tx: Database, instanceId: string): Promise<DemoLists> {
  const wanted = {
    gender: 'customfield:gender',
    maritalstatus: 'customfield:maritalstatus',
    ethnicity: 'customfield:ethnicity',
    occupationstatus: 'customfield:occupationstatus',
    payorstatus: 'customfield:payorstatus',
    appointmenttype: 'customfield:appointmenttype',
    rooms: 'rooms',
    bodylocations: 'bodylocations',
  } as const;
  const items = await tx
    .select({ id: managedItems.id, name: managedItems.name, listType: managedItems.listType, sortOrder: managedItems.sortOrder })
    .from(managedItems)
    .where(
      and(
        eq(managedItems.instanceId, instanceId),
        inArray(managedItems.listType, Object.values(wanted)),
        isNull(managedItems.deletedAt),
      ),
    )
    .orderBy(managedItems.listType, managedItems.sortOrder, managedItems.name);
  const lists = Object.fromEntries(
    Object.entries(wanted).map(([key, listType]) => [
      key,
      items.filter((entry) => entry.listType === listType).map(({ id, name }) => ({ id, name })),
    ]),
  ) as DemoLists;
  for (const [key, entries] of Object.entries(lists)) {
    if (entries.length === 0) throw new Error(`demo patients need the clinic's ${key} list (seedInstanceDefaults first)`);
  }
  return lists;
}

async function insertChunks<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += size) await insert(rows.slice(start, start + size));
}

/** Inserts one demo clinic's patients, phones, appointments and notes (multi-row inserts). */
export async function seedDemoPatients(
  tx: Database,
  options: { instanceId: string; doctorId: string | null; seed: number; now?: Date; offsetHours?: number; count?: number },
): Promise<{ patients: number; appointments: number; responses: number }> {
  const lists = await readDemoLists(tx, options.instanceId);
  const rows = buildDemoClinic({
    instanceId: options.instanceId,
    doctorId: options.doctorId,
    seed: options.seed,
    now: options.now ?? new Date(),
    offsetHours: options.offsetHours ?? -6,
    lists,
    count: options.count,
  });
  // Chunks keep every statement under PostgreSQL's 65535 bind parameters.
  await insertChunks(rows.patients, 500, (chunk) => tx.insert(patients).values(chunk));
  await insertChunks(rows.phones, 2000, (chunk) => tx.insert(patientPhoneNumbers).values(chunk));
  await insertChunks(rows.appointments, 1500, (chunk) => tx.insert(appointments).values(chunk));
  if (rows.notes.length) await tx.insert(patientNotes).values(rows.notes);
  const responses = await insertDemoResponses(
    tx,
    buildDemoResponses(options.instanceId, rows.patients, rows.appointments, options.seed),
  );
  return { patients: rows.patients.length, appointments: rows.appointments.length, responses };
}
