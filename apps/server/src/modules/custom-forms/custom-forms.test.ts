import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomFormDetail, CustomFormPage, CustomFormVersion } from '@pathwell/contracts/custom-forms';
import { QuestionType, type FormContent } from '@pathwell/contracts/forms';
import { activityLogs, customFormVersions, customForms, formResponses, patients } from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
const who = ['admin', 'manager', 'doctor', 'staff', 'admin2'] as const;
type Who = (typeof who)[number];
const tokens = {} as Record<Who, Record<string, string>>;

beforeAll(async () => {
  t = await createTestApp();
  for (const user of who) tokens[user] = (await signIn(t.app, `${user}@pathwell.demo`)).headers;
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, as: Who, payload?: unknown) =>
  t.app.inject({ method, url, headers: tokens[as], payload: payload as object | undefined, remoteAddress: nextIp() });

function sampleForm(title = 'Back pain check-in'): FormContent {
  return {
    title: { en: title },
    instructions: { en: 'Answer for the last week.' },
    languages: ['en'],
    sections: [{ id: 's1', title: { en: 'Pain' } }],
    questions: [
      {
        id: 'q1',
        type: QuestionType.MULTIPLE_CHOICE_SINGLE_ALLOWED,
        text: { en: 'Did you have pain this week?' },
        required: true,
        sectionId: 's1',
        options: [
          { value: 'yes', label: { en: 'Yes' }, score: 1 },
          { value: 'no', label: { en: 'No' }, score: 0 },
        ],
      },
      {
        id: 'q2',
        type: QuestionType.NUMBER,
        text: { en: 'How many days?' },
        required: false,
        sectionId: 's1',
        min: 0,
        max: 7,
        showWhen: { questionId: 'q1', equals: 'yes' },
      },
      { id: 'q3', type: QuestionType.CHECKBOX, text: { en: 'I took my medicine as prescribed' }, required: false },
      { id: 'q4', type: QuestionType.SIGNATURE, text: { en: 'Signature' }, required: true },
    ],
  };
}

async function create(content: FormContent = sampleForm(), as: Who = 'admin') {
  const response = await call('POST', '/api/customforms', as, content);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CustomFormDetail>();
}

async function addResponse(formId: string, version: number) {
  const [form] = await t.db.select().from(customForms).where(eq(customForms.id, formId));
  const [versionRow] = await t.db
    .select()
    .from(customFormVersions)
    .where(and(eq(customFormVersions.customFormId, formId), eq(customFormVersions.version, version)));
  const [patient] = await t.db
    .insert(patients)
    .values({ instanceId: form!.instanceId, firstName: 'Form', lastName: 'Respondent', dateOfBirth: '1975-05-05' })
    .returning();
  await t.db.insert(formResponses).values({
    instanceId: form!.instanceId,
    patientId: patient!.id,
    customFormVersionId: versionRow!.id,
    version: String(version),
    language: 'en',
    answers: { q1: 'no' },
    idempotencyKey: randomUUID(),
  });
}

describe('custom forms', () => {
  it('an Admin creates a form and reads it back with its first version', async () => {
    const created = await create();
    expect(created.currentVersion).toBe(1);
    expect(created.archived).toBe(false);
    expect(created.content).toEqual(sampleForm());
    expect(created.versions).toEqual([{ version: 1, createdAt: expect.any(String), responseCount: 0 }]);

    const read = await call('GET', `/api/customforms/${created.id}`, 'doctor');
    expect(read.statusCode).toBe(200);
    expect(read.json<CustomFormDetail>().content.questions.map((question) => question.id)).toEqual(['q1', 'q2', 'q3', 'q4']);

    const [logged] = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, created.id), eq(activityLogs.action, 'Created')));
    expect(logged).toMatchObject({ area: 'Admin Configuration', targetType: 'customForm', actorEmail: 'admin@pathwell.demo' });
  });

  it('a System Manager creates forms too, and every staff role lists them with counts', async () => {
    const created = await create(sampleForm('Zz manager form'), 'manager');
    for (const as of ['staff', 'doctor', 'admin'] as const) {
      const response = await call('GET', '/api/customforms?title=zz%20manager', as);
      expect(response.statusCode).toBe(200);
      const page = response.json<CustomFormPage>();
      expect(page).toMatchObject({ totalRecords: 1, pageNumber: 0, pageSize: 15, message: 'OK' });
      expect(page.data[0]).toEqual({
        id: created.id,
        title: 'Zz manager form',
        currentVersion: 1,
        questionCount: 4,
        responseCount: 0,
        updatedAt: expect.any(String),
        archived: false,
      });
    }
  });

  it('pages the list and filters by title with % taken literally', async () => {
    for (let index = 0; index < 3; index += 1) await create(sampleForm(`Paging form ${index}`));
    const first = (await call('GET', '/api/customforms?title=paging&pageSize=2', 'admin')).json<CustomFormPage>();
    expect(first.totalRecords).toBe(3);
    expect(first.data.map((form) => form.title)).toEqual(['Paging form 0', 'Paging form 1']);
    const second = (await call('GET', '/api/customforms?title=paging&pageSize=2&pageNumber=1', 'admin')).json<CustomFormPage>();
    expect(second.data.map((form) => form.title)).toEqual(['Paging form 2']);
    const none = (await call('GET', '/api/customforms?title=%25', 'admin')).json<CustomFormPage>();
    expect(none).toMatchObject({ totalRecords: 0, data: [], message: 'No custom forms found' });
  });

  it('saving a form nobody answered updates its current version in place', async () => {
    const created = await create(sampleForm('In place'));
    const edited = { ...sampleForm('In place, renamed') };
    const response = await call('PUT', `/api/customforms/${created.id}`, 'admin', edited);
    expect(response.statusCode, response.body).toBe(200);
    const saved = response.json<CustomFormDetail>();
    expect(saved.currentVersion).toBe(1);
    expect(saved.versions).toHaveLength(1);
    expect(saved.content.title.en).toBe('In place, renamed');
    const list = (await call('GET', '/api/customforms?title=renamed', 'admin')).json<CustomFormPage>();
    expect(list.data[0]?.title).toBe('In place, renamed');
  });

  it('saving a form with responses creates the next version and the old responses keep theirs', async () => {
    const created = await create(sampleForm('Versioned'));
    await addResponse(created.id, 1);
    const edited = sampleForm('Versioned');
    edited.questions[0]!.text = { en: 'Did you have any pain this week?' };
    const response = await call('PUT', `/api/customforms/${created.id}`, 'admin', edited);
    expect(response.statusCode, response.body).toBe(200);
    const saved = response.json<CustomFormDetail>();
    expect(saved.currentVersion).toBe(2);
    expect(saved.versions.map(({ version, responseCount }) => ({ version, responseCount }))).toEqual([
      { version: 1, responseCount: 1 },
      { version: 2, responseCount: 0 },
    ]);

    const first = (await call('GET', `/api/customforms/${created.id}/versions/1`, 'staff')).json<CustomFormVersion>();
    expect(first.content.questions[0]!.text.en).toBe('Did you have pain this week?');
    const [response1] = await t.db
      .select({ version: customFormVersions.version })
      .from(formResponses)
      .innerJoin(customFormVersions, eq(customFormVersions.id, formResponses.customFormVersionId))
      .where(eq(customFormVersions.customFormId, created.id));
    expect(response1?.version).toBe(1);

    // Version 2 has no responses yet: the next save corrects it in place.
    edited.instructions = { en: 'Answer for the last seven days.' };
    const again = (await call('PUT', `/api/customforms/${created.id}`, 'admin', edited)).json<CustomFormDetail>();
    expect(again.currentVersion).toBe(2);
    expect(again.versions).toHaveLength(2);
    const listed = (await call('GET', '/api/customforms?title=versioned', 'admin')).json<CustomFormPage>();
    expect(listed.data[0]).toMatchObject({ currentVersion: 2, responseCount: 1 });
  });

  it('an unknown version answers 404', async () => {
    const created = await create(sampleForm('One version'));
    expect((await call('GET', `/api/customforms/${created.id}/versions/7`, 'admin')).statusCode).toBe(404);
  });

  it('archiving hides a form from the list until it is restored', async () => {
    const created = await create(sampleForm('Archivable'));
    expect((await call('DELETE', `/api/customforms/${created.id}`, 'admin')).statusCode).toBe(204);
    const inUse = (await call('GET', '/api/customforms?title=archivable', 'admin')).json<CustomFormPage>();
    expect(inUse.totalRecords).toBe(0);
    const archived = (await call('GET', '/api/customforms?title=archivable&archived=true', 'admin')).json<CustomFormPage>();
    expect(archived.data[0]).toMatchObject({ id: created.id, archived: true });
    expect((await call('GET', `/api/customforms/${created.id}`, 'admin')).json<CustomFormDetail>().archived).toBe(true);

    expect((await call('POST', `/api/customforms/${created.id}/restore`, 'manager')).statusCode).toBe(204);
    const restored = (await call('GET', '/api/customforms?title=archivable', 'admin')).json<CustomFormPage>();
    expect(restored.data[0]).toMatchObject({ id: created.id, archived: false });
  });
});

