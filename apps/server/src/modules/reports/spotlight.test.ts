import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import type { SpotlightPage } from '@pathwell/contracts/reports-spotlight';
import {
  activityLogs,
  appointments,
  formResponses,
  instances,
  interventions,
  managedItems,
  patients,
  users,
} from '../../db/schema';
import { pdfText } from '../../../test/pdf-text';
import { createTestApp, nextIp, setInstanceSetting, signIn, type TestApp } from '../../../test/test-app';
import { renderSpotlightPdf } from './spotlight.pdf';
import { spotlightMeasure } from './spotlight-measure';

let t: TestApp;
let riverside: string;
let lakeside: string;
let doctorId: string;
let adminId: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};
const ids = {} as Record<'r1' | 'r2' | 'p1' | 'p2' | 'p3' | 'p4' | 'p5' | 'lake', string>;

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, as: string | null, payload?: object) =>
  t.app.inject({ method, url, headers: as ? tokens[as]!.headers : {}, payload, remoteAddress: nextIp() });
const spotlight = async (body: object, as = 'admin') => {
  const response = await call('POST', '/api/reports/patientsspotlight', as, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SpotlightPage>();
};

/** Noon UTC: the same clinic day in Chicago. */
const noon = (day: string) => new Date(`${day}T12:00:00Z`);

async function newPatient(
  instanceId: string,
  firstName: string,
  lastName: string,
  doctor: string | null,
  referrer: string | null,
) {
  const [row] = await t.db
    .insert(patients)
    .values({ instanceId, firstName, lastName, dateOfBirth: '1960-02-03', doctorId: doctor, referringProviderId: referrer })
    .returning({ id: patients.id });
  return row!.id;
}

async function pain(
  instanceId: string,
  patientId: string,
  scores: [string, number][],
  status: number = AppointmentStatus.Completed,
  provider = doctorId,
) {
  await t.db
    .insert(appointments)
    .values(
      scores.map(([day, painScore]) => ({ instanceId, patientId, doctorId: provider, startsAt: noon(day), status, painScore })),
    );
}

async function odi(patientId: string, scores: [string, number][]) {
  await t.db.insert(formResponses).values(
    scores.map(([day, headlineScore]) => ({
      instanceId: riverside,
      patientId,
      formCode: 2,
      version: 'ODI 2.1a',
      language: 'en' as const,
      answers: {},
      headlineScore,
      idempotencyKey: randomUUID(),
      submittedAt: noon(day),
    })),
  );
}

const pageCount = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type \/Page(?!s)/g)?.length ?? 0;

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  await setInstanceSetting(t.db, riverside, 'timeZoneId', 'America/Chicago');
  for (const who of ['staff', 'doctor', 'admin', 'admin2']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  const people = await t.db.select().from(users);
  doctorId = people.find((user) => user.email === 'doctor@pathwell.demo')!.id;
  adminId = people.find((user) => user.email === 'admin@pathwell.demo')!.id;

  const referrer = async (name: string) =>
    (await t.db.insert(managedItems).values({ instanceId: riverside, listType: 'referrals', name }).returning())[0]!.id;
  ids.r1 = await referrer('Dr. Ada Spotlight');
  ids.r2 = await referrer('Dr. Ben Spotlight');

  ids.p1 = await newPatient(riverside, 'Spot', 'Álvarez', doctorId, ids.r1);
  ids.p2 = await newPatient(riverside, 'Spot', 'Brown', doctorId, ids.r1);
  ids.p3 = await newPatient(riverside, 'Spot', 'Castro', adminId, ids.r2);
  ids.p4 = await newPatient(riverside, 'Spot', 'Diaz', doctorId, ids.r1);
  ids.p5 = await newPatient(riverside, 'Spot', 'Evans', doctorId, ids.r1);
  ids.lake = await newPatient(lakeside, 'Spot', 'Lake', null, null);

  // Pain (MCID 2). p1: 8 → 3 six weeks later (5 better = 2.5 MCID); the 2-week 6 is neither baseline nor latest,
  // and a no-show's 0 is not a visit score. p2: 7 → 4 (3 = 1.5 MCID). p3: 9 → 5 (4 = 2.0 MCID, exactly at factor 2).
  // p4: 6 → 6 (no change). p5: 8 → 2 but only three weeks later: no latest, never listed.
  await pain(riverside, ids.p1, [
    ['2026-01-05', 8],
    ['2026-01-19', 6],
    ['2026-02-16', 3],
  ]);
  await pain(riverside, ids.p1, [['2026-03-02', 0]], AppointmentStatus.No_Show);
  await pain(riverside, ids.p2, [
    ['2026-01-05', 7],
    ['2026-02-09', 4],
  ]);
  // p3 is the other provider's patient, seen by them only: the Doctor does not treat them (decision 0070).
  await pain(
    riverside,
    ids.p3,
    [
      ['2026-01-05', 9],
      ['2026-02-09', 5],
    ],
    AppointmentStatus.Completed,
    adminId,
  );
  await pain(riverside, ids.p4, [
    ['2026-01-05', 6],
    ['2026-02-09', 6],
  ]);
  await pain(riverside, ids.p5, [
    ['2026-01-05', 8],
    ['2026-01-26', 2],
  ]);
  await pain(lakeside, ids.lake, [
    ['2026-01-05', 9],
    ['2026-02-16', 1],
  ]);
  // ODI (MCID 10, lower is better). p1: 50 → 36 (14 = 1.4 MCID). p2: 40 → 45 (worse). p3: 60 → 30 (3.0 MCID).
  await odi(ids.p1, [
    ['2026-01-05', 50],
    ['2026-02-09', 36],
  ]);
  await odi(ids.p2, [
    ['2026-01-05', 40],
    ['2026-02-09', 45],
  ]);
  await odi(ids.p3, [
    ['2026-01-05', 60],
    ['2026-02-02', 30],
  ]);

  const [injection] = await t.db
    .insert(managedItems)
    .values({ instanceId: riverside, listType: 'interventionalitems:2', name: 'Lumbar ESI (spotlight)' })
    .returning();
  const [ablation] = await t.db
    .insert(managedItems)
    .values({ instanceId: riverside, listType: 'interventionalitems:1', name: 'Radiofrequency ablation (spotlight)' })
    .returning();
  await t.db.insert(interventions).values([
    // Between p1's baseline (01/05) and latest (02/16): listed.
    { instanceId: riverside, patientId: ids.p1, kind: 'injection', itemId: injection!.id, performedOn: '2026-01-10' },
    // Deleted: never listed.
    {
      instanceId: riverside,
      patientId: ids.p1,
      kind: 'procedure',
      itemId: ablation!.id,
      performedOn: '2026-01-12',
      deletedAt: new Date(),
    },
    // After the latest pain score (02/16) but within the PDF's chart span? No: the chart ends at the last score.
    { instanceId: riverside, patientId: ids.p1, kind: 'procedure', itemId: ablation!.id, performedOn: '2026-03-01' },
  ]);
});

