import { and, eq, sql, type SQL } from 'drizzle-orm';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import {
  SPOTLIGHT_FOLLOW_UP_DAYS,
  type SpotlightPage,
  type SpotlightProcedure,
  type SuccessStorySaved,
  type spotlightFilterSchema,
  type spotlightPdfQuerySchema,
  type successStorySchema,
} from '@pathwell/contracts/reports-spotlight';
import { clinicDaysBetween } from '@pathwell/contracts/clinic-time';
import type { z } from 'zod';
import { fileNamePart } from '../../lib/content-disposition';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { instanceFiles, patients } from '../../db/schema';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { isDrawableSignature } from '../../lib/signed-pdf';
import { findVisiblePatient } from '../patients/patient-visibility.service';
import { clinicTimeZone } from '../settings/settings.service';
import { clinicDayOf, clinicDayStartAfter } from './clinic-day';
import { spotlightMeasure, type SpotlightMeasure } from './spotlight-measure';
import { renderSpotlightPdf, type SpotlightPdfInput } from './spotlight.pdf';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';
import { reportPatients } from '../patients/patient-visibility.service';
import { rowsOf } from '../../lib/sql-rows';

/** The PDF's chart and table show at most this many scores and procedures (one page). */
const PDF_SCORES_LIMIT = 500;
const PDF_PROCEDURES_LIMIT = 60;

/** Every score of the measure in the clinic: patient, time, a tie-breaking id and the score (numeric). */
function scoresOf(instanceId: string, measure: SpotlightMeasure): SQL {
  if (measure.formCode === null) {
    return sql`select a.patient_id, a.starts_at as at, a.id as row_id, a.pain_score::numeric as score
                 from appointments a
                where a.instance_id = ${instanceId} and a.deleted_at is null
                  and a.status = ${AppointmentStatus.Completed} and a.pain_score is not null`;
  }
  return sql`select r.patient_id, r.submitted_at as at, r.id as row_id, r.headline_score::numeric as score
               from form_responses r
              where r.instance_id = ${instanceId} and r.form_code = ${measure.formCode} and r.headline_score is not null`;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (match) => `\\${match}`);
const foldedContains = (column: SQL, value: string) =>
  sql`pathwell_fold(${column}) like '%' || pathwell_fold(${escapeLike(value)}) || '%'`;

const fullNameOf = (row: { first_name: string; middle_name: string | null; last_name: string }) =>
  [row.first_name, row.middle_name, row.last_name].filter(Boolean).join(' ');

interface SpotlightSqlRow {
  total: number;
  patient_id: string | null;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  referring_provider: string | null;
  baseline_date: string;
  baseline_score: number;
  latest_date: string;
  latest_score: number;
  improvement: number;
  success_story: string | null;
  shared: boolean;
  procedures: SpotlightProcedure[] | string;
}

/**
 * Patients whose improvement from their first score (baseline) to their last score at least
 * SPOTLIGHT_FOLLOW_UP_DAYS later (latest) is at least `improvementFactor` × MCID. One statement answers
 * the page, the total and each row's procedures in between.
 */
