import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { CriticalFinding } from '@pathwell/contracts/critical-findings';
import type { Answers } from '@pathwell/contracts/forms';
import { criticalFindings as findingsOf, isFormCode } from '@pathwell/instruments';
import type { ServiceContext, SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { criticalFindings, patients, users } from '../../db/schema';
import { notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { raiseNotification } from '../notifications/notifications.service';
import { visiblePatients } from '../patients/patient-visibility.service';

/** A stored response, as every submission path has it right after the insert. */
interface StoredResponse {
  id: string;
  instanceId: string;
  patientId: string;
  appointmentId: string | null;
  formCode: number | null;
}

function numericAnswers(answers: Answers): Record<string, number | null> {
  const numeric: Record<string, number | null> = {};
  for (const [key, value] of Object.entries(answers)) {
    if (typeof value === 'number') numeric[key] = value;
  }
  return numeric;
}

/**
 * Every path that stores a scored response calls this in its transaction (decision 0058): the
 * instrument's critical items met by the answers are stored, and the patient's Doctor and the clinic's
 * Admins get an urgent notification (pushed to open bells). True when there was a finding, so the
 * patient is shown crisis resources.
 */
export async function recordCriticalFindings(
  ctx: ServiceContext,
  db: Database,
  response: StoredResponse,
  answers: Answers,
): Promise<boolean> {
  if (response.formCode === null || !isFormCode(response.formCode)) return false;
  const found = findingsOf(response.formCode, numericAnswers(answers));
  if (found.length === 0) return false;
  await db
    .insert(criticalFindings)
    .values(
      found.map((finding) => ({
        instanceId: response.instanceId,
        responseId: response.id,
        patientId: response.patientId,
        appointmentId: response.appointmentId,
        formCode: response.formCode!,
        ruleKey: finding.key,
        itemId: finding.itemId,
        answer: finding.answer,
      })),
    )
    .onConflictDoNothing();
  // Not tied to the appointment: a second critical response in the same visit is news again.
  await raiseNotification(ctx, db, {
    instanceId: response.instanceId,
    kind: 'criticalFinding',
    patientId: response.patientId,
    appointmentId: null,
    responseId: response.id,
  });
  return true;
}

/** A retried submission answers as the first did: whether its response had a finding. */
export async function responseHasFindings(db: Database, instanceId: string, responseId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: criticalFindings.id })
    .from(criticalFindings)
    .where(and(eq(criticalFindings.instanceId, instanceId), eq(criticalFindings.responseId, responseId)))
    .limit(1);
  return row !== undefined;
}

const acknowledger = sql<string | null>`nullif(trim(${users.firstName} || ' ' || ${users.lastName}), '')`;

const findingColumns = {
  finding: criticalFindings,
  acknowledgedByName: acknowledger,
};

type FindingRow = { finding: typeof criticalFindings.$inferSelect; acknowledgedByName: string | null };

function toFinding({ finding, acknowledgedByName }: FindingRow): CriticalFinding {
  return {
    id: finding.id,
    responseId: finding.responseId,
    patientId: finding.patientId,
    appointmentId: finding.appointmentId,
    formCode: finding.formCode,
    ruleKey: finding.ruleKey,
    itemId: finding.itemId,
    answer: finding.answer,
    createdAt: finding.createdAt.toISOString(),
    acknowledgedAt: finding.acknowledgedAt?.toISOString() ?? null,
    acknowledgedByName: finding.acknowledgedAt ? (acknowledgedByName ?? '') : null,
  };
}

async function findingsWhere(db: Database, instanceId: string, condition: SQL) {
  const rows = await db
    .select(findingColumns)
    .from(criticalFindings)
    .leftJoin(users, eq(users.id, criticalFindings.acknowledgedBy))
    .where(and(eq(criticalFindings.instanceId, instanceId), condition))
    .orderBy(asc(criticalFindings.createdAt), asc(criticalFindings.id));
  return rows.map(toFinding);
}

