import { RecoverPasswordPage } from '@/features/auth/recover-password-page.tsx';

export default function RecoverPasswordRoute() {
  return <RecoverPasswordPage />;
}
