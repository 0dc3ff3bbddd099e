import { PlaceholderPage } from '../placeholder-page.tsx';

export default function CheckoutRoute() {
  return <PlaceholderPage title="Confirmar Agendamento" />;
}
