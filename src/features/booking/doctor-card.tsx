import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { css } from 'styled-system/css';
import { doctorDisplayName, type ListedDoctor } from '@/domain/doctors/fixed-doctors.ts';
import { formatCents } from '@/domain/money/money.ts';
import { Badge } from '@/ui/badge.tsx';
import { Card } from '@/ui/card.tsx';
import { Tooltip } from '@/ui/tooltip.tsx';

export const CARD_TEXTS = {
  rating: '5.0',
  reviews: 'Ver avaliações',
  excellence: 'Certificado de Excelência',
  telemedicine: 'Atendimento por telemedicina',
  loyal: 'Pacientes fiéis',
  loyalTooltip: 'Pacientes retornam para outras consultas.',
  teleconsulta: 'Teleconsulta',
} as const;

export function crmLabel(doctor: Pick<ListedDoctor, 'crm' | 'uf'>): string {
  return `CRM ${doctor.crm}/${doctor.uf}`;
}

function DoctorIcon() {
  return (
    <svg width="40" height="40" viewBox="0 0 24 24" aria-hidden="true" fill="none">
      <circle cx="12" cy="8" r="4" stroke="currentColor" strokeWidth="1.8" />
      <path
        d="M4 21c0-4.2 3.6-7 8-7s8 2.8 8 7"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
    </svg>
  );
}

function Check() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" fill="none">
      <path
        d="M5 12.5l4.5 4.5L19 7.5"
        stroke="currentColor"
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

const photo = css({
  w: { base: '20', md: '24' },
  h: { base: '20', md: '24' },
  flexShrink: 0,
  borderRadius: 'full',
  objectFit: 'cover',
  bg: 'primary.subtle',
  color: 'primary.text',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  borderWidth: '2px',
  borderColor: 'primary.muted',
});

const highlight = css({
  display: 'flex',
  alignItems: 'center',
  gap: '2',
  fontSize: 'sm',
  color: 'fg',
  '& svg': { color: 'success.fg', flexShrink: 0 },
});

type DoctorCardProps = {
  doctor: ListedDoctor;
  /** The availability grid (or anything the page puts under the profile). */
  children?: ReactNode;
  /** Heading level of the name: cards in a list use h2, a profile page h1. */
  as?: 'h1' | 'h2';
};

/** docs/product-rules.md §2 "Doctor card": who the doctor is, the price, and room for the availability grid. */
export function DoctorCard({ doctor, children, as: Heading = 'h2' }: DoctorCardProps) {
  const name = doctorDisplayName(doctor);
  return (
    <Card
      className={css({
        display: 'grid',
        gap: '5',
        // Tighter on phones, so the grid's four day columns keep room for their times.
        px: { base: '3.5', sm: '5', md: '6' },
        md: { gridTemplateColumns: '5fr 6fr' },
      })}
      data-testid="doctor-card"
    >
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '3', minW: 0 })}>
        <div className={css({ display: 'flex', gap: '4', alignItems: 'flex-start' })}>
          {doctor.image_url ? (
            <img src={doctor.image_url} alt={`Foto de ${name}`} className={photo} />
          ) : (
            <div className={photo} role="img" aria-label={`Foto de ${name} indisponível`}>
              <DoctorIcon />
            </div>
          )}
          <div className={css({ minW: 0 })}>
            <Heading className={css({ fontSize: 'xl', fontWeight: 'bold', lineHeight: 'tight' })}>
              {doctor.is_fallback ? (
                name
              ) : (
                <Link
                  to={`/medico/${doctor.id}`}
                  className={css({
                    color: 'primary.text',
                    _hover: { textDecoration: 'underline' },
                  })}
                >
                  {name}
                </Link>
              )}
            </Heading>
            <p className={css({ display: 'flex', alignItems: 'center', gap: '2', mt: '1' })}>
              <span
                role="img"
                aria-label="Avaliação 5.0 de 5"
                className={css({ color: 'amber.500' })}
              >
                ★★★★★
              </span>
              <span className={css({ fontWeight: 'semibold', fontSize: 'sm' })}>
                {CARD_TEXTS.rating}
              </span>
              {doctor.doctoralia_reviews_url && (
                <a
                  href={doctor.doctoralia_reviews_url}
                  target="_blank"
                  rel="noreferrer noopener"
                  className={css({
                    fontSize: 'sm',
                    color: 'primary.text',
                    textDecoration: 'underline',
                  })}
                >
                  {CARD_TEXTS.reviews}
                </a>
              )}
            </p>
            <p className={css({ fontWeight: 'medium', color: 'fg', mt: '1' })}>
              {doctor.specialty}
            </p>
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{crmLabel(doctor)}</p>
          </div>
        </div>
        {doctor.bio && <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{doctor.bio}</p>}
        <ul className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
          <li className={highlight}>
            <Check />
            {CARD_TEXTS.excellence}
          </li>
          <li className={highlight}>
            <Check />
            {CARD_TEXTS.telemedicine}
          </li>
          <li className={highlight}>
            <Check />
            <Tooltip content={CARD_TEXTS.loyalTooltip}>
              <span
                tabIndex={0}
                className={css({ textDecoration: 'underline dotted', cursor: 'help' })}
              >
                {CARD_TEXTS.loyal}
              </span>
            </Tooltip>
          </li>
        </ul>
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
          <Badge tone="success" className={css({ fontSize: 'sm' })}>
            {formatCents(doctor.price_in_cents)}
          </Badge>
          <Badge tone="primary" className={css({ fontSize: 'sm' })}>
            {CARD_TEXTS.teleconsulta}
          </Badge>
        </div>
      </div>
      <div className={css({ minW: 0 })}>{children}</div>
    </Card>
  );
}
