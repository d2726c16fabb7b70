import { and, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import type { ServiceContext } from '../../context';
import type { Database } from '../../db/client';
import { appointments, instanceSettings, patientLinks, patients } from '../../db/schema';
import { withClinics, withSystemAccess } from '../../db/tenancy';
import { selectAppointments } from '../appointments/appointments.service';
import { numberSetting, readSettings } from '../settings/settings.service';
import { makeIntake } from './intake-plans.service';
import { mobileOf, reachableChannels } from '../patient-contact/reach.service';

const HOUR_MS = 3_600_000;
/** The setting's own default and upper bound (packages/contracts/src/instance-settings.ts). */
const DEFAULT_NOTIFICATION_HOURS = 24;
const MAX_NOTIFICATION_HOURS = 720;
/** Every five minutes: a link is never more than five minutes late for its window. */
export const INTAKE_SWEEP_CRON = '*/5 * * * *';
/** Links made per sweep; the rest wait for the next sweep, minutes later. */
const SWEEP_LIMIT = 200;

export type SweepDeps = Pick<ServiceContext, 'config' | 'mailer' | 'jobs' | 'events'>;

interface SweepResult {
  /** Intake links made and sent. */
  sent: number;
  /** Due visits whose patient cannot be reached (no email or mobile, channels off, opted out). */
  unreachable: number;
}

/**
 * Issue #12 §2: each visit's intake link goes out on its own `intakeFormNotificationHours` before it
 * starts (decision 0034). A visit qualifies once: Upcoming, starting within the clinic's window, and no
 * intake link was ever made for it (staff may have sent one already, or closed it on purpose). The link
 * is made exactly as staff make it (same plan, language, channels, outbox, audit), in a transaction per
 * visit on the clinic's own rows, so one patient's problem does not hold up the others. A clinic turns
 * it off with the setting at 0.
 */
export async function sendDueIntakes(root: Database, deps: SweepDeps, now = new Date()): Promise<SweepResult> {
  const horizon = new Date(now.getTime() + MAX_NOTIFICATION_HOURS * HOUR_MS);
  const due = await withSystemAccess(root, 'intake-auto-send', async (tx) => {
    const candidates = await tx
      .select({ id: appointments.id, instanceId: appointments.instanceId, startsAt: appointments.startsAt })
      .from(appointments)
      .innerJoin(patients, and(eq(patients.id, appointments.patientId), eq(patients.instanceId, appointments.instanceId)))
      .where(
        and(
          eq(appointments.status, AppointmentStatus.Upcoming),
          isNull(appointments.deletedAt),
          isNull(patients.deletedAt),
          // A patient who closed their account asked for no more links.
          isNull(patients.accountClosedAt),
          gt(appointments.startsAt, now),
          lte(appointments.startsAt, horizon),
          sql`not exists (select 1 from ${patientLinks} where ${patientLinks.instanceId} = ${appointments.instanceId} and ${patientLinks.appointmentId} = ${appointments.id} and ${patientLinks.kind} = 'intake')`,
        ),
      )
      .orderBy(appointments.startsAt)
      .limit(SWEEP_LIMIT * 5);
    if (candidates.length === 0) return [];
    const hours = await tx
      .select({ instanceId: instanceSettings.instanceId, value: instanceSettings.configurationValue })
      .from(instanceSettings)
      .where(
        and(
          eq(instanceSettings.configurationId, 'intakeFormNotificationHours'),
          inArray(instanceSettings.instanceId, [...new Set(candidates.map((row) => row.instanceId))]),
        ),
      );
    const hoursOf = (instanceId: string) => {
      const row = hours.find((setting) => setting.instanceId === instanceId);
      return row ? (numberSetting({ hours: row.value }, 'hours') ?? DEFAULT_NOTIFICATION_HOURS) : DEFAULT_NOTIFICATION_HOURS;
    };
    return candidates
      .filter((row) => {
        const windowHours = hoursOf(row.instanceId);
        return windowHours > 0 && row.startsAt.getTime() <= now.getTime() + windowHours * HOUR_MS;
      })
      .slice(0, SWEEP_LIMIT);
  });

  const result: SweepResult = { sent: 0, unreachable: 0 };
  for (const visit of due) {
    const outcome = await withClinics(root, [visit.instanceId], (tx) => sendOne(tx, deps, visit.instanceId, visit.id));
    result[outcome] += 1;
  }
  return result;
}

async function sendOne(tx: Database, deps: SweepDeps, instanceId: string, appointmentId: string): Promise<keyof SweepResult> {
  // Locked, and checked again: two server processes sweeping at once make one link.
  const [appointment] = await selectAppointments(tx)
    .where(and(eq(appointments.id, appointmentId), eq(appointments.instanceId, instanceId)))
    .for('update', { of: appointments });
  const [existing] = await tx
    .select({ id: patientLinks.id })
    .from(patientLinks)
    .where(
      and(
        eq(patientLinks.instanceId, instanceId),
        eq(patientLinks.appointmentId, appointmentId),
        eq(patientLinks.kind, 'intake'),
      ),
    )
    .limit(1);
  if (!appointment || existing) return 'unreachable';
  const [patient] = await tx
    .select()
    .from(patients)
    .where(and(eq(patients.id, appointment.patientId), eq(patients.instanceId, instanceId)));
  if (!patient) return 'unreachable';
  const settings = await readSettings(tx, instanceId);
  const mobile = await mobileOf(tx, instanceId, patient.id);
  const { channels } = await reachableChannels(tx, settings, instanceId, patient, mobile, ['email', 'sms']);
  if (channels.length === 0) return 'unreachable';
  const ctx = {
    ...deps,
    db: tx,
    ip: '',
    userAgent: null,
    actor: null,
    instanceId,
    allClinics: false,
    instanceIds: [instanceId],
  };
  await makeIntake(
    ctx,
    tx,
    patient,
    appointment,
    { patientId: patient.id, appointmentId, send: channels },
    { email: patient.email, mobile },
    null,
  );
  return 'sent';
}
