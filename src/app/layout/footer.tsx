import { Link } from 'react-router-dom';
import { css } from 'styled-system/css';
import { appConfig } from '@/lib/config.ts';
import { Container } from '@/ui/container.tsx';
import { LogoMark } from '@/ui/logo.tsx';
import { saoPauloYear } from './copyright-year.ts';

/** The legal column: each link opens its page (src/features/legal). */
export const LEGAL_LINKS = [
  { label: 'Termos de Serviço', to: '/termos' },
  { label: 'Política de Privacidade (LGPD)', to: '/privacidade' },
  { label: 'Política de Reembolso', to: '/reembolso' },
  { label: 'Consentimento para Telemedicina', to: '/consentimento' },
] as const;

const heading = css({
  fontSize: 'sm',
  fontWeight: 'bold',
  textTransform: 'uppercase',
  letterSpacing: 'wide',
  color: 'white',
  mb: '3',
});

const linkLike = css({
  color: 'slate.200',
  textAlign: 'left',
  cursor: 'pointer',
  textDecoration: 'none',
  _hover: { color: 'white', textDecoration: 'underline' },
});

/** 'Ltda.' already ends the sentence; other names get their period. */
function withFinalPeriod(name: string): string {
  return name.endsWith('.') ? name : `${name}.`;
}

function whatsappHref(phone: string): string {
  return `https://wa.me/55${phone.replace(/\D/g, '')}`;
}

export function Footer() {
  const year = saoPauloYear(Date.now());
  return (
    <footer className={css({ bg: 'slate.900', color: 'slate.300', mt: 'auto', fontSize: 'sm' })}>
      <Container
        className={css({
          display: 'grid',
          gridTemplateColumns: { base: '1fr', md: '1.4fr 1fr 1fr' },
          gap: '8',
          py: '10',
        })}
      >
        <section aria-label="Empresa">
          <p
            className={css({
              display: 'flex',
              alignItems: 'center',
              gap: '2',
              color: 'white',
              fontWeight: 'bold',
              fontSize: 'lg',
              mb: '2',
            })}
          >
            <LogoMark size={28} />
            {appConfig.productName}
          </p>
          <p>{appConfig.companyName}</p>
          <p>CNPJ: {appConfig.cnpj}</p>
          <p className={css({ mt: '3' })}>
            Atendimento por plataforma de videochamada regulamentada.
          </p>
        </section>
        <nav aria-labelledby="footer-legal">
          <h2 id="footer-legal" className={heading}>
            Legal
          </h2>
          <ul className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
            {LEGAL_LINKS.map(({ label, to }) => (
              <li key={to}>
                <Link className={linkLike} to={to}>
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <section aria-labelledby="footer-support">
          <h2 id="footer-support" className={heading}>
            Suporte
          </h2>
          <ul className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
            <li>
              E-mail:{' '}
              <a className={linkLike} href={`mailto:${appConfig.supportEmail}`}>
                {appConfig.supportEmail}
              </a>
            </li>
            <li>
              WhatsApp:{' '}
              <a
                className={linkLike}
                href={whatsappHref(appConfig.supportWhatsapp)}
                target="_blank"
                rel="noreferrer"
              >
                {appConfig.supportWhatsapp}
              </a>
            </li>
          </ul>
        </section>
      </Container>
      <div className={css({ borderTopWidth: '1px', borderColor: 'slate.700' })}>
        <Container className={css({ py: '4', textAlign: 'center', color: 'slate.400' })}>
          © {year} {withFinalPeriod(appConfig.companyName)} Todos os direitos reservados.
        </Container>
      </div>
    </footer>
  );
}
