import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { findManagedList, type ManagedItem } from '@pathwell/contracts/managed-lists';
import type { Role } from '@pathwell/contracts/roles';
import { SessionReactContext } from '../../app/session-context';
import { i18n } from '../../lib/i18n';
import { makeSession } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { ManagedListPage } from './managed-list-page';

const medicines = findManagedList('medicines')!;

type Call = { method: string; url: URL; body: unknown };

/**
 * A small in-memory server for one list: it filters by `search`, sorts by name, answers 409 for a
 * name already taken, and records every call, so a test sees what the page asked for.
 */
function fakeListServer(initial: string[], options: { failList?: boolean } = {}) {
  let sequence = 0;
  const items: ManagedItem[] = initial.map((name) => ({
    id: `00000000-0000-4000-8000-${String(++sequence).padStart(12, '0')}`,
    listType: 'medicines',
    name,
    attributes: { strength: 5, unit: 'mg', route: 'oral', isOpioid: false },
    isActive: true,
    sortOrder: 0,
    createdAt: '2026-01-10T12:00:00.000Z',
    updatedAt: '2026-01-10T12:00:00.000Z',
  }));
  const calls: Call[] = [];
  const json = (status: number, body?: unknown) =>
    new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = (init?.method ?? 'GET').toUpperCase();
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, url, body });
      const id = url.pathname.split('/')[3];
      if (method === 'GET') {
        if (options.failList) return json(500, { error: 'Internal error', code: 'INTERNAL' });
        const search = url.searchParams.get('search')?.toLowerCase();
        const found = items.filter((item) => !search || item.name.toLowerCase().includes(search));
        if (url.searchParams.get('sortBy') === 'name') found.sort((a, b) => a.name.localeCompare(b.name));
        if (url.searchParams.get('sortDirection') === 'desc') found.reverse();
        return json(200, { totalRecords: found.length, pageNumber: 0, pageSize: 15, data: found });
      }
      const taken = (name: string, except?: string) =>
        items.some((item) => item.id !== except && item.name.toLowerCase() === name.trim().toLowerCase());
      if (method === 'POST') {
        const input = body as ManagedItem;
        if (taken(input.name))
          return json(409, { error: 'This name is already in the list', code: 'CONFLICT', fields: { name: 'nameTaken' } });
        const created = { ...items[0]!, ...input, id: `00000000-0000-4000-8000-${String(++sequence).padStart(12, '0')}` };
        items.push(created);
        return json(201, created);
      }
      const index = items.findIndex((item) => item.id === id);
      if (method === 'PUT') {
        items[index] = { ...items[index]!, ...(body as ManagedItem) };
        return json(200, items[index]);
      }
      items.splice(index, 1);
      return json(204);
    }),
  );
  return { calls, items };
}

function renderPage(role: Role = 'Admin') {
  return renderAt(
    <SessionReactContext.Provider value={makeSession({ user: { role } })}>
      <ManagedListPage list={medicines} />
    </SessionReactContext.Provider>,
    { path: '/admin/medicines' },
  );
}

const rowNames = () => screen.getAllByTestId('managed-list-row').map((row) => within(row).getAllByRole('cell')[0]!.textContent);

