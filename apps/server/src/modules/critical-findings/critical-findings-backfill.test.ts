import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationList } from '@pathwell/contracts/messaging';
import { formCodes, instruments } from '@pathwell/instruments';
import { migrationsFolder } from '../../db/client';
import { criticalFindings, formResponses, instances, notifications, patients, users } from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';

/**
 * Migration 0030 backfills the critical findings of responses stored before 0025 (decision 0058, addendum
 * of 2026-11-28). These tests run the migration's own statements again on a database that has responses
 * without their findings, as a migrating role that is not a superuser (row-level security applies to it).
 */
const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
  entries: Array<{ tag: string }>;
};
const tag = journal.entries.find((entry) => entry.tag.endsWith('_critical-findings-backfill'))!.tag;
const statements = readFileSync(path.join(migrationsFolder, `${tag}.sql`), 'utf8')
  .split('--> statement-breakpoint')
  .map((statement) => statement.trim())
  .filter((statement) => statement.length > 0);

const MIGRATOR = 'pathwell_test_migrator';

let t: TestApp;
let riverside: string;
let patientId: string;
let doctorHeaders: Record<string, string>;
let doctorId: string;

/** Runs statements in one transaction as the stand-in migrating role, as drizzle runs a migration. */
async function migrateAs(role: string, migration: string[]) {
  await t.db.transaction(async (tx) => {
    await tx.execute(sql.raw(`SET LOCAL ROLE ${role}`));
    for (const statement of migration) await tx.execute(sql.raw(statement));
  });
}

const ago = (days: number) => sql`now() - make_interval(days => ${days})`;

async function storeResponse(item9: unknown, daysAgo: number) {
  const answers = { q1: 1, q2: 1, q3: 1, q4: 1, q5: 1, q6: 1, q7: 1, q8: 1, q9: item9, q10: 0 };
  const [row] = await t.db
    .insert(formResponses)
    .values({
      instanceId: riverside,
      patientId,
      formCode: 11,
      version: '1',
      language: 'en',
      answers: answers as never,
      idempotencyKey: randomUUID(),
      submittedAt: ago(daysAgo) as never,
    })
    .returning({ id: formResponses.id, submittedAt: formResponses.submittedAt });
  return row!;
}

const findingRows = () =>
  t.db
    .select({
      responseId: criticalFindings.responseId,
      patientId: criticalFindings.patientId,
      appointmentId: criticalFindings.appointmentId,
      ruleKey: criticalFindings.ruleKey,
      itemId: criticalFindings.itemId,
      answer: criticalFindings.answer,
      createdAt: criticalFindings.createdAt,
      acknowledgedAt: criticalFindings.acknowledgedAt,
    })
    .from(criticalFindings)
    .orderBy(criticalFindings.responseId, criticalFindings.ruleKey);

const criticalNotifications = () =>
  t.db
    .select({ responseId: notifications.responseId, patientId: notifications.patientId })
    .from(notifications)
    .where(eq(notifications.kind, 'criticalFinding'));

beforeAll(async () => {
  t = await createTestApp();
  const clinics = await t.db.select().from(instances);
  riverside = clinics.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  const [patient] = await t.db
    .insert(patients)
    .values({ instanceId: riverside, firstName: 'Anselmo', lastName: 'Quiroga', dateOfBirth: '1968-02-09', doctorId: doctor!.id })
    .returning({ id: patients.id });
  patientId = patient!.id;
  doctorId = doctor!.id;
  doctorHeaders = (await signIn(t.app, 'doctor@pathwell.demo')).headers;
  // A role that is not a superuser and owns nothing, like a production migrating login: row-level security
  // applies to it. Roles are cluster-wide (other test files may make it at once); grants are per database.
  await t.db.execute(
    sql.raw(`DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${MIGRATOR}') THEN
        CREATE ROLE ${MIGRATOR} NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT;
      END IF;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`),
  );
  await t.db.execute(
    sql.raw(`DO $$ BEGIN GRANT pathwell_system TO ${MIGRATOR};
    EXCEPTION WHEN OTHERS THEN NULL; END $$`),
  );
  await t.db.execute(sql.raw(`GRANT SELECT, INSERT ON form_responses, critical_findings, notifications TO ${MIGRATOR}`));
});
afterAll(async () => {
  await t?.close();
});

