import { ConsultationRoomPage } from '@/features/consultation-room/index.ts';

export default function ConsultationRoomRoute() {
  return <ConsultationRoomPage />;
}
