import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enumerations } from '@pathwell/contracts/enumerations';
import type { ManagedItemPage } from '@pathwell/contracts/managed-lists';
import type { PatientView } from '@pathwell/contracts/patients';
import { isValidNpi } from '@pathwell/contracts/user-admin';
import { headlineOf, scoreForm } from '@pathwell/instruments';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';
import { formResponses, instances, patientLinks, patients } from '../schema';
import { DEMO_LUMBAR_TFESI } from './demo-care';
import {
  buildReferralsAndHistory,
  buildReportCohort,
  DEMO_LUMBAR_ILESI,
  DEMO_REFERRING_PROVIDERS,
  DEMO_SUCCESS_STORIES,
  type CohortInput,
} from './demo-reports';

/** What the outcome reports (issue #14) have to show in the demo clinic. */
let t: TestApp;
let admin: { headers: Record<string, string>; id: string };
let riverside: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, 'admin@pathwell.demo');
  const [clinic] = await t.db.select().from(instances).where(eq(instances.name, 'Riverside Spine & Pain'));
  riverside = clinic!.id;
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin.headers, remoteAddress: nextIp() });
const rowsOf = async <T>(query: ReturnType<typeof sql>) => ((await t.db.execute(query)) as unknown as { rows: T[] }).rows;

describe('demo referrals and clinical history', () => {
  it("lists the referring providers in Riverside's Referrals list, each NPI with a valid check digit", async () => {
    const page = (await get('/api/referrals?pageSize=100')).json<ManagedItemPage>();
    const names = page.data.map((item) => item.name);
    expect(names).toEqual(expect.arrayContaining(DEMO_REFERRING_PROVIDERS.map((provider) => provider.name)));
    for (const item of page.data) {
      expect(isValidNpi(item.attributes.npi as string)).toBe(true);
      expect(item.attributes.practice).toBeTruthy();
    }
  });

  it('gives most patients a referral source, physician referrals a provider of the list, and valid histories', async () => {
    const rows = await t.db.select().from(patients).where(eq(patients.instanceId, riverside));
    const withSource = rows.filter((row) => row.referralSource !== null);
    expect(withSource.length / rows.length).toBeGreaterThan(0.85);
    const referred = rows.filter((row) => row.referringProviderId !== null);
    expect(referred.length).toBeGreaterThan(40);
    expect(referred.every((row) => row.referralSource === 1)).toBe(true);
    const providers = new Set(referred.map((row) => row.referringProviderId));
    expect(providers.size).toBe(DEMO_REFERRING_PROVIDERS.length);
    for (const type of ['diseaseStates', 'psychiatricHistory', 'surgicalHistory'] as const) {
      const values = new Set(enumerations[type].map((option) => option.value));
      const none = enumerations[type].find((option) => option.label.en === 'None')!.value as number;
      const filled = rows.filter((row) => row[type].length > 0);
      expect(filled.length / rows.length).toBeGreaterThan(0.8);
      expect(rows.some((row) => row[type].length > 0 && !row[type].includes(none))).toBe(true);
      for (const row of rows) {
        expect(row[type].every((code) => values.has(code))).toBe(true);
        if (row[type].includes(none)) expect(row[type]).toEqual([none]);
      }
    }
  });

  it('has two shared success stories and one not shared, shown on the patient record', async () => {
    const rows = await t.db
      .select()
      .from(patients)
      .where(and(eq(patients.instanceId, riverside), sql`${patients.successStory} is not null`));
    expect(rows.map((row) => row.successStory).sort()).toEqual([...DEMO_SUCCESS_STORIES].sort());
    expect(rows.filter((row) => row.successStorySharedAt !== null)).toHaveLength(2);
    for (const row of rows) {
      expect(row.successStorySharedAt === null || row.successStorySharedAt.getTime() <= Date.now()).toBe(true);
    }
    const view = (await get(`/api/patients/${rows[0]!.id}`)).json<PatientView>();
    expect(view.successStory).toBe(rows[0]!.successStory);
  });

  it('builds the same referrals and histories from the same seed', () => {
    const ids = Array.from({ length: 30 }, (_, index) => `patient-${index}`);
    expect(buildReferralsAndHistory(14, ids, ['a', 'b'])).toEqual(buildReferralsAndHistory(14, ids, ['a', 'b']));
    expect(buildReferralsAndHistory(15, ids, ['a', 'b'])).not.toEqual(buildReferralsAndHistory(14, ids, ['a', 'b']));
  });
});

