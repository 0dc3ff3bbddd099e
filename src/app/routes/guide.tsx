import { PlaceholderPage } from '../placeholder-page.tsx';

export default function GuideRoute() {
  return <PlaceholderPage title="Guia de Atendimento" />;
}
