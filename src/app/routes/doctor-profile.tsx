import { DoctorProfilePage } from '@/features/doctors/doctor-profile-page.tsx';

export default function DoctorProfileRoute() {
  return <DoctorProfilePage />;
}
