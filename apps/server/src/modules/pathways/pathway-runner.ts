import { and, asc, eq, gte, isNotNull, lte, ne, or, sql } from 'drizzle-orm';
import type { FormLanguage } from '@pathwell/contracts/forms';
import { PATHWAY_MISSED_AFTER_DAYS } from '@pathwell/contracts/pathways';
import { customFormPath, instrumentPath } from '@pathwell/contracts/patient-links';
import { getInstrument, isFormCode } from '@pathwell/instruments';
import type { ServiceContext } from '../../context';
import type { Database } from '../../db/client';
import {
  customForms,
  formResponses,
  painEntries,
  pathwayEnrolments,
  pathwayStepRuns,
  pathwaySteps,
  patientLinks,
  patients,
} from '../../db/schema';
import { withClinics, withSystemAccess } from '../../db/tenancy';
import { newToken, sha256 } from '../../lib/secrets';
import { recordActivity, type ActivityEntry } from '../audit/audit.service';
import { mobileOf, reachableChannels } from '../patient-contact/reach.service';
import { raiseNotification } from '../notifications/notifications.service';
import { queuePatientMessage } from '../outbox/outbox.service';
import { issuePainJournalLink } from '../pain-journal/pain-journal-links.service';
import { readSettings } from '../settings/settings.service';
import { educationMessage, requestMessage, type PathwayMessage } from './pathway.messages';
import { completeIfDone } from './pathway-records';
import { publicLink } from '../../lib/public-url';
import { formsWithoutWording } from '../form-responses/wording-availability.service';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';

const DAY_MS = 86_400_000;
/** Every 15 minutes: a step goes out within a quarter of an hour of its due time. */
export const PATHWAY_SWEEP_CRON = '*/15 * * * *';
/** Runs looked at per sweep; the rest wait for the next one. */
const SWEEP_LIMIT = 500;

export type PathwaySweepDeps = Pick<ServiceContext, 'config' | 'mailer' | 'jobs' | 'events'>;

interface PathwaySweepResult {
  /** Requests, messages and tasks sent for the first time. */
  sent: number;
  reminded: number;
  completed: number;
  missed: number;
  /** Patient closed their account or cannot be reached. */
  skipped: number;
  /** Looked at, nothing to do yet. */
  waiting: number;
}

type RunRow = typeof pathwayStepRuns.$inferSelect;
type StepRow = typeof pathwaySteps.$inferSelect;
type PatientRow = typeof patients.$inferSelect;
/** `now` is the sweep's clock: its messages count on the sweep's clinic day under the daily cap. */
type SweepContext = ServiceContext & { instanceId: string; now: Date };

/**
 * When an unanswered PRO or journal request counts as missed: PATHWAY_MISSED_AFTER_DAYS after its last
 * reminder day (or after it was due, without reminders). Its link is made to expire then too.
 */
function missedAt(run: Pick<RunRow, 'dueAt'>, step: Pick<StepRow, 'reminderDays'>): Date {
  const last = Math.max(0, ...step.reminderDays);
  return new Date(run.dueAt.getTime() + (last + PATHWAY_MISSED_AFTER_DAYS) * DAY_MS);
}

/** How many of the step's reminder days (after the due day) have come by `now`. */
function remindersDue(run: Pick<RunRow, 'dueAt'>, step: Pick<StepRow, 'reminderDays'>, now: Date): number {
  return step.reminderDays.filter((day) => day > 0 && run.dueAt.getTime() + day * DAY_MS <= now.getTime()).length;
}

const sweepActivity = (
  instanceId: string,
  area: 'Form Submission' | 'Patient Dashboard',
  action: 'Created' | 'Sent' | 'Updated',
  target: { type: string; id: string; description: string },
): ActivityEntry => ({
  instanceId,
  actorUserId: null,
  actorEmail: null,
  area,
  action,
  targetType: target.type,
  targetId: target.id,
  description: target.description,
  ip: null,
});

/**
 * Issue #13: the care-pathway sweep, run by pg-boss every 15 minutes (decision 0041), shaped like the
 * intake sweep (decision 0034). A system-access read finds, across clinics, the step runs of active
 * enrolments that are due and still pending or waiting for the patient; each is then handled in its own
 * transaction on its clinic's rows only, so one patient's problem does not hold up the others. `now` is
 * a parameter so tests move the clock instead of waiting.
 */
