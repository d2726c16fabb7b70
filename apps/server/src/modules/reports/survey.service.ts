import { sql } from 'drizzle-orm';
import type { FormContent, FormQuestion, QuestionTypeCode } from '@pathwell/contracts/forms';
import { QuestionType } from '@pathwell/contracts/forms';
import type { Language } from '@pathwell/contracts/constants';
import type {
  SurveyFilter,
  SurveyFormOptions,
  SurveyItems,
  SurveyItemsRequest,
  SurveyQuestion,
  SurveyReport,
} from '@pathwell/contracts/reports-survey';
import { getInstrument, isFormCode } from '@pathwell/instruments';
import { reportReader, type SignedInContext } from '../../context';
import { notFound } from '../../lib/app-error';
import { periodStart, reportWindow } from './report-window';
import { reportPatients } from '../patients/patient-visibility.service';
import { rowsOf } from '../../lib/sql-rows';

/**
 * The survey report (decision 0047). One assignment is a form a patient was asked to fill in: a form link,
 * or one form of an intake link's plan. Sent when the link was made, opened when the patient first got in
 * (patient_links.opened_at), completed when the form was submitted.
 */

const text = (value: { en: string; es?: string }, language: Language) => (language === 'es' && value.es) || value.en;

function formName(formCode: number | null, title: string | null, language: Language): string {
  if (formCode !== null && isFormCode(formCode)) return text(getInstrument(formCode).name, language);
  return title ?? '';
}

interface MeasureRow {
  grouping: number;
  period: string | null;
  form_key: string | null;
  form_code: number | null;
  custom_form_id: string | null;
  title: string | null;
  sent: number;
  opened: number;
  completed: number;
  completion_rate: number | null;
  median_minutes: number | null;
}

const measures = (row: MeasureRow) => ({
  sent: Number(row.sent),
  opened: Number(row.opened),
  completed: Number(row.completed),
  completionRate: row.completion_rate === null ? null : Number(row.completion_rate),
  medianMinutesToComplete: row.median_minutes === null ? null : Math.round(Number(row.median_minutes) * 10) / 10,
});

/** Every assignment sent in the window, one row each: form links and the forms inside intake links. */
function assignments(ctx: SignedInContext, filter: SurveyFilter, from: Date, to: Date) {
  const ofPatients = reportPatients(ctx, filter.doctorId) ?? sql`true`;
  const formKey = filter.formCode
    ? `pro-${filter.formCode}`
    : filter.customFormId
      ? `cf-${filter.customFormId.toLowerCase()}`
      : null;
  return sql`
    with links as (
      select l.* from patient_links l
      join patients p on p.id = l.patient_id and p.instance_id = l.instance_id and p.deleted_at is null
      where l.instance_id = ${ctx.instanceId}
        and l.kind in ('form', 'intake')
        and l.created_at >= ${from.toISOString()}::timestamptz and l.created_at < ${to.toISOString()}::timestamptz
        and ${ofPatients}
    ),
    assigned as (
      select l.created_at as sent_at, l.opened_at, l.revoked_at, l.form_code, l.custom_form_id,
        case when l.form_code is not null then 'pro-' || l.form_code else 'cf-' || lower(l.custom_form_id::text) end as form_key,
        coalesce(l.completed_at, (
          select min(r.submitted_at) from form_responses r where r.instance_id = l.instance_id and r.link_id = l.id
        )) as completed_at
      from links l where l.kind = 'form'
      union all
      select l.created_at, l.opened_at, l.revoked_at, f.form_code, f.custom_form_id, f.form_key, (
          select min(e.completed_at) from intake_entries e
          where e.instance_id = l.instance_id and e.link_id = l.id and e.form_key = f.form_key
        )
      from links l
      cross join lateral (
        select c.value::smallint as form_code, null::uuid as custom_form_id, 'pro-' || c.value as form_key
        from jsonb_array_elements_text(case when l.intake_plan -> 'steps' @> '6' then l.intake_plan -> 'formCodes' else '[]' end) c
        union
        select null, c.value::uuid, 'cf-' || lower(c.value)
        from jsonb_array_elements_text(
          (case when l.intake_plan -> 'steps' @> '2' then l.intake_plan -> 'historyFormIds' else '[]' end)
          || (case when l.intake_plan -> 'steps' @> '3' then l.intake_plan -> 'checkInFormIds' else '[]' end)
        ) c
      ) f
      where l.kind = 'intake'
    )
    select a.* from assigned a
    -- A link staff withdrew before it was answered was never a live assignment.
    where (a.revoked_at is null or a.completed_at is not null)
      and (${formKey}::text is null or a.form_key = ${formKey}::text)
  `;
}

