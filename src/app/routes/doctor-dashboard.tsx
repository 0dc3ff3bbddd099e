import { PlaceholderPage } from '../placeholder-page.tsx';

export default function DoctorDashboardRoute() {
  return <PlaceholderPage title="Painel do Médico" />;
}
