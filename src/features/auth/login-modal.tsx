import type { ComponentProps } from 'react';
import { Dialog } from '@/ui/dialog.tsx';
import type { LoginDialogComponent } from '@/session/feature-slots.ts';
import { AuthForm } from './auth-form.tsx';

type LoginModalProps = ComponentProps<LoginDialogComponent>;

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