export async function surveyReport(ctx: SignedInContext, filter: SurveyFilter, now = new Date()): Promise<SurveyReport> {
  const { from, to, timeZone } = await reportWindow(ctx, filter, now);
  const result = await rowsOf<MeasureRow>(
    reportReader(ctx),
    sql`
    with a as (
      select s.*, ${periodStart(sql`s.sent_at`, filter.period, timeZone)} as period
      from (${assignments(ctx, filter, from, to)}) s
    )
    select grouping(a.period, a.form_key)::int as grouping, a.period, a.form_key,
      max(a.form_code)::int as form_code, max(a.custom_form_id::text) as custom_form_id, max(cf.title) as title,
      count(*)::int as sent,
      -- A completed form was opened, even where the link predates the opened stamp.
      count(*) filter (where a.opened_at is not null or a.completed_at is not null)::int as opened,
      count(a.completed_at)::int as completed,
      round(count(a.completed_at)::numeric / nullif(count(*), 0), 4)::float8 as completion_rate,
      percentile_cont(0.5) within group (order by extract(epoch from a.completed_at - a.sent_at) / 60.0) as median_minutes
    from a
    left join custom_forms cf on cf.id = a.custom_form_id and cf.instance_id = ${ctx.instanceId}
    group by grouping sets ((a.period, a.form_key), (a.form_key), ())
    order by a.period nulls first, a.form_key
  `,
  );
  const language = filter.language;
  const names = new Map<string, string>();
  for (const row of result) {
    if (row.form_key && !names.has(row.form_key)) names.set(row.form_key, formName(row.form_code, row.title, language));
  }
  const totalsRow = result.find((row) => Number(row.grouping) === 3);
  const forms = result
    .filter((row) => Number(row.grouping) === 2)
    .map((row) => ({
      formKey: row.form_key!,
      formCode: row.form_code === null ? null : Number(row.form_code),
      customFormId: row.custom_form_id,
      formName: names.get(row.form_key!) ?? '',
      ...measures(row),
    }))
    .sort((a, b) => b.sent - a.sent || a.formName.localeCompare(b.formName));
  return {
    period: filter.period,
    timeZone,
    from: from.toISOString(),
    to: to.toISOString(),
    periods: result
      .filter((row) => Number(row.grouping) === 0)
      .map((row) => ({
        period: row.period!,
        formKey: row.form_key!,
        formName: names.get(row.form_key!) ?? '',
        ...measures(row),
      })),
    forms,
    totals: totalsRow
      ? measures(totalsRow)
      : { sent: 0, opened: 0, completed: 0, completionRate: null, medianMinutesToComplete: null },
  };
}

export async function surveyFormOptions(ctx: SignedInContext): Promise<SurveyFormOptions> {
  const result = await rowsOf<{ id: string; title: string; current_version: number }>(
    reportReader(ctx),
    sql`
    select id, title, current_version from custom_forms
    where instance_id = ${ctx.instanceId} and archived_at is null
    order by lower(title)
  `,
  );
  return {
    customForms: result.map((row) => ({ id: row.id, title: row.title, currentVersion: Number(row.current_version) })),
  };
}

/** Answers listed value by value; every other answerable type (free text, dates, signatures) only counts as answered. */
const valueTypes: readonly QuestionTypeCode[] = [
  QuestionType.MULTIPLE_CHOICE_SINGLE_ALLOWED,
  QuestionType.LIKERT_SCALE,
  QuestionType.MULTIPLE_CHOICE_MULTIPLE_ALLOWED,
  QuestionType.DROP_DOWN_WITH_OPTION,
  QuestionType.STATES,
  QuestionType.TIME_ZONE,
  QuestionType.PATIENT_PHONENUMBER_TYPE,
  QuestionType.COUNTRIES,
  QuestionType.CHECKBOX,
  QuestionType.NUMBER,
];

const yesNo = { en: { true: 'Yes', false: 'No' }, es: { true: 'Sí', false: 'No' } } as const;

function answerLabel(question: FormQuestion, value: string, language: Language): string {
  const option = question.options?.find((candidate) => String(candidate.value) === value);
  if (option) return text(option.label, language);
  if (question.type === QuestionType.CHECKBOX && (value === 'true' || value === 'false')) return yesNo[language][value];
  return value;
}

