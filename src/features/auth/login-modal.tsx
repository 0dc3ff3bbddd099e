import { Dialog } from '@/ui/dialog.tsx';
import { AuthForm, type AuthSuccess } from './auth-form.tsx';

type LoginModalProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called after a login, or after a sign-up (whose account still needs e-mail confirmation). */
  onSuccess: (result: AuthSuccess) => void;
};

/** The patient login/sign-up dialog the booking flow opens for visitors (docs/product-rules.md §2). */
export function LoginModal({ open, onOpenChange, onSuccess }: LoginModalProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Acesse sua conta para continuar"
      description="Faça login ou crie uma conta para agendar sua consulta."
    >
      <div style={{ marginTop: '1.25rem' }}>
        <AuthForm target="paciente" inModal onSuccess={onSuccess} />
      </div>
    </Dialog>
  );
}
