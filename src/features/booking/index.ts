/**
 * What other features may use of booking: the whole booking page (the patient's 'Agendar' tab),
 * and the way back into a checkout left half-way ('Continuar agendamento').
 */
export { BookingPage } from './booking-page.tsx';
export { resumeCheckoutState } from './checkout-state.ts';