export async function patientsSpotlight(
  ctx: SignedInContext,
  filter: z.output<typeof spotlightFilterSchema>,
): Promise<SpotlightPage> {
  const measure = spotlightMeasure(filter.formCode);
  return ctx.db.transaction(async (tx) => {
    const timeZone = await clinicTimeZone(tx, ctx.instanceId);
    const ofPatients = reportPatients(ctx, filter.doctorId);
    const threshold = String(filter.improvementFactor * measure.mcid);
    const providerIds = filter.referringProviderIds;
    const candidateWhere = [
      sql`p.instance_id = ${ctx.instanceId}`,
      sql`p.deleted_at is null`,
      ofPatients,
      providerIds.length > 0
        ? sql`p.referring_provider_id in (${sql.join(
            providerIds.map((id) => sql`${id}`),
            sql`, `,
          )})`
        : undefined,
      filter.patientFirstName ? foldedContains(sql`p.first_name`, filter.patientFirstName) : undefined,
      filter.patientLastName ? foldedContains(sql`p.last_name`, filter.patientLastName) : undefined,
    ].filter((part): part is SQL => part !== undefined);
    const improvement = measure.higherIsBetter ? sql`latest_score - baseline_score` : sql`baseline_score - latest_score`;

    const result = await rowsOf<SpotlightSqlRow>(
      tx,
      sql`
      with candidates as (
        select p.id, p.first_name, p.middle_name, p.last_name, p.referring_provider_id, p.success_story,
               p.success_story_shared_at is not null as shared
          from patients p where ${sql.join(candidateWhere, sql` and `)}
      ),
      -- One pass over the clinic's scores in (patient, time, id) order, as the index holds them: each
      -- row learns its patient's first score (the baseline) and whether it is the patient's last score.
      -- The latest score at least SPOTLIGHT_FOLLOW_UP_DAYS clinic days after the baseline's clinic day (decision
      -- 0060) is the last score when that one is late enough (times only grow), else there is none. Patient
      -- filters apply to the one row per patient left (decision 0044, "Performance").
      ends as (
        select s.patient_id, s.at, s.score,
               first_value(s.at) over w as baseline_at, first_value(s.score) over w as baseline_score,
               lead(s.at) over w as next_at
          from (${scoresOf(ctx.instanceId, measure)} order by patient_id, at, row_id offset 0) s
        window w as (partition by s.patient_id order by s.at, s.row_id rows unbounded preceding)
      ),
      latest as (
        select e.patient_id, e.baseline_at, e.baseline_score, e.at as latest_at, e.score as latest_score,
               c.first_name, c.middle_name, c.last_name, c.referring_provider_id, c.success_story, c.shared
          from ends e join candidates c on c.id = e.patient_id
         where e.next_at is null and e.at >= ${clinicDayStartAfter(sql`e.baseline_at`, SPOTLIGHT_FOLLOW_UP_DAYS, timeZone)}
      ),
      matches as (
        select l.*, ${improvement} as improvement from latest l where ${improvement} >= ${threshold}::numeric
      ),
      page as (
        select m.* from matches m
         order by m.improvement desc, lower(m.last_name), lower(m.first_name), m.patient_id
         limit ${filter.pageSize} offset ${filter.pageSize * filter.pageNumber}
      )
      select (select count(*) from matches)::int as total,
             pg.patient_id, pg.first_name, pg.middle_name, pg.last_name, rp.name as referring_provider,
             ${clinicDayOf(sql`pg.baseline_at`, timeZone)}::text as baseline_date,
             pg.baseline_score::float8 as baseline_score,
             ${clinicDayOf(sql`pg.latest_at`, timeZone)}::text as latest_date,
             pg.latest_score::float8 as latest_score,
             pg.improvement::float8 as improvement,
             pg.success_story, coalesce(pg.shared, false) as shared,
             coalesce(procs.list, '[]'::json) as procedures
        from (select 1) as one
        left join page pg on true
        left join managed_items rp on rp.id = pg.referring_provider_id and rp.instance_id = ${ctx.instanceId}
        left join lateral (
          select json_agg(json_build_object('name', mi.name, 'performedOn', to_char(i.performed_on, 'YYYY-MM-DD'),
                                            'kind', i.kind)
                          order by i.performed_on, mi.name) as list
            from interventions i
            join managed_items mi on mi.id = i.item_id and mi.instance_id = i.instance_id
           where i.instance_id = ${ctx.instanceId} and i.patient_id = pg.patient_id and i.deleted_at is null
             and i.performed_on between ${clinicDayOf(sql`pg.baseline_at`, timeZone)}
                                    and ${clinicDayOf(sql`pg.latest_at`, timeZone)}
        ) procs on true
       order by pg.improvement desc, lower(pg.last_name), lower(pg.first_name), pg.patient_id`,
    );

    const rows = result.filter((row) => row.patient_id !== null);
    const data = rows.map((row) => ({
      patientId: row.patient_id!,
      fullName: fullNameOf(row),
      referringProvider: row.referring_provider,
      baseline: { date: row.baseline_date, score: row.baseline_score },
      latest: { date: row.latest_date, score: row.latest_score },
      improvement: round(row.improvement),
      improvementInMcids: round(row.improvement / measure.mcid),
      procedures: typeof row.procedures === 'string' ? (JSON.parse(row.procedures) as SpotlightProcedure[]) : row.procedures,
      successStoryShared: row.shared,
      successStory: row.success_story,
    }));
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient List', 'Viewed', {
        description: `Patient spotlight (${measure.name.en}, factor ${filter.improvementFactor}), page ${filter.pageNumber}, ${data.length} patients`,
      }),
    );
    const { name: _name, ...measureView } = measure;
    return {
      totalRecords: result[0]?.total ?? 0,
      pageNumber: filter.pageNumber,
      pageSize: filter.pageSize,
      measure: measureView,
      data,
    };
  });
}

const round = (value: number, decimals = 2) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/** The clinic's primary logo as pdfkit can draw it (PNG or JPEG), else null (none, or an SVG). */
async function clinicLogo(db: Database, instanceId: string): Promise<Buffer | null> {
  const [logo] = await db
    .select({ content: instanceFiles.content, contentType: instanceFiles.contentType })
    .from(instanceFiles)
    .where(and(eq(instanceFiles.instanceId, instanceId), eq(instanceFiles.fileKey, 'clinicLogoPrimary')));
  if (logo?.contentType === 'image/jpeg') return logo.content;
  if (logo?.contentType !== 'image/png') return null;
  // pdfkit decodes some PNGs in a zlib callback, where a corrupt one would crash the process: check it first.
  return isDrawableSignature(`data:image/png;base64,${logo.content.toString('base64')}`) ? logo.content : null;
}

const mdy = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

