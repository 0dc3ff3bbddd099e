import { LoginPage } from '@/features/auth/login-page.tsx';

export default function DoctorLoginRoute() {
  return <LoginPage target="medico" />;
}
