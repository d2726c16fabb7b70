import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SessionReactContext } from '../../app/session-context';
import { Component as CustomFieldsRoute } from '../../routes/admin/custom-fields';
import { Component as ManagedListRoute } from '../../routes/admin/managed-list';
import { fakeApi, makeSession } from '../../test/fake-api';
import { renderAt } from '../../test/render';

const emptyPage = { totalRecords: 0, pageNumber: 0, pageSize: 15, data: [] };
const requestedUrls = (fetchMock: ReturnType<typeof fakeApi>['fetchMock']) =>
  fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost'));

describe('list pages reached by path', () => {
  it('an interventional items page takes its title and API type from the path', async () => {
    const { fetchMock } = fakeApi([{ path: '/api/interventionalitems', body: emptyPage }]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <ManagedListRoute />
      </SessionReactContext.Provider>,
      { path: '/admin/interventionalitems/:type', initialPath: '/admin/interventionalitems/2' },
    );
    expect(await screen.findByRole('heading', { name: 'Injections' })).toBeInTheDocument();
    expect(await screen.findByTestId('managed-list-empty')).toHaveTextContent('This list has no entries yet.');
    expect(requestedUrls(fetchMock).at(-1)?.searchParams.get('type')).toBe('2');
  });

  it('an unknown interventional type shows the not-found page', async () => {
    fakeApi([]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <ManagedListRoute />
      </SessionReactContext.Provider>,
      { path: '/admin/interventionalitems/:type', initialPath: '/admin/interventionalitems/9' },
    );
    expect(await screen.findByText(/cannot find/i)).toBeInTheDocument();
  });

  it('custom fields open on the first kind and switch kind with the tabs', async () => {
    const { fetchMock } = fakeApi([{ path: '/api/customfields', body: emptyPage }]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <CustomFieldsRoute />
      </SessionReactContext.Provider>,
      { path: '/admin/customfields/:kind?', initialPath: '/admin/customfields' },
    );
    expect(await screen.findByRole('heading', { name: 'Custom fields: Gender' })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Race' }));
    expect(await screen.findByRole('heading', { name: 'Custom fields: Race' })).toBeInTheDocument();
    await waitFor(() => expect(requestedUrls(fetchMock).at(-1)?.searchParams.get('kind')).toBe('race'));
  });
});
