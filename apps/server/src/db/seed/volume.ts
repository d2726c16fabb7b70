import { RoleCode } from '@pathwell/contracts/roles';
import pg from 'pg';
import { hashPassword } from '../../lib/secrets';
import { openDatabase } from '../client';
import { applyMigrations } from '../migrate';
import { findManagedList } from '@pathwell/contracts/managed-lists';
import { instances, instanceSettings, managedItems, organisations, userInstances, users } from '../schema';
import { DEMO_PASSWORD } from './demo';
import {
  hispanicFemaleNames,
  hispanicLastNames,
  hispanicMaleNames,
  otherFemaleNames,
  otherLastNames,
  otherMaleNames,
  readDemoLists,
} from './demo-patients';
import { seedInstanceDefaults } from '../../modules/instances/instance-defaults';
import {
  INTERVENTIONS_SQL,
  outcomeTables,
  responseSpanDays,
  RESPONSES_SQL,
  responsesParameters,
  volumeCatalogue,
  volumeReferrals,
} from './volume-outcomes';
import { CODED_VISITS_SQL, codesParameters } from './volume-codes';

/**
 * The volume generator behind `npm run seed:volume` (issue #4 section 3, docs/decisions/0015-demo-and-volume-data.md).
 * Rows are made by PostgreSQL itself with `INSERT … SELECT … FROM generate_series`, into the real tables
 * with every index and the generated `search_name` column in place, so what the benchmark reads is
 * built exactly as production builds it. Pseudo-random choices hash the row number
 * (`hashint8extended`), so a run is reproducible; patient ids are `md5(clinic:n)` so appointments can
 * point at their patient without a lookup.
 */
interface VolumeOptions {
  databaseUrl: string;
  patients: number;
  appointments: number;
  clinics: number;
  /** Scored form responses (issue #14 §5), spread over each clinic's patients; 0 by default. */
  responses?: number;
  /** Interventions (procedures and injections) after the patients' baselines; 0 by default. */
  interventions?: number;
  /** Coded visits (issue #15 §2) with 1–3 diagnosis and procedure codes each; 0 by default. */
  codedVisits?: number;
  /** Rows per INSERT statement. */
  batchSize?: number;
  log?: (line: string) => void;
}

export interface VolumeResult {
  clinics: {
    id: string;
    name: string;
    patients: number;
    appointments: number;
    responses: number;
    interventions: number;
    codedVisits: number;
  }[];
  rows: {
    patients: number;
    phones: number;
    appointments: number;
    responses: number;
    interventions: number;
    codedVisits: number;
    visitCodes: number;
  };
  seconds: {
    patients: number;
    phones: number;
    appointments: number;
    responses: number;
    interventions: number;
    codedVisits: number;
    analyze: number;
  };
}

/** Sign-in of the volume clinics' users: `<role>.<NNN>@volume.pathwell.test`, password DEMO_PASSWORD. */
export const volumeEmail = (role: 'admin' | 'staff' | 'doctor1' | 'doctor2', clinicNumber: number) =>
  `${role}.${String(clinicNumber).padStart(3, '0')}@volume.pathwell.test`;

const places = [
  ['Austin', '78701'],
  ['Austin', '78745'],
  ['Round Rock', '78664'],
  ['Pflugerville', '78660'],
  ['San Antonio', '78205'],
  ['Houston', '77002'],
  ['Dallas', '75201'],
  ['El Paso', '79901'],
  ['Laredo', '78040'],
  ['Georgetown', '78626'],
] as const;
const streets = [
  'Congress Ave',
  'Guadalupe St',
  'Lamar Blvd',
  'Main St',
  'Pecan St',
  'Bluebonnet Ln',
  'Live Oak Dr',
  'Rio Grande St',
];

/** `h(n)`: a non-negative pseudo-random integer for column `n` of row `g`. */
const h = (column: number, of = 'g') => `(hashint8extended(${of}, ${column}) & 2147483647)`;

