import { PlaceholderPage } from '../placeholder-page.tsx';

export default function PatientDashboardRoute() {
  return <PlaceholderPage title="Painel do Paciente" />;
}
