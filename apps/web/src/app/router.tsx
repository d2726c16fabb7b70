import { Center, Loader } from '@mantine/core';
import { createBrowserRouter, Navigate, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import type { SessionContext } from '@pathwell/contracts/session';
import { sessionQueries } from '../features/session/session.api';
import { ApiError, setInvalidTokenHandler } from '../lib/api-client';
import { forgetSignedInUser, getToken, rememberReturnPath } from '../lib/session-storage';
import {
  ComingSoonPage,
  MaintenancePage,
  NotFoundPage,
  ServerErrorPage,
  UnauthorizedPage,
  UnexpectedErrorPage,
} from './error-pages/error-pages';
import { RouteErrorBoundary } from './error-pages/route-error-boundary';
import { queryClient } from './query-client';
import { errorPagePaths, homePath, routeTable, type RouteEntry } from './route-table';
import { useSession } from './session-context';

/** Guard of every auth route: no token → /signin, remembering where the person wanted to go. */
async function signedInLoader({ request }: LoaderFunctionArgs): Promise<SessionContext> {
  const url = new URL(request.url);
  const toSignIn = () => {
    rememberReturnPath(`${url.pathname}${url.search}`);
    return redirect('/signin');
  };
  if (!getToken()) throw toSignIn();
  try {
    return await queryClient.ensureQueryData(sessionQueries.context());
  } catch (error) {
    // Without any answer the session may still be good: the error page offers a refresh instead.
    if (!(error instanceof ApiError) || !error.hasResponse) throw error;
    forgetSignedInUser();
    throw toSignIn();
  }
}

function RoleHome() {
  const session = useSession();
  return <Navigate to={homePath(session)} replace />;
}

function PageLoading() {
  return (
    <Center mih="50vh">
      <Loader aria-label="Loading" />
    </Center>
  );
}

function toRoute(entry: RouteEntry, fullPage: boolean): RouteObject {
  if (!entry.page) return { path: entry.path, element: <ComingSoonPage fullPage={fullPage} /> };
  const page = entry.page;
  return { path: entry.path, lazy: async () => ({ Component: (await page()).Component }) };
}

function buildRoutes(): RouteObject[] {
  return [
    {
      errorElement: <RouteErrorBoundary />,
      hydrateFallbackElement: <PageLoading />,
      children: [
        ...routeTable.filter((entry) => entry.access === 'open').map((entry) => toRoute(entry, true)),
        { path: errorPagePaths.notFound, element: <NotFoundPage /> },
        { path: errorPagePaths.unexpected, element: <UnexpectedErrorPage /> },
        { path: errorPagePaths.unauthorized, element: <UnauthorizedPage fullPage /> },
        { path: errorPagePaths.serverError, element: <ServerErrorPage /> },
        { path: errorPagePaths.maintenance, element: <MaintenancePage /> },
        { path: errorPagePaths.comingSoon, element: <ComingSoonPage fullPage /> },
        {
          id: 'signed-in',
          loader: signedInLoader,
          // The shell (menu, top bar, search) loads after sign-in, not with the sign-in page (issue #10 §3).
          lazy: async () => ({ Component: (await import('./shell/shell')).Shell }),
          errorElement: <RouteErrorBoundary />,
          // Moving between signed-in pages keeps the session; once the token is gone (sign-out), the
          // guard runs again and sends the next navigation to /signin.
          shouldRevalidate: () => !getToken(),
          children: [
            { index: true, element: <RoleHome /> },
            ...routeTable.filter((entry) => entry.access === 'auth').map((entry) => toRoute(entry, false)),
          ],
        },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ];
}

type RouterFactory = (routes: RouteObject[]) => ReturnType<typeof createBrowserRouter>;

/** Builds the router and points the invalid-token answer at /signin through it. */
export function createAppRouter(create: RouterFactory = (routes) => createBrowserRouter(routes)) {
  const router = create(buildRoutes());
  setInvalidTokenHandler(() => {
    const { pathname, search } = router.state.location;
    if (pathname === '/signin') return;
    rememberReturnPath(`${pathname}${search}`);
    void router.navigate('/signin', { replace: true }).then(() => queryClient.clear());
  });
  return router;
}
