import { LoginModal } from '@/features/auth/index.ts';
import { BookingPage } from '@/features/booking/booking-page.tsx';
import { PatientDashboardPage } from '@/features/patient-dashboard/patient-dashboard-page.tsx';
import { ScheduleEditor } from '@/features/schedule-editor/index.ts';

export default function PatientDashboardRoute() {
  return (
    <PatientDashboardPage
      bookingPage={<BookingPage scheduleEditor={ScheduleEditor} loginDialog={LoginModal} />}
    />
  );
}
