import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { appointments, codedVisits, instances, patients, visitRecords } from '../../db/schema';
import type { Database } from '../../db/client';
import { withClinics } from '../../db/tenancy';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { rowsOf } from '../../lib/sql-rows';

/*
 * The marks an audience reads (decision 0053) — `patient_code_marks`, and the patient's last coded
 * visit and last completed appointment on `patients` — are kept by triggers. Whatever writes the
 * visits — an insert of many at once, a change of codes or date, a delete, a cascade from a deleted
 * visit record or patient, an appointment completed, moved, reopened or deleted — the marks must equal a
 * count made afresh from the visits themselves. Writes go through the app's role with Riverside set,
 * as a request's would, so row-level security applies to the marks too.
 */

let t: TestApp;
let riverside: string;
let lakeside: string;


/** A patient's mark for one code (kept, or counted afresh from the visits). */
interface CodeMarkRow {
  patient_id: string;
  code: string;
  first_visit: string;
  last_visit: string;
  visits: number;
}

/** A patient's last coded visit and last completed appointment (kept, or counted afresh). */
interface VisitMarkRow {
  patient_id: string;
  last_coded_visit: string | null;
  last_completed_at: string | null;
}

interface MarkCountRow {
  n: number;
}

/** The marks as kept, and as counted afresh from coded visits and appointments, for these patients. */
async function marksAndTruth(patientIds: string[]) {
  const list = `{${patientIds.join(',')}}`;
  const kept = {
    codes: await rowsOf<CodeMarkRow>(
      t.db,
      sql`select patient_id::text, code, first_visit::text, last_visit::text, visits from patient_code_marks
           where patient_id = any(${list}::uuid[]) order by 1, 2`,
    ),
    visits: await rowsOf<VisitMarkRow>(
      t.db,
      sql`select id::text as patient_id, last_coded_visit::text, last_completed_visit_at as last_completed_at from patients
           where id = any(${list}::uuid[]) and (last_coded_visit is not null or last_completed_visit_at is not null)
           order by 1`,
    ),
  };
  const truth = {
    codes: await rowsOf<CodeMarkRow>(
      t.db,
      sql`select cv.patient_id::text, code, min(cv.visit_date)::text as first_visit, max(cv.visit_date)::text as last_visit,
                 count(distinct cv.id)::int as visits
            from coded_visits cv cross join lateral unnest(cv.codes) as code
           where cv.patient_id = any(${list}::uuid[]) group by 1, 2 order by 1, 2`,
    ),
    visits: await rowsOf<VisitMarkRow>(
      t.db,
      sql`select p.id::text as patient_id,
                 (select max(visit_date) from coded_visits cv where cv.patient_id = p.id)::text as last_coded_visit,
                 (select max(starts_at) from appointments a
                   where a.patient_id = p.id and a.deleted_at is null and a.status = ${AppointmentStatus.Completed}) as last_completed_at
            from patients p where p.id = any(${list}::uuid[])
             and (exists (select 1 from coded_visits cv where cv.patient_id = p.id)
                  or exists (select 1 from appointments a where a.patient_id = p.id and a.deleted_at is null
                               and a.status = ${AppointmentStatus.Completed}))
           order by 1`,
    ),
  };
  return { kept, truth };
}

async function expectMarksTrue(patientIds: string[]) {
  const { kept, truth } = await marksAndTruth(patientIds);
  expect(kept).toEqual(truth);
  return kept;
}

const asRiverside = <T>(work: (tx: Database) => Promise<T>) => withClinics(t.db, [riverside], work);

async function newPatient(lastName: string, instanceId = riverside) {
  const [row] = await t.db
    .insert(patients)
    .values({ instanceId, firstName: 'Mark', lastName, dateOfBirth: '1968-05-05' })
    .returning({ id: patients.id });
  return row!.id;
}

let dedupe = 0;
const visit = (patientId: string, visitDate: string, codes: string[], extra: Partial<typeof codedVisits.$inferInsert> = {}) => ({
  instanceId: riverside,
  patientId,
  visitDate,
  source: 'import' as const,
  dedupeKey: `marks-test:${++dedupe}`,
  codes,
  ...extra,
});

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
});

afterAll(async () => {
  await t?.close();
});

