import { and, asc, eq, gte, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import {
  CHECKING_IN_LIST_LIMIT,
  CLINIC_DAY_LIST_LIMIT,
  RECENT_COMPLETIONS_LIMIT,
  UPCOMING_DAYS,
  UPCOMING_LIST_LIMIT,
  type ClinicDashboard,
  type DashboardAppointment,
} from '@pathwell/contracts/patient-dashboard';
import { doctorScope, type SignedInContext } from '../../context';
import { appointments, patients } from '../../db/schema';
import { listTotal } from '../../lib/list-total';
import { clinicDayStartAfter, clinicTodayStart, clinicWeekStart } from '@pathwell/contracts/clinic-time';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { clinicTimeZone } from '../settings/settings.service';
import { appointmentColumns, appointmentType, doctor, room, toTimeline } from './dashboard-appointments';

const fullName = (row: { firstName: string; middleName: string | null; lastName: string }) =>
  [row.firstName, row.middleName, row.lastName].filter(Boolean).join(' ');

/**
 * The clinic's day (section 7 "Patient dashboard fetchAll(doctorId)"): six queries whatever the
 * clinic's size, and one Viewed entry since the lists carry patient names.
 */
export async function clinicDashboard(ctx: SignedInContext, query: { doctorId?: string }): Promise<ClinicDashboard> {
  const doctorId = doctorScope(ctx, query.doctorId);
  return ctx.db.transaction(async (tx) => {
    const timeZone = await clinicTimeZone(tx, ctx.instanceId);
    const now = new Date();
    const todayStart = clinicTodayStart(now, timeZone);
    const todayEnd = clinicDayStartAfter(todayStart, 1, timeZone);
    const upcomingEnd = clinicDayStartAfter(todayEnd, UPCOMING_DAYS, timeZone);
    const weekStart = clinicWeekStart(now, timeZone);
    const weekEnd = clinicDayStartAfter(weekStart, 7, timeZone);

    const inScope = and(
      eq(appointments.instanceId, ctx.instanceId),
      isNull(appointments.deletedAt),
      isNull(patients.deletedAt),
      doctorId ? eq(appointments.doctorId, doctorId) : undefined,
    );
    const list = (where: SQL | undefined, order: SQL[], limit: number) =>
      tx
        .select({
          ...appointmentColumns,
          checkedInAt: appointments.checkedInAt,
          completedAt: appointments.completedAt,
          patientId: patients.id,
          patientFirstName: patients.firstName,
          patientMiddleName: patients.middleName,
          patientLastName: patients.lastName,
          patientDateOfBirth: patients.dateOfBirth,
        })
        .from(appointments)
        .innerJoin(patients, eq(patients.id, appointments.patientId))
        .leftJoin(appointmentType, eq(appointmentType.id, appointments.appointmentTypeId))
        .leftJoin(room, eq(room.id, appointments.roomId))
        .leftJoin(doctor, eq(doctor.id, appointments.doctorId))
        .where(and(inScope, where))
        .orderBy(...order, asc(appointments.id))
        .limit(limit);
    /** How many appointments a list would show without its limit. */
    const totalOf = async (where: SQL | undefined, rows: unknown[], limit: number) =>
      (
        await listTotal(
          tx,
          tx
            .select({ id: appointments.id })
            .from(appointments)
            .innerJoin(patients, eq(patients.id, appointments.patientId))
            .where(and(inScope, where)),
          { pageNumber: 0, pageSize: limit, rowsOnPage: rows.length, exact: true },
        )
      ).totalRecords;

    const isToday = and(gte(appointments.startsAt, todayStart), lt(appointments.startsAt, todayEnd));
    const today = await list(isToday, [asc(appointments.startsAt)], CLINIC_DAY_LIST_LIMIT);
    const isUpcoming = and(
      eq(appointments.status, AppointmentStatus.Upcoming),
      gte(appointments.startsAt, todayEnd),
      lt(appointments.startsAt, upcomingEnd),
    );
    const upcoming = await list(isUpcoming, [asc(appointments.startsAt)], UPCOMING_LIST_LIMIT);
    const isCheckingIn = eq(appointments.status, AppointmentStatus.Checking_In);
    const checkingIn = await list(
      isCheckingIn,
      [sql`${appointments.checkedInAt} asc nulls last`, asc(appointments.startsAt)],
      CHECKING_IN_LIST_LIMIT,
    );
    const completions = await list(
      eq(appointments.status, AppointmentStatus.Completed),
      [sql`coalesce(${appointments.completedAt}, ${appointments.startsAt}) desc`],
      RECENT_COMPLETIONS_LIMIT,
    );
    const [activePatients] = await tx
      .select({ total: sql<number>`count(*)::int` })
      .from(patients)
      .where(
        and(
          eq(patients.instanceId, ctx.instanceId),
          isNull(patients.deletedAt),
          isNull(patients.archivedAt),
          isNull(patients.accountClosedAt),
          eq(patients.status, 'active'),
          doctorId ? eq(patients.doctorId, doctorId) : undefined,
        ),
      );
    const [noShows] = await tx
      .select({ total: sql<number>`count(*)::int` })
      .from(appointments)
      .innerJoin(patients, eq(patients.id, appointments.patientId))
      .where(
        and(
          inScope,
          eq(appointments.status, AppointmentStatus.No_Show),
          gte(appointments.startsAt, weekStart),
          lt(appointments.startsAt, weekEnd),
        ),
      );

    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Viewed', {
        type: 'patients dashboard',
        id: doctorId,
        description: doctorId ? `Viewed the patients dashboard of doctor ${doctorId}` : 'Viewed the patients dashboard',
      }),
    );

    type ListRow = (typeof today)[number];
    const toDashboard = (row: ListRow): DashboardAppointment => ({
      ...toTimeline(row),
      patient: {
        id: row.patientId,
        name: fullName({ firstName: row.patientFirstName, middleName: row.patientMiddleName, lastName: row.patientLastName }),
        dateOfBirth: row.patientDateOfBirth,
      },
      checkedInAt: row.checkedInAt?.toISOString() ?? null,
      completedAt: row.completedAt?.toISOString() ?? null,
    });
    return {
      counts: {
        activePatients: activePatients?.total ?? 0,
        appointmentsToday: await totalOf(isToday, today, CLINIC_DAY_LIST_LIMIT),
        checkedInNow: await totalOf(isCheckingIn, checkingIn, CHECKING_IN_LIST_LIMIT),
        noShowsThisWeek: noShows?.total ?? 0,
        upcoming: await totalOf(isUpcoming, upcoming, UPCOMING_LIST_LIMIT),
      },
      today: today.map(toDashboard),
      upcoming: upcoming.map(toDashboard),
      checkingIn: checkingIn.map(toDashboard),
      recentCompletions: completions.map(toDashboard),
    };
  });
}
