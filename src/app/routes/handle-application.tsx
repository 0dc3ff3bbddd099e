import { ApplicationPage } from '@/features/setup/index.ts';

export default function ApplicationRoute() {
  return <ApplicationPage />;
}
