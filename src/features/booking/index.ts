/**
 * What other features may use of booking: the whole booking page (the patient's 'Agendar' tab),
 * the way back into a checkout left half-way ('Continuar agendamento') and the ticking clock.
 */
export { BookingPage } from './booking-page.tsx';
export { resumeCheckoutState } from './checkout-state.ts';
export { useNow } from './use-now.ts';
