import { LegalPage } from '@/features/legal/index.ts';

export default function ReembolsoRoute() {
  return <LegalPage document="reembolso" />;
}
