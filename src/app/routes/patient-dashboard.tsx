import { PatientDashboardPage } from '@/features/patient-dashboard/patient-dashboard-page.tsx';

export default function PatientDashboardRoute() {
  return <PatientDashboardPage />;
}
