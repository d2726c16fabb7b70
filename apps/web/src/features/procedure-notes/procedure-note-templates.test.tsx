import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ProcedureNoteTemplate } from '@pathwell/contracts/procedure-notes';
import type { Role } from '@pathwell/contracts/roles';
import { SessionReactContext } from '../../app/session-context';
import { fakeApi, makeSession, type FakeRoute } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { ProcedureNoteTemplatesPage } from './procedure-note-templates';

const templateId = '55555555-5555-4555-8555-555555555555';
const template: ProcedureNoteTemplate = {
  id: templateId,
  name: 'Injection note (example)',
  kind: 'injection',
  itemId: null,
  itemName: null,
  body: 'Injection for {{patientName}}',
  isActive: true,
  updatedAt: '2026-11-20T15:00:00.000Z',
};
const base = '/api/procedurenotetemplates';

function setup(role: Role = 'Admin', routes: FakeRoute[] = [{ path: base, body: [template] }]) {
  const api = fakeApi([
    ...routes,
    { path: '/api/interventionalitems', body: { totalRecords: 0, pageNumber: 0, pageSize: 999, data: [] } },
  ]);
  renderAt(
    <SessionReactContext.Provider value={makeSession({ user: { role } })}>
      <ProcedureNoteTemplatesPage />
    </SessionReactContext.Provider>,
    { path: '/admin/procedurenotetemplates' },
  );
  return api;
}

describe('procedure note templates page', () => {
  it('lists templates and adds one, inserting a placeholder from the catalogue', async () => {
    const { calls } = setup('Admin', [
      { path: base, body: [template] },
      {
        method: 'POST',
        path: base,
        status: 201,
        body: { ...template, id: '55555555-5555-4555-8555-555555555556', name: 'Pump note' },
      },
    ]);
    const table = await screen.findByTestId('procedure-templates-table');
    expect(table).toHaveTextContent('Injection note (example)');
    expect(table).toHaveTextContent('Every item');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('template-add'));
    const dialog = await screen.findByRole('dialog', { name: 'Add template' });
    await user.type(within(dialog).getByTestId('template-name'), 'Pump note');
    await user.type(within(dialog).getByTestId('template-body'), 'Refill for ');
    await user.click(within(dialog).getByRole('button', { name: '{{patientName}}' }));
    expect(within(dialog).getByTestId('template-body')).toHaveValue('Refill for {{patientName}}');
    await user.click(within(dialog).getByTestId('template-save'));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')!.body).toEqual({
      name: 'Pump note',
      kind: 'injection',
      itemId: null,
      body: 'Refill for {{patientName}}',
      isActive: true,
    });
  });

  it('refuses an unknown placeholder before sending', async () => {
    const { calls } = setup();
    await screen.findByTestId('procedure-templates-table');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('template-add'));
    const dialog = await screen.findByRole('dialog', { name: 'Add template' });
    await user.type(within(dialog).getByTestId('template-name'), 'Bad');
    await user.type(within(dialog).getByTestId('template-body'), 'Hello {{{{favourite}}');
    await user.click(within(dialog).getByTestId('template-save'));
    expect(await within(dialog).findByText('This text uses a placeholder that is not in the list')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('is read-only for a Doctor, and says when there are no templates', async () => {
    setup('Doctor', [{ path: base, body: [] }]);
    expect(await screen.findByTestId('templates-empty')).toBeInTheDocument();
    expect(screen.getByText('Only administrators can change templates.')).toBeInTheDocument();
    expect(screen.queryByTestId('template-add')).not.toBeInTheDocument();
  });

  it('shows an error when the list fails', async () => {
    setup('Admin', [{ path: base, status: 500, body: { error: 'x', code: 'INTERNAL', messageKey: 'internalError' } }]);
    expect(await screen.findByText(/Templates could not be loaded/)).toBeInTheDocument();
  });
});
