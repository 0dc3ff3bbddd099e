import { SupportPage } from '@/features/support/support-page.tsx';

export default function SupportRoute() {
  return <SupportPage />;
}
