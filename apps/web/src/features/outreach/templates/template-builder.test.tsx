import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeApi, ids, type FakeRoute } from '../../../test/fake-api';
import { renderAt } from '../../../test/render';
import { groupId, template, templateId } from './template-fixtures';
import { TemplateBuilderPage } from './template-builder';

// jsdom has no document.fonts; the description box's autosize listens to it.
beforeAll(() => {
  if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: new EventTarget(), configurable: true });
});

const patientId = '77777777-7777-4777-8777-777777777777';
const options: FakeRoute[] = [
  {
    path: '/api/codegroups',
    body: { data: [{ id: groupId, name: 'Lumbar radiculopathy', codes: ['M54.16', 'M54.17'], updatedAt: '' }] },
  },
  { path: '/api/users/providers', body: [{ id: ids.doctor, firstName: 'Dana', lastName: 'Doctor' }] },
  { path: '/api/customfields', body: { totalRecords: 0, data: [] } },
  { path: '/api/studygroups', body: { totalRecords: 0, data: [] } },
  { path: '/api/appointmentcodes/known', body: { data: [] } },
];
const preview: FakeRoute = {
  method: 'POST',
  path: '/api/patients/patientscontrollistfortemplate',
  body: {
    count: 1234,
    sample: [
      {
        patientId,
        firstName: 'Rosa',
        lastName: 'Delgado',
        dateOfBirth: '1961-04-02',
        lastVisit: '2025-05-20',
        matchedCodes: ['M54.16', 'M54.17'],
      },
    ],
  },
};

const render = (initialPath = '/codepulls/templates') =>
  renderAt(<TemplateBuilderPage />, { path: '/codepulls/templates', initialPath });

async function addCode(user: ReturnType<typeof userEvent.setup>, code: string) {
  await user.type(screen.getByTestId('template-codes'), `${code}{Enter}`);
}