describe('the critical findings backfill migration', () => {
  it('knows every critical rule of the instruments package (a new rule needs its own backfill)', () => {
    const rules = formCodes.flatMap((code) =>
      (instruments[code].criticalItems ?? []).map((rule) => ({
        code,
        key: rule.key,
        itemId: rule.itemId,
        minimumCode: rule.minimumCode,
      })),
    );
    expect(rules).toEqual([{ code: 11, key: 'phq9-item9', itemId: 'q9', minimumCode: 1 }]);
    const backfill = statements.join('\n');
    expect(backfill).toContain('r.form_code = 11');
    expect(backfill).toContain("'phq9-item9', 'q9'");
    expect(backfill).toContain("answers -> 'q9'");
    expect(backfill).toContain('answer >= 1');
  });

  it('recreates exactly the findings the instruments package gives for every stored response (the demo history)', async () => {
    const before = await findingRows();
    expect(before.length).toBeGreaterThan(0);
    await t.db.delete(criticalFindings);
    await migrateAs(MIGRATOR, statements);
    const after = await findingRows();
    expect(after.map(({ acknowledgedAt: _, ...row }) => row)).toEqual(before.map(({ acknowledgedAt: _, ...row }) => row));
    expect(after.every((row) => row.acknowledgedAt === null)).toBe(true);
  });

  it('run as a non-superuser without switching to the system role, the same insert would see no response', async () => {
    const withoutRoleSwitch = statements.filter(
      (statement) => !/^(SET LOCAL ROLE|RESET ROLE)/m.test(statement.replace(/^--.*$/gm, '').trim()),
    );
    expect(withoutRoleSwitch).toHaveLength(1);
    const old = await storeResponse(2, 200);
    await migrateAs(MIGRATOR, withoutRoleSwitch);
    expect(await t.db.select().from(criticalFindings).where(eq(criticalFindings.responseId, old.id))).toEqual([]);
    await migrateAs(MIGRATOR, statements);
    expect(await t.db.select().from(criticalFindings).where(eq(criticalFindings.responseId, old.id))).toHaveLength(1);
  });

  it('flags old positive answers red without a bell, notifies recent ones once, and creates nothing twice', async () => {
    const recent = await storeResponse(3, 3);
    const beyondTwoWeeks = await storeResponse(1, 15);
    const notAtAll = await storeResponse(0, 2);
    const unanswered = await storeResponse(null, 2);
    const typedAsText = await storeResponse('2', 2);
    const ours = [recent, beyondTwoWeeks, notAtAll, unanswered, typedAsText].map((row) => row.id);
    const notifiedBefore = await criticalNotifications();

    await migrateAs(MIGRATOR, statements);

    const created = await t.db
      .select()
      .from(criticalFindings)
      .where(and(eq(criticalFindings.instanceId, riverside), inArray(criticalFindings.responseId, ours)))
      .orderBy(criticalFindings.answer);
    expect(created).toEqual([
      expect.objectContaining({
        responseId: beyondTwoWeeks.id,
        patientId,
        ruleKey: 'phq9-item9',
        itemId: 'q9',
        answer: 1,
        acknowledgedAt: null,
      }),
      expect.objectContaining({
        responseId: recent.id,
        patientId,
        ruleKey: 'phq9-item9',
        itemId: 'q9',
        answer: 3,
        acknowledgedAt: null,
      }),
    ]);
    // Dated when the patient answered, not when the clinic upgraded.
    expect(created.map((row) => row.createdAt.getTime())).toEqual([
      beyondTwoWeeks.submittedAt.getTime(),
      recent.submittedAt.getTime(),
    ]);
    const notified = (await criticalNotifications()).filter(
      (row) => !notifiedBefore.some((earlier) => earlier.responseId === row.responseId),
    );
    expect(notified).toEqual([{ responseId: recent.id, patientId }]);

    // The patient's Doctor sees the recent one in the bell, red.
    const bell = await t.app.inject({
      method: 'GET',
      url: '/api/notifications',
      headers: doctorHeaders,
      remoteAddress: nextIp(),
    });
    expect(bell.statusCode, bell.body).toBe(200);
    const items = bell.json<NotificationList>().data.filter((item) => item.patientId === patientId);
    expect(items).toEqual([
      expect.objectContaining({ kind: 'criticalFinding', responseId: recent.id, urgent: true, seen: false }),
    ]);

    // Again: nothing new, not even a notification; an acknowledgement is kept.
    await t.db
      .update(criticalFindings)
      .set({ acknowledgedAt: new Date('2026-01-02T15:00:00Z'), acknowledgedBy: doctorId })
      .where(eq(criticalFindings.responseId, recent.id));
    const findingsBefore = await findingRows();
    const notificationsBefore = await criticalNotifications();
    await migrateAs(MIGRATOR, statements);
    expect(await findingRows()).toEqual(findingsBefore);
    expect(findingsBefore.find((row) => row.responseId === recent.id)!.acknowledgedAt).toEqual(new Date('2026-01-02T15:00:00Z'));
    expect(await criticalNotifications()).toHaveLength(notificationsBefore.length);
  });
});