describe('audience marks kept by the database', () => {
  it('follow coded visits inserted together, changed and deleted, through the app role', async () => {
    const [ana, ben] = [await newPatient('Marksana'), await newPatient('Marksben')];
    await asRiverside((tx) =>
      tx
        .insert(codedVisits)
        .values([
          visit(ana, '2025-01-10', ['M54.16', '64483']),
          visit(ana, '2025-06-02', ['M54.16']),
          visit(ana, '2025-03-15', ['M51.16', 'M54.16']),
          visit(ben, '2024-11-30', ['M54.2']),
        ]),
    );
    const kept = await expectMarksTrue([ana, ben]);
    expect(kept.codes.find((row) => row.patient_id === ana && row.code === 'M54.16')).toMatchObject({
      first_visit: '2025-01-10',
      last_visit: '2025-06-02',
      visits: 3,
    });
    expect(kept.visits.find((row) => row.patient_id === ana)).toMatchObject({ last_coded_visit: '2025-06-02' });

    // A visit's codes and date change; another is deleted.
    await asRiverside(async (tx) => {
      await tx
        .update(codedVisits)
        .set({ codes: ['M47.816'], visitDate: '2025-08-20' })
        .where(and(eq(codedVisits.patientId, ana), eq(codedVisits.visitDate, '2025-01-10')));
      await tx.delete(codedVisits).where(and(eq(codedVisits.patientId, ana), eq(codedVisits.visitDate, '2025-06-02')));
    });
    const after = await expectMarksTrue([ana, ben]);
    expect(after.codes.filter((row) => row.patient_id === ana).map((row) => row.code)).toEqual(['M47.816', 'M51.16', 'M54.16']);
    expect(after.visits.find((row) => row.patient_id === ana)).toMatchObject({ last_coded_visit: '2025-08-20' });

    // The last visit of a patient goes: no marks are left for them.
    await asRiverside((tx) => tx.delete(codedVisits).where(eq(codedVisits.patientId, ben)));
    const gone = await expectMarksTrue([ben]);
    expect(gone).toEqual({ codes: [], visits: [] });
  });

  it('follow completed appointments: completed, moved, reopened, deleted, and a patient changed', async () => {
    const [cara, dan] = [await newPatient('Markscara'), await newPatient('Marksdan')];
    const [first] = await asRiverside((tx) =>
      tx
        .insert(appointments)
        .values({
          instanceId: riverside,
          patientId: cara,
          startsAt: new Date('2025-04-01T15:00:00Z'),
          status: AppointmentStatus.Completed,
        })
        .returning({ id: appointments.id }),
    );
    const [second] = await asRiverside((tx) =>
      tx
        .insert(appointments)
        .values({
          instanceId: riverside,
          patientId: cara,
          startsAt: new Date('2025-09-09T15:00:00Z'),
          status: AppointmentStatus.Upcoming,
        })
        .returning({ id: appointments.id }),
    );
    let kept = await expectMarksTrue([cara, dan]);
    expect(kept.visits).toHaveLength(1);

    const change = (id: string, values: Partial<typeof appointments.$inferInsert>) =>
      asRiverside((tx) => tx.update(appointments).set(values).where(eq(appointments.id, id)));
    await change(second!.id, { status: AppointmentStatus.Completed });
    kept = await expectMarksTrue([cara, dan]);
    expect(new Date(kept.visits[0]!.last_completed_at as string).toISOString()).toBe('2025-09-09T15:00:00.000Z');

    await change(second!.id, { startsAt: new Date('2025-10-01T14:00:00Z') });
    await expectMarksTrue([cara, dan]);
    await change(second!.id, { status: AppointmentStatus.No_Show });
    kept = await expectMarksTrue([cara, dan]);
    expect(new Date(kept.visits[0]!.last_completed_at as string).toISOString()).toBe('2025-04-01T15:00:00.000Z');

    await change(first!.id, { patientId: dan });
    await expectMarksTrue([cara, dan]);
    await change(first!.id, { deletedAt: new Date() });
    kept = await expectMarksTrue([cara, dan]);
    expect(kept.visits).toEqual([]);
    await asRiverside((tx) => tx.delete(appointments).where(eq(appointments.patientId, cara)));
    await expectMarksTrue([cara, dan]);
  });

  it('follow cascades: a deleted visit record takes its coded visit, a deleted patient everything', async () => {
    const eva = await newPatient('Markseva');
    const [appointment] = await t.db
      .insert(appointments)
      .values({
        instanceId: riverside,
        patientId: eva,
        startsAt: new Date('2025-05-05T16:00:00Z'),
        status: AppointmentStatus.Completed,
      })
      .returning({ id: appointments.id });
    const [record] = await t.db
      .insert(visitRecords)
      .values({ instanceId: riverside, patientId: eva, appointmentId: appointment!.id, procedureCodes: ['64490'] })
      .returning({ id: visitRecords.id });
    await asRiverside((tx) =>
      tx
        .insert(codedVisits)
        .values([
          visit(eva, '2025-05-05', ['64490'], { source: 'pathwell', visitRecordId: record!.id }),
          visit(eva, '2024-02-02', ['M54.16']),
        ]),
    );
    await expectMarksTrue([eva]);
    await asRiverside((tx) => tx.delete(visitRecords).where(eq(visitRecords.id, record!.id)));
    const kept = await expectMarksTrue([eva]);
    expect(kept.codes.map((row) => row.code)).toEqual(['M54.16']);

    await t.db.delete(appointments).where(eq(appointments.patientId, eva));
    await t.db.delete(patients).where(eq(patients.id, eva));
    expect(await marksAndTruth([eva])).toEqual({ kept: { codes: [], visits: [] }, truth: { codes: [], visits: [] } });
  });

  it('are under row-level security: Lakeside sees none of Riverside’s code marks', async () => {
    const fay = await newPatient('Marksfay');
    await asRiverside((tx) => tx.insert(codedVisits).values(visit(fay, '2025-02-02', ['M54.5'])));
    const seen = await withClinics(t.db, [lakeside], async (tx) => ({
      codes: await rowsOf<MarkCountRow>(tx, sql`select count(*)::int as n from patient_code_marks where patient_id = ${fay}`),
    }));
    expect(seen).toEqual({ codes: [{ n: 0 }] });
    const own = await asRiverside((tx) =>
      rowsOf<MarkCountRow>(tx, sql`select count(*)::int as n from patient_code_marks where patient_id = ${fay}`),
    );
    expect(own).toEqual([{ n: 1 }]);
  });
});
