import { css } from 'styled-system/css';
import { appConfig } from '@/lib/config.ts';
import { Card } from '@/ui/card.tsx';
import { Container } from '@/ui/container.tsx';

const label = css({ fontSize: 'sm', fontWeight: 'semibold', color: 'fg.muted' });
const value = css({
  fontSize: 'lg',
  fontWeight: 'bold',
  color: 'primary.text',
  wordBreak: 'break-word',
});

export function SupportPage() {
  const whatsappDigits = appConfig.supportWhatsapp.replace(/\D/g, '');
  return (
    <Container className={css({ py: { base: '10', md: '16' }, maxW: '3xl' })}>
      <h1 className={css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold' })}>Suporte</h1>
      <p className={css({ mt: '2', color: 'fg.muted' })}>
        Precisa de ajuda com seu agendamento ou com sua conta? Fale com a nossa equipe.
      </p>
      <div
        className={css({
          mt: '8',
          display: 'grid',
          gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' },
          gap: '4',
        })}
      >
        <Card>
          <p className={label}>E-mail</p>
          <a className={value} href={`mailto:${appConfig.supportEmail}`}>
            {appConfig.supportEmail}
          </a>
        </Card>
        <Card>
          <p className={label}>WhatsApp</p>
          <a
            className={value}
            href={`https://wa.me/55${whatsappDigits}`}
            target="_blank"
            rel="noreferrer"
          >
            {appConfig.supportWhatsapp}
          </a>
        </Card>
      </div>
      <p className={css({ mt: '6' })}>
        <strong>Horário de atendimento:</strong> Segunda a sexta, 08:00–18:00
      </p>
    </Container>
  );
}
