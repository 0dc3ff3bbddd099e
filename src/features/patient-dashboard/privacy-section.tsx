import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Temporal } from 'temporal-polyfill';
import { css } from 'styled-system/css';
import { SCHEDULE_ZONE } from '@/domain/rules/booking.ts';
import { useAuth } from '@/session/auth-context.ts';
import { useSupabase } from '@/session/supabase-context.ts';
import {
  mapServerError,
  retriesExhaustedError,
  shownMessage,
} from '@/domain/errors/map-server-error.ts';
import { ReadRetriesExhausted, retryRead } from '@/lib/retry-read.ts';
import { showToast } from '@/lib/toast.ts';
import { Alert } from '@/ui/alert.tsx';
import { Button } from '@/ui/button.tsx';
import { Dialog } from '@/ui/dialog.tsx';
import { TextField } from '@/ui/field.tsx';

export const PRIVACY_TEXTS = {
  title: 'Seus dados (LGPD)',
  exportIntro:
    'Baixe uma cópia de tudo o que guardamos sobre você: cadastro, consentimentos, consultas e guias.',
  exportButton: 'Baixar meus dados',
  exportFailed: 'Não foi possível baixar seus dados. Verifique sua conexão e tente novamente.',
  deleteIntro:
    'Exclua sua conta e seus dados pessoais. Consultas passadas ficam guardadas sem seus dados pessoais, como a lei exige.',
  deleteButton: 'Excluir minha conta',
  dialogTitle: 'Excluir minha conta',
  dialogDescription: 'Esta ação não pode ser desfeita.',
  consequences: [
    'Seu acesso e seus dados pessoais (nome, CPF, data de nascimento, e-mail e WhatsApp) serão apagados.',
    'Suas consultas futuras serão canceladas e os horários liberados. Se você já pagou, o reembolso é combinado com o médico.',
    'Consultas passadas ficam registradas de forma anonimizada, como a lei exige.',
  ],
  confirmWord: 'EXCLUIR',
  confirmLabel: 'Digite EXCLUIR para confirmar',
  keep: 'Voltar',
  confirm: 'Excluir definitivamente',
  deleted: 'Sua conta foi excluída.',
  deleteFailed:
    'Não foi possível excluir sua conta agora. Verifique sua conexão e tente novamente.',
} as const;

const T = PRIVACY_TEXTS;

/** Saves `data` as a JSON file on the device. */
function downloadJson(data: unknown, fileName: string) {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** A failed answer of the export; `status` 0 is one that never arrived, or ran out of time. */
class ExportFailed extends Error {
  constructor(
    readonly status: number,
    readonly failure: unknown,
  ) {
    super(`exportar_meus_dados failed with status ${status}`, { cause: failure });
  }
}

/** Not reached, timed out or a server fault: worth asking again (§9 "requests"). */
function isRetryable(error: unknown): boolean {
  return error instanceof ExportFailed && (error.status === 0 || error.status >= 500);
}

function ExportData() {
  const client = useSupabase();
  const [busy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    const read = async () => {
      const answer = await client.rpc('exportar_meus_dados');
      const data: unknown = answer.data;
      if (answer.error || !data) throw new ExportFailed(answer.status, answer.error);
      return data;
    };
    const data = await retryRead(read, { retryable: isRetryable }).catch((error: unknown) => {
      console.warn('data export failed', error);
      const failure =
        error instanceof ReadRetriesExhausted
          ? retriesExhaustedError(mapServerError(error.last))
          : mapServerError(error);
      showToast({
        tone: 'error',
        title: shownMessage(failure, T.exportFailed, ['retries-exhausted']),
      });
      return null;
    });
    setBusy(false);
    if (data === null) return;
    const today = Temporal.Now.plainDateISO(SCHEDULE_ZONE).toString();
    downloadJson(data, `meus-dados-${today}.json`);
  }
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{T.exportIntro}</p>
      <div>
        <Button variant="outline" loading={busy} onClick={() => void download()}>
          {T.exportButton}
        </Button>
      </div>
    </div>
  );
}

function DeleteAccount() {
  const client = useSupabase();
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);

  async function remove() {
    setBusy(true);
    const { error } = await client.rpc('excluir_minha_conta');
    if (error) {
      setBusy(false);
      showToast({ tone: 'error', title: shownMessage(mapServerError(error), T.deleteFailed) });
      return;
    }
    setOpen(false);
    // Home first, as 'Sair' does: a guarded page would otherwise send to a login screen.
    await navigate('/');
    await signOut();
    showToast({ tone: 'success', title: T.deleted });
  }

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{T.deleteIntro}</p>
      <div>
        <Button variant="destructive" onClick={() => setOpen(true)}>
          {T.deleteButton}
        </Button>
      </div>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) setTyped('');
        }}
        title={T.dialogTitle}
        description={T.dialogDescription}
      >
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '4', mt: '4' })}>
          <Alert tone="destructive">
            <ul className={css({ listStyle: 'disc', pl: '5', display: 'grid', gap: '1' })}>
              {T.consequences.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
          </Alert>
          <TextField
            label={T.confirmLabel}
            autoComplete="off"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
          <div
            className={css({
              display: 'flex',
              gap: '2',
              justifyContent: 'flex-end',
              flexWrap: 'wrap',
            })}
          >
            <Button variant="outline" onClick={() => setOpen(false)}>
              {T.keep}
            </Button>
            <Button
              variant="destructive"
              loading={busy}
              disabled={typed.trim().toUpperCase() !== T.confirmWord}
              onClick={() => void remove()}
            >
              {T.confirm}
            </Button>
          </div>
        </div>
      </Dialog>
    </div>
  );
}

/** Meus Dados' LGPD part: the data export and the account deletion (both need the network). */
export function PrivacySection() {
  return (
    <section
      aria-labelledby="lgpd-title"
      className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
    >
      <h2 id="lgpd-title" className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
        {T.title}
      </h2>
      <ExportData />
      <DeleteAccount />
    </section>
  );
}
