import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CustomFormPage } from '@pathwell/contracts/custom-forms';
import type { Role } from '@pathwell/contracts/roles';
import { storageKeys } from '../../lib/session-storage';
import { fakeApi, makeSession, type FakeRoute } from '../../test/fake-api';
import { renderApp } from '../../test/render';

const formId = '66666666-6666-4666-8666-666666666666';
const page: CustomFormPage = {
  totalRecords: 1,
  pageNumber: 0,
  pageSize: 15,
  message: 'OK',
  data: [
    {
      id: formId,
      title: 'Health history',
      currentVersion: 2,
      questionCount: 12,
      responseCount: 40,
      updatedAt: '2026-11-20T15:00:00.000Z',
      archived: false,
    },
  ],
};

function signedIn(role: Role, routes: FakeRoute[] = []) {
  localStorage.setItem(storageKeys.token, 'token-1');
  return fakeApi([
    { path: '/api/session', body: makeSession({ user: { role } }) },
    { path: '/api/users/providers', body: [] },
    { path: '/api/parent/clinics', body: [] },
    ...routes,
  ]);
}

describe('Custom Forms list', () => {
  it('lists the forms with version, question and response counts, searches by title and archives one', async () => {
    const { calls } = signedIn('Admin', [
      { path: '/api/customforms', body: page },
      { method: 'DELETE', path: `/api/customforms/${formId}`, status: 204 },
    ]);
    renderApp('/customforms');
    const [row] = await screen.findAllByTestId('custom-forms-row');
    expect(row).toHaveTextContent('Health history');
    expect(row).toHaveTextContent('12');
    expect(row).toHaveTextContent('40');
    expect(screen.getByRole('link', { name: 'Add new' })).toHaveAttribute('href', '/customforms/new');

    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Search by title' }), 'hist');
    // The search is debounced, then asked again of the server.
    const listCalls = () => calls.filter((call) => call.method === 'GET' && call.path === '/api/customforms').length;
    await waitFor(() => expect(listCalls()).toBeGreaterThan(1));

    await user.click(within(row!).getByRole('button', { name: 'Archive Health history' }));
    await waitFor(() =>
      expect(calls.some((call) => call.method === 'DELETE' && call.path === `/api/customforms/${formId}`)).toBe(true),
    );
  });

  it('shows the unauthorized page to a Staff user', async () => {
    signedIn('Staff');
    renderApp('/customforms');
    expect(await screen.findByTestId('page-unauthorized')).toBeInTheDocument();
  });
});
