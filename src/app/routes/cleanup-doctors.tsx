import { CleanupPage } from '@/features/setup/index.ts';

export default function CleanupRoute() {
  return <CleanupPage />;
}
