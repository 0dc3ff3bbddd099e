import { PlaceholderPage } from '../placeholder-page.tsx';

export default function BookingSuccessRoute() {
  return <PlaceholderPage title="Agendamento Concluído!" />;
}