afterAll(async () => {
  await t?.close();
});

const mine = { referringProviderIds: [] as string[] };
beforeAll(() => {
  mine.referringProviderIds = [ids.r1, ids.r2];
});

describe('POST /api/reports/patientsspotlight', () => {
  it('lists patients improved by at least one MCID of pain, best first, with procedures in between', async () => {
    const page = await spotlight({ ...mine });
    // Improvements 5 (p1), 4 (p3), 3 (p2) ≥ 1 × 2; p4 0, p5 has no score 4+ weeks after baseline.
    expect(page.totalRecords).toBe(3);
    expect(page.measure).toMatchObject({ formCode: null, mcid: 2, higherIsBetter: false, maximum: 10 });
    expect(page.data.map((row) => row.patientId)).toEqual([ids.p1, ids.p3, ids.p2]);
    expect(page.data[0]).toEqual({
      patientId: ids.p1,
      fullName: 'Spot Álvarez',
      referringProvider: 'Dr. Ada Spotlight',
      baseline: { date: '2026-01-05', score: 8 },
      latest: { date: '2026-02-16', score: 3 },
      improvement: 5,
      improvementInMcids: 2.5,
      procedures: [{ name: 'Lumbar ESI (spotlight)', performedOn: '2026-01-10', kind: 'injection' }],
      successStoryShared: false,
      successStory: null,
    });
    expect(page.data[1]).toMatchObject({
      improvement: 4,
      improvementInMcids: 2,
      procedures: [],
      referringProvider: 'Dr. Ben Spotlight',
    });
    expect(page.data[2]).toMatchObject({ improvement: 3, improvementInMcids: 1.5 });
  });

  it('at factor 2 keeps improvements of 4 points or more (p3 exactly at the threshold)', async () => {
    const page = await spotlight({ ...mine, improvementFactor: 2 });
    expect(page.totalRecords).toBe(2);
    expect(page.data.map((row) => row.patientId)).toEqual([ids.p1, ids.p3]);
  });

  it('ranks by the ODI headline (lower is better, MCID 10) when asked', async () => {
    // p3 60 → 30 = 3.0 MCID; p1 50 → 36 = 1.4; p2 got worse.
    const one = await spotlight({ ...mine, formCode: 2 });
    expect(one.measure).toMatchObject({ formCode: 2, mcid: 10, higherIsBetter: false, maximum: 100 });
    expect(one.data.map((row) => [row.patientId, row.improvement, row.improvementInMcids])).toEqual([
      [ids.p3, 30, 3],
      [ids.p1, 14, 1.4],
    ]);
    expect(one.data[1]!.latest).toEqual({ date: '2026-02-09', score: 36 });
    expect(one.data[1]!.procedures.map((procedure) => procedure.performedOn)).toEqual(['2026-01-10']);
    const two = await spotlight({ ...mine, formCode: 2, improvementFactor: 2 });
    expect(two.data.map((row) => row.patientId)).toEqual([ids.p3]);
  });

  it('filters by referring provider and by first and last name (accents and case folded)', async () => {
    expect((await spotlight({ referringProviderIds: [ids.r2] })).data.map((row) => row.patientId)).toEqual([ids.p3]);
    const named = await spotlight({ ...mine, patientFirstName: 'SPOT', patientLastName: 'alvar' });
    expect(named.data.map((row) => row.patientId)).toEqual([ids.p1]);
    expect((await spotlight({ ...mine, patientLastName: '%' })).totalRecords).toBe(0);
  });

  it('pages: 2 a page, the second page holds the third patient and the total stays 3', async () => {
    const second = await spotlight({ ...mine, pageSize: 2, pageNumber: 1 });
    expect(second).toMatchObject({ totalRecords: 3, pageNumber: 1, pageSize: 2 });
    expect(second.data.map((row) => row.patientId)).toEqual([ids.p2]);
    const beyond = await spotlight({ ...mine, pageSize: 2, pageNumber: 5 });
    expect(beyond).toMatchObject({ totalRecords: 3, data: [] });
  });

  it('shows a Doctor only the patients they treat, whatever doctorId they send', async () => {
    const page = await spotlight({ ...mine, doctorId: adminId }, 'doctor');
    expect(page.data.map((row) => row.patientId)).toEqual([ids.p1, ids.p2]);
    // An Admin may narrow to one doctor.
    const narrowed = await spotlight({ ...mine, doctorId: adminId });
    expect(narrowed.data.map((row) => row.patientId)).toEqual([ids.p3]);
  });

  it("never lists another clinic's patients", async () => {
    const riversideNames = (await spotlight({ patientLastName: 'lake', pageSize: 100 })).data;
    expect(riversideNames).toEqual([]);
    const lakesidePage = await spotlight({ patientFirstName: 'spot', pageSize: 100 }, 'admin2');
    expect(lakesidePage.data.map((row) => row.patientId)).toEqual([ids.lake]);
  });

  it('audits the page as a patient list view', async () => {
    await spotlight({ ...mine, patientLastName: 'castro' });
    const entries = await t.db.select().from(activityLogs).where(eq(activityLogs.area, 'Patient List'));
    expect(
      entries.some((entry) => entry.description?.startsWith('Patient spotlight (Pain (0–10), factor 1), page 0, 1 patients')),
    ).toBe(true);
  });

  it('refuses a factor out of range and a form without a published MCID (400)', async () => {
    for (const [body, field] of [
      [{ improvementFactor: 0.2 }, 'improvementFactor'],
      [{ improvementFactor: 11 }, 'improvementFactor'],
      [{ formCode: 4 }, 'formCode'],
      [{ formCode: 16 }, 'formCode'],
      [{ patientLastName: 'x'.repeat(101) }, 'patientLastName'],
      [{ pageSize: 101 }, 'pageSize'],
    ] as const) {
      const response = await call('POST', '/api/reports/patientsspotlight', 'admin', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.json<{ fields: object }>().fields)).toContain(field);
    }
  });

  it('is 403 for Staff and 401 signed out', async () => {
    expect((await call('POST', '/api/reports/patientsspotlight', 'staff', {})).statusCode).toBe(403);
    expect((await call('POST', '/api/reports/patientsspotlight', null, {})).statusCode).toBe(401);
  });
});