describe('the generic managed-list page', () => {
  it('shows the entries with their own columns, in the clinic language', async () => {
    fakeListServer(['Gabapentin', 'Baclofen']);
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Medicines' })).toBeInTheDocument();
    await waitFor(() => expect(rowNames()).toEqual(['Gabapentin', 'Baclofen']));
    const table = screen.getByTestId('managed-list-table');
    expect(within(table).getByRole('columnheader', { name: 'Kind' })).toBeInTheDocument();
    // Entries stored before medicines had a kind are the ones patients take.
    expect(within(table).getAllByText('Taken by the patient')).toHaveLength(2);
    expect(screen.getByTestId('managed-list-total')).toHaveTextContent('2 entries');
  });

  it('searches by name from the third character', async () => {
    const server = fakeListServer(['Gabapentin', 'Baclofen', 'Oxycodone']);
    renderPage();
    await waitFor(() => expect(rowNames()).toHaveLength(3));
    const user = userEvent.setup();
    await user.type(screen.getByTestId('managed-list-search'), 'ox');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(server.calls.some((call) => call.url.searchParams.has('search'))).toBe(false);
    await user.type(screen.getByTestId('managed-list-search'), 'y');
    await waitFor(() => expect(rowNames()).toEqual(['Oxycodone']));
    expect(server.calls.at(-1)?.url.searchParams.get('search')).toBe('oxy');
  });

  it('sorts by a column header, then reverses on a second click', async () => {
    const server = fakeListServer(['Gabapentin', 'Baclofen', 'Oxycodone']);
    renderPage();
    await waitFor(() => expect(rowNames()).toHaveLength(3));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sort by Name' }));
    await waitFor(() => expect(rowNames()).toEqual(['Baclofen', 'Gabapentin', 'Oxycodone']));
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(screen.getByRole('button', { name: 'Sort by Name' }));
    await waitFor(() => expect(rowNames()).toEqual(['Oxycodone', 'Gabapentin', 'Baclofen']));
    expect(server.calls.at(-1)?.url.searchParams.get('sortDirection')).toBe('desc');
  });

  it('adds an entry through the modal, checking the fields before sending', async () => {
    const server = fakeListServer(['Gabapentin']);
    renderPage();
    await waitFor(() => expect(rowNames()).toHaveLength(1));
    const user = userEvent.setup();
    await user.click(screen.getByTestId('managed-list-add'));
    const dialog = await screen.findByRole('dialog', { name: 'Add to Medicines' });
    await user.click(within(dialog).getByTestId('managed-item-save'));
    expect(await within(dialog).findByText('Please enter name')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText(/^Name/), 'Oxycodone');
    await user.type(within(dialog).getByLabelText('Strength'), '5');
    await user.click(within(dialog).getByLabelText('Opioid'));
    await user.click(within(dialog).getByTestId('managed-item-save'));
    expect(await within(dialog).findByText('Enter the MME conversion factor of an opioid')).toBeInTheDocument();
    expect(server.calls.filter((call) => call.method === 'POST')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('MME conversion factor'), '1.5');
    await user.click(within(dialog).getByTestId('managed-item-save'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add to Medicines' })).not.toBeInTheDocument());
    const post = server.calls.find((call) => call.method === 'POST');
    expect(post?.body).toMatchObject({
      name: 'Oxycodone',
      isActive: true,
      attributes: { strength: 5, isOpioid: true, mmeConversionFactor: 1.5 },
    });
    await waitFor(() => expect(rowNames()).toContain('Oxycodone'));
  });

  it("puts the server's duplicate-name answer next to the name", async () => {
    fakeListServer(['Gabapentin']);
    renderPage();
    await waitFor(() => expect(rowNames()).toHaveLength(1));
    const user = userEvent.setup();
    await user.click(screen.getByTestId('managed-list-add'));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/^Name/), 'gabapentin');
    await user.click(within(dialog).getByTestId('managed-item-save'));
    expect(await within(dialog).findByText('This name is already in the list')).toBeInTheDocument();
  });

  it('deletes only after confirmation', async () => {
    const server = fakeListServer(['Gabapentin', 'Baclofen']);
    renderPage();
    await waitFor(() => expect(rowNames()).toHaveLength(2));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete Baclofen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Baclofen?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server.calls.some((call) => call.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete Baclofen' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete Baclofen?' })).getByTestId('confirm-delete'));
    await waitFor(() => expect(rowNames()).toEqual(['Gabapentin']));
    expect(server.calls.find((call) => call.method === 'DELETE')?.url.pathname).toBe(
      `/api/medicines/${'0'.repeat(8)}-0000-4000-8000-000000000002`,
    );
  });

  it('switches an entry inactive from the table', async () => {
    const server = fakeListServer(['Gabapentin']);
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('switch', { name: 'Gabapentin is active' }));
    await waitFor(() =>
      expect(server.calls.find((call) => call.method === 'PUT')?.body).toMatchObject({ name: 'Gabapentin', isActive: false }),
    );
  });

  it('shows a Staff user the list without add, edit, delete or the active switch', async () => {
    fakeListServer(['Gabapentin']);
    renderPage('Staff');
    await waitFor(() => expect(rowNames()).toEqual(['Gabapentin']));
    expect(screen.queryByTestId('managed-list-add')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Edit|Delete/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    expect(screen.getByText('You can view this list; only Admins and System Managers can change it.')).toBeInTheDocument();
  });

  it('offers a retry when the list cannot be loaded', async () => {
    fakeListServer([], { failList: true });
    renderPage();
    expect(await screen.findByTestId('managed-list-error')).toHaveTextContent('The list could not be loaded.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('speaks Spanish, enumeration labels included', async () => {
    fakeListServer(['Gabapentina']);
    renderPage();
    await i18n.changeLanguage('es');
    expect(await screen.findByRole('heading', { name: 'Medicamentos' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('columnheader', { name: 'Tipo' })).toBeInTheDocument());
    expect(screen.getByText('La toma el paciente')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Añadir entrada' })).toBeInTheDocument();
  });
});