describe('custom form validation', () => {
  const expectFields = async (content: unknown, fields: Record<string, string>) => {
    const response = await call('POST', '/api/customforms', 'admin', content);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ fields: Record<string, string> }>().fields).toMatchObject(fields);
  };

  it('refuses a form without a title or questions, naming the fields', async () => {
    const content = { ...sampleForm(), title: { en: '' }, questions: [] };
    await expectFields(content, { 'title.en': 'required', questions: expect.any(String) });
  });

  it('refuses an unknown question type', async () => {
    const content = sampleForm();
    (content.questions[2] as { type: number }).type = 19;
    await expectFields(content, { 'questions.2.type': 'questionTypeInvalid' });
  });

  it('refuses duplicate question and section ids and an unknown section', async () => {
    const content = sampleForm();
    content.sections.push({ id: 's1', title: { en: 'Again' } });
    content.questions[2]!.id = 'q1';
    content.questions[3]!.sectionId = 'nowhere';
    await expectFields(content, {
      'sections.1.id': 'sectionIdTaken',
      'questions.2.id': 'questionIdTaken',
      'questions.3.sectionId': 'sectionUnknown',
    });
  });

  it('refuses option questions with fewer than two options or repeated values', async () => {
    const content = sampleForm();
    content.questions.push(
      {
        id: 'q5',
        type: QuestionType.LIKERT_SCALE,
        text: { en: 'Rate' },
        required: false,
        options: [{ value: 1, label: { en: 'One' } }],
      },
      {
        id: 'q6',
        type: QuestionType.DROP_DOWN_WITH_OPTION,
        text: { en: 'Pick' },
        required: false,
        options: [
          { value: 'a', label: { en: 'A' } },
          { value: 'a', label: { en: 'Also A' } },
        ],
      },
    );
    await expectFields(content, { 'questions.4.options': 'optionsTooFew', 'questions.5.options.1.value': 'optionValueTaken' });
  });

  it('refuses a condition on a later question, on a question without options, or on a value it does not offer', async () => {
    const content = sampleForm();
    content.questions[0]!.showWhen = { questionId: 'q3', equals: 'true' };
    content.questions[1]!.showWhen = { questionId: 'q1', equals: 'maybe' };
    content.questions[3]!.showWhen = { questionId: 'q2', equals: 3 };
    await expectFields(content, {
      'questions.0.showWhen': 'showWhenInvalid',
      'questions.1.showWhen': 'showWhenInvalid',
      'questions.3.showWhen': 'showWhenInvalid',
    });
  });

  it('accepts a condition on an earlier checkbox being ticked', async () => {
    const content = sampleForm('Checkbox condition');
    content.questions[3]!.showWhen = { questionId: 'q3', equals: 'true' };
    await create(content);
  });

  it('refuses a number range whose minimum exceeds its maximum', async () => {
    const content = sampleForm();
    content.questions[1]!.min = 10;
    await expectFields(content, { 'questions.1.max': 'rangeInvalid' });
  });

  it('offers Spanish only when every text has a Spanish version', async () => {
    const content = sampleForm();
    content.languages = ['en', 'es'];
    content.title.es = 'Control de dolor';
    await expectFields(content, { languages: 'spanishMissing' });
  });

  it('checks an edit as strictly as a new form', async () => {
    const created = await create(sampleForm('Strict edit'));
    const content = sampleForm('Strict edit');
    content.questions[1]!.showWhen = { questionId: 'q9', equals: 'yes' };
    const response = await call('PUT', `/api/customforms/${created.id}`, 'admin', content);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ fields: Record<string, string> }>().fields).toEqual({ 'questions.1.showWhen': 'showWhenInvalid' });
  });
});

