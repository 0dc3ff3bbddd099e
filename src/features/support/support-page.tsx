import { css } from 'styled-system/css';
import { Container } from '@/ui/container.tsx';
import { SupportContacts } from '@/ui/support-contacts.tsx';

export function SupportPage() {
  return (
    <Container className={css({ py: { base: '10', md: '16' }, maxW: '3xl' })}>
      <h1 className={css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold' })}>Suporte</h1>
      <p className={css({ mt: '2', color: 'fg.muted' })}>
        Precisa de ajuda com seu agendamento ou com sua conta? Fale com a nossa equipe.
      </p>
      <SupportContacts className={css({ mt: '8' })} />
    </Container>
  );
}
