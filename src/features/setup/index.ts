/** The setup and admin pages (no login guard; changes to existing state need the setup token). */
export { ApplicationPage } from './application-page.tsx';
export { CleanupPage } from './cleanup-page.tsx';
export { DoctorSetupPage } from './doctor-setup-page.tsx';
