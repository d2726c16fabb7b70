import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUrl } from '../../../test/global-setup';
import { visitCodeKindOf } from '@pathwell/contracts/outreach';
import { seedVolume, type VolumeResult } from './volume';

// The volume generator speaks PostgreSQL only (PGlite would take minutes for a million rows); this
// file runs when the suite is pointed at a server with DATABASE_URL.
const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(!databaseUrl)('volume seed on PostgreSQL', () => {
  const name = `pathwell_volume_test_${process.pid}_${Date.now()}`;
  let client: pg.Client;
  let result: VolumeResult;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl(databaseUrl!) });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    result = await seedVolume({
      databaseUrl: adminUrl(databaseUrl!, name),
      patients: 301,
      appointments: 1500,
      clinics: 3,
      batchSize: 40,
    });
    client = new pg.Client({ connectionString: adminUrl(databaseUrl!, name) });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    const admin = new pg.Client({ connectionString: adminUrl(databaseUrl!) });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('shares the requested patients and appointments among the requested clinics', async () => {
    expect(result.clinics.map((clinic) => clinic.patients)).toEqual([101, 100, 100]);
    expect(result.rows).toMatchObject({ patients: 301, appointments: 1500 });
    const { rows } = await client.query<{ instance_id: string; patients: number; appointments: number }>(`
      select i.id as instance_id,
        (select count(*)::int from patients p where p.instance_id = i.id) as patients,
        (select count(*)::int from appointments a where a.instance_id = i.id) as appointments
      from instances i order by i.name`);
    expect(rows.map((row) => row.patients)).toEqual([101, 100, 100]);
    expect(rows.reduce((sum, row) => sum + row.appointments, 0)).toBe(1500);
  });

  it("points every appointment at a patient and doctor of its own clinic, with the patient's doctor", async () => {
    const { rows } = await client.query<{ bad: number }>(`
      select count(*)::int as bad from appointments a
      left join patients p on p.id = a.patient_id
      left join users u on u.id = a.doctor_id
      where p.id is null or p.instance_id <> a.instance_id or u.instance_id <> a.instance_id
         or p.doctor_id is distinct from a.doctor_id`);
    expect(rows[0]!.bad).toBe(0);
  });

  it('fills the generated search column and every appointment status, with pain only on completed visits', async () => {
    const search = await client.query<{ count: number }>(
      `select count(*)::int as count from patients where search_name is null or search_name ~ '[áéíóúñ]'`,
    );
    expect(search.rows[0]!.count).toBe(0);
    const statuses = await client.query<{ status: number; pain: number }>(
      `select status, count(pain_score)::int as pain from appointments group by status order by status`,
    );
    expect(statuses.rows.map((row) => row.status)).toEqual(expect.arrayContaining([2, 3, 4]));
    expect(statuses.rows.filter((row) => row.status !== 3).every((row) => row.pain === 0)).toBe(true);
    const phones = await client.query<{ missing: number }>(`
      select count(*)::int as missing from patients p
      where not exists (select 1 from patient_phone_numbers n where n.patient_id = p.id and n.phone_type = 7)`);
    expect(phones.rows[0]!.missing).toBe(0);
  });

  it('adds no outcome data unless asked', async () => {
    const { rows } = await client.query<{ n: number }>(`
      select (select count(*)::int from form_responses) + (select count(*)::int from interventions)
        + (select count(*)::int from patients where referral_source is not null) as n`);
    expect(rows[0]!.n).toBe(0);
  });

  it('lets the staff user of each clinic sign in with the demo password', async () => {
    const { rows } = await client.query<{ email: string }>(`select email from users where role = 2 order by email`);
    expect(rows.map((row) => row.email)).toEqual([
      'staff.001@volume.pathwell.test',
      'staff.002@volume.pathwell.test',
      'staff.003@volume.pathwell.test',
    ]);
  });
});