export async function runDuePathwaySteps(root: Database, deps: PathwaySweepDeps, now = new Date()): Promise<PathwaySweepResult> {
  const due = await withSystemAccess(root, 'pathway-sweep', (tx) =>
    tx
      .select({ id: pathwayStepRuns.id, instanceId: pathwayStepRuns.instanceId })
      .from(pathwayStepRuns)
      .innerJoin(
        pathwayEnrolments,
        and(eq(pathwayEnrolments.id, pathwayStepRuns.enrolmentId), eq(pathwayEnrolments.instanceId, pathwayStepRuns.instanceId)),
      )
      .innerJoin(
        pathwaySteps,
        and(eq(pathwaySteps.id, pathwayStepRuns.stepId), eq(pathwaySteps.instanceId, pathwayStepRuns.instanceId)),
      )
      .where(
        and(
          eq(pathwayEnrolments.status, 'active'),
          lte(pathwayStepRuns.dueAt, now),
          // A raised staff task waits for staff, not for the sweep.
          or(eq(pathwayStepRuns.status, 'pending'), and(eq(pathwayStepRuns.status, 'sent'), ne(pathwaySteps.kind, 'task'))),
        ),
      )
      // What was never sent first, then the oldest.
      .orderBy(sql`case ${pathwayStepRuns.status} when 'pending' then 0 else 1 end`, asc(pathwayStepRuns.dueAt))
      .limit(SWEEP_LIMIT),
  );
  const result: PathwaySweepResult = { sent: 0, reminded: 0, completed: 0, missed: 0, skipped: 0, waiting: 0 };
  for (const run of due) {
    const outcome = await withClinics(root, [run.instanceId], (tx) => handleRun(tx, deps, run.instanceId, run.id, now));
    result[outcome] += 1;
  }
  return result;
}

async function handleRun(
  tx: Database,
  deps: PathwaySweepDeps,
  instanceId: string,
  runId: string,
  now: Date,
): Promise<keyof PathwaySweepResult> {
  // Locked, and read again: two processes sweeping at once send one message.
  const [row] = await tx
    .select({ run: pathwayStepRuns, step: pathwaySteps, enrolment: pathwayEnrolments, patient: patients })
    .from(pathwayStepRuns)
    .innerJoin(
      pathwaySteps,
      and(eq(pathwaySteps.id, pathwayStepRuns.stepId), eq(pathwaySteps.instanceId, pathwayStepRuns.instanceId)),
    )
    .innerJoin(
      pathwayEnrolments,
      and(eq(pathwayEnrolments.id, pathwayStepRuns.enrolmentId), eq(pathwayEnrolments.instanceId, pathwayStepRuns.instanceId)),
    )
    .innerJoin(patients, and(eq(patients.id, pathwayEnrolments.patientId), eq(patients.instanceId, pathwayEnrolments.instanceId)))
    .where(and(eq(pathwayStepRuns.id, runId), eq(pathwayStepRuns.instanceId, instanceId)))
    .for('update', { of: pathwayStepRuns });
  if (!row || row.enrolment.status !== 'active' || (row.run.status !== 'pending' && row.run.status !== 'sent')) return 'waiting';
  const { run, step, patient } = row;
  const ctx: SweepContext = {
    ...deps,
    db: tx,
    ip: '',
    userAgent: null,
    actor: null,
    instanceId,
    allClinics: false,
    instanceIds: [instanceId],
    now,
  };
  const finish = async (outcome: keyof PathwaySweepResult) => {
    await completeIfDone(tx, instanceId, run.enrolmentId, now);
    return outcome;
  };

  // A closed account asked for nothing more (decision 0036); a removed patient has no one to send to.
  if (patient.accountClosedAt || patient.deletedAt) {
    await setRun(tx, run.id, { status: 'skipped', completedAt: now });
    await recordActivity(
      tx,
      sweepActivity(instanceId, 'Patient Dashboard', 'Updated', {
        type: 'pathway step',
        id: run.id,
        description: `Pathway step skipped for patient ${patient.id}: account closed`,
      }),
    );
    return finish('skipped');
  }

  if (run.status === 'sent') return followUp(ctx, tx, run, step, patient, now, finish);

  if (step.kind === 'task') {
    await raiseNotification(ctx, tx, { instanceId, kind: 'pathwayTask', patientId: patient.id, appointmentId: null });
    await setRun(tx, run.id, { status: 'sent', sentAt: now });
    return 'sent';
  }
  if ((step.kind === 'pro' || step.kind === 'painJournal') && now.getTime() >= missedAt(run, step).getTime()) {
    // Enrolled with an anchor long past: a request whose whole window is over is not sent late.
    await setRun(tx, run.id, { status: 'missed', completedAt: now });
    return finish('missed');
  }
  // A step planned before the rule (decision 0061): a form the clinic cannot give is not sent.
  if (step.kind === 'pro' && step.formCode !== null && (await formsWithoutWording(tx, instanceId, [step.formCode])).length > 0) {
    await setRun(tx, run.id, { status: 'skipped', completedAt: now });
    await recordActivity(
      tx,
      sweepActivity(instanceId, 'Patient Dashboard', 'Updated', {
        type: 'pathway step',
        id: run.id,
        description: `Pathway step skipped for patient ${patient.id}: the form's licensed wording is not loaded for the clinic`,
      }),
    );
    return finish('skipped');
  }
  const settings = await readSettings(tx, instanceId);
  const mobile = await mobileOf(tx, instanceId, patient.id);
  const { channels } = await reachableChannels(tx, settings, instanceId, patient, mobile, ['email', 'sms']);
  if (channels.length === 0) {
    await setRun(tx, run.id, { status: 'skipped', completedAt: now });
    await recordActivity(
      tx,
      sweepActivity(instanceId, 'Patient Dashboard', 'Updated', {
        type: 'pathway step',
        id: run.id,
        description: `Pathway step skipped for patient ${patient.id}: no email or text the patient and clinic allow`,
      }),
    );
    return finish('skipped');
  }
  const language: FormLanguage = patient.preferredLanguage;
  const clinic = await clinicDisplayName(tx, instanceId);
  const send = (message: PathwayMessage, template: string) =>
    sendBy(ctx, tx, { patient, mobile, channels, message, template, runId: run.id });

  if (step.kind === 'education') {
    const text = (language === 'es' ? step.messageEs : null) || step.messageEn || '';
    await send(educationMessage(language, { firstName: patient.firstName, clinicName: clinic, text }), 'pathway-education');
    await setRun(tx, run.id, { status: 'completed', sentAt: now, completedAt: now });
    return finish('sent');
  }
  if (step.kind === 'painJournal') {
    const link = await issuePainJournalLink(ctx, tx, { patientId: patient.id, language });
    await send(
      requestMessage(language, {
        firstName: patient.firstName,
        clinicName: clinic,
        formTitle: null,
        url: link.url,
        reminder: false,
      }),
      'pathway-journal',
    );
    await setRun(tx, run.id, { status: 'sent', sentAt: now, linkId: link.linkId });
    return 'sent';
  }
  // A PRO: a form link of its own, open until the step would count as missed.
  const token = newToken();
  const expiresAt = new Date(Math.max(missedAt(run, step).getTime(), now.getTime() + DAY_MS));
  const [link] = await tx
    .insert(patientLinks)
    .values({
      instanceId,
      patientId: patient.id,
      kind: 'form',
      formCode: step.customFormId ? null : step.formCode,
      customFormId: step.customFormId,
      tokenHash: sha256(token),
      language,
      expiresAt,
      createdBy: null,
    })
    .returning({ id: patientLinks.id });
  await recordActivity(
    tx,
    sweepActivity(instanceId, 'Form Submission', 'Created', {
      type: 'patient link',
      id: link!.id,
      description: `Pathway questionnaire link for patient ${patient.id}`,
    }),
  );
  const title = await formTitle(tx, instanceId, step, language);
  await send(
    requestMessage(language, {
      firstName: patient.firstName,
      clinicName: clinic,
      formTitle: title,
      url: formUrl(ctx, step, token),
      reminder: false,
    }),
    'pathway-pro',
  );
  await setRun(tx, run.id, { status: 'sent', sentAt: now, linkId: link!.id });
  return 'sent';
}

