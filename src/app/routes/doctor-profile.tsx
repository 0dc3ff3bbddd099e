import { LoginModal } from '@/features/auth/index.ts';
import { DoctorProfilePage } from '@/features/booking/doctor-profile-page.tsx';

export default function DoctorProfileRoute() {
  return <DoctorProfilePage loginDialog={LoginModal} />;
}
