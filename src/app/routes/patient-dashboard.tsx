import { lazy, Suspense } from 'react';
import { PatientDashboardPage } from '@/features/patient-dashboard/patient-dashboard-page.tsx';
import { PageSpinner } from '@/ui/spinner.tsx';

/**
 * The 'Agendar Consulta' tab is the booking page's own route, loaded when the tab is first
 * opened: the dashboard opens on 'Minhas Consultas', which needs none of the booking page's
 * grids, tooltips and first-response code. This route is in the booking page's family
 * (vite.config.ts), so the tab loads the page's own chunks.
 */
const BookingRoute = lazy(() => import('./booking.tsx'));

export default function PatientDashboardRoute() {
  return (
    <PatientDashboardPage
      bookingPage={
        <Suspense fallback={<PageSpinner />}>
          <BookingRoute />
        </Suspense>
      }
    />
  );
}