function grouped(findings: CriticalFinding[], key: (finding: CriticalFinding) => string | null) {
  const byKey = new Map<string, CriticalFinding[]>();
  for (const finding of findings) {
    const value = key(finding);
    if (value === null) continue;
    byKey.set(value, [...(byKey.get(value) ?? []), finding]);
  }
  return byKey;
}

/** The findings of these responses, by response id (the caller has already checked it may see them). */
export async function findingsOfResponses(
  db: Database,
  instanceId: string,
  responseIds: string[],
): Promise<Map<string, CriticalFinding[]>> {
  if (responseIds.length === 0) return new Map();
  const findings = await findingsWhere(db, instanceId, inArray(criticalFindings.responseId, responseIds));
  return grouped(findings, (finding) => finding.responseId);
}

/**
 * For the appointment dashboard, by appointment id: the findings raised in each appointment and every
 * finding of its patient still unacknowledged, wherever it was raised (a patient arriving with an open
 * finding from a home questionnaire is flagged on the day's row).
 */
export async function findingsOfAppointmentRows(
  db: Database,
  instanceId: string,
  rows: Array<{ appointmentId: string; patientId: string }>,
): Promise<Map<string, CriticalFinding[]>> {
  const byAppointment = new Map<string, CriticalFinding[]>();
  if (rows.length === 0) return byAppointment;
  const findings = await findingsWhere(
    db,
    instanceId,
    or(
      inArray(
        criticalFindings.appointmentId,
        rows.map((row) => row.appointmentId),
      ),
      and(
        inArray(criticalFindings.patientId, [...new Set(rows.map((row) => row.patientId))]),
        isNull(criticalFindings.acknowledgedAt),
      ),
    )!,
  );
  for (const row of rows) {
    byAppointment.set(
      row.appointmentId,
      findings.filter(
        (finding) =>
          finding.appointmentId === row.appointmentId || (finding.patientId === row.patientId && finding.acknowledgedAt === null),
      ),
    );
  }
  return byAppointment;
}

/**
 * A clinician acknowledges a finding (decision 0058): the first acknowledgement is kept (who and
 * when) and logged; acknowledging again answers with it unchanged. A finding of a patient the actor
 * may not see (another clinic, a colleague's patient for a Doctor) is not found.
 */
export async function acknowledgeFinding(ctx: SignedInContext, findingId: string): Promise<CriticalFinding> {
  return ctx.db.transaction(async (tx) => {
    const [visible] = await tx
      .select({ id: criticalFindings.id, patientId: criticalFindings.patientId, responseId: criticalFindings.responseId })
      .from(criticalFindings)
      .innerJoin(patients, and(eq(patients.instanceId, criticalFindings.instanceId), eq(patients.id, criticalFindings.patientId)))
      .where(and(eq(criticalFindings.id, findingId), eq(criticalFindings.instanceId, ctx.instanceId), visiblePatients(ctx)))
      .for('update', { of: criticalFindings });
    if (!visible) throw notFound('recordNotFound');
    const updated = await tx
      .update(criticalFindings)
      .set({ acknowledgedAt: new Date(), acknowledgedBy: ctx.actor.userId })
      .where(and(eq(criticalFindings.id, findingId), isNull(criticalFindings.acknowledgedAt)))
      .returning({ id: criticalFindings.id });
    if (updated.length > 0) {
      await recordActivity(
        tx,
        staffActivity(ctx, 'Form Submission', 'Updated', {
          type: 'critical finding',
          id: findingId,
          description: `Acknowledged critical finding ${findingId} on form response ${visible.responseId} of patient ${visible.patientId}`,
        }),
      );
      // Bells and open screens turn from red.
      await ctx.events.publish(tx, { instanceId: ctx.instanceId, kind: 'notification' });
    }
    const [finding] = await findingsWhere(tx, ctx.instanceId, eq(criticalFindings.id, findingId));
    return finding!;
  });
}