const PATIENTS_SQL = `
with s as (
  select g,
    ${h(1)} % 100 < 45 as hispanic,
    ${h(2)} % 100 < 55 as female,
    ${h(3)} as h3, ${h(4)} as h4, ${h(5)} as h5, ${h(6)} as h6, ${h(7)} as h7, ${h(8)} as h8,
    ${h(9)} as h9, ${h(10)} as h10, ${h(11)} as h11, ${h(12)} as h12
  from generate_series($2::bigint, $3::bigint) g
)
insert into patients (id, instance_id, first_name, middle_name, last_name, date_of_birth, email, street_address1,
  city, state, zip, weight, height_feet, height_inches, height, gender_id, marital_status_id, ethnicity_id,
  occupation_id, payor_status_id, nicotine_status_id, doctor_id, preferred_language, enable_email, enable_text,
  external_id, status, created_at, updated_at, referral_source, referring_provider_id)
select md5($1::text || ':' || g)::uuid, $1::text::uuid,
  case when hispanic and female then ($4::text[])[1 + h3 % cardinality($4::text[])]
       when hispanic then ($5::text[])[1 + h3 % cardinality($5::text[])]
       when female then ($7::text[])[1 + h3 % cardinality($7::text[])]
       else ($8::text[])[1 + h3 % cardinality($8::text[])] end,
  case when h4 % 10 < 3 then (case when female then ($7::text[])[1 + h4 % cardinality($7::text[])]
                                    else ($8::text[])[1 + h4 % cardinality($8::text[])] end) end,
  case when hispanic then ($6::text[])[1 + h5 % cardinality($6::text[])] else ($9::text[])[1 + h5 % cardinality($9::text[])] end,
  current_date - (18 * 365 + h6 % (72 * 365))::int,
  case when h7 % 100 < 78 then 'patient' || g || '.' || left($1::text, 8) || '@example.com' end,
  (100 + h8 % 9800) || ' ' || ($12::text[])[1 + h8 % cardinality($12::text[])],
  ($10::text[])[1 + h9 % cardinality($10::text[])], 'TX', ($11::text[])[1 + h9 % cardinality($11::text[])],
  110 + h10 % 170, 5, h10 % 12, 60 + h10 % 12,
  ($13::uuid[])[case when female then 2 else 1 end],
  ($14::uuid[])[1 + h11 % cardinality($14::uuid[])],
  ($15::uuid[])[case when hispanic then 1 else 2 end],
  ($16::uuid[])[1 + h12 % cardinality($16::uuid[])],
  ($17::uuid[])[1 + h11 % cardinality($17::uuid[])],
  1 + h12 % 8,
  ($18::uuid[])[1 + ${h(9, 'g')} % cardinality($18::uuid[])],
  case when hispanic and h4 % 10 < 6 then 'es' else 'en' end,
  true, h7 % 100 < 85,
  case when h3 % 10 < 6 then 'EHR-' || g end,
  case when h6 % 100 < 8 then 'inactive' else 'active' end,
  now() - ((h5 % 1000) || ' days')::interval, now() - ((h5 % 1000) || ' days')::interval,
  referral_source,
  case when referral_source = 1 then ($19::uuid[])[1 + h8 % cardinality($19::uuid[])] end
from s
cross join lateral (select case when cardinality($19::uuid[]) > 0 and h10 % 100 < 85
  then (case when h12 % 100 < 55 then 1 else 2 + h11 % 11 end) end as referral_source) r`;

const PHONES_SQL = `
insert into patient_phone_numbers (instance_id, patient_id, phone_type, number, digits, is_primary, contact_name, relation)
select $1::text::uuid, md5($1::text || ':' || g)::uuid, kind.phone_type,
  '(' || area || ') ' || substr(line, 1, 3) || '-' || substr(line, 4), area || line, kind.phone_type = 7,
  case when kind.phone_type = 3 then 'Contact ' || g end, case when kind.phone_type = 3 then 'Spouse' end
from generate_series($2::bigint, $3::bigint) g
cross join lateral (select (array['512','737','210','713','214','915'])[1 + ${h(30)} % 6] as area,
                           lpad((${h(31)} % 10000000)::text, 7, '0') as line) n
cross join lateral (select 7 as phone_type union all select 3 where ${h(32)} % 100 < 30) kind`;

