import { useState } from 'react';
import { css } from 'styled-system/css';
import {
  CANCELLATION_POLICY_TEXT,
  TOO_LATE_TO_CANCEL,
  isCheckoutHold,
  selfCancelCheck,
} from '@/domain/rules/policy.ts';
import { isAppointmentStatus } from '@/domain/appointments/status.ts';
import type { AppointmentView } from '../../../sync/index.ts';
import { useSyncSession } from '@/session/sync-provider.tsx';
import { loadActionRegistry } from '@/session/action-registry.ts';
import { showToast } from '@/lib/toast.ts';
import { Alert } from '@/ui/alert.tsx';
import { Button } from '@/ui/button.tsx';
import { Dialog } from '@/ui/dialog.tsx';
import { useNow } from '@/lib/use-now.ts';

export const CANCEL_TEXTS = {
  titleHold: 'Cancelar agendamento',
  titleConfirmed: 'Cancelar consulta',
  descriptionHold: 'O horário será liberado para outros pacientes.',
  descriptionConfirmed: 'Confira a política de cancelamento antes de continuar.',
  policyTitle: 'Política de cancelamento',
  keep: 'Voltar',
  confirm: 'Confirmar cancelamento',
  queued: 'Cancelamento registrado',
  doneOffline: 'O cancelamento será enviado assim que a conexão voltar.',
  failed: 'Não foi possível cancelar agora. Tente novamente.',
} as const;

type CancelDialogProps = {
  appointment: AppointmentView;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/**
 * The patient's own cancellation: the written policy, then either the confirmation or — inside
 * the notice — the reason it cannot be done here. The server applies the same rule.
 */
export function CancelDialog({ appointment: a, open, onOpenChange }: CancelDialogProps) {
  const { engine } = useSyncSession();
  const now = useNow();
  const [sending, setSending] = useState(false);
  const status = a.status && isAppointmentStatus(a.status) ? a.status : null;
  const state = status
    ? {
        status,
        pagamento_status: a.pagamento_status,
        guia_id: a.guia_id ?? a.guia?.id ?? null,
        horario_inicio: a.horario_inicio,
      }
    : null;
  const hold = state ? isCheckoutHold(state) : false;
  const check = state ? selfCancelCheck(state, now) : null;

  async function confirm() {
    if (!engine) return;
    setSending(true);
    const result = await engine.patientCancel(a.id);
    setSending(false);
    if (!result.ok) {
      const { MUTATIONS } = await loadActionRegistry();
      showToast({
        tone: 'error',
        title: MUTATIONS.patient_cancel.texts?.failure ?? '',
        description: CANCEL_TEXTS.failed,
      });
      return;
    }
    onOpenChange(false);
    // Online, the server's answer follows at once (its toast: appointments-tab.tsx, texts in
    // sync's MUTATIONS); offline, say that it waits for the connection.
    if (!navigator.onLine) {
      showToast({ title: CANCEL_TEXTS.queued, description: CANCEL_TEXTS.doneOffline });
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={hold ? CANCEL_TEXTS.titleHold : CANCEL_TEXTS.titleConfirmed}
      description={hold ? CANCEL_TEXTS.descriptionHold : CANCEL_TEXTS.descriptionConfirmed}
    >
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '4', mt: '4' })}>
        <section aria-label={CANCEL_TEXTS.policyTitle}>
          <h3 className={css({ fontWeight: 'semibold', mb: '1' })}>{CANCEL_TEXTS.policyTitle}</h3>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{CANCELLATION_POLICY_TEXT}</p>
        </section>
        {check?.allowed === false && check.reason === 'cancel_too_late' && (
          <Alert tone="amber" role="status">
            {TOO_LATE_TO_CANCEL}
          </Alert>
        )}
        <div
          className={css({
            display: 'grid',
            gridTemplateColumns: { base: '1fr', sm: 'repeat(2, minmax(0, 1fr))' },
            gap: '3',
          })}
        >
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            {CANCEL_TEXTS.keep}
          </Button>
          {check?.allowed && (
            <Button variant="destructive" loading={sending} onClick={() => void confirm()}>
              {CANCEL_TEXTS.confirm}
            </Button>
          )}
        </div>
      </div>
    </Dialog>
  );
}
