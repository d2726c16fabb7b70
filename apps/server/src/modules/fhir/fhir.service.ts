import { and, eq } from 'drizzle-orm';
import {
  QuestionType,
  type AnswerValue,
  type FormQuestion,
  type LocalizedText,
  type QuestionTypeCode,
  type RenderableForm,
} from '@pathwell/contracts/forms';
import type {
  FhirObservation,
  FhirObservationBundle,
  FhirQuestionnaire,
  FhirQuestionnaireResponse,
} from '@pathwell/contracts/form-responses';
import { ID_PATTERN } from '@pathwell/contracts/validation';
import { getInstrument, isFormCode } from '@pathwell/instruments';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { customFormVersions } from '../../db/schema';
import { notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { clinicInstrumentForm, customRenderableForm, findVisibleResponse } from '../form-responses/form-responses.service';

/**
 * FHIR R4 export (decision 0020): each outcome instrument (and custom form version) as a Questionnaire,
 * each response as a QuestionnaireResponse, its scores as Observations. Answer codes are the
 * instruments' numeric codes as text; score codes use Pathwell's own code system on this server.
 */

type ItemType = FhirQuestionnaire['item'][number]['type'];
type FhirAnswer = FhirQuestionnaireResponse['item'][number]['answer'][number];

const en = (text: LocalizedText | undefined) => text?.en;
const fhirBase = (ctx: SignedInContext) => `${ctx.config.publicUrl}/api/fhir`;
const scoreSystem = (ctx: SignedInContext) => `${ctx.config.publicUrl}/fhir/CodeSystem/pathwell-score`;
const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';

/** FHIR item type of a question without options; the rest (phone, ZIP, state, country...) travel as text. */
const itemTypes: Partial<Record<QuestionTypeCode, ItemType>> = {
  [QuestionType.INFO]: 'display',
  [QuestionType.DESCRIPTIVE]: 'text',
  [QuestionType.CHECKBOX]: 'boolean',
  [QuestionType.NUMBER]: 'decimal',
  [QuestionType.DATE]: 'date',
  [QuestionType.SIGNATURE]: 'attachment',
};

function itemType(question: FormQuestion): ItemType {
  if (question.options?.length) return 'choice';
  return itemTypes[question.type] ?? 'string';
}

const canonicalOf = (ctx: SignedInContext, form: RenderableForm, versionId: string | null) =>
  `${fhirBase(ctx)}/Questionnaire/${form.formCode ?? versionId}`;

/** A FHIR computable name: starts with a capital, letters, digits and underscores only. */
const computableName = (form: RenderableForm, versionId: string | null) =>
  form.formCode !== null && isFormCode(form.formCode)
    ? getInstrument(form.formCode).slug.toUpperCase()
    : `CustomForm_${(versionId ?? '').replaceAll('-', '_')}`;

function toQuestionnaire(ctx: SignedInContext, form: RenderableForm, versionId: string | null): FhirQuestionnaire {
  const copyright = en(form.credit);
  return {
    resourceType: 'Questionnaire',
    id: form.formCode !== null ? String(form.formCode) : versionId!,
    url: canonicalOf(ctx, form, versionId),
    version: form.version,
    name: computableName(form, versionId),
    title: form.title.en,
    status: 'active',
    subjectType: ['Patient'],
    language: 'en',
    ...(copyright ? { copyright } : {}),
    item: form.questions.map((question) => {
      const type = itemType(question);
      return {
        linkId: question.id,
        text: question.text.en,
        type,
        ...(type === 'display' ? {} : { required: question.required }),
        ...(question.type === QuestionType.MULTIPLE_CHOICE_MULTIPLE_ALLOWED ? { repeats: true } : {}),
        ...(type === 'choice'
          ? {
              answerOption: question.options!.map((option) => ({
                valueCoding: { code: String(option.value), display: option.label.en },
              })),
            }
          : {}),
      };
    }),
  };
}

export async function questionnaire(ctx: SignedInContext, id: string): Promise<FhirQuestionnaire> {
  if (/^\d+$/.test(id)) {
    const formCode = Number(id);
    if (!isFormCode(formCode)) throw notFound('questionnaireNotFound');
    return toQuestionnaire(ctx, await clinicInstrumentForm(ctx.db, ctx.instanceId, formCode), null);
  }
  const [version] = await ctx.db
    .select()
    .from(customFormVersions)
    .where(and(eq(customFormVersions.id, id), eq(customFormVersions.instanceId, ctx.instanceId)));
  if (!version) throw notFound('questionnaireNotFound');
  return toQuestionnaire(ctx, customRenderableForm(version.content, version.customFormId, version.version), version.id);
}

const MDY = /^(\d{2})\/(\d{2})\/(\d{4})$/;

function answersOf(question: FormQuestion, value: AnswerValue | undefined): FhirAnswer[] {
  if (value === undefined || value === null || value === '') return [];
  if (question.options?.length) {
    const values = Array.isArray(value) ? value : [value];
    return values.map((chosen) => {
      const option = question.options!.find((candidate) => candidate.value === chosen);
      return { valueCoding: { code: String(chosen), ...(option ? { display: option.label.en } : {}) } };
    });
  }
  if (typeof value === 'boolean') return [{ valueBoolean: value }];
  if (typeof value === 'number') return [Number.isInteger(value) ? { valueInteger: value } : { valueDecimal: value }];
  if (typeof value === 'string') {
    const mdy = question.type === QuestionType.DATE ? MDY.exec(value) : null;
    return [mdy ? { valueDate: `${mdy[3]}-${mdy[1]}-${mdy[2]}` } : { valueString: value }];
  }
  if (Array.isArray(value)) return value.map((item) => ({ valueString: String(item) }));
  return [
    {
      valueAttachment: {
        contentType: 'image/png',
        data: value.image.replace(/^data:image\/png;base64,/, ''),
        creation: value.signedAt,
      },
    },
  ];
}

/** The response with its form, after the same visibility checks as the result page. */
async function loadResponse(db: Database, ctx: SignedInContext, responseId: string) {
  const row = await findVisibleResponse(db, ctx, responseId);
  const { response } = row;
  const form =
    response.formCode !== null
      ? await clinicInstrumentForm(db, ctx.instanceId, response.formCode)
      : customRenderableForm(row.customContent!, row.customFormId!, row.customVersion!);
  return { row, response, form, versionId: response.customFormVersionId };
}

export async function questionnaireResponse(ctx: SignedInContext, responseId: string): Promise<FhirQuestionnaireResponse> {
  return ctx.db.transaction(async (tx) => {
    const { response, form, versionId } = await loadResponse(tx, ctx, responseId);
    await recordActivity(tx, viewed(ctx, response.id, response.patientId, 'QuestionnaireResponse'));
    return {
      resourceType: 'QuestionnaireResponse',
      id: response.id,
      questionnaire: `${canonicalOf(ctx, form, versionId)}|${form.version}`,
      status: 'completed',
      subject: { reference: `Patient/${response.patientId}` },
      authored: response.submittedAt.toISOString(),
      language: response.language,
      item: form.questions
        .map((question) => ({
          linkId: question.id,
          text: question.text.en,
          answer: answersOf(question, response.answers[question.id]),
        }))
        .filter((item) => item.answer.length > 0),
    };
  });
}

const viewed = (ctx: SignedInContext, responseId: string, patientId: string, what: string) =>
  staffActivity(ctx, 'Form Submission', 'Viewed', {
    type: 'form response',
    id: responseId,
    description: `Exported form response ${responseId} of patient ${patientId} as FHIR ${what}`,
  });

/** A FHIR id allows letters, digits, '-' and '.' (64 at most). */
const observationId = (responseId: string, key: string) => `${responseId}-${key.replace(/[^A-Za-z0-9.-]/g, '-')}`.slice(0, 64);

export async function observationsDerivedFrom(ctx: SignedInContext, derivedFrom: string): Promise<FhirObservationBundle> {
  const responseId = derivedFrom.slice('QuestionnaireResponse/'.length);
  if (!ID_PATTERN.test(responseId)) throw notFound('questionnaireResponseNotFound');
  return ctx.db.transaction(async (tx) => {
    const { response } = await loadResponse(tx, ctx, responseId);
    const descriptors =
      response.formCode !== null && isFormCode(response.formCode) ? getInstrument(response.formCode).scores : [];
    const system = scoreSystem(ctx);
    const prefix = response.formCode !== null && isFormCode(response.formCode) ? getInstrument(response.formCode).slug : 'custom';
    const observations: FhirObservation[] = Object.entries(response.scores)
      .filter((entry): entry is [string, number] => entry[1] !== null)
      .map(([key, value]) => {
        const descriptor = descriptors.find((candidate) => candidate.key === key);
        const display = descriptor?.label.en ?? key;
        const asCode = descriptor?.categorical === true && Number.isInteger(value);
        return {
          resourceType: 'Observation',
          id: observationId(response.id, key),
          status: 'final',
          category: [{ coding: [{ system: OBSERVATION_CATEGORY, code: 'survey', display: 'Survey' }] }],
          code: { coding: [{ system, code: `${prefix}.${key}`, display }], text: display },
          subject: { reference: `Patient/${response.patientId}` },
          effectiveDateTime: response.submittedAt.toISOString(),
          derivedFrom: [{ reference: `QuestionnaireResponse/${response.id}` }],
          ...(asCode ? { valueInteger: value } : { valueQuantity: { value } }),
        };
      });
    await recordActivity(tx, viewed(ctx, response.id, response.patientId, 'Observations'));
    return {
      resourceType: 'Bundle',
      type: 'searchset',
      total: observations.length,
      link: [{ relation: 'self', url: `${fhirBase(ctx)}/Observation?derived-from=QuestionnaireResponse/${response.id}` }],
      entry: observations.map((resource) => ({
        fullUrl: `${fhirBase(ctx)}/Observation/${resource.id}`,
        resource,
        search: { mode: 'match' as const },
      })),
    };
  });
}
