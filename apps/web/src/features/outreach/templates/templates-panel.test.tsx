import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SessionReactContext } from '../../../app/session-context';
import { fakeApi, makeSession } from '../../../test/fake-api';
import { renderAt } from '../../../test/render';
import { template, templateId } from './template-fixtures';
import { AudienceTemplatesPanel } from './templates-panel';

const render = (kind: 'campaign' | 'hotlist' = 'campaign') =>
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <AudienceTemplatesPanel kind={kind} />
    </SessionReactContext.Provider>,
    { path: '/templateList' },
  );

describe('the audience templates panel', () => {
  it('lists the templates of its kind with their codes, match mode and author, and links to the builder', async () => {
    const { calls } = fakeApi([{ path: '/api/audiencetemplates', body: { data: [template()] } }]);
    render();
    const row = await screen.findByTestId('template-row');
    expect(row).toHaveTextContent('Bring back lumbar patients');
    expect(row).toHaveTextContent('M54.16, M54.17, M51.16 +1 more');
    expect(row).toHaveTextContent('Any of These Codes');
    expect(row).toHaveTextContent('1 code group');
    expect(row).toHaveTextContent('03/03/2026');
    expect(row).toHaveTextContent('by Alex Carter');
    expect(within(row).getByRole('link', { name: 'Lumbar radiculopathy, not seen in 6 months' })).toHaveAttribute(
      'href',
      `/codepulls/templates?id=${templateId}`,
    );
    expect(within(row).getByRole('link', { name: 'Edit Lumbar radiculopathy, not seen in 6 months' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New template' })).toHaveAttribute('href', '/codepulls/templates');
    expect(calls[0]!.query.get('kind')).toBe('campaign');
  });

  it('asks for hot-list templates and links the builder in hot-list mode', async () => {
    const { calls } = fakeApi([
      { path: '/api/audiencetemplates', body: { data: [template({ kind: 'hotlist', name: 'Call back SCS candidates' })] } },
    ]);
    render('hotlist');
    const row = await screen.findByTestId('template-row');
    expect(within(row).getByRole('link', { name: 'Call back SCS candidates' })).toHaveAttribute(
      'href',
      `/codepulls/templates?id=${templateId}&kind=hotlist`,
    );
    expect(screen.getByRole('link', { name: 'New template' })).toHaveAttribute('href', '/codepulls/templates?kind=hotlist');
    expect(calls[0]!.query.get('kind')).toBe('hotlist');
  });

  it('says when there are none', async () => {
    fakeApi([{ path: '/api/audiencetemplates', body: { data: [] } }]);
    render();
    expect(await screen.findByTestId('templates-empty')).toHaveTextContent('No code pull templates yet');
  });

  it('shows a failure with a retry', async () => {
    const { calls } = fakeApi([
      {
        path: '/api/audiencetemplates',
        status: 500,
        body: { error: 'Internal error', code: 'INTERNAL', messageKey: 'internalError' },
      },
    ]);
    render();
    expect(await screen.findByTestId('templates-error')).toHaveTextContent('The templates could not be loaded.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls.length).toBe(2));
  });

  it('deletes a template after confirming, then lists again', async () => {
    const { calls } = fakeApi([
      { path: '/api/audiencetemplates', body: { data: [template()] } },
      { method: 'DELETE', path: `/api/audiencetemplates/${templateId}`, status: 204 },
    ]);
    render();
    const user = userEvent.setup();
    const row = await screen.findByTestId('template-row');
    await user.click(within(row).getByRole('button', { name: 'Delete Lumbar radiculopathy, not seen in 6 months' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete template' });
    expect(dialog).toHaveTextContent('keep their patients');
    await user.click(within(dialog).getByTestId('template-delete-confirm'));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE')).toBe(true));
    await waitFor(() => expect(calls.filter((call) => call.method === 'GET').length).toBe(2));
    expect(await screen.findByText('Template "Lumbar radiculopathy, not seen in 6 months" deleted.')).toBeInTheDocument();
  });
});