describe('GET /api/patients/patientsspotlightpdf and PATCH hassuccessstorybeenshared', () => {
  const pdfOf = async (query: string, as: string | null = 'admin') => {
    const response = await call('GET', `/api/patients/patientsspotlightpdf?${query}`, as);
    return response;
  };

  it('answers a one-page PDF with the patient, referrer, scores and procedures, audited with the patient', async () => {
    const response = await pdfOf(`patientId=${ids.p1}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    // The download keeps the patient's accented letters, with a plain ASCII name for older clients.
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="spotlight-Spot-Alvarez.pdf"; filename*=UTF-8''spotlight-Spot-%C3%81lvarez.pdf`,
    );
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pageCount(pdf)).toBe(1);
    const text = await pdfText(pdf);
    expect(text).toContain('Patient progress summary');
    expect(text).toContain('Spot Álvarez');
    expect(text).toContain('Dr. Ada Spotlight');
    expect(text).toContain('Lumbar ESI (spotlight)');
    expect(text).not.toContain("In the patient's own words");
    // Baseline 8 on 01/05, latest 3 on 02/16: 5 points better, 2.5 × MCID, signed as an improvement (decision 0060).
    expect(text).toContain('Improvement: +5 points (2.5 × MCID, improved)');
    const audit = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, ids.p1), eq(activityLogs.action, 'Viewed')));
    expect(audit.some((entry) => entry.description?.includes('spotlight PDF'))).toBe(true);
  });

  it('prints the story only once the patient agreed to share it, in Spanish when asked', async () => {
    const story = 'Now I walk my dog every morning.';
    const notShared = await call('PATCH', '/api/patients/hassuccessstorybeenshared', 'staff', {
      patientId: ids.p1,
      shared: false,
      story,
    });
    expect(notShared.statusCode, notShared.body).toBe(200);
    expect(notShared.json()).toMatchObject({ patientId: ids.p1, successStory: story, successStorySharedAt: null });
    expect(await pdfText((await pdfOf(`patientId=${ids.p1}`)).rawPayload)).not.toContain('walk my dog');

    const shared = await call('PATCH', '/api/patients/hassuccessstorybeenshared', 'doctor', { patientId: ids.p1, shared: true });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json<{ successStory: string; successStorySharedAt: string }>().successStory).toBe(story);
    const text = await pdfText((await pdfOf(`patientId=${ids.p1}&language=es`)).rawPayload);
    expect(text).toContain('Resumen de la evolución del paciente');
    expect(text).toContain('En palabras del paciente');
    expect(text).toContain('walk my dog');
    const row = (await spotlight({ ...mine, patientLastName: 'alvarez' })).data[0]!;
    expect(row).toMatchObject({ successStoryShared: true, successStory: story });
    const audit = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, ids.p1), eq(activityLogs.action, 'Updated')));
    expect(audit.length).toBeGreaterThanOrEqual(2);
  });

  it("is 404 for another doctor's patient and for another clinic's, 400 for a form without MCID, 403/401", async () => {
    expect((await pdfOf(`patientId=${ids.p3}`, 'doctor')).statusCode).toBe(404);
    expect((await pdfOf(`patientId=${ids.p1}`, 'admin2')).statusCode).toBe(404);
    expect((await pdfOf(`patientId=${ids.p1}&formCode=4`)).statusCode).toBe(400);
    expect((await pdfOf(`patientId=not-an-id`)).statusCode).toBe(400);
    expect((await pdfOf(`patientId=${ids.p1}`, 'staff')).statusCode).toBe(403);
    expect((await pdfOf(`patientId=${ids.p1}`, null)).statusCode).toBe(401);
    const patch = (as: string | null, body: object) => call('PATCH', '/api/patients/hassuccessstorybeenshared', as, body);
    expect((await patch('doctor', { patientId: ids.p3, shared: true })).statusCode).toBe(404);
    expect((await patch('admin2', { patientId: ids.p1, shared: true })).statusCode).toBe(404);
    expect((await patch('admin', { patientId: ids.p1, shared: true, story: 'x'.repeat(2001) })).statusCode).toBe(400);
    expect((await patch(null, { patientId: ids.p1, shared: true })).statusCode).toBe(401);
  });
});

describe('renderSpotlightPdf', () => {
  it('stays on one page with many scores, procedures and a long story', async () => {
    const days = Array.from({ length: 40 }, (_, index) => new Date(Date.UTC(2025, 0, 1 + index * 7)).toISOString().slice(0, 10));
    const pdf = await renderSpotlightPdf(
      {
        language: 'en',
        clinicName: 'Riverside Spine & Pain',
        logo: null,
        generatedAt: new Date('2026-04-01T12:00:00Z'),
        patientName: 'Spot Álvarez',
        dateOfBirth: '02/03/1960',
        referringProvider: null,
        measure: spotlightMeasure(null),
        scores: days.map((date, index) => ({ date, score: 10 - (index % 10) })),
        baselineIndex: 0,
        latestIndex: 39,
        procedures: days
          .slice(0, 30)
          .map((date, index) => ({ name: `Procedure ${index + 1}`, performedOn: date, kind: 'procedure' })),
        story: 'I can sleep through the night again. '.repeat(80),
      },
      { compress: false },
    );
    expect(pageCount(pdf)).toBe(1);
    const text = await pdfText(pdf);
    expect(text).toContain('None recorded');
    expect(text).toMatch(/and \d+ more/);
  });
});
