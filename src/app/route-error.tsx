import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { ErrorFallback } from './error-fallback.tsx';

/** Render and loading errors anywhere under the layout. */
export function RouteError() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error)) console.error(error);
  return <ErrorFallback />;
}