describe('demo outcome data', () => {
  /**
   * Patients with a PDI answer at baseline (their first PDI) and at each 4-week mark after it, the mark
   * being the nearest multiple of 4 weeks (the data sandbox's visit windows).
   */
  async function pdiPatientsByWeek() {
    const rows = await rowsOf<{ week: number; patients: number }>(sql`
      with answers as (
        select patient_id, submitted_at, min(submitted_at) over (partition by patient_id) as first
        from form_responses where instance_id = ${riverside} and form_code = 4
      )
      select (round(extract(epoch from submitted_at - first) / 86400 / 28) * 4)::int as week,
             count(distinct patient_id)::int as patients
      from answers group by 1 order by 1`);
    return Object.fromEntries(rows.map((row) => [row.week, row.patients])) as Record<number, number>;
  }

  it('has PDI answers for at least 20 patients at baseline and at least 8 at weeks 4, 8, 12 and 24', async () => {
    const weeks = await pdiPatientsByWeek();
    expect(weeks[0]).toBeGreaterThanOrEqual(20);
    for (const week of [4, 8, 12, 24]) expect(weeks[week], `week ${week}`).toBeGreaterThanOrEqual(8);
  });

  it('scores every answer with the real scoring, and most (not all) cohort patients improve by 7 PDI points (a tenth of its 0–70)', async () => {
    const rows = await t.db
      .select()
      .from(formResponses)
      .where(and(eq(formResponses.instanceId, riverside), sql`${formResponses.formCode} in (4, 11)`));
    for (const row of rows) {
      const scores = scoreForm(row.formCode as 4 | 11, row.answers as Record<string, number>);
      expect(row.scores).toEqual(scores);
      // Stored as numeric(9, 4).
      expect(row.headlineScore).toBeCloseTo(headlineOf(row.formCode as 4 | 11, scores).score!, 4);
    }
    expect(rows.some((row) => row.formCode === 11)).toBe(true);
    const changes = await rowsOf<{ change: number }>(sql`
      with answers as (
        select patient_id, headline_score::float as score, submitted_at,
               first_value(headline_score::float) over w as baseline,
               first_value(submitted_at) over w as first
        from form_responses where instance_id = ${riverside} and form_code = 4
        window w as (partition by patient_id order by submitted_at)
      )
      select distinct on (patient_id) baseline - score as change
      from answers where submitted_at - first >= interval '70 days'
      order by patient_id, submitted_at desc`);
    const improved = changes.filter((row) => row.change >= 7).length;
    expect(changes.length).toBeGreaterThan(20);
    expect(improved / changes.length).toBeGreaterThan(0.5);
    expect(improved / changes.length).toBeLessThan(0.95);
  });

  it('has patients with a lumbar injection in the last year and PDI answers before (or that day) and after it', async () => {
    const rows = await rowsOf<{ patient_id: string }>(sql`
      select distinct i.patient_id from interventions i
      join managed_items m on m.id = i.item_id
      where i.instance_id = ${riverside} and i.deleted_at is null and m.name in (${DEMO_LUMBAR_TFESI}, ${DEMO_LUMBAR_ILESI})
        and i.performed_on >= current_date - 365
        and exists (select 1 from form_responses r where r.instance_id = i.instance_id and r.patient_id = i.patient_id
                    and r.form_code = 4 and r.submitted_at::date <= i.performed_on
                    and r.submitted_at::date >= i.performed_on - 90)
        and exists (select 1 from form_responses r where r.instance_id = i.instance_id and r.patient_id = i.patient_id
                    and r.form_code = 4 and r.submitted_at::date > i.performed_on)`);
    expect(rows.length).toBeGreaterThanOrEqual(8);
    // Counted from the injection, some reach the 24-week window (22 to 26 weeks after it).
    const [late] = await rowsOf<{ patients: number }>(sql`
      select count(distinct i.patient_id)::int as patients from interventions i
      join form_responses r on r.instance_id = i.instance_id and r.patient_id = i.patient_id and r.form_code = 4
      where i.instance_id = ${riverside} and r.submitted_at::date - i.performed_on between 154 and 182`);
    expect(late!.patients).toBeGreaterThanOrEqual(5);
  });

  it('keeps a pain score on every completed visit', async () => {
    const [row] = await rowsOf<{ missing: number }>(sql`
      select count(*)::int as missing from appointments
      where instance_id = ${riverside} and status = 3 and pain_score is null and deleted_at is null`);
    expect(row!.missing).toBe(0);
  });

  it('marks answered links opened before they were completed, and some unanswered ones opened', async () => {
    const links = await t.db
      .select()
      .from(patientLinks)
      .where(and(eq(patientLinks.instanceId, riverside), sql`${patientLinks.kind} in ('form', 'intake')`));
    const answered = links.filter((link) => link.completedAt !== null);
    expect(answered.length).toBeGreaterThan(20);
    expect(answered.every((link) => link.openedAt !== null && link.openedAt <= link.completedAt!)).toBe(true);
    expect(answered.every((link) => link.createdAt <= link.completedAt!)).toBe(true);
    const open = links.filter((link) => link.completedAt === null);
    expect(open.some((link) => link.openedAt !== null)).toBe(true);
    expect(open.some((link) => link.openedAt === null)).toBe(true);
  });

  it('builds the same cohort from the same seed and day', () => {
    const now = new Date('2026-03-04T15:00:00Z');
    const input: CohortInput = {
      instanceId: riverside,
      seed: 14,
      now,
      timeZone: 'America/Chicago',
      patients: Array.from({ length: 12 }, (_, index) => ({
        id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
        createdAt: new Date(now.getTime() - (400 - index) * 86_400_000),
        preferredLanguage: 'en' as const,
        doctorId: null,
      })),
      visits: [],
      types: { newPatient: null, followUp: null, procedure: null, postProcedure: null },
      rooms: [],
      lowerBack: null,
      injectionItems: ['item'],
    };
    const withoutIds = (rows: ReturnType<typeof buildReportCohort>) =>
      JSON.stringify(rows, (key, value: unknown) =>
        ['id', 'appointmentId', 'linkId', 'idempotencyKey', 'tokenHash'].includes(key) ? undefined : value,
      );
    const first = buildReportCohort(input);
    expect(first.responses.length).toBeGreaterThan(40);
    expect(withoutIds(buildReportCohort(input))).toEqual(withoutIds(first));
    expect(withoutIds(buildReportCohort({ ...input, seed: 15 }))).not.toEqual(withoutIds(first));
  });
});
