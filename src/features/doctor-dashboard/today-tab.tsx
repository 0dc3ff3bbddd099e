import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { css, cx } from 'styled-system/css';
import { roomEntry } from '@/domain/appointments/room.ts';
import { isPaid } from '@/domain/appointments/status.ts';
import { todayAgenda, todayRange } from '@/domain/appointments/today.ts';
import { whatsappReminderLink } from '@/domain/appointments/whatsapp-reminder.ts';
import { formatLongDate, formatShortTime } from '@/domain/time/display.ts';
import { parseInstant } from '@/domain/time/zone.ts';
import type { AppointmentView, MedicoDoc } from '../../../sync/index.ts';
import { useNow } from '@/lib/use-now.ts';
import { PendingMarker } from '@/ui/appointment-parts.tsx';
import { Badge } from '@/ui/badge.tsx';
import { buttonClass } from '@/ui/button.tsx';
import { Skeleton } from '@/ui/skeleton.tsx';
import { useObservable, useSyncEngine } from '@/session/sync-provider.tsx';
import { RoomRecord } from './room-record.tsx';

export const TODAY_TEXTS = {
  title: 'Hoje',
  empty: 'Nenhuma consulta marcada para hoje.',
  next: 'Próxima consulta',
  attended: 'Atendido',
  paid: 'Pago',
  unpaid: 'Pagamento pendente',
  protocol: 'Protocolo',
  generating: 'Gerando...',
  join: 'Entrar na sala',
  noLink: 'Sem link da sala',
  viewGuide: 'Ver guia',
  whatsappReminder: 'Lembrar pelo WhatsApp',
  summary: (count: number) => (count === 1 ? '1 consulta' : `${count} consultas`),
} as const;

const T = TODAY_TEXTS;

function timeOf(a: AppointmentView): string {
  const at = parseInstant(a.horario_inicio);
  return at ? formatShortTime(at) : '--:--';
}

type TodayRowProps = {
  appointment: AppointmentView;
  isNext: boolean;
  doctorName: string;
  /** The doctor's room choice in perfil (medicos.sala_consulta). */
  roomChoice: string | null;
};

