import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CodeGroup } from '@pathwell/contracts/outreach';
import { SessionReactContext } from '../../../app/session-context';
import { fakeApi, makeSession } from '../../../test/fake-api';
import { renderAt } from '../../../test/render';
import { CodeGroupsPanel } from './code-groups-panel';

const lumbar: CodeGroup = {
  id: '66666666-6666-4666-8666-666666666661',
  name: 'Lumbar radiculopathy',
  codes: ['M54.16', 'M54.17', 'M51.16', 'M51.17', 'M54.15', 'M51.26', 'M51.27', 'M54.10'],
  updatedAt: '2026-01-05T15:00:00.000Z',
};

const renderPanel = () =>
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <CodeGroupsPanel />
    </SessionReactContext.Provider>,
  );

describe('code groups', () => {
  it('lists the groups with their first codes', async () => {
    fakeApi([{ path: '/api/codegroups', body: { data: [lumbar] } }]);
    renderPanel();
    const row = await screen.findByTestId('code-group-row');
    expect(row).toHaveTextContent('Lumbar radiculopathy');
    expect(row).toHaveTextContent('M54.16');
    expect(row).toHaveTextContent('+2 more');
  });

  it('says so when there are no groups yet', async () => {
    fakeApi([{ path: '/api/codegroups', body: { data: [] } }]);
    renderPanel();
    expect(await screen.findByTestId('code-groups-empty')).toHaveTextContent('No code groups yet.');
  });

  it('creates a group: refuses a code of no known shape, checks the name, and shows a name already taken', async () => {
    const { calls } = fakeApi([
      { path: '/api/codegroups', body: { data: [] } },
      {
        method: 'POST',
        path: '/api/codegroups',
        status: 409,
        body: { error: 'x', code: 'CONFLICT', messageKey: 'codeGroupNameTaken', fields: { name: 'codeGroupNameTaken' } },
      },
    ]);
    renderPanel();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('code-group-new'));
    const dialog = await screen.findByRole('dialog', { name: 'New code group' });
    await user.type(within(dialog).getByTestId('code-group-codes'), 'm54.16,64483,xyz,');
    expect(await within(dialog).findByText('xyz is not an ICD-10-CM, CPT or HCPCS code')).toBeInTheDocument();
    await user.click(within(dialog).getByTestId('code-group-save'));
    expect(await within(dialog).findByText('Please enter name')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);

    await user.type(within(dialog).getByTestId('code-group-name'), 'Lumbar radiculopathy');
    await user.click(within(dialog).getByTestId('code-group-save'));
    expect(await within(dialog).findByText('Another code group has this name')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')!.body).toEqual({
      name: 'Lumbar radiculopathy',
      codes: ['M54.16', '64483'],
    });
  });

  it('edits a group and deletes one after confirming', async () => {
    const { calls } = fakeApi([
      { path: '/api/codegroups', body: { data: [lumbar] } },
      { method: 'PUT', path: `/api/codegroups/${lumbar.id}`, body: { ...lumbar, name: 'Lumbar radiculopathy (L4–S1)' } },
      { method: 'DELETE', path: `/api/codegroups/${lumbar.id}`, status: 204 },
    ]);
    renderPanel();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Lumbar radiculopathy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit code group' });
    const name = within(dialog).getByTestId('code-group-name');
    await user.clear(name);
    await user.type(name, 'Lumbar radiculopathy (L4–S1)');
    await user.click(within(dialog).getByTestId('code-group-save'));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({
      name: 'Lumbar radiculopathy (L4–S1)',
      codes: lumbar.codes,
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit code group' })).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Delete Lumbar radiculopathy' }));
    await user.click(await screen.findByTestId('code-group-delete-confirm'));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE')).toBe(true));
  });
});
