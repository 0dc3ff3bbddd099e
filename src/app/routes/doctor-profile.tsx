import { PlaceholderPage } from '../placeholder-page.tsx';

export default function DoctorProfileRoute() {
  return <PlaceholderPage title="Perfil do Médico" />;
}
