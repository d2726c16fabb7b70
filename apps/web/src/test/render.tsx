import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '../app/providers';
import { queryClient } from '../app/query-client';
import { createAppRouter } from '../app/router';
import { i18n } from '../lib/i18n';

function freshState() {
  queryClient.clear();
  void i18n.changeLanguage('en');
}

/** The whole app (route table, guard, shell) in a memory router. */
export function renderApp(initialPath: string) {
  freshState();
  const router = createAppRouter((routes) => createMemoryRouter(routes, { initialEntries: [initialPath] }));
  const view = render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, ...view };
}

/** One component at `path`, with placeholder pages for where it may navigate. */
type RenderAtOptions = { path?: string; initialPath?: string; extraRoutes?: RouteObject[] };

export function renderAt(element: ReactNode, { path = '/', initialPath, extraRoutes = [] }: RenderAtOptions = {}) {
  freshState();
  const router = createMemoryRouter(
    [{ path, element }, { path: '*', element: <p data-testid="elsewhere">elsewhere</p> }, ...extraRoutes],
    { initialEntries: [initialPath ?? path] },
  );
  const view = render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, ...view };
}