const APPOINTMENTS_SQL = `
with s as (
  select g, 1 + ${h(20)} % $4::bigint as p, ${h(21)} % 758 - 730 as day, ${h(22)} as h22, ${h(23)} as h23
  from generate_series($2::bigint, $3::bigint) g
), t as (
  select s.*, ((current_date + day::int)::timestamp + interval '14 hours' + (h22 % 18) * interval '30 minutes') at time zone 'UTC' as starts_at,
    case when day < 0 then (case when h23 % 100 < 12 then 4 else 3 end)
         when day = 0 then (case when h23 % 3 = 0 then 1 else 2 end) else 2 end as status
  from s
)
insert into appointments (instance_id, patient_id, doctor_id, appointment_type_id, room_id, starts_at, duration_minutes,
  status, reason, pain_score, body_location_ids, checked_in_at, completed_at, created_at, updated_at)
select $1::text::uuid, md5($1::text || ':' || p)::uuid, ($5::uuid[])[1 + ${h(9, 'p')} % cardinality($5::uuid[])],
  ($6::uuid[])[1 + h22 % cardinality($6::uuid[])], ($7::uuid[])[1 + h23 % cardinality($7::uuid[])],
  starts_at, 30, status, case when h22 % 5 = 0 then 'new_patient' else 'follow_up' end,
  case when status = 3 then (h23 / 7) % 11 end,
  array[($8::uuid[])[1 + h23 % cardinality($8::uuid[])]],
  case when status in (1, 3) then starts_at - interval '10 minutes' end,
  case when status = 3 then starts_at + interval '30 minutes' end,
  least(starts_at - interval '14 days', now()), least(starts_at, now())
from t`;

