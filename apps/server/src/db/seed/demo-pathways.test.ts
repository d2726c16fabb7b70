import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PathwayEnrolment, PathwaySummary } from '@pathwell/contracts/pathways';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';
import { instances, pathwayEnrolments, pathways } from '../schema';
import { EXAMPLE_NOTICE } from './demo-pathways';

/** What a newcomer sees of care pathways (decision 0041) in the demo clinic, through the API. */
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

describe('demo pathways', () => {
  it('ships the two examples, marked as examples and not clinical advice, started by their procedures', async () => {
    const list = (await get('/api/pathways')).json<PathwaySummary[]>();
    const examples = list.filter((row) => row.isExample);
    expect(examples.map((row) => row.name).sort()).toEqual([
      'Lumbar epidural steroid injection',
      'Spinal cord stimulator trial and implant',
    ]);
    for (const row of examples) {
      expect(row.description).toContain(EXAMPLE_NOTICE);
      expect(row.trigger).toBe('procedure');
      expect(row.triggerItemIds.length).toBe(2);
    }
    const esi = examples.find((row) => row.name.startsWith('Lumbar'))!;
    expect(esi.enrolments).toBeGreaterThanOrEqual(3);
    expect(esi.completionRate).not.toBeNull();
    const other = await t.db.select().from(pathways).where(eq(pathways.isExample, true));
    expect(other.every((row) => row.instanceId === riverside)).toBe(true);
  });

  it('has enrolments with steps done, pending and missed, and scores compared with baseline, every answer scored', async () => {
    const rows = await t.db.select().from(pathwayEnrolments).where(eq(pathwayEnrolments.instanceId, riverside));
    const statuses = new Set<string>();
    let compared = false;
    for (const row of rows) {
      const detail = (await get(`/api/pathways/enrolments/${row.id}`)).json<PathwayEnrolment>();
      for (const step of detail.steps) {
        statuses.add(step.status);
        if (step.score && step.score.change !== null && step.score.baseline !== null) compared = true;
        // The examples use forms that ship their wording: no demo answer is left unscored (decision 0067).
        if (step.kind === 'pro' && step.status === 'completed') {
          expect(step.formCode).toBe(4);
          expect(step.score).toMatchObject({ headlineScore: expect.any(Number) });
          expect(step.score!.notScored).toBeUndefined();
        }
      }
    }
    expect([...statuses]).toEqual(expect.arrayContaining(['completed', 'pending', 'missed']));
    expect(compared).toBe(true);
  });
});
