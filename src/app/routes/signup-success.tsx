import { SignupSuccessPage } from '@/features/auth/signup-success-page.tsx';

export default function SignupSuccessRoute() {
  return <SignupSuccessPage />;
}
