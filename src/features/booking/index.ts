/** What other features may use of booking: the whole booking page (the patient's 'Agendar' tab). */
export { BookingPage } from './booking-page.tsx';
