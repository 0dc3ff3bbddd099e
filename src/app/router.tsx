import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { AppLayout } from './layout/app-layout.tsx';
import { RouteError } from './route-error.tsx';
import { appRoutes, toRouteObject, unknownPathRoute, type AppRoute } from './route-table.tsx';

export function buildRoutes(routes: AppRoute[] = appRoutes): RouteObject[] {
  return [
    {
      Component: AppLayout,
      errorElement: <RouteError />,
      children: [...routes.map(toRouteObject), unknownPathRoute],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRoutes());
}
