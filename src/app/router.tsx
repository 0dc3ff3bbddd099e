import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { AppLayout } from './layout/app-layout.tsx';
import { RouteError } from './route-error.tsx';
import { appRoutes, toRouteObject, unknownPathRoute, type AppRoute } from './route-table.tsx';

/**
 * What shows while a page opened directly waits for its code: nothing, as before React Router
 * asked for an explicit fallback. The code is on its way already (index.html preloads the
 * booking page's; other pages' chunks are small), and a blank screen for that moment is less
 * jarring than a shell that the page then replaces.
 */
function FirstRouteLoading() {
  return null;
}

export function buildRoutes(routes: AppRoute[] = appRoutes): RouteObject[] {
  return [
    {
      Component: AppLayout,
      HydrateFallback: FirstRouteLoading,
      errorElement: <RouteError />,
      children: [...routes.map(toRouteObject), unknownPathRoute],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRoutes());
}