/**
 * One patient's spotlight as a one-page PDF for their referring provider: the scores of the measure over
 * time with the procedures in between, the baseline → latest change, and the patient's own words only
 * when they agreed to share them.
 */
export async function spotlightPdf(
  ctx: SignedInContext,
  query: z.output<typeof spotlightPdfQuerySchema>,
): Promise<{ pdf: Buffer; fileName: string }> {
  const measure = spotlightMeasure(query.formCode);
  const input = await ctx.db.transaction(async (tx): Promise<SpotlightPdfInput> => {
    const patient = await findVisiblePatient(ctx, tx, query.patientId);
    const timeZone = await clinicTimeZone(tx, ctx.instanceId);
    const result = await rowsOf<{
      scores: { date: string; score: number; at: string }[] | string;
      procedures: SpotlightProcedure[] | string;
      referring_provider: string | null;
    }>(
      tx,
      sql`
      with scores as (
        select s.at, s.row_id, s.score from (${scoresOf(ctx.instanceId, measure)}) s
         where s.patient_id = ${patient.id}
         order by s.at, s.row_id
         limit ${PDF_SCORES_LIMIT}
      ),
      span as (
        select ${clinicDayOf(sql`min(at)`, timeZone)} as first_day, ${clinicDayOf(sql`max(at)`, timeZone)} as last_day
          from scores
      )
      select
        (select coalesce(json_agg(json_build_object('date', ${clinicDayOf(sql`at`, timeZone)}::text,
                                                    'score', score::float8, 'at', at) order by at, row_id), '[]'::json)
           from scores) as scores,
        (select coalesce(json_agg(json_build_object('name', x.name, 'performedOn', x.performed_on, 'kind', x.kind)
                                  order by x.performed_on, x.name), '[]'::json)
           from (select mi.name, to_char(i.performed_on, 'YYYY-MM-DD') as performed_on, i.kind
                   from interventions i
                   join managed_items mi on mi.id = i.item_id and mi.instance_id = i.instance_id
                   cross join span
                  where i.instance_id = ${ctx.instanceId} and i.patient_id = ${patient.id} and i.deleted_at is null
                    and i.performed_on between span.first_day and span.last_day
                  order by i.performed_on, mi.name
                  limit ${PDF_PROCEDURES_LIMIT}) x) as procedures,
        (select name from managed_items
          where id = ${patient.referringProviderId} and instance_id = ${ctx.instanceId}) as referring_provider`,
    );
    const row = result[0]!;
    const parse = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
    const scores = parse(row.scores);
    const baselineIndex = scores.length > 0 ? 0 : -1;
    const baselineAt = scores[0] ? new Date(scores[0].at) : null;
    const latestIndex = baselineAt
      ? scores.findLastIndex((score) => clinicDaysBetween(baselineAt, new Date(score.at), timeZone) >= SPOTLIGHT_FOLLOW_UP_DAYS)
      : -1;
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Profile', 'Viewed', {
        type: 'patient',
        id: patient.id,
        description: `Patient spotlight PDF (${measure.name.en})`,
      }),
    );
    const shared = patient.successStorySharedAt !== null && Boolean(patient.successStory?.trim());
    return {
      language: query.language,
      clinicName: await clinicDisplayName(tx, ctx.instanceId),
      logo: await clinicLogo(tx, ctx.instanceId),
      generatedAt: new Date(),
      patientName: [patient.firstName, patient.middleName, patient.lastName].filter(Boolean).join(' '),
      dateOfBirth: mdy(patient.dateOfBirth),
      referringProvider: row.referring_provider,
      measure,
      scores: scores.map(({ date, score }) => ({ date, score })),
      baselineIndex,
      latestIndex,
      procedures: parse(row.procedures),
      story: shared ? patient.successStory!.trim() : null,
    };
  });
  const pdf = await renderSpotlightPdf(input);
  const safeName = fileNamePart(input.patientName) || 'patient';
  return { pdf, fileName: `spotlight-${safeName}.pdf` };
}

/** Records the patient's words and whether they agreed to share them (the PDF prints them only then). */
export async function saveSuccessStory(
  ctx: SignedInContext,
  input: z.output<typeof successStorySchema>,
): Promise<SuccessStorySaved> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, input.patientId);
    const story = input.story === undefined ? patient.successStory : input.story || null;
    const [saved] = await tx
      .update(patients)
      .set({ successStory: story, successStorySharedAt: input.shared ? new Date() : null })
      .where(and(eq(patients.id, patient.id), eq(patients.instanceId, ctx.instanceId)))
      .returning({ successStory: patients.successStory, successStorySharedAt: patients.successStorySharedAt });
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Profile', 'Updated', {
        type: 'patient',
        id: patient.id,
        description: `Success story ${story ? 'recorded' : 'cleared'}, ${input.shared ? 'shared' : 'not shared'}`,
      }),
    );
    return {
      patientId: patient.id,
      successStory: saved!.successStory,
      successStorySharedAt: saved!.successStorySharedAt?.toISOString() ?? null,
    };
  });
}
