import { LoginPage } from '@/features/auth/login-page.tsx';

export default function PatientLoginRoute() {
  return <LoginPage target="paciente" />;
}