export async function surveyItems(ctx: SignedInContext, request: SurveyItemsRequest, now = new Date()): Promise<SurveyItems> {
  const { filter } = request;
  const { from, to } = await reportWindow(ctx, filter, now);
  const ofPatients = reportPatients(ctx, filter.doctorId) ?? sql`true`;
  const formResult = await rowsOf<{ title: string; version_id: string; version: number; content: FormContent }>(
    reportReader(ctx),
    sql`
    select cf.title, v.id as version_id, v.version, v.content
    from custom_forms cf
    join custom_form_versions v on v.custom_form_id = cf.id and v.instance_id = cf.instance_id
    where cf.id = ${request.customFormId}::uuid and cf.instance_id = ${ctx.instanceId}
      and v.version = coalesce(${request.version ?? null}::int, cf.current_version)
  `,
  );
  const form = formResult[0];
  if (!form) throw notFound();
  const content = (typeof form.content === 'string' ? JSON.parse(form.content) : form.content) as FormContent;
  const listed = content.questions.filter((question) => valueTypes.includes(question.type as QuestionTypeCode));
  const responses = sql`
    select r.custom_form_version_id, r.answers from form_responses r
    join patients p on p.id = r.patient_id and p.instance_id = r.instance_id and p.deleted_at is null
    where r.instance_id = ${ctx.instanceId}
      and r.custom_form_version_id in (select id from custom_form_versions where custom_form_id = ${request.customFormId}::uuid)
      and r.submitted_at >= ${from.toISOString()}::timestamptz and r.submitted_at < ${to.toISOString()}::timestamptz
      and ${ofPatients}
  `;
  const versionResult = await rowsOf<{ version: number; responses: number }>(
    reportReader(ctx),
    sql`
    select v.version, count(r.answers)::int as responses
    from custom_form_versions v
    left join (${responses}) r on r.custom_form_version_id = v.id
    where v.custom_form_id = ${request.customFormId}::uuid and v.instance_id = ${ctx.instanceId}
    group by v.version order by v.version desc
  `,
  );
  const listedIds = `{${listed.map((question) => question.id).join(',')}}`;
  const countResult = await rowsOf<{
    kind: 'responses' | 'answered' | 'value';
    key: string | null;
    value: string | null;
    n: number;
  }>(
    reportReader(ctx),
    sql`
    with r as (select answers from (${responses}) x where x.custom_form_version_id = ${form.version_id}::uuid),
    answers as (
      select a.key, a.value from r cross join lateral jsonb_each(r.answers) a
      where a.value not in ('null'::jsonb, '""'::jsonb, '[]'::jsonb)
    )
    select 'responses' as kind, null as key, null as value, count(*)::int as n from r
    union all
    select 'answered', key, null, count(*)::int from answers group by key
    union all
    select 'value', a.key, e.value #>> '{}', count(*)::int
    from answers a
    cross join lateral jsonb_array_elements(case when jsonb_typeof(a.value) = 'array' then a.value else jsonb_build_array(a.value) end) e
    where a.key = any(${listedIds}::text[]) and jsonb_typeof(e.value) in ('string', 'number', 'boolean')
    group by a.key, e.value #>> '{}'
  `,
  );
  const answered = new Map<string, number>();
  const values = new Map<string, Map<string, number>>();
  let responseCount = 0;
  for (const row of countResult) {
    if (row.kind === 'responses') responseCount = Number(row.n);
    else if (row.kind === 'answered') answered.set(row.key!, Number(row.n));
    else {
      const byValue = values.get(row.key!) ?? new Map<string, number>();
      byValue.set(row.value!, Number(row.n));
      values.set(row.key!, byValue);
    }
  }
  const language = filter.language;
  const questions: SurveyQuestion[] = content.questions
    .filter((question) => question.type !== QuestionType.INFO)
    .map((question) => {
      const isListed = listed.includes(question);
      const counted = values.get(question.id) ?? new Map<string, number>();
      const optionValues = (question.options ?? []).map((option) => String(option.value));
      const others = [...counted.entries()]
        .filter(([value]) => !optionValues.includes(value))
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      return {
        questionId: question.id,
        text: text(question.text, language),
        type: question.type,
        kind: isListed ? ('values' as const) : ('answered' as const),
        answered: answered.get(question.id) ?? 0,
        answers: isListed
          ? [...optionValues.map((value) => [value, counted.get(value) ?? 0] as const), ...others].map(([value, count]) => ({
              value,
              label: answerLabel(question, value, language),
              count,
            }))
          : [],
      };
    });
  return {
    customFormId: request.customFormId,
    title: text(content.title, language) || form.title,
    version: Number(form.version),
    versions: versionResult.map((row) => ({ version: Number(row.version), responses: Number(row.responses) })),
    responses: responseCount,
    questions,
  };
}
