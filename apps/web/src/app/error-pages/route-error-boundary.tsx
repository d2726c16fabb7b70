import { isRouteErrorResponse, useRouteError } from 'react-router';
import { NotFoundPage, UnexpectedErrorPage } from './error-pages';

/** Rendering failures show the unexpected-error page instead of a blank screen (section 8). */
export function RouteErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  console.error(error);
  return <UnexpectedErrorPage />;
}
