import { DoctorDashboardPage } from '@/features/doctor-dashboard/doctor-dashboard-page.tsx';

export default function DoctorDashboardRoute() {
  return <DoctorDashboardPage />;
}