/** A request already sent: answered, due for a reminder, or missed. */
async function followUp(
  ctx: SweepContext,
  tx: Database,
  run: RunRow,
  step: StepRow,
  patient: PatientRow,
  now: Date,
  finish: (outcome: keyof PathwaySweepResult) => Promise<keyof PathwaySweepResult>,
): Promise<keyof PathwaySweepResult> {
  const instanceId = ctx.instanceId;
  if (step.kind === 'pro' && run.linkId) {
    const [response] = await tx
      .select({ id: formResponses.id, submittedAt: formResponses.submittedAt })
      .from(formResponses)
      .where(and(eq(formResponses.instanceId, instanceId), eq(formResponses.linkId, run.linkId)))
      .limit(1);
    if (response) {
      await setRun(tx, run.id, { status: 'completed', completedAt: response.submittedAt, formResponseId: response.id });
      return finish('completed');
    }
  }
  if (step.kind === 'painJournal' && run.sentAt) {
    // Each reminder carries a new journal link, so any journal entry since the request answers it.
    const [entry] = await tx
      .select({ id: painEntries.id, recordedAt: painEntries.recordedAt })
      .from(painEntries)
      .where(
        and(
          eq(painEntries.instanceId, instanceId),
          eq(painEntries.patientId, patient.id),
          isNotNull(painEntries.linkId),
          gte(painEntries.recordedAt, run.sentAt),
        ),
      )
      .limit(1);
    if (entry) {
      await setRun(tx, run.id, { status: 'completed', completedAt: entry.recordedAt });
      return finish('completed');
    }
  }
  if (step.kind !== 'pro' && step.kind !== 'painJournal') return 'waiting';
  const [link] = run.linkId
    ? await tx
        .select({ id: patientLinks.id, expiresAt: patientLinks.expiresAt, revokedAt: patientLinks.revokedAt })
        .from(patientLinks)
        .where(and(eq(patientLinks.id, run.linkId), eq(patientLinks.instanceId, instanceId)))
    : [];
  const closed = !link || link.revokedAt !== null || (step.kind === 'pro' && link.expiresAt.getTime() <= now.getTime());
  if (closed || now.getTime() >= missedAt(run, step).getTime()) {
    await setRun(tx, run.id, { status: 'missed', completedAt: now });
    await recordActivity(
      tx,
      sweepActivity(instanceId, 'Patient Dashboard', 'Updated', {
        type: 'pathway step',
        id: run.id,
        description: `Pathway step missed by patient ${patient.id}`,
      }),
    );
    return finish('missed');
  }
  const due = remindersDue(run, step, now);
  if (due <= run.remindersSent) return 'waiting';
  const settings = await readSettings(tx, instanceId);
  const mobile = await mobileOf(tx, instanceId, patient.id);
  const { channels } = await reachableChannels(tx, settings, instanceId, patient, mobile, ['email', 'sms']);
  // Counted even when no channel is left: the patient turned them off since, and the step runs out.
  await setRun(tx, run.id, { remindersSent: due, lastReminderAt: now });
  if (channels.length === 0) return 'waiting';
  const language: FormLanguage = patient.preferredLanguage;
  const clinic = await clinicDisplayName(tx, instanceId);
  let url: string;
  let title: string | null = null;
  if (step.kind === 'pro') {
    // Only the token's hash is kept: the reminder carries a fresh address for the same link (and its
    // saved answers); the earlier address stops working.
    const token = newToken();
    await tx
      .update(patientLinks)
      .set({ tokenHash: sha256(token) })
      .where(eq(patientLinks.id, link!.id));
    url = formUrl(ctx, step, token);
    title = await formTitle(tx, instanceId, step, language);
  } else {
    const journal = await issuePainJournalLink(ctx, tx, { patientId: patient.id, language });
    await setRun(tx, run.id, { linkId: journal.linkId });
    url = journal.url;
  }
  await sendBy(ctx, tx, {
    patient,
    mobile,
    channels,
    runId: run.id,
    template: 'pathway-reminder',
    message: requestMessage(language, {
      firstName: patient.firstName,
      clinicName: clinic,
      formTitle: title,
      url,
      reminder: true,
    }),
  });
  return 'reminded';
}

