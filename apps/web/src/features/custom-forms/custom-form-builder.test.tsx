import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CustomFormDetail } from '@pathwell/contracts/custom-forms';
import { QuestionType, type FormContent } from '@pathwell/contracts/forms';
import { fakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { CustomFormBuilder } from './custom-form-builder';

type User = ReturnType<typeof userEvent.setup>;
const formId = '66666666-6666-4666-8666-666666666666';

/** Picks from this select's own list: every question's type select offers the same options. */
async function choose(user: User, name: string, option: string) {
  const box = screen.getByRole('combobox', { name });
  await user.click(box);
  await waitFor(() => expect(box).toHaveAttribute('aria-controls'));
  const listbox = document.getElementById(box.getAttribute('aria-controls')!)!;
  await user.click(await within(listbox).findByRole('option', { name: option, hidden: true }));
}

const field = (name: string) => screen.getByRole('textbox', { name });

/** Pasting instead of typing key by key: the same change events, in a fraction of the time. */
async function fill(user: User, element: HTMLElement, text: string) {
  await user.click(element);
  await user.paste(text);
}

async function buildConditionalForm(user: User) {
  await fill(user, screen.getByLabelText(/^Title/, { selector: 'input:not([lang])' }), 'Back pain check-in');
  await choose(user, 'Question 1: Question type', 'Multiple choice, one answer');
  await fill(user, field('Question 1: Question text'), 'Did you have pain this week?');
  await user.click(screen.getByRole('checkbox', { name: 'Question 1: Required' }));
  const options = screen.getAllByTestId('question-0-option');
  expect(options).toHaveLength(2);
  await fill(user, within(options[0]!).getByRole('textbox', { name: 'Option 1: Value' }), 'yes');
  await fill(user, within(options[0]!).getByRole('textbox', { name: 'Option 1: Label' }), 'Yes');
  await fill(user, within(options[0]!).getByRole('textbox', { name: 'Option 1: Score' }), '1');
  await fill(user, within(options[1]!).getByRole('textbox', { name: 'Option 2: Value' }), 'no');
  await fill(user, within(options[1]!).getByRole('textbox', { name: 'Option 2: Label' }), 'No');

  await user.click(screen.getByRole('button', { name: 'Add question' }));
  await choose(user, 'Question 2: Question type', 'Number');
  await fill(user, field('Question 2: Question text'), 'How many days?');
  await fill(user, field('Question 2: Minimum'), '0');
  await fill(user, field('Question 2: Maximum'), '7');
  await choose(user, 'Question 2: Show only when', '1. Did you have pain this week?');
  await choose(user, 'Question 2: Has the answer', 'Yes');
}

const expectedContent: FormContent = {
  title: { en: 'Back pain check-in' },
  languages: ['en'],
  sections: [],
  questions: [
    {
      id: 'q1',
      type: QuestionType.MULTIPLE_CHOICE_SINGLE_ALLOWED,
      text: { en: 'Did you have pain this week?' },
      required: true,
      options: [
        { value: 'yes', label: { en: 'Yes' }, score: 1 },
        { value: 'no', label: { en: 'No' } },
      ],
    },
    {
      id: 'q2',
      type: QuestionType.NUMBER,
      text: { en: 'How many days?' },
      required: false,
      min: 0,
      max: 7,
      showWhen: { questionId: 'q1', equals: 'yes' },
    },
  ],
};

function detail(content: FormContent, overrides: Partial<CustomFormDetail> = {}): CustomFormDetail {
  return {
    id: formId,
    currentVersion: 1,
    archived: false,
    content,
    versions: [{ version: 1, createdAt: '2026-11-20T10:00:00.000Z', responseCount: 0 }],
    ...overrides,
  };
}

describe('custom form builder', () => {
  it('builds a choice question with options and a question shown only for one answer, and saves that content', async () => {
    const { calls } = fakeApi([{ method: 'POST', path: '/api/customforms', status: 201, body: detail(expectedContent) }]);
    const { router } = renderAt(<CustomFormBuilder />, { path: '/customforms/new' });
    const user = userEvent.setup();
    await buildConditionalForm(user);

    const preview = screen.getByTestId('custom-form-preview');
    expect(within(preview).getByText('Shown only when “Did you have pain this week?” is “Yes”')).toBeInTheDocument();
    expect(within(preview).getByRole('radio', { name: 'Yes' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Save form' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    const post = calls.find((call) => call.method === 'POST' && call.path === '/api/customforms');
    expect(post?.body).toEqual(expectedContent);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/customforms/${formId}`));
  }, 60_000);

  it('shows what is missing without calling the server', async () => {
    const { calls } = fakeApi([]);
    renderAt(<CustomFormBuilder />, { path: '/customforms/new' });
    const user = userEvent.setup();
    await choose(user, 'Question 1: Question type', 'Drop-down list');
    await user.click(screen.getByRole('button', { name: 'Save form' }));
    expect(await screen.findByText('Some fields need attention')).toBeInTheDocument();
    expect(screen.getAllByText('This field is required').length).toBeGreaterThanOrEqual(2);
    expect(calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it("puts the server's field error next to the condition it names", async () => {
    fakeApi([
      {
        method: 'POST',
        path: '/api/customforms',
        status: 400,
        body: { error: 'Some fields are not valid', code: 'VALIDATION', fields: { 'questions.1.showWhen': 'showWhenInvalid' } },
      },
    ]);
    renderAt(<CustomFormBuilder />, { path: '/customforms/new' });
    const user = userEvent.setup();
    await buildConditionalForm(user);
    await user.click(screen.getByRole('button', { name: 'Save form' }));
    const editors = await screen.findAllByTestId('question-editor');
    expect(
      await within(editors[1]!).findByText('Choose an earlier question with options and one of its values'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('custom-form-error')).toHaveTextContent('Some fields need attention');
  }, 60_000);

  it('shows the version and warns that saving a form with responses creates the next version', async () => {
    const content = expectedContent;
    const answered = detail(content, {
      currentVersion: 2,
      versions: [
        { version: 1, createdAt: '2026-11-01T10:00:00.000Z', responseCount: 4 },
        { version: 2, createdAt: '2026-11-10T10:00:00.000Z', responseCount: 3 },
      ],
    });
    const { calls } = fakeApi([{ method: 'PUT', path: `/api/customforms/${formId}`, body: { ...answered, currentVersion: 3 } }]);
    renderAt(<CustomFormBuilder form={answered} />, { path: '/customforms/:id', initialPath: `/customforms/${formId}` });
    const user = userEvent.setup();
    expect(screen.getByTestId('custom-form-version')).toHaveTextContent('Version 2');
    expect(screen.getByTestId('custom-form-new-version-note')).toHaveTextContent(
      'Version 2 has 3 responses. Saving creates version 3; those responses keep showing version 2.',
    );
    await user.clear(field('Question 2: Question text'));
    await fill(user, field('Question 2: Question text'), 'On how many days?');
    await user.click(screen.getByRole('button', { name: 'Save form' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.body).toEqual({
      ...content,
      questions: [content.questions[0], { ...content.questions[1], text: { en: 'On how many days?' } }],
    });
  }, 60_000);

  it('moves a question and drops conditions that would point at a removed question', async () => {
    fakeApi([]);
    renderAt(<CustomFormBuilder form={detail(expectedContent)} />, {
      path: '/customforms/:id',
      initialPath: `/customforms/${formId}`,
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add question' }));
    await fill(user, field('Question 3: Question text'), 'Anything else?');
    await user.click(screen.getByRole('button', { name: 'Move question 3 up' }));
    expect(field('Question 2: Question text')).toHaveValue('Anything else?');
    await user.click(screen.getByRole('button', { name: 'Remove question 1' }));
    expect(screen.getAllByTestId('question-editor')).toHaveLength(2);
    expect(field('Question 2: Question text')).toHaveValue('How many days?');
    expect(screen.getByRole('combobox', { name: 'Question 2: Show only when' })).toHaveValue('');
  }, 60_000);
});
