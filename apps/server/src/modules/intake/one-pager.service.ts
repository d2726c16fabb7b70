import { and, asc, desc, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { widespreadCount, type BodyMap } from '@pathwell/contracts/body-map';
import { clinicIsoDate, formatClinicDateTime } from '@pathwell/contracts/clinic-time';
import type { IntakeWorkStep, OnePager, VasScores } from '@pathwell/contracts/intake';
import { getInstrument, isFormCode } from '@pathwell/instruments';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { appointments, formResponses, intakeEntries, managedItems, patientConsents, patientLinks } from '../../db/schema';
import { findVisibleAppointment } from '../appointments/appointments.service';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { comparedWithPrevious } from '../form-responses/form-responses.service';
import { linkStatusOf } from '../patient-contact/link-access.service';
import { ageOn } from '../patient-dashboard/patient-dashboard.service';
import { findVisiblePatient } from '../patients/patient-visibility.service';
import { clinicTimeZone } from '../settings/settings.service';
import { toConsent } from './patient-intakes.service';
import { intakeForms, savedAnswers, stepStates } from './intake-progress';

type EntryRow = typeof intakeEntries.$inferSelect;
/** A patient keeps few signed documents; the one-pager lists the latest of them. */
const CONSENT_LIMIT = 10;

const personName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ');

/**
 * The appointment's intake: a finished link first (a link sent again after completion starts empty),
 * else the latest one, whose answers replace those of the unfinished links before it.
 */
async function appointmentIntake(db: Database, instanceId: string, appointmentId: string) {
  const [link] = await db
    .select()
    .from(patientLinks)
    .where(
      and(
        eq(patientLinks.instanceId, instanceId),
        eq(patientLinks.appointmentId, appointmentId),
        eq(patientLinks.kind, 'intake'),
      ),
    )
    .orderBy(sql`${patientLinks.completedAt} is null`, desc(patientLinks.createdAt))
    .limit(1);
  if (!link?.intakePlan) return null;
  const entries = await db
    .select()
    .from(intakeEntries)
    .where(and(eq(intakeEntries.instanceId, instanceId), eq(intakeEntries.linkId, link.id)));
  return { link, entries };
}

/** A finished own-answer step of the patient's latest earlier visit that has one (as `previousBodyMap`). */
async function earlierAnswer(db: Database, instanceId: string, patientId: string, before: Date, step: IntakeWorkStep) {
  const [row] = await db
    .select({ data: intakeEntries.data, appointmentId: appointments.id, startsAt: appointments.startsAt })
    .from(intakeEntries)
    .innerJoin(patientLinks, eq(patientLinks.id, intakeEntries.linkId))
    .innerJoin(appointments, eq(appointments.id, patientLinks.appointmentId))
    .where(
      and(
        eq(intakeEntries.instanceId, instanceId),
        eq(patientLinks.patientId, patientId),
        eq(intakeEntries.step, step),
        eq(intakeEntries.formKey, ''),
        isNotNull(intakeEntries.completedAt),
        lt(appointments.startsAt, before),
        isNull(appointments.deletedAt),
      ),
    )
    .orderBy(desc(appointments.startsAt), desc(intakeEntries.completedAt))
    .limit(1);
  return row ?? null;
}

function painChange(current: VasScores | null, previous: VasScores | null) {
  if (!current || !previous) return null;
  return {
    current: current.current - previous.current,
    average: current.average - previous.average,
    best: current.best - previous.best,
    worst: current.worst - previous.worst,
  };
}

/** The outcome forms answered for the appointment: each form's latest response, compared with the one before. */
async function appointmentPros(ctx: SignedInContext, patientId: string, appointmentId: string): Promise<OnePager['pros']> {
  const rows = await ctx.db
    .select()
    .from(formResponses)
    .where(
      and(
        eq(formResponses.instanceId, ctx.instanceId),
        eq(formResponses.patientId, patientId),
        eq(formResponses.appointmentId, appointmentId),
        isNotNull(formResponses.formCode),
      ),
    )
    .orderBy(asc(formResponses.formCode), desc(formResponses.submittedAt), desc(formResponses.id));
  const latest = rows.filter((row, index) => index === 0 || rows[index - 1]!.formCode !== row.formCode);
  const pros: OnePager['pros'] = [];
  for (const response of latest) {
    if (!isFormCode(response.formCode)) continue;
    const definition = getInstrument(response.formCode);
    const bandLabel = response.band === null ? undefined : definition.bands?.[0]?.labels[response.band];
    // A response with no score (answered without its wording, decision 0067) compares with nothing.
    const previous = response.notScored ? null : await comparedWithPrevious(ctx.db, ctx, { response, customFormId: null });
    pros.push({
      responseId: response.id,
      formCode: response.formCode,
      title: definition.name,
      submittedAt: response.submittedAt.toISOString(),
      score: response.headlineScore,
      ...(response.notScored ? { notScored: response.notScored } : {}),
      maximum: definition.headline.maximum,
      band: response.band,
      bandLabel: bandLabel ?? null,
      previous: previous
        ? {
            responseId: previous.id,
            submittedAt: previous.submittedAt,
            score: previous.headlineScore,
            change: previous.change,
            better: previous.better,
            meetsMcid: previous.meetsMcid,
          }
        : null,
    });
  }
  return pros;
}

function intakeSummary(link: typeof patientLinks.$inferSelect, entries: EntryRow[], now: Date): OnePager['intake'] {
  const steps = stepStates(link.intakePlan!, entries);
  return {
    linkId: link.id,
    status: linkStatusOf(link, now),
    steps,
    stepsDone: steps.filter((state) => state.done).length,
    stepsPlanned: steps.length,
    completedAt: link.completedAt?.toISOString() ?? null,
  };
}

/**
 * The doctor's one-pager of an appointment (issue #12): who, when and why; pain against the last visit;
 * the body map's areas; this visit's outcome scores with their change; allergies, medications, the
 * clinic's history forms; signed consents; how far the intake got. Visibility as for the intake card:
 * another clinic's appointment, or a Doctor's colleague's patient, is not found.
 */
export async function onePager(ctx: SignedInContext, appointmentId: string): Promise<OnePager> {
  const appointment = await findVisibleAppointment(ctx.db, ctx, appointmentId);
  const patient = await findVisiblePatient(ctx, ctx.db, appointment.patientId);
  const timeZone = await clinicTimeZone(ctx.db, ctx.instanceId);
  const now = new Date();
  const [gender] = patient.genderId
    ? await ctx.db
        .select({ name: managedItems.name })
        .from(managedItems)
        .where(and(eq(managedItems.instanceId, ctx.instanceId), eq(managedItems.id, patient.genderId)))
    : [];

  const intake = await appointmentIntake(ctx.db, ctx.instanceId, appointment.id);
  const finished = (intake?.entries ?? []).filter((entry) => entry.completedAt !== null);
  const saved = savedAnswers(finished);
  const currentPain = (saved.vas as VasScores | null) ?? null;
  const currentMap = saved.bodymap;
  const earlierPain = await earlierAnswer(ctx.db, ctx.instanceId, patient.id, appointment.startsAt, 4);
  const earlierMap = await earlierAnswer(ctx.db, ctx.instanceId, patient.id, appointment.startsAt, 5);
  const previousPain = earlierPain ? (earlierPain.data as VasScores) : null;

  const forms = intake ? await intakeForms(ctx.db, intake.link, intake.entries) : [];
  const historyForms: OnePager['historyForms'] = forms.flatMap((form) =>
    form.step === 6
      ? []
      : [
          {
            key: form.key,
            step: form.step,
            title: form.title,
            done: form.done,
            responseId:
              intake!.entries.find((entry) => entry.step === form.step && entry.formKey === form.key)?.responseId ?? null,
          },
        ],
  );

  const consents = await ctx.db
    .select()
    .from(patientConsents)
    .where(and(eq(patientConsents.instanceId, ctx.instanceId), eq(patientConsents.patientId, patient.id)))
    .orderBy(desc(patientConsents.signedAt))
    .limit(CONSENT_LIMIT);

  const history = saved.history;
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Intake Information', 'Viewed', {
      type: 'appointment',
      id: appointment.id,
      description: `Viewed the one-pager of patient ${patient.id} for appointment ${appointment.id}`,
    }),
  );
  return {
    patient: {
      id: patient.id,
      name: [patient.firstName, patient.middleName, patient.lastName].filter(Boolean).join(' '),
      dateOfBirth: patient.dateOfBirth,
      age: ageOn(patient.dateOfBirth, clinicIsoDate(appointment.startsAt, timeZone)),
      sex: gender?.name ?? null,
    },
    appointment: {
      id: appointment.id,
      startsAt: appointment.startsAt.toISOString(),
      startsAtText: formatClinicDateTime(appointment.startsAt, timeZone),
      reason: appointment.reason,
      typeName: appointment.typeName,
      roomName: appointment.roomName,
      doctorName: appointment.doctorId ? personName(appointment.doctorFirstName, appointment.doctorLastName) || null : null,
      status: appointment.status,
      checkedInAt: appointment.checkedInAt?.toISOString() ?? null,
    },
    intake: intake ? intakeSummary(intake.link, intake.entries, now) : null,
    pain: {
      current: currentPain,
      previous:
        earlierPain && previousPain
          ? { appointmentId: earlierPain.appointmentId, startsAt: earlierPain.startsAt.toISOString(), scores: previousPain }
          : null,
      change: painChange(currentPain, previousPain),
    },
    bodyMap: {
      current: currentMap
        ? {
            regions: Object.entries(currentMap.regions)
              .map(([id, level]) => ({ id, level }))
              .sort((a, b) => b.level - a.level || a.id.localeCompare(b.id)),
            count: widespreadCount(currentMap),
          }
        : null,
      previous: earlierMap
        ? {
            appointmentId: earlierMap.appointmentId,
            startsAt: earlierMap.startsAt.toISOString(),
            count: widespreadCount(earlierMap.data as BodyMap),
          }
        : null,
    },
    pros: await appointmentPros(ctx, patient.id, appointment.id),
    allergies: history
      ? {
          noneKnown: history.noKnownAllergies === true,
          items: (history.allergies ?? []).map((allergy) => ({ name: allergy.name, reaction: allergy.reaction || null })),
        }
      : null,
    medications: history
      ? {
          none: history.noMedications === true,
          items: (history.medications ?? []).map((medication) => ({
            name: medication.name,
            dose: medication.dose || null,
            frequency: medication.frequency || null,
          })),
        }
      : null,
    historyForms,
    consents: consents.map((consent) => toConsent(consent, now)),
  };
}
