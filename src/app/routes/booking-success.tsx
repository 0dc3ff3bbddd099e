import { SuccessPage } from '@/features/booking/success-page.tsx';

export default function BookingSuccessRoute() {
  return <SuccessPage />;
}
