import { useState } from 'react';
import { css } from 'styled-system/css';
import type { PerfilDoc } from '../../../sync/index.ts';
import { useSyncSession } from '@/session/sync-provider.tsx';
import { showToast } from '@/lib/toast.ts';
import { CheckboxField } from '@/ui/field.tsx';

export const REMINDER_TEXTS = {
  title: 'Lembretes',
  label: 'Receber lembretes da consulta por e-mail (24 horas e 1 hora antes)',
  on: 'Lembretes por e-mail ativados.',
  off: 'Lembretes por e-mail desativados.',
  failed: 'Não foi possível salvar sua preferência. Tente novamente.',
} as const;

/**
 * The reminder opt-out, saved on its own as soon as it changes (offline too: the replica sends
 * it when the connection comes back). A profile pulled before the column existed counts as on,
 * as the server's default is.
 */
export function ReminderPreference({ profile }: { profile: PerfilDoc | null | undefined }) {
  const { engine } = useSyncSession();
  const [saving, setSaving] = useState(false);
  // The box follows the click at once; the replica's answer comes a moment later.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const enabled = chosen ?? profile?.lembretes_email ?? true;

  async function change(next: boolean) {
    if (!engine) return;
    setChosen(next);
    setSaving(true);
    const result = await engine.updateProfile({ lembretes_email: next });
    setSaving(false);
    if (!result.ok) setChosen(null);
    showToast(
      result.ok
        ? { tone: 'success', title: next ? REMINDER_TEXTS.on : REMINDER_TEXTS.off }
        : { tone: 'error', title: REMINDER_TEXTS.failed },
    );
  }

  return (
    <section
      aria-labelledby="lembretes-title"
      className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
    >
      <h2 id="lembretes-title" className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
        {REMINDER_TEXTS.title}
      </h2>
      <CheckboxField
        label={REMINDER_TEXTS.label}
        checked={enabled}
        disabled={saving || !profile}
        onChange={(e) => void change(e.target.checked)}
      />
    </section>
  );
}
