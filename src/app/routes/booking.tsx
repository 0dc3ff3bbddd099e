import { BookingPage } from '@/features/booking/booking-page.tsx';

export default function BookingRoute() {
  return <BookingPage />;
}