async function setRun(tx: Database, runId: string, values: Partial<Omit<RunRow, 'id' | 'instanceId'>>) {
  await tx
    .update(pathwayStepRuns)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(pathwayStepRuns.id, runId));
}

async function sendBy(
  ctx: SweepContext,
  tx: Database,
  input: {
    patient: PatientRow;
    mobile: string | null;
    channels: ('email' | 'sms')[];
    message: PathwayMessage;
    template: string;
    runId: string;
  },
) {
  await queuePatientMessage(ctx, tx, {
    instanceId: ctx.instanceId,
    patientId: input.patient.id,
    channels: input.channels,
    to: { email: input.patient.email, mobile: input.mobile },
    template: input.template,
    message: input.message,
    // Nobody asked for it just now: it waits for the next morning past the clinic's daily cap (decision 0066).
    automatic: true,
    now: ctx.now,
  });
  await recordActivity(
    tx,
    sweepActivity(ctx.instanceId, 'Patient Dashboard', 'Sent', {
      type: 'pathway step',
      id: input.runId,
      description: `Pathway ${input.template} sent to patient ${input.patient.id} by ${input.channels.join(', ')}`,
    }),
  );
}

function formUrl(ctx: SweepContext, step: StepRow, token: string): string {
  return step.formCode !== null && isFormCode(step.formCode)
    ? publicLink(ctx.config, instrumentPath(step.formCode, token))
    : publicLink(ctx.config, customFormPath(token));
}

async function formTitle(tx: Database, instanceId: string, step: StepRow, language: FormLanguage): Promise<string> {
  if (step.formCode !== null && isFormCode(step.formCode)) {
    const name = getInstrument(step.formCode).name;
    return language === 'es' && name.es ? name.es : name.en;
  }
  const [form] = step.customFormId
    ? await tx
        .select({ title: customForms.title })
        .from(customForms)
        .where(and(eq(customForms.id, step.customFormId), eq(customForms.instanceId, instanceId)))
    : [];
  return form?.title ?? '';
}
