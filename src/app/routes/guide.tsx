import { GuidePage } from '@/features/guide/guide-page.tsx';

export default function GuideRoute() {
  return <GuidePage />;
}
