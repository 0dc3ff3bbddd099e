import { DoctorSetupPage } from '@/features/setup/index.ts';

export default function DoctorSetupRoute() {
  return <DoctorSetupPage />;
}
