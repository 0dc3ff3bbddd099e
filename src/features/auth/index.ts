/** What other features may use of auth: the sign-in dialog and the form inside it. */
export { LoginModal } from './login-modal.tsx';
export { AuthForm, type AuthSuccess } from './auth-form.tsx';
