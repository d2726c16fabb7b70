import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PainTimeline } from '@pathwell/contracts/pain-journal';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';
import { instances, interventions, painEntries, patientLinks } from '../schema';
import { demoPainCurves } from './demo-pain-journal';

/** What a newcomer sees of decision 0042 in the demo clinic, through the API the pain chart uses. */
let t: TestApp;
let riverside: string;
let doctor: { headers: Record<string, string>; id: string };

beforeAll(async () => {
  t = await createTestApp();
  doctor = await signIn(t.app, 'doctor@pathwell.demo');
  const [clinic] = await t.db.select().from(instances).where(eq(instances.name, 'Riverside Spine & Pain'));
  riverside = clinic!.id;
});
afterAll(async () => {
  await t?.close();
});

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

describe('demo pain journal', () => {
  it('the demo curves stay within 0–10', () => {
    for (const curve of demoPainCurves) {
      for (let day = -14; day <= 35; day++) {
        expect(curve(day)).toBeGreaterThanOrEqual(0);
        expect(curve(day)).toBeLessThanOrEqual(10);
      }
    }
  });

  it('journal entries surround the demo injection, one a day at most, and the first patient’s pain falls after it', async () => {
    const procedures = await t.db
      .select({ patientId: interventions.patientId, performedOn: interventions.performedOn })
      .from(interventions)
      .where(
        and(
          eq(interventions.instanceId, riverside),
          isNull(interventions.deletedAt),
          // The reports' demo cohort (demo-reports.ts) has injections of its own, with no journal.
          sql`exists (select 1 from pain_entries e where e.patient_id = ${interventions.patientId})`,
        ),
      )
      .orderBy(asc(interventions.performedOn), asc(interventions.patientId));
    expect(procedures.length).toBeGreaterThan(0);
    const first = procedures[0]!;
    const entries = await t.db.select().from(painEntries).where(eq(painEntries.patientId, first.patientId));
    expect(entries.length).toBeGreaterThan(5);
    expect(entries.every((entry) => entry.source === 'journal' && entry.linkId !== null)).toBe(true);
    const days = entries.map((entry) => entry.recordedAt.toISOString().slice(0, 10));
    expect(new Set(days).size).toBe(days.length);
    const links = await t.db.select().from(patientLinks).where(eq(patientLinks.patientId, first.patientId));
    expect(links.some((link) => link.kind === 'painJournal')).toBe(true);

    const response = await t.app.inject({
      method: 'GET',
      url: `/api/patients/${first.patientId}/paintimeline`,
      headers: doctor.headers,
      remoteAddress: nextIp(),
    });
    expect(response.statusCode, response.body).toBe(200);
    const timeline = response.json<PainTimeline>();
    expect(timeline.procedures.map((procedure) => procedure.performedOn)).toContain(first.performedOn);
    const procedureTime = Date.parse(`${first.performedOn}T12:00:00Z`);
    const before = timeline.journal.filter((entry) => Date.parse(entry.recordedAt) < procedureTime).map((entry) => entry.score);
    const after = timeline.journal.filter((entry) => Date.parse(entry.recordedAt) > procedureTime + 7 * 86_400_000);
    expect(before.length).toBeGreaterThan(2);
    if (after.length > 0) expect(mean(after.map((entry) => entry.score))).toBeLessThan(mean(before) - 2);
  });
});
