import { lazy } from 'react';

/**
 * What the app composes from auth into other features: the patient's login/sign-up dialog,
 * which the booking flow opens for visitors. Lazy: its code loads when a visitor first needs it.
 */
export const LoginModal = lazy(() =>
  import('./login-modal.tsx').then((m) => ({ default: m.LoginModal })),
);
