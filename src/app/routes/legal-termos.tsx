import { LegalPage } from '@/features/legal/index.ts';

export default function TermosRoute() {
  return <LegalPage document="termos" />;
}
