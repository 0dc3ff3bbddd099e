import { LegalPage } from '@/features/legal/index.ts';

export default function PrivacidadeRoute() {
  return <LegalPage document="privacidade" />;
}
