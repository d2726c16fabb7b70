import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from './client';
import { campaigns, formResponses, instances, patients } from './schema';
import { createTestApp, type TestApp } from '../../test/test-app';

/**
 * Migration 0031 redoes the row updates of 0024 and 0029 as pathwell_system: as a migrating login that is not
 * a superuser, row-level security hid every clinic row from them. Run here as such a role.
 */
const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
  entries: Array<{ tag: string }>;
};
const tag = journal.entries.find((entry) => entry.tag.endsWith('_redo-owner-updates-as-system'))!.tag;
const statements = readFileSync(path.join(migrationsFolder, `${tag}.sql`), 'utf8')
  .split('--> statement-breakpoint')
  .map((statement) => statement.trim())
  .filter((statement) => statement.length > 0);
const withoutRoleSwitch = statements.filter(
  (statement) => !/^(SET LOCAL ROLE|RESET ROLE)/m.test(statement.replace(/^--.*$/gm, '').trim()),
);

const MIGRATOR = 'pathwell_test_migrator';
let t: TestApp;
let riverside: string;

async function migrateAs(migration: string[]) {
  await t.db.transaction(async (tx) => {
    await tx.execute(sql.raw(`SET LOCAL ROLE ${MIGRATOR}`));
    for (const statement of migration) await tx.execute(sql.raw(statement));
  });
}

/** An ODI stored with scores, as before decision 0067, in a clinic that never imported the ODI wording. */
async function scoredOdiWithoutWording() {
  const [patient] = await t.db
    .insert(patients)
    .values({ instanceId: riverside, firstName: 'Rosalía', lastName: 'Ventura', dateOfBirth: '1959-06-30' })
    .returning({ id: patients.id });
  const [row] = await t.db
    .insert(formResponses)
    .values({
      instanceId: riverside,
      patientId: patient!.id,
      formCode: 2,
      version: '1',
      language: 'en',
      answers: { s1: 2, s2: 2 } as never,
      scores: { percent: 40 } as never,
      headlineScore: 40,
      band: 2,
      idempotencyKey: randomUUID(),
    })
    .returning({ id: formResponses.id });
  return row!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  riverside = (await t.db.select().from(instances)).find((row) => row.name === 'Riverside Spine & Pain')!.id;
  await t.db.execute(
    sql.raw(`DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${MIGRATOR}') THEN
        CREATE ROLE ${MIGRATOR} NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT;
      END IF;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`),
  );
  await t.db.execute(sql.raw(`DO $$ BEGIN GRANT pathwell_system TO ${MIGRATOR}; EXCEPTION WHEN OTHERS THEN NULL; END $$`));
  await t.db.execute(sql.raw(`GRANT SELECT, UPDATE ON campaigns, form_responses TO ${MIGRATOR}`));
  await t.db.execute(sql.raw(`GRANT SELECT ON instrument_wordings TO ${MIGRATOR}`));
});
afterAll(async () => {
  await t?.close();
});

describe('migration 0031: the owner-run updates of 0024 and 0029, again as the system role', () => {
  it('as a non-superuser without the role switch they change nothing; with it, drafts get their author as editor and neutral-label scores go', async () => {
    const [draft] = await t.db.select().from(campaigns).where(isNotNull(campaigns.createdBy)).limit(1);
    await t.db.update(campaigns).set({ editorIds: [] }).where(eq(campaigns.id, draft!.id));
    const odi = await scoredOdiWithoutWording();

    await migrateAs(withoutRoleSwitch);
    const [untouchedDraft] = await t.db.select().from(campaigns).where(eq(campaigns.id, draft!.id));
    const [untouchedOdi] = await t.db.select().from(formResponses).where(eq(formResponses.id, odi));
    expect(untouchedDraft!.editorIds).toEqual([]);
    expect(untouchedOdi!.headlineScore).toBe(40);

    await migrateAs(statements);
    const [editedDraft] = await t.db.select().from(campaigns).where(eq(campaigns.id, draft!.id));
    const [clearedOdi] = await t.db.select().from(formResponses).where(eq(formResponses.id, odi));
    expect(editedDraft!.editorIds).toEqual([draft!.createdBy]);
    expect(clearedOdi).toMatchObject({ headlineScore: null, band: null, scores: {}, notScored: 'wordingNotLoaded' });
    expect(clearedOdi!.answers).toEqual({ s1: 2, s2: 2 });
  });

  it('leaves a campaign that already has editors as it is', async () => {
    const [draft] = await t.db.select().from(campaigns).where(isNotNull(campaigns.createdBy)).limit(1);
    const someoneElse = randomUUID();
    await t.db.update(campaigns).set({ editorIds: [someoneElse] }).where(eq(campaigns.id, draft!.id));
    await migrateAs(statements);
    const [after] = await t.db.select().from(campaigns).where(eq(campaigns.id, draft!.id));
    expect(after!.editorIds).toEqual([someoneElse]);
  });
});