describe('custom form access', () => {
  let formId: string;
  beforeAll(async () => {
    formId = (await create(sampleForm('Access form'))).id;
  });

  it.each(['staff', 'doctor'] as const)('a %s user may read but not write', async (as) => {
    expect((await call('GET', `/api/customforms/${formId}`, as)).statusCode).toBe(200);
    expect((await call('POST', '/api/customforms', as, sampleForm())).statusCode).toBe(403);
    expect((await call('PUT', `/api/customforms/${formId}`, as, sampleForm())).statusCode).toBe(403);
    expect((await call('DELETE', `/api/customforms/${formId}`, as)).statusCode).toBe(403);
    expect((await call('POST', `/api/customforms/${formId}/restore`, as)).statusCode).toBe(403);
  });

  it("an Admin of another clinic gets 404 for this clinic's form and does not see it listed", async () => {
    expect((await call('GET', `/api/customforms/${formId}`, 'admin2')).statusCode).toBe(404);
    expect((await call('GET', `/api/customforms/${formId}/versions/1`, 'admin2')).statusCode).toBe(404);
    expect((await call('PUT', `/api/customforms/${formId}`, 'admin2', sampleForm())).statusCode).toBe(404);
    expect((await call('DELETE', `/api/customforms/${formId}`, 'admin2')).statusCode).toBe(404);
    expect((await call('POST', `/api/customforms/${formId}/restore`, 'admin2')).statusCode).toBe(404);
    const list = (await call('GET', '/api/customforms?title=access', 'admin2')).json<CustomFormPage>();
    expect(list.totalRecords).toBe(0);
    const [form] = await t.db.select().from(customForms).where(eq(customForms.id, formId));
    expect(form?.archivedAt).toBeNull();
  });

  it('documents every custom form call in OpenAPI', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{ paths: Record<string, unknown> }>();
    for (const path of [
      '/api/customforms',
      '/api/customforms/{id}',
      '/api/customforms/{id}/versions/{version}',
      '/api/customforms/{id}/restore',
    ]) {
      expect(document.paths).toHaveProperty([path]);
    }
  });

  it('refuses a malformed id with 400', async () => {
    const response = await call('GET', '/api/customforms/not-an-id', 'admin');
    expect(response.statusCode).toBe(400);
    expect(response.json<{ fields: Record<string, string> }>().fields).toEqual({ id: 'idInvalid' });
  });
});
