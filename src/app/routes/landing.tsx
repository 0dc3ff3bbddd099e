import { LandingPage } from '@/features/landing/landing-page.tsx';

export default function LandingRoute() {
  return <LandingPage />;
}