describe.skipIf(!databaseUrl)('volume seed with outcome data on PostgreSQL', () => {
  const names = [1, 2].map((run) => `pathwell_volume_outcomes_${process.pid}_${Date.now()}_${run}`);
  const clients: pg.Client[] = [];
  let result: VolumeResult;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl(databaseUrl!) });
    await admin.connect();
    for (const name of names) await admin.query(`create database ${name}`);
    await admin.end();
    for (const name of names) {
      result = await seedVolume({
        databaseUrl: adminUrl(databaseUrl!, name),
        patients: 50,
        appointments: 200,
        clinics: 2,
        responses: 300,
        interventions: 20,
        batchSize: 70,
      });
      const client = new pg.Client({ connectionString: adminUrl(databaseUrl!, name) });
      await client.connect();
      clients.push(client);
    }
  }, 60_000);
  afterAll(async () => {
    for (const client of clients) await client.end();
    const admin = new pg.Client({ connectionString: adminUrl(databaseUrl!) });
    await admin.connect();
    for (const name of names) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('shares the responses and interventions among the clinics, each on a patient of its own clinic', async () => {
    expect(result.rows).toMatchObject({ patients: 50, responses: 300, interventions: 20 });
    expect(result.clinics.map((clinic) => [clinic.patients, clinic.responses, clinic.interventions])).toEqual([
      [25, 150, 10],
      [25, 150, 10],
    ]);
    const { rows } = await clients[0]!.query<{ responses: number; interventions: number; strays: number; items: number }>(`
      select (select count(*)::int from form_responses) as responses, (select count(*)::int from interventions) as interventions,
        (select count(*)::int from form_responses r join patients p on p.id = r.patient_id where p.instance_id <> r.instance_id)
        + (select count(*)::int from interventions i join patients p on p.id = i.patient_id where p.instance_id <> i.instance_id)
        + (select count(*)::int from interventions i join managed_items m on m.id = i.item_id
           where m.instance_id <> i.instance_id or m.list_type <> 'interventionalitems:' || case i.kind when 'procedure' then 1 else 2 end)
          as strays,
        (select count(*)::int from interventions where item_id is null or performed_on > current_date) as items`);
    expect(rows[0]).toEqual({ responses: 300, interventions: 20, strays: 0, items: 0 });
  });

  it('scores every response within its form, the headline agreeing with the scores, none in the future', async () => {
    const { rows } = await clients[0]!.query<{ form_code: number; low: number; high: number; off: number; future: number }>(`
      select form_code, min(headline_score)::float8 as low, max(headline_score)::float8 as high,
        count(*) filter (where headline_score is distinct from (scores ->> case form_code when 2 then 'odiPercent'
          when 3 then 'ndiPercent' when 7 then 'gphT' else 'total' end)::numeric)::int as off,
        count(*) filter (where submitted_at > now())::int as future
      from form_responses group by form_code order by form_code`);
    const ranges: Record<number, [number, number]> = { 2: [0, 100], 3: [0, 100], 7: [16.2, 67.7], 11: [0, 27] };
    expect(rows.map((row) => row.form_code)).toContain(2);
    for (const row of rows) {
      const [low, high] = ranges[row.form_code]!;
      expect(row.low).toBeGreaterThanOrEqual(low);
      expect(row.high).toBeLessThanOrEqual(high);
      expect(row).toMatchObject({ off: 0, future: 0 });
    }
  });

  it('follows each patient from a baseline to later follow-ups that improve on average', async () => {
    const { rows } = await clients[0]!.query<{ visit: number; days: number; change: number }>(`
      with r as (
        select headline_score, submitted_at,
          row_number() over (partition by patient_id, form_code order by submitted_at) - 1 as visit,
          first_value(submitted_at) over (partition by patient_id, form_code order by submitted_at) as baseline_at,
          first_value(headline_score) over (partition by patient_id, form_code order by submitted_at) as baseline
        from form_responses where form_code = 2)
      select visit::int, avg(extract(epoch from submitted_at - baseline_at) / 86400)::float8 as days,
        avg(headline_score - baseline)::float8 as change
      from r where visit <= 4 group by visit order by visit`);
    expect(rows.map((row) => Math.round(row.days / 7))).toEqual([0, 4, 8, 12, 24]);
    // ODI: lower is better, so the mean change from baseline is negative at every follow-up.
    expect(rows.slice(1).every((row) => row.change < 0)).toBe(true);
  });

  it('gives most patients a referral source, physician referrals a referring provider, and turns on the provider dashboard', async () => {
    const { rows } = await clients[0]!.query<{ sourced: number; providers: number; stray: number; flags: number }>(`
      select count(*) filter (where referral_source between 1 and 12)::int as sourced,
        count(referring_provider_id)::int as providers,
        count(*) filter (where (referral_source = 1) <> (referring_provider_id is not null))::int as stray,
        (select count(*)::int from instance_settings
         where configuration_id = 'enableProviderAppointmentDashboard' and configuration_value = 'true') as flags
      from patients`);
    expect(rows[0]!.sourced).toBeGreaterThan(30);
    expect(rows[0]!.providers).toBeGreaterThan(5);
    expect(rows[0]).toMatchObject({ stray: 0, flags: 2 });
  });

  it('makes the same rows on every run', async () => {
    const digest = `
      select md5(string_agg(line, ',' order by line)) as digest from (
        select concat_ws('|', p.first_name, p.last_name, p.date_of_birth, r.form_code, r.language, r.submitted_at,
          r.headline_score, r.band, r.scores::text, r.answers::text) as line
        from form_responses r join patients p on p.id = r.patient_id
        union all
        select concat_ws('|', p.first_name, p.last_name, p.date_of_birth, i.kind, m.name, i.performed_on, i.side)
        from interventions i join patients p on p.id = i.patient_id join managed_items m on m.id = i.item_id) lines`;
    const [first, second] = await Promise.all(clients.map((client) => client.query<{ digest: string }>(digest)));
    expect(first!.rows[0]!.digest).toBe(second!.rows[0]!.digest);
  });
});

