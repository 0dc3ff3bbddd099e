import { css } from 'styled-system/css';
import { useInstallHint } from '@/session/storage-persistence.ts';

export const INSTALL_HINT =
  'Dica: instale o app neste aparelho para manter seus dados offline mais seguros.';

const note = css({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  justifyContent: 'center',
  gap: '3',
  px: '4',
  py: '1.5',
  fontSize: 'xs',
  bg: 'bg.surface',
  color: 'fg.muted',
  borderBottomWidth: '1px',
  borderColor: 'border',
});

const dismissButton = css({
  fontWeight: 'semibold',
  color: 'primary.text',
  textDecoration: 'underline',
  cursor: 'pointer',
});

/**
 * Shown once per device when the browser refuses persistent storage: a note under the header,
 * not a toast, so it never pushes aside a message the person is reading.
 */
export function InstallHint() {
  const { show, dismiss } = useInstallHint();
  if (!show) return null;
  return (
    <div className={note} data-testid="install-hint">
      <span>{INSTALL_HINT}</span>
      <button type="button" className={dismissButton} onClick={dismiss}>
        Entendi
      </button>
    </div>
  );
}
