/**
 * The booking page's path, the one page whose code and first data start loading before the app
 * does (early-reads.ts, and index.html's preload set up in vite.config.ts). A constant alone in
 * its module so the build configuration can import it.
 */
export const BOOKING_PATH = '/agendamentos';
