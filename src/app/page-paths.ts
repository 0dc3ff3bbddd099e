/**
 * The pages whose code starts loading before the app's own JavaScript has run: opened directly,
 * index.html preloads their route's files (vite.config.ts, scripts/lib/page-preload.ts), and
 * the booking page also sends its first reads (early-reads.ts). Constants alone in their module
 * so the build configuration can import them.
 */
export const BOOKING_PATH = '/agendamentos';
/** The dashboards, each with its sections below it ('/*', as the router writes it). */
export const DOCTOR_DASHBOARD_PATH = '/medico/dashboard/*';
export const PATIENT_DASHBOARD_PATH = '/paciente/dashboard/*';
