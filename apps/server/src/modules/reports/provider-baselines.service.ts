import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import {
  FOLLOW_UP_MIN_DAYS,
  type ProviderBaselines,
  type providerBaselinesFilterSchema,
} from '@pathwell/contracts/reports-referrals';
import { doctorScope, type SignedInContext } from '../../context';
import { appointments, formResponses, patientLinks, patients, users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { appointmentDateWindow } from '../../lib/clinic-dates';
import { rowsOf } from '../../lib/sql-rows';
import { clinicTimeZoneFrom, isOn, readSettings } from '../settings/settings.service';
import { clinicDayStartAfter } from './clinic-day';
import { withoutJit } from './report-session';

type Filter = z.output<typeof providerBaselinesFilterSchema>;
type Shape = ProviderBaselines['totals'];

const number = (value: number | null | undefined) => value ?? 0;

/** One provider's row (g = 0) or the totals (g = 1); the full join leaves either side's columns null. */
interface ProviderRow {
  g: number;
  doctor_id: string | null;
  provider_name: string | null;
  upcoming: number | null;
  checking_in: number | null;
  completed: number | null;
  no_show: number | null;
  total: number | null;
  intake_due: number | null;
  intake_before: number | null;
  new_patients: number | null;
  baseline_pain: number | null;
  baseline_pain_count: number | null;
  follow_up_pain: number | null;
  follow_up_pain_count: number | null;
}

/** One form's baseline and follow-up, per provider (g = 0) or over all (g = 1). */
interface FormRow {
  g: number;
  doctor_id: string | null;
  form_code: number;
  baseline: number | null;
  baseline_count: number;
  follow_up: number | null;
  follow_up_count: number;
}

/**
 * The new patients of the window: patients whose first live appointment ever starts in it, each with the
 * provider of that appointment (`doctor_id`), narrowed to one provider when scoped.
 */
function newPatientsSql(ctx: SignedInContext, from: string, to: string, scope: SQL): SQL {
  return sql`
    new_patients as (
      select first_visit.patient_id, first_visit.doctor_id
        from (
          select distinct on (a.patient_id) a.patient_id, a.doctor_id, a.starts_at
            from ${appointments} a
            join ${patients} p on p.instance_id = ${ctx.instanceId} and p.id = a.patient_id and p.deleted_at is null
           where a.instance_id = ${ctx.instanceId} and a.deleted_at is null
             and a.starts_at >= ${from}::timestamptz and a.starts_at < ${to}::timestamptz
           order by a.patient_id, a.starts_at, a.id
        ) first_visit
       where not exists (
               select 1 from ${appointments} earlier
                where earlier.instance_id = ${ctx.instanceId} and earlier.patient_id = first_visit.patient_id
                  and earlier.deleted_at is null and earlier.starts_at < first_visit.starts_at
             ) ${scope}
    )`;
}

/**
 * POST /api/patientappointments/providerappointmentreport (the Provider Appointment Dashboard): per
 * provider, their new patients' baseline pain and scores with the latest follow-up, appointments by
 * status, and intake completed before the visit. Two aggregate statements; a Doctor gets their own row.
 */
export async function providerBaselines(ctx: SignedInContext, filter: Filter): Promise<ProviderBaselines> {
  const settings = await readSettings(ctx.db, ctx.instanceId);
  if (!isOn(settings, 'enableProviderAppointmentDashboard')) throw new AppError('FORBIDDEN', 'featureOff');
  const timeZone = clinicTimeZoneFrom(settings);
  const now = new Date();
  const window = appointmentDateWindow(filter, now, timeZone);
  const from = window.from.toISOString();
  const to = window.to.toISOString();
  const doctorId = doctorScope(ctx, filter.doctorId);
  const newPatients = newPatientsSql(ctx, from, to, doctorId ? sql`and first_visit.doctor_id = ${doctorId}` : sql``);

  await withoutJit(ctx.db);
  const main = await rowsOf<ProviderRow>(
    ctx.db,
    sql`
    with ${newPatients},
    window_appointments as materialized (
      select a.id, a.doctor_id, a.status, a.starts_at, a.starts_at <= ${now.toISOString()}::timestamptz as due
        from ${appointments} a
        join ${patients} p on p.instance_id = ${ctx.instanceId} and p.id = a.patient_id and p.deleted_at is null
       where a.instance_id = ${ctx.instanceId} and a.deleted_at is null
         and a.starts_at >= ${from}::timestamptz and a.starts_at < ${to}::timestamptz
         ${doctorId ? sql`and a.doctor_id = ${doctorId}` : sql``}
    ),
    -- The window's appointments whose intake was completed before the visit: a join, so the planner may
    -- read the intake links once instead of looking them up appointment by appointment (issue #14 §5).
    intake_before as (
      select distinct l.appointment_id as id
        from ${patientLinks} l
        join window_appointments w on w.id = l.appointment_id
       where l.instance_id = ${ctx.instanceId} and l.kind = 'intake'
         and l.completed_at is not null and l.completed_at < w.starts_at
    ),
    by_appointments as (
      select doctor_id, grouping(doctor_id)::int as g,
             count(*) filter (where status = ${AppointmentStatus.Upcoming})::int as upcoming,
             count(*) filter (where status = ${AppointmentStatus.Checking_In})::int as checking_in,
             count(*) filter (where status = ${AppointmentStatus.Completed})::int as completed,
             count(*) filter (where status = ${AppointmentStatus.No_Show})::int as no_show,
             count(*)::int as total,
             count(*) filter (where due)::int as intake_due,
             count(*) filter (where due and i.id is not null)::int as intake_before
        from window_appointments w
        left join intake_before i on i.id = w.id
       group by grouping sets ((doctor_id), ())
    ),
    pain as (
      select n.doctor_id, baseline.score as baseline, latest.score as follow_up
        from new_patients n
        left join lateral (
          select a.pain_score as score, a.starts_at as at
            from ${appointments} a
           where a.instance_id = ${ctx.instanceId} and a.patient_id = n.patient_id and a.deleted_at is null
             and a.status = ${AppointmentStatus.Completed} and a.pain_score is not null
           order by a.starts_at, a.id
           limit 1
        ) baseline on true
        left join lateral (
          select a.pain_score as score
            from ${appointments} a
           where a.instance_id = ${ctx.instanceId} and a.patient_id = n.patient_id and a.deleted_at is null
             and a.status = ${AppointmentStatus.Completed} and a.pain_score is not null
             and a.starts_at >= ${clinicDayStartAfter(sql`baseline.at`, FOLLOW_UP_MIN_DAYS, timeZone)}
           order by a.starts_at desc, a.id desc
           limit 1
        ) latest on true
    ),
    by_patients as (
      select doctor_id, grouping(doctor_id)::int as g, count(*)::int as new_patients,
             round(avg(baseline), 2)::float8 as baseline_pain, count(baseline)::int as baseline_pain_count,
             round(avg(follow_up), 2)::float8 as follow_up_pain, count(follow_up)::int as follow_up_pain_count
        from pain
       group by grouping sets ((doctor_id), ())
    )
    select coalesce(ba.g, bp.g) as g, coalesce(ba.doctor_id, bp.doctor_id) as doctor_id,
           nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as provider_name,
           ba.upcoming, ba.checking_in, ba.completed, ba.no_show, ba.total, ba.intake_due, ba.intake_before,
           bp.new_patients, bp.baseline_pain, bp.baseline_pain_count, bp.follow_up_pain, bp.follow_up_pain_count
      from by_appointments ba
      full join by_patients bp on bp.g = ba.g and bp.doctor_id is not distinct from ba.doctor_id
      left join ${users} u on u.id = coalesce(ba.doctor_id, bp.doctor_id)
     order by 1, u.last_name nulls last, u.first_name, 2`,
  );

  const forms = await rowsOf<FormRow>(
    ctx.db,
    sql`
    with ${newPatients},
    baselines as (
      select n.patient_id, n.doctor_id, first_response.form_code, first_response.score, first_response.at
        from new_patients n
        cross join lateral (
          select distinct on (r.form_code) r.form_code, r.headline_score as score, r.submitted_at as at
            from ${formResponses} r
           where r.instance_id = ${ctx.instanceId} and r.patient_id = n.patient_id
             and r.form_code is not null and r.headline_score is not null
           order by r.form_code, r.submitted_at, r.id
        ) first_response
    ),
    paired as (
      select b.doctor_id, b.form_code, b.score as baseline, latest.score as follow_up
        from baselines b
        left join lateral (
          select r.headline_score as score
            from ${formResponses} r
           where r.instance_id = ${ctx.instanceId} and r.patient_id = b.patient_id and r.form_code = b.form_code
             and r.headline_score is not null and r.submitted_at >= ${clinicDayStartAfter(sql`b.at`, FOLLOW_UP_MIN_DAYS, timeZone)}
           order by r.submitted_at desc, r.id desc
           limit 1
        ) latest on true
    )
    select grouping(doctor_id)::int as g, doctor_id, form_code::int as form_code,
           round(avg(baseline), 2)::float8 as baseline, count(baseline)::int as baseline_count,
           round(avg(follow_up), 2)::float8 as follow_up, count(follow_up)::int as follow_up_count
      from paired
     group by grouping sets ((doctor_id, form_code), (form_code))
     order by g, doctor_id, form_code`,
  );

  const formsOf = (g: number, doctor: string | null) =>
    forms
      .filter((row) => row.g === g && (g === 1 || row.doctor_id === doctor))
      .map((row) => ({
        formCode: row.form_code,
        baseline: { mean: row.baseline, count: row.baseline_count },
        followUp: { mean: row.follow_up, count: row.follow_up_count },
      }));
  const shapeOf = (row: ProviderRow | undefined, g: number): Shape => {
    const due = number(row?.intake_due);
    const completedBefore = number(row?.intake_before);
    return {
      newPatients: number(row?.new_patients),
      baselinePain: { mean: row?.baseline_pain ?? null, count: number(row?.baseline_pain_count) },
      followUpPain: { mean: row?.follow_up_pain ?? null, count: number(row?.follow_up_pain_count) },
      forms: formsOf(g, row?.doctor_id ?? null),
      appointments: {
        upcoming: number(row?.upcoming),
        checkingIn: number(row?.checking_in),
        completed: number(row?.completed),
        noShow: number(row?.no_show),
        total: number(row?.total),
      },
      intake: { due, completedBefore, rate: due === 0 ? null : Math.round((completedBefore / due) * 10_000) / 10_000 },
    };
  };
  return {
    timeZone,
    from,
    to,
    computedAt: now.toISOString(),
    rows: main
      .filter((row) => row.g === 0)
      .map((row) => ({
        providerId: row.doctor_id,
        providerName: row.provider_name,
        ...shapeOf(row, 0),
      })),
    totals: shapeOf(
      main.find((row) => row.g === 1),
      1,
    ),
  };
}
