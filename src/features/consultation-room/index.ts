/** The consultation room (`/consulta/:agendamentoId`). */
export { ConsultationRoomPage } from './consultation-room-page.tsx';
