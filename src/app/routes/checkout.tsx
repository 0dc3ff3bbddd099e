import { CheckoutPage } from '@/features/booking/checkout-page.tsx';

export default function CheckoutRoute() {
  return <CheckoutPage />;
}
