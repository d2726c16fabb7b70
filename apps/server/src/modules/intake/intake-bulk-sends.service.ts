import { randomUUID } from 'node:crypto';
import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { clinicTime12 } from '@pathwell/contracts/clinic-time';
import type { z } from 'zod';
import type { bulkIntakeCandidateSchema, BulkIntakeProgress } from '@pathwell/contracts/intake';
import type { SignedInContext } from '../../context';
import { appointments, outboxMessages, patients } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { appointmentScope, findVisibleAppointment, selectAppointments } from '../appointments/appointments.service';
import { linkStatusOf } from '../patient-contact/link-access.service';
import { findVisiblePatient } from '../patients/patient-visibility.service';
import { readSettings } from '../settings/settings.service';
import { mobileOf, reachableChannels } from '../patient-contact/reach.service';
import { dayWindow, latestIntakes } from './intake-dashboard.service';
import { makeIntake } from './intake-plans.service';

/* Intake links sent in bulk for a clinic day: who can be reached, sending under one batch, its progress. */

type Candidate = z.infer<typeof bulkIntakeCandidateSchema>;

async function bulkCandidates(ctx: SignedInContext, input: { date: string; doctorIds: string[]; send: ('email' | 'sms')[] }) {
  const settings = await readSettings(ctx.db, ctx.instanceId);
  const { timeZone, from, to } = dayWindow(settings, input.date);
  const conditions = [...appointmentScope(ctx), gte(appointments.startsAt, from), lt(appointments.startsAt, to)];
  if (input.doctorIds.length > 0) conditions.push(inArray(appointments.doctorId, input.doctorIds));
  const rows = await selectAppointments(ctx.db)
    .where(and(...conditions))
    .orderBy(appointments.startsAt, appointments.id)
    .limit(500);
  const latest = await latestIntakes(
    ctx.db,
    ctx.instanceId,
    rows.map((row) => row.id),
  );
  const people = rows.length
    ? await ctx.db
        .select({ id: patients.id, email: patients.email, enableEmail: patients.enableEmail, enableText: patients.enableText })
        .from(patients)
        .where(and(eq(patients.instanceId, ctx.instanceId), inArray(patients.id, [...new Set(rows.map((row) => row.patientId))])))
    : [];
  const candidates: (Candidate & { email: string | null; mobile: string | null })[] = [];
  const now = new Date();
  for (const row of rows) {
    const person = people.find((candidate) => candidate.id === row.patientId);
    const link = latest.get(row.id);
    const mobile = await mobileOf(ctx.db, ctx.instanceId, row.patientId);
    const base = {
      appointmentId: row.id,
      patientId: row.patientId,
      patientName: [row.firstName, row.lastName].join(' '),
      timeText: clinicTime12(row.startsAt, timeZone),
      doctorName: row.doctorId ? `${row.doctorFirstName ?? ''} ${row.doctorLastName ?? ''}`.trim() : null,
      email: person?.email ?? null,
      mobile,
    };
    if (link && linkStatusOf(link, now) === 'completed') {
      candidates.push({ ...base, channels: [], reason: 'completed' });
      continue;
    }
    if (link && linkStatusOf(link, now) === 'active') {
      candidates.push({ ...base, channels: [], reason: 'alreadySent' });
      continue;
    }
    const { channels, optedOut } = await reachableChannels(ctx.db, settings, ctx.instanceId, person, mobile, input.send);
    candidates.push({ ...base, channels, reason: channels.length > 0 ? null : optedOut ? 'optedOut' : 'noContact' });
  }
  return candidates;
}

export async function previewBulkIntake(
  ctx: SignedInContext,
  input: { date: string; doctorIds: string[]; send: ('email' | 'sms')[] },
) {
  const candidates = await bulkCandidates(ctx, input);
  return { candidates: candidates.map(({ email: _email, mobile: _mobile, ...candidate }) => candidate) };
}

/** One link per reachable appointment, all messages under one batch id so staff can watch them go out. */
export async function startBulkIntake(
  ctx: SignedInContext,
  input: { date: string; doctorIds: string[]; send: ('email' | 'sms')[] },
) {
  const candidates = (await bulkCandidates(ctx, input)).filter((candidate) => candidate.channels.length > 0);
  if (candidates.length === 0) throw new AppError('CONFLICT', 'nobodyToNotify');
  const batchId = randomUUID();
  let messages = 0;
  await ctx.db.transaction(async (tx) => {
    for (const candidate of candidates) {
      const patient = await findVisiblePatient(ctx, tx, candidate.patientId);
      const appointment = await findVisibleAppointment(tx, ctx, candidate.appointmentId);
      const created = await makeIntake(
        ctx,
        tx,
        patient,
        appointment,
        { patientId: patient.id, appointmentId: appointment.id, send: candidate.channels },
        { email: candidate.email, mobile: candidate.mobile },
        batchId,
      );
      messages += created.sent.length;
    }
  });
  return { batchId, links: candidates.length, messages };
}

export async function bulkIntakeProgress(ctx: SignedInContext, batchId: string): Promise<BulkIntakeProgress> {
  const rows = await ctx.db
    .select({ status: outboxMessages.status, count: sql<number>`count(*)::int` })
    .from(outboxMessages)
    .where(and(eq(outboxMessages.instanceId, ctx.instanceId), eq(outboxMessages.batchId, batchId)))
    .groupBy(outboxMessages.status);
  if (rows.length === 0) throw notFound('recordNotFound');
  const count = (...statuses: string[]) =>
    rows.filter((row) => statuses.includes(row.status)).reduce((sum, row) => sum + Number(row.count), 0);
  return {
    batchId,
    total: count('queued', 'scheduled', 'sending', 'sent', 'delivered', 'undelivered', 'failed', 'stored', 'suppressed'),
    waiting: count('queued', 'scheduled', 'sending'),
    sent: count('sent', 'delivered'),
    failed: count('failed', 'undelivered'),
    notSent: count('stored', 'suppressed'),
  };
}
