import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { css } from 'styled-system/css';
import type {
  Badge as DomainBadge,
  BadgeTone as DomainTone,
} from '@/domain/appointments/badges.ts';
import { formatLongDate, formatShortTime } from '@/domain/time/display.ts';
import { parseInstant } from '@/domain/time/zone.ts';
import { Badge, type BadgeTone } from './badge.tsx';
import { Button } from './button.tsx';

/**
 * The pieces of an appointment card both dashboards show the same way: when, status badge,
 * the sync markers (queued, refused by the server) and the protocol with its guide link.
 */
export const APPOINTMENT_PART_TEXTS = {
  brasilia: '(horário de Brasília)',
  pending: 'Aguardando sincronização',
  rejected: 'Não concluído',
  dismiss: 'Dispensar',
  protocol: 'Protocolo',
  generating: 'Gerando...',
  viewGuide: 'Ver guia',
} as const;

const TONES: Record<DomainTone, BadgeTone> = {
  success: 'success',
  warning: 'amber',
  info: 'primary',
  destructive: 'destructive',
};

/** 'Segunda-feira, 23 de novembro de 2026, às 10:00 (horário de Brasília)'. */
export function AppointmentWhen({ instant }: { instant: string }) {
  const at = parseInstant(instant);
  if (!at) return null;
  const date = formatLongDate(at);
  return (
    <p className={css({ fontSize: 'sm' })}>
      {date.charAt(0).toUpperCase() + date.slice(1)}, às {formatShortTime(at)}{' '}
      <span className={css({ color: 'fg.muted' })}>{APPOINTMENT_PART_TEXTS.brasilia}</span>
    </p>
  );
}

/** A docs/product-rules.md §4 badge (doctor's or patient's wording, decided by the caller's domain rule). */
export function StatusBadge({ badge }: { badge: DomainBadge }) {
  return (
    <Badge tone={TONES[badge.tone]} data-testid="status-badge">
      {badge.label}
    </Badge>
  );
}

/** Shown while something done on this device has not reached the server yet. */
export function PendingMarker() {
  return (
    <Badge tone="neutral" data-testid="pending-marker">
      {APPOINTMENT_PART_TEXTS.pending}
    </Badge>
  );
}

export function RejectedBadge() {
  return <Badge tone="destructive">{APPOINTMENT_PART_TEXTS.rejected}</Badge>;
}

/** The server's reason for refusing what this device sent, optionally dismissable. */
export function RejectedNote({
  message,
  onDismiss,
}: {
  message: string;
  onDismiss?: (() => void) | undefined;
}) {
  return (
    <div
      role="alert"
      data-testid="rejected-note"
      className={css({ display: 'flex', alignItems: 'center', gap: '3', flexWrap: 'wrap' })}
    >
      <p className={css({ color: 'destructive.fg', fontSize: 'sm', flex: '1' })}>{message}</p>
      {onDismiss && (
        <Button size="sm" variant="outline" onClick={onDismiss}>
          {APPOINTMENT_PART_TEXTS.dismiss}
        </Button>
      )}
    </div>
  );
}

/** 'Protocolo: SJ-…' (or 'Gerando...' until the guide exists) and the link to the guide. */
export function ProtocolLine({
  protocol,
  guideId,
  children,
}: {
  protocol: string | null;
  guideId: string | null;
  /** Actions placed on the same line (e.g. 'Entrar na sala'). */
  children?: ReactNode;
}) {
  return (
    <div className={css({ display: 'flex', alignItems: 'center', gap: '3', flexWrap: 'wrap' })}>
      <p className={css({ fontSize: 'sm' })}>
        {APPOINTMENT_PART_TEXTS.protocol}:{' '}
        <strong>{protocol ?? APPOINTMENT_PART_TEXTS.generating}</strong>
      </p>
      {guideId && (
        <Link
          to={`/guia/${guideId}`}
          className={css({ fontSize: 'sm', color: 'primary.text', textDecoration: 'underline' })}
        >
          {APPOINTMENT_PART_TEXTS.viewGuide}
        </Link>
      )}
      {children}
    </div>
  );
}
