import { PlaceholderPage } from '../placeholder-page.tsx';

export default function BookingRoute() {
  return <PlaceholderPage title="Agende sua consulta" />;
}
