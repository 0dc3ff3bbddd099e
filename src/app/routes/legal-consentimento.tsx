import { LegalPage } from '@/features/legal/index.ts';

export default function ConsentimentoRoute() {
  return <LegalPage document="consentimento" />;
}
