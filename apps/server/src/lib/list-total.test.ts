import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { instances, patients } from '../db/schema';
import { countOf, listTotal } from './list-total';

let t: TestApp;
let matches: ReturnType<typeof matchesOf>;
let clinicSize: number;

const matchesOf = (db: TestApp['db'], instanceId: string) =>
  db.select({ id: patients.id }).from(patients).where(eq(patients.instanceId, instanceId));

beforeAll(async () => {
  t = await createTestApp();
  const [clinic] = await t.db
    .select({ id: instances.id })
    .from(instances)
    .where(sql`${instances.name} like 'Riverside%'`);
  matches = matchesOf(t.db, clinic!.id);
  clinicSize = await countOf(t.db, matches, null);
});
afterAll(async () => {
  await t?.close();
});

describe('list totals', () => {
  it('the demo clinic has enough patients for these checks', () => {
    expect(clinicSize).toBeGreaterThan(20);
  });

  it('a page that is not full ends the list: its total is known without counting', async () => {
    expect(await listTotal(t.db, sql`select 1 where false`, { pageNumber: 2, pageSize: 15, rowsOnPage: 4 })).toEqual({
      totalRecords: 34,
      totalExact: true,
    });
  });

  it('counts exactly up to the limit, and says "at least the limit" past it', async () => {
    const full = { pageNumber: 0, pageSize: 5, rowsOnPage: 5 };
    expect(await listTotal(t.db, matches, full, clinicSize)).toEqual({ totalRecords: clinicSize, totalExact: true });
    expect(await listTotal(t.db, matches, full, clinicSize - 1)).toEqual({
      totalRecords: clinicSize - 1,
      totalExact: false,
    });
  });

  it('counts every match when asked, whatever the limit', async () => {
    expect(await listTotal(t.db, matches, { pageNumber: 0, pageSize: 5, rowsOnPage: 5, exact: true }, 3)).toEqual({
      totalRecords: clinicSize,
      totalExact: true,
    });
  });

  it('a page past the limit raises the bound to that page, so the pager still reaches it', async () => {
    expect(await listTotal(t.db, matches, { pageNumber: 3, pageSize: 5, rowsOnPage: 5 }, 10)).toEqual({
      totalRecords: 20,
      totalExact: false,
    });
  });
});
