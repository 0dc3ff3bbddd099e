import { css } from 'styled-system/css';
import { SupportContacts } from '@/ui/support-contacts.tsx';

/** suporte: the same contacts as /suporte, inside the dashboard panel. */
export function SupportTab() {
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <h1 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>Suporte</h1>
      <p className={css({ color: 'fg.muted' })}>
        Precisa de ajuda com seu agendamento ou com sua conta? Fale com a nossa equipe.
      </p>
      <SupportContacts />
    </div>
  );
}
