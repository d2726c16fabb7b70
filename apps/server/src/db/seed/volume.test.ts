import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUrl } from '../../../test/global-setup';
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

  it('lets the staff user of each clinic sign in with the demo password', async () => {
    const { rows } = await client.query<{ email: string }>(`select email from users where role = 2 order by email`);
    expect(rows.map((row) => row.email)).toEqual([
      'staff.001@volume.pathwell.test',
      'staff.002@volume.pathwell.test',
      'staff.003@volume.pathwell.test',
    ]);
  });
});