describe('the code pull template builder', () => {
  it('previews who matches as the rule is built, then saves a new template', async () => {
    const { calls } = fakeApi([
      ...options,
      preview,
      { method: 'POST', path: '/api/audiencetemplates', status: 201, body: template({ name: 'Spring recall' }) },
    ]);
    const { router } = render();
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'New code pull template' })).toBeInTheDocument();
    expect(screen.getByTestId('template-preview-idle')).toHaveTextContent('Add a code or a code group');

    await user.type(screen.getByTestId('template-name'), 'Spring recall');
    await addCode(user, 'm54.16');
    await addCode(user, 'M54.17');
    // A code of neither shape is refused on the spot.
    await addCode(user, 'LUMBAR');
    expect(await screen.findByText('LUMBAR is not an ICD-10-CM or CPT code')).toBeInTheDocument();

    expect(await screen.findByTestId('template-preview-count', {}, { timeout: 3000 })).toHaveTextContent('1,234 patients');
    const row = screen.getByTestId('template-preview-row');
    expect(row).toHaveTextContent('Delgado, Rosa');
    expect(row).toHaveTextContent('04/02/1961');
    expect(row).toHaveTextContent('05/20/2025');
    expect(row).toHaveTextContent('M54.16M54.17');
    const asked = calls.filter((call) => call.path === '/api/patients/patientscontrollistfortemplate').at(-1)!;
    expect(asked.body).toMatchObject({ kind: 'campaign', rule: { codes: ['M54.16', 'M54.17'], matchMode: 2 } });

    fireEvent.change(screen.getByTestId('template-lastVisitBefore'), { target: { value: '2025-09-01' } });
    await user.click(screen.getByTestId('template-noUpcomingAppointment'));
    await user.click(screen.getByTestId('template-save'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/templateList'));
    const saved = calls.find((call) => call.method === 'POST' && call.path === '/api/audiencetemplates')!;
    expect(saved.body).toEqual({
      name: 'Spring recall',
      kind: 'campaign',
      description: null,
      rule: expect.objectContaining({
        codes: ['M54.16', 'M54.17'],
        matchMode: 2,
        lastVisitBefore: '2025-09-01',
        noUpcomingAppointment: true,
        codedFrom: null,
        ageMin: null,
        excludeContactedWithinDays: null,
      }),
    });
  });

  it('asks for the window of Custom Timeframe and for a code before saving', async () => {
    const { calls } = fakeApi([...options, preview]);
    render();
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('template-name'), 'Window');
    await user.click(screen.getByRole('radio', { name: 'Custom Timeframe' }));
    expect(screen.getByText(/on a visit between the two dates/)).toBeInTheDocument();
    await user.click(screen.getByTestId('template-save'));
    expect(await screen.findByText('Add at least one code or code group')).toBeInTheDocument();
    expect(screen.getAllByText('This field is required')).toHaveLength(2);
    expect(calls.some((call) => call.method === 'POST' && call.path === '/api/audiencetemplates')).toBe(false);
  });

  it('edits a saved template and shows the server’s field errors where they belong', async () => {
    const { calls } = fakeApi([
      ...options,
      preview,
      { path: `/api/audiencetemplates/${templateId}`, body: template() },
      {
        method: 'PUT',
        path: `/api/audiencetemplates/${templateId}`,
        status: 400,
        body: {
          error: 'Some fields are not valid',
          code: 'VALIDATION',
          messageKey: 'fieldsInvalid',
          fields: { 'rule.codeGroupIds.0': 'invalid' },
        },
      },
    ]);
    render(`/codepulls/templates?id=${templateId}`);
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Edit code pull template' })).toBeInTheDocument();
    expect(screen.getByTestId('template-name')).toHaveValue('Lumbar radiculopathy, not seen in 6 months');
    expect(screen.getByTestId('template-lastVisitBefore')).toHaveValue('2026-01-01');
    expect(screen.getByTestId('template-noUpcomingAppointment')).toBeChecked();
    expect(within(screen.getByTestId('template-preview')).getByText('Who matches now')).toBeInTheDocument();
    await user.click(screen.getByTestId('template-save'));
    expect(await screen.findByText('This value is not valid')).toBeInTheDocument();
    const put = calls.find((call) => call.method === 'PUT')!;
    expect(put.body).toMatchObject({ kind: 'campaign', rule: { codeGroupIds: [groupId] } });
  });

  it('builds a hot-list template from ?kind=hotlist and goes back to the hot-list templates', async () => {
    const { calls } = fakeApi([
      ...options,
      { ...preview, body: { count: 1, sample: preview.body && (preview.body as { sample: unknown[] }).sample } },
      { method: 'POST', path: '/api/audiencetemplates', status: 201, body: template({ kind: 'hotlist' }) },
    ]);
    const { router } = render('/codepulls/templates?kind=hotlist');
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'New hot list template' })).toBeInTheDocument();
    await user.type(screen.getByTestId('template-name'), 'Call back');
    await addCode(user, '64483');
    expect(await screen.findByTestId('template-preview-count', {}, { timeout: 3000 })).toHaveTextContent('1 patient to call');
    expect(calls.find((call) => call.path === '/api/patients/patientscontrollistfortemplate')!.body).toMatchObject({
      kind: 'hotlist',
    });
    await user.click(screen.getByTestId('template-save'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/hotlisttemplatelist'));
    expect(calls.find((call) => call.method === 'POST' && call.path === '/api/audiencetemplates')!.body).toMatchObject({
      kind: 'hotlist',
      rule: { codes: ['64483'] },
    });
  });

  it('shows a failed preview with a retry', async () => {
    fakeApi([
      ...options,
      { ...preview, status: 500, body: { error: 'Internal error', code: 'INTERNAL', messageKey: 'internalError' } },
    ]);
    render();
    const user = userEvent.setup();
    await addCode(user, 'M54.16');
    expect(await screen.findByTestId('template-preview-error', {}, { timeout: 3000 })).toHaveTextContent(
      'The preview could not be loaded.',
    );
  });
});
