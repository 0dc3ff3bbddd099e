import { ChangePasswordPage } from '@/features/auth/change-password-page.tsx';

export default function ChangePasswordRoute() {
  return <ChangePasswordPage />;
}
