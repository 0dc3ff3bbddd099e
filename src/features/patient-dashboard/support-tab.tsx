import { css } from 'styled-system/css';
import { appConfig } from '@/lib/config.ts';
import { Card } from '@/ui/card.tsx';

export const SUPPORT_TEXTS = {
  title: 'Suporte',
  intro: 'Precisa de ajuda com seu agendamento ou com sua conta? Fale com a nossa equipe.',
  email: 'E-mail',
  whatsapp: 'WhatsApp',
  hoursLabel: 'Horário de atendimento:',
  hours: 'Segunda a sexta, 08:00–18:00',
} as const;

const label = css({ fontSize: 'sm', fontWeight: 'semibold', color: 'fg.muted' });
const value = css({ fontWeight: 'bold', color: 'primary.text', wordBreak: 'break-word' });

/** suporte: the same contacts as /suporte, sized for the dashboard panel. */
export function SupportTab() {
  const whatsappDigits = appConfig.supportWhatsapp.replace(/\D/g, '');
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <h2 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{SUPPORT_TEXTS.title}</h2>
      <p className={css({ color: 'fg.muted' })}>{SUPPORT_TEXTS.intro}</p>
      <div
        className={css({
          display: 'grid',
          gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' },
          gap: '4',
        })}
      >
        <Card>
          <p className={label}>{SUPPORT_TEXTS.email}</p>
          <a className={value} href={`mailto:${appConfig.supportEmail}`}>
            {appConfig.supportEmail}
          </a>
        </Card>
        <Card>
          <p className={label}>{SUPPORT_TEXTS.whatsapp}</p>
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
      <p>
        <strong>{SUPPORT_TEXTS.hoursLabel}</strong> {SUPPORT_TEXTS.hours}
      </p>
    </div>
  );
}
