/** docs/product-rules.md §2: the confirmation e-mail brings the person back to the patient login screen. */
export function signupRedirectUrl(): string {
  return `${window.location.origin}/acesso-paciente`;
}

export function passwordResetRedirectUrl(): string {
  return `${window.location.origin}/auth/reset-password`;
}