describe.skipIf(!databaseUrl)('volume coded visits on PostgreSQL', () => {
  const name = `pathwell_volume_codes_${process.pid}_${Date.now()}`;
  let client: pg.Client;
  let result: VolumeResult;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl(databaseUrl!) });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    result = await seedVolume({
      databaseUrl: adminUrl(databaseUrl!, name),
      patients: 60,
      appointments: 0,
      clinics: 2,
      codedVisits: 400,
      batchSize: 70,
    });
    client = new pg.Client({ connectionString: adminUrl(databaseUrl!, name) });
    await client.connect();
  }, 60_000);
  afterAll(async () => {
    await client?.end();
    const admin = new pg.Client({ connectionString: adminUrl(databaseUrl!) });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('gives each clinic its coded visits, 1–3 valid codes each on a patient and doctor of its own clinic', async () => {
    expect(result.rows.codedVisits).toBe(400);
    expect(result.clinics.map((clinic) => clinic.codedVisits)).toEqual([200, 200]);
    const { rows } = await client.query<Record<string, number>>(`
      select (select count(*)::int from coded_visits) as visits,
        (select count(*)::int from coded_visits where cardinality(codes) not between 1 and 3) as bad_sizes,
        (select count(*)::int from coded_visit_codes) as codes,
        (select coalesce(sum(cardinality(codes)), 0)::int from coded_visits) as expected_codes,
        (select count(*)::int from coded_visits v join patients p on p.id = v.patient_id where p.instance_id <> v.instance_id)
        + (select count(*)::int from coded_visits v join users u on u.id = v.provider_id where u.instance_id <> v.instance_id)
        + (select count(*)::int from coded_visit_codes c join coded_visits v on v.id = c.coded_visit_id
           where c.patient_id <> v.patient_id or c.visit_date <> v.visit_date or c.provider_id is distinct from v.provider_id)
          as strays,
        (select count(*)::int from coded_visits where visit_date > current_date or visit_date < current_date - 1095) as dates,
        (select count(*)::int from instance_settings where configuration_id = 'useCodePull' and configuration_value = 'true') as flags`);
    expect(rows[0]).toMatchObject({ visits: 400, bad_sizes: 0, strays: 0, dates: 0, flags: 2 });
    expect(rows[0]!.codes).toBe(rows[0]!.expected_codes);
    const kinds = await client.query<{ code: string; kind: string }>(`select distinct code, kind from coded_visit_codes`);
    for (const { code, kind } of kinds.rows) expect(visitCodeKindOf(code)).toBe(kind);
  });
});
