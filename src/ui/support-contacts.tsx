import { css } from 'styled-system/css';
import { appConfig } from '@/lib/config.ts';
import { Card } from '@/ui/card.tsx';

const label = css({ fontSize: 'sm', fontWeight: 'semibold', color: 'fg.muted' });
const value = css({
  fontSize: 'lg',
  fontWeight: 'bold',
  color: 'primary.text',
  wordBreak: 'break-word',
});

/** The support e-mail, WhatsApp and hours (docs/product-rules.md §2 /suporte), shared by the page and the dashboard tab. */
export function SupportContacts({ className }: { className?: string }) {
  const whatsappDigits = appConfig.supportWhatsapp.replace(/\D/g, '');
  return (
    <div className={className}>
      <div
        className={css({
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
    </div>
  );
}