/** Fills a PostgreSQL database with `clinics` clinics sharing `patients` patients and `appointments` appointments. */
export async function seedVolume(options: VolumeOptions): Promise<VolumeResult> {
  const log = options.log ?? (() => {});
  const batchSize = options.batchSize ?? 50_000;
  const handle = await openDatabase({ kind: 'postgresql', url: options.databaseUrl });
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    await applyMigrations(handle);
    // Durability is not the point of a generated data set; this only relaxes this session's commits.
    await client.query('set synchronous_commit = off');
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const [organisation] = await handle.db.insert(organisations).values({ name: 'Volume benchmark clinics' }).returning();
    const result: VolumeResult = {
      clinics: [],
      rows: { patients: 0, phones: 0, appointments: 0, responses: 0, interventions: 0, codedVisits: 0, visitCodes: 0 },
      seconds: { patients: 0, phones: 0, appointments: 0, responses: 0, interventions: 0, codedVisits: 0, analyze: 0 },
    };
    const responses = options.responses ?? 0;
    const interventionTotal = options.interventions ?? 0;
    const tables = responses > 0 ? outcomeTables() : null;
    // With outcome data the clinics get what the reports read: referral sources and referring providers,
    // the interventional catalogue and the Provider Appointment Dashboard switched on.
    const outcomes = responses + interventionTotal > 0;
    const codedVisitTotal = options.codedVisits ?? 0;
    const codeParameters = codedVisitTotal > 0 ? codesParameters() : null;
    const share = (total: number, index: number) =>
      Math.floor(total / options.clinics) + (index < total % options.clinics ? 1 : 0);

    for (let index = 0; index < options.clinics; index++) {
      const number = index + 1;
      const name = `Volume clinic ${String(number).padStart(3, '0')}`;
      const clinic = await handle.db.transaction(async (tx) => {
        const [row] = await tx.insert(instances).values({ name, organisationId: organisation!.id }).returning();
        await seedInstanceDefaults(tx, row!.id);
        await tx.insert(instanceSettings).values(
          Object.entries({
            clinicName: name,
            defaultState: 'TX',
            timeZoneId: 'America/Chicago',
            timeZoneOffsetHours: '-6',
            ...(outcomes ? { enableProviderAppointmentDashboard: 'true' } : {}),
            // With coded visits the clinics use code pulls (campaigns and hot lists, issue #15).
            ...(codedVisitTotal > 0 ? { useCodePull: 'true' } : {}),
          }).map(([configurationId, configurationValue]) => ({ instanceId: row!.id, configurationId, configurationValue })),
        );
        const people = [
          { key: 'admin', role: RoleCode.Admin, firstName: 'Avery' },
          { key: 'staff', role: RoleCode.Staff, firstName: 'Sky' },
          { key: 'doctor1', role: RoleCode.Doctor, firstName: 'Dana' },
          { key: 'doctor2', role: RoleCode.Doctor, firstName: 'Luis' },
        ] as const;
        const created = await tx
          .insert(users)
          .values(
            people.map((person) => ({
              email: volumeEmail(person.key, number),
              firstName: person.firstName,
              lastName: `Volume ${number}`,
              role: person.role,
              instanceId: row!.id,
              passwordHash,
              status: 'active' as const,
            })),
          )
          .returning();
        await tx.insert(userInstances).values(created.map((user) => ({ userId: user.id, instanceId: row!.id })));
        const doctors = created.filter((user) => user.role === RoleCode.Doctor).map((user) => user.id);
        const catalogue = !outcomes
          ? []
          : await tx
              .insert(managedItems)
              .values(
                Object.entries({ ...volumeCatalogue, referrals: volumeReferrals }).flatMap(([listType, entries]) =>
                  entries.map((entry, position) => ({
                    instanceId: row!.id,
                    listType,
                    name: entry.name,
                    attributes: findManagedList(listType)!.attributes.parse(entry.attributes) as Record<string, unknown>,
                    sortOrder: (position + 1) * 10,
                  })),
                ),
              )
              .returning({ id: managedItems.id, listType: managedItems.listType });
        const itemsOf = (listType: string) => catalogue.filter((item) => item.listType === listType).map((item) => item.id);
        return {
          id: row!.id,
          doctors,
          lists: await readDemoLists(tx, row!.id),
          procedures: itemsOf('interventionalitems:1'),
          injections: itemsOf('interventionalitems:2'),
          referrals: itemsOf('referrals'),
        };
      });
      const { lists } = clinic;
      const idOf = (items: { id: string; name: string }[], wanted: string) => items.find((item) => item.name === wanted)!.id;
      const patientCount = share(options.patients, index);
      const appointmentCount = patientCount === 0 ? 0 : share(options.appointments, index);

      let started = performance.now();
      for (let from = 1; from <= patientCount; from += batchSize) {
        const to = Math.min(patientCount, from + batchSize - 1);
        await client.query(PATIENTS_SQL, [
          clinic.id,
          from,
          to,
          hispanicFemaleNames,
          hispanicMaleNames,
          hispanicLastNames,
          otherFemaleNames,
          otherMaleNames,
          otherLastNames,
          places.map(([city]) => city),
          places.map(([, zip]) => zip),
          streets,
          [idOf(lists.gender, 'Male'), idOf(lists.gender, 'Female')],
          lists.maritalstatus.map((item) => item.id),
          [idOf(lists.ethnicity, 'Hispanic or Latino'), idOf(lists.ethnicity, 'Not Hispanic or Latino')],
          lists.occupationstatus.map((item) => item.id),
          lists.payorstatus.map((item) => item.id),
          clinic.doctors,
          clinic.referrals,
        ]);
      }
      result.seconds.patients += (performance.now() - started) / 1000;
      started = performance.now();
      let phones = 0;
      for (let from = 1; from <= patientCount; from += batchSize) {
        const to = Math.min(patientCount, from + batchSize - 1);
        phones += (await client.query(PHONES_SQL, [clinic.id, from, to])).rowCount ?? 0;
      }
      result.seconds.phones += (performance.now() - started) / 1000;
      started = performance.now();
      for (let from = 1; from <= appointmentCount; from += batchSize) {
        const to = Math.min(appointmentCount, from + batchSize - 1);
        await client.query(APPOINTMENTS_SQL, [
          clinic.id,
          from,
          to,
          patientCount,
          clinic.doctors,
          lists.appointmenttype.map((item) => item.id),
          lists.rooms.map((item) => item.id),
          lists.bodylocations.map((item) => item.id),
        ]);
      }
      result.seconds.appointments += (performance.now() - started) / 1000;
      const responseCount = patientCount === 0 ? 0 : share(responses, index);
      const interventionCount = patientCount === 0 ? 0 : share(interventionTotal, index);
      const span = responseSpanDays(patientCount === 0 ? 0 : Math.ceil(responseCount / patientCount));
      started = performance.now();
      for (let from = 1; from <= responseCount; from += batchSize) {
        const to = Math.min(responseCount, from + batchSize - 1);
        await client.query(RESPONSES_SQL, [clinic.id, from, to, patientCount, span, ...responsesParameters(tables!)]);
      }
      result.seconds.responses += (performance.now() - started) / 1000;
      started = performance.now();
      for (let from = 1; from <= interventionCount; from += batchSize) {
        const to = Math.min(interventionCount, from + batchSize - 1);
        await client.query(INTERVENTIONS_SQL, [
          clinic.id,
          from,
          to,
          patientCount,
          span,
          clinic.injections,
          clinic.procedures,
          clinic.doctors,
        ]);
      }
      result.seconds.interventions += (performance.now() - started) / 1000;
      const codedVisitCount = patientCount === 0 ? 0 : share(codedVisitTotal, index);
      started = performance.now();
      for (let from = 1; from <= codedVisitCount; from += batchSize) {
        const to = Math.min(codedVisitCount, from + batchSize - 1);
        const inserted = await client.query(CODED_VISITS_SQL, [
          clinic.id,
          from,
          to,
          ...codeParameters!,
          patientCount,
          clinic.doctors,
        ]);
        result.rows.visitCodes += inserted.rowCount ?? 0;
      }
      result.seconds.codedVisits += (performance.now() - started) / 1000;
      result.rows.codedVisits += codedVisitCount;
      result.rows.responses += responseCount;
      result.rows.interventions += interventionCount;
      result.rows.patients += patientCount;
      result.rows.phones += phones;
      result.rows.appointments += appointmentCount;
      result.clinics.push({
        id: clinic.id,
        name,
        patients: patientCount,
        appointments: appointmentCount,
        responses: responseCount,
        interventions: interventionCount,
        codedVisits: codedVisitCount,
      });
      if (number === options.clinics || number % Math.max(1, Math.ceil(options.clinics / 20)) === 0) {
        const rate = (rows: number, seconds: number) => Math.round(rows / Math.max(seconds, 0.001)).toLocaleString('en-US');
        log(
          `${number}/${options.clinics} clinics · patients ${result.rows.patients.toLocaleString('en-US')} (${rate(result.rows.patients, result.seconds.patients)}/s) · phones ${result.rows.phones.toLocaleString('en-US')} (${rate(result.rows.phones, result.seconds.phones)}/s) · appointments ${result.rows.appointments.toLocaleString('en-US')} (${rate(result.rows.appointments, result.seconds.appointments)}/s)` +
            (responses + interventionTotal > 0
              ? ` · responses ${result.rows.responses.toLocaleString('en-US')} (${rate(result.rows.responses, result.seconds.responses)}/s) · interventions ${result.rows.interventions.toLocaleString('en-US')} (${rate(result.rows.interventions, result.seconds.interventions)}/s)`
              : '') +
            (codedVisitTotal > 0
              ? ` · coded visits ${result.rows.codedVisits.toLocaleString('en-US')} (${rate(result.rows.codedVisits, result.seconds.codedVisits)}/s)`
              : ''),
        );
      }
    }
    const started = performance.now();
    // Fresh statistics, or the planner guesses on a table that grew from nothing.
    await client.query('analyze patients, patient_phone_numbers, appointments, form_responses, interventions');
    // A code pull reads coded_visit_codes from its index alone: that needs the visibility map a vacuum sets.
    if (codedVisitTotal > 0) await client.query('vacuum analyze coded_visits, coded_visit_codes');
    result.seconds.analyze = (performance.now() - started) / 1000;
    return result;
  } finally {
    await client.end();
    await handle.close();
  }
}
