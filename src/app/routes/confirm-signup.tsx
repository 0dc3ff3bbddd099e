import { ConfirmSignupPage } from '@/features/auth/confirm-signup-page.tsx';

export default function ConfirmSignupRoute() {
  return <ConfirmSignupPage />;
}
