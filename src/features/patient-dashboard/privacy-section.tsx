import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Temporal } from 'temporal-polyfill';
import { css } from 'styled-system/css';
import { SCHEDULE_ZONE } from '@/domain/rules/booking.ts';
import { useAuth } from '@/session/auth-context.ts';
import { useSupabase } from '@/session/supabase-context.ts';
import { shownMessage } from '@/domain/errors/map-server-error.ts';
import { downloadFile } from '@/lib/download.ts';
import { showToast } from '@/lib/toast.ts';
import { Alert } from '@/ui/alert.tsx';
import { Button } from '@/ui/button.tsx';
import { Dialog } from '@/ui/dialog.tsx';
import { TextField } from '@/ui/field.tsx';
import { deleteMyAccount, exportMyData } from './api.ts';

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

function ExportData() {
  const client = useSupabase();
  const [busy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    const exported = await exportMyData(client);
    setBusy(false);
    if (!exported.ok) {
      console.warn('data export failed', exported.error.cause);
      showToast({
        tone: 'error',
        title: shownMessage(exported.error, T.exportFailed, ['retries-exhausted']),
      });
      return;
    }
    const today = Temporal.Now.plainDateISO(SCHEDULE_ZONE).toString();
    const json = JSON.stringify(exported.value, null, 2);
    downloadFile(json, `meus-dados-${today}.json`, 'application/json');
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
    const removed = await deleteMyAccount(client);
    if (!removed.ok) {
      setBusy(false);
      showToast({ tone: 'error', title: shownMessage(removed.error, T.deleteFailed) });
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
