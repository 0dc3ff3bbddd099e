import { LoginModal } from '@/features/auth/index.ts';
import { BookingPage } from '@/features/booking/booking-page.tsx';
import { ScheduleEditor } from '@/features/schedule-editor/index.ts';

export default function BookingRoute() {
  return <BookingPage scheduleEditor={ScheduleEditor} loginDialog={LoginModal} />;
}
