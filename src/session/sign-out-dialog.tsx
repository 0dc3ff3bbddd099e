import { useRef } from 'react';
import { css } from 'styled-system/css';
import { Button } from '@/ui/button.tsx';
import { Dialog } from '@/ui/dialog.tsx';

/** 'Você tem N alterações ainda não enviadas. Sair mesmo assim?', with the number agreed. */
export function unsentChangesQuestion(pending: number): string {
  const changes =
    pending === 1 ? '1 alteração ainda não enviada' : `${pending} alterações ainda não enviadas`;
  return `Você tem ${changes}. Sair mesmo assim?`;
}

const actions = css({
  display: 'flex',
  flexWrap: 'wrap',
  justifyContent: 'flex-end',
  gap: '2',
  mt: '6',
});

type SignOutDialogProps = { pending: number; onAnswer: (confirmed: boolean) => void };

/**
 * Focus starts on 'Cancelar', the safe answer; Escape, the close button and a click outside
 * also cancel.
 */
export function SignOutDialog({ pending, onAnswer }: SignOutDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onAnswer(false);
      }}
      title="Sair da conta?"
      description={unsentChangesQuestion(pending)}
      initialFocusEl={() => cancelRef.current}
    >
      <div className={actions}>
        <Button ref={cancelRef} variant="outline" onClick={() => onAnswer(false)}>
          Cancelar
        </Button>
        <Button variant="destructive" onClick={() => onAnswer(true)}>
          Sair mesmo assim
        </Button>
      </div>
    </Dialog>
  );
}