function TodayRow({ appointment: a, isNext, doctorName, roomChoice }: TodayRowProps) {
  const entry = roomEntry({ ...a, sala_consulta: roomChoice });
  const link =
    entry?.kind === 'link'
      ? entry.url
      : entry
        ? new URL(entry.path, window.location.origin).toString()
        : '';
  const protocol = a.guia?.protocolo ?? a.protocolo;
  const patientName = a.paciente?.full_name || 'Paciente';
  const reminder =
    a.status === 'atendido'
      ? null
      : whatsappReminderLink({
          phone: a.paciente?.whatsapp,
          patientName: a.paciente?.full_name,
          doctorName,
          time: timeOf(a),
          meetingLink: link,
        });
  return (
    <li
      data-testid="today-appointment"
      data-appointment-id={a.id}
      data-next={isNext || undefined}
      aria-current={isNext ? 'true' : undefined}
      className={cx(
        css({
          display: 'grid',
          gridTemplateColumns: { base: '4.5rem minmax(0, 1fr)', md: '5rem minmax(0, 1fr) auto' },
          gap: '3',
          alignItems: 'center',
          p: '4',
          borderWidth: '1px',
          borderColor: 'border',
          borderRadius: 'lg',
          bg: 'bg.surface',
        }),
        isNext &&
          css({
            borderColor: 'primary',
            borderWidth: '2px',
            bg: 'primary.subtle',
            boxShadow: 'sm',
          }),
      )}
    >
      <p
        className={css({ fontSize: 'xl', fontWeight: 'bold', fontVariantNumeric: 'tabular-nums' })}
      >
        {timeOf(a)}
      </p>
      <div className={css({ minW: '0', display: 'flex', flexDirection: 'column', gap: '1' })}>
        {isNext && (
          <p
            className={css({
              fontSize: 'xs',
              fontWeight: 'bold',
              color: 'primary.text',
              textTransform: 'uppercase',
            })}
          >
            {T.next}
          </p>
        )}
        <p className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}>{patientName}</p>
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' })}>
          {a.status === 'atendido' ? (
            <Badge tone="primary">{T.attended}</Badge>
          ) : isPaid(a) ? (
            <Badge tone="success">{T.paid}</Badge>
          ) : (
            <Badge tone="amber">{T.unpaid}</Badge>
          )}
          {a.sync.state === 'pending' && <PendingMarker />}
        </div>
        <RoomRecord appointment={a} />
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          {T.protocol}:{' '}
          {a.guia ? (
            <Link
              to={`/guia/${a.guia.id}`}
              aria-label={`${T.viewGuide} ${protocol ?? ''}`.trim()}
              className={css({ color: 'primary.text', textDecoration: 'underline' })}
            >
              {protocol ?? T.viewGuide}
            </Link>
          ) : (
            <span>{protocol ?? T.generating}</span>
          )}
        </p>
      </div>
      <div
        className={css({
          gridColumn: { base: '1 / -1', md: 'auto' },
          display: 'flex',
          flexDirection: { base: 'column', md: 'row' },
          gap: '2',
          alignItems: { base: 'stretch', md: 'center' },
        })}
      >
        {reminder && (
          <a
            href={reminder}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={`${T.whatsappReminder}: ${patientName}`}
            className={buttonClass({ size: 'sm', variant: 'outline' })}
          >
            {T.whatsappReminder}
          </a>
        )}
        {a.status === 'atendido' ? null : entry?.kind === 'room' ? (
          <Link
            to={entry.path}
            className={buttonClass({ size: 'sm' }, css({ w: { base: 'full', md: 'auto' } }))}
          >
            {T.join}
          </Link>
        ) : entry ? (
          <a
            href={entry.url}
            target="_blank"
            rel="noopener noreferrer"
            className={buttonClass({ size: 'sm' }, css({ w: { base: 'full', md: 'auto' } }))}
          >
            {T.join}
          </a>
        ) : (
          // An attended consultation needs no room; a coming one without a link says so.
          <span className={css({ fontSize: 'sm', color: 'fg.muted' })}>{T.noLink}</span>
        )}
      </div>
    </li>
  );
}

/**
 * hoje: the doctor's São Paulo day in time order, the next appointment highlighted. It reads
 * only the replica, so it opens with no network at the clinic, and only the day's rows of it.
 */
export function TodayTab({ doctor }: { doctor: MedicoDoc }) {
  const engine = useSyncEngine();
  const now = useNow();
  // The day's rows only (an index query), so the list never waits for the whole replica.
  const { from, to } = todayRange(now);
  const appointments$ = useMemo(
    () => engine?.appointmentsBetween$(from, to) ?? null,
    [engine, from, to],
  );
  const appointments = useObservable(appointments$, undefined);
  const agenda = useMemo(
    () => (appointments ? todayAgenda(appointments, now) : null),
    [appointments, now],
  );
  const date = formatLongDate(now);
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <div>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>{T.title}</h1>
        <p className={css({ color: 'fg.muted' })}>
          {date.charAt(0).toUpperCase() + date.slice(1)}
          {agenda && agenda.items.length > 0 && ` · ${T.summary(agenda.items.length)}`}
        </p>
      </div>
      {!agenda ? (
        <div
          aria-busy="true"
          aria-label="Carregando consultas"
          className={css({ display: 'grid', gap: '3' })}
        >
          <Skeleton className={css({ h: '24' })} />
          <Skeleton className={css({ h: '24' })} />
        </div>
      ) : agenda.items.length === 0 ? (
        <p className={css({ color: 'fg.muted', py: '6' })}>{T.empty}</p>
      ) : (
        <ol
          aria-label={T.title}
          className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
        >
          {agenda.items.map((a, i) => (
            <TodayRow
              key={a.id}
              appointment={a}
              isNext={i === agenda.nextIndex}
              doctorName={doctor.public_name || doctor.name || ''}
              roomChoice={doctor.sala_consulta}
            />
          ))}
        </ol>
      )}
    </div>
  );
}
