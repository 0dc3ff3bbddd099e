import { DoctorDashboardPage } from '@/features/doctor-dashboard/doctor-dashboard-page.tsx';
import { ScheduleEditor } from '@/features/schedule-editor/index.ts';

export default function DoctorDashboardRoute() {
  return <DoctorDashboardPage scheduleEditor={ScheduleEditor} />;
}
