import { formatShortTime } from '../time/display.ts';
import { parseInstant } from '../time/zone.ts';
import { isClosedStatus } from './status.ts';

/**
 * Where 'Entrar na sala' leads: a link the doctor saved on the appointment keeps working as it
 * always did, whichever room the doctor chose; otherwise the built-in room (`/consulta/{id}`,
 * the default). Null when there is no way in (called off, or a doctor who chose their own link
 * ('link_externo' in perfil) and has not saved one yet).
 */
export type RoomEntry = { kind: 'room'; path: string } | { kind: 'link'; url: string };

export function roomEntry(a: {
  id: string;
  status: string | null;
  meeting_link: string | null;
  /** The doctor's choice (medicos.sala_consulta); unknown counts as the built-in room. */
  sala_consulta: string | null | undefined;
}): RoomEntry | null {
  if (!a.status || isClosedStatus(a.status)) return null;
  const url = a.meeting_link?.trim();
  if (url) return { kind: 'link', url };
  if (a.sala_consulta === 'link_externo') return null;
  return { kind: 'room', path: `/consulta/${a.id}` };
}

/**
 * Whether the doctor's card shows and edits a link for the appointment: a doctor who chose their
 * own link ('link_externo'), or any appointment with a saved link (it wins over the built-in
 * room, so the doctor must see and be able to change it). In the built-in room otherwise there is
 * no link to manage.
 */
export function managesMeetingLink(a: {
  meeting_link: string | null;
  sala_consulta: string | null | undefined;
}): boolean {
  return a.sala_consulta === 'link_externo' || Boolean(a.meeting_link?.trim());
}

/** What the room recorded on an appointment (the agendamentos columns), as the doctor reads it. */
export type RoomRecordRow = {
  status: string | null;
  sala_paciente_entrou_em: string | null;
  chamada_iniciada_em: string | null;
  chamada_encerrada_em: string | null;
  chamada_duracao_segundos: number | null;
  chamada_so_audio: boolean | null;
};

export const ROOM_RECORD_TEXTS = {
  waiting: (time: string) => `Paciente na sala de espera desde ${time}`,
  entered: (time: string) => `Paciente entrou na sala às ${time}`,
  inCall: (time: string) => `Chamada em andamento desde ${time}`,
  call: (from: string, to: string, duration: string) =>
    `Chamada das ${from} às ${to} (${duration})`,
  audioOnly: 'A chamada passou para só áudio',
} as const;

/** '45 s', '1 min', '28 min', '1 h 05 min'. */
export function formatCallDuration(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** The patient is in the waiting room now: entered after any call started, and nothing closed it. */
export function isPatientWaiting(a: RoomRecordRow): boolean {
  if (!a.sala_paciente_entrou_em) return false;
  if (a.status === 'atendido' || (a.status && isClosedStatus(a.status))) return false;
  const entered = parseInstant(a.sala_paciente_entrou_em);
  const started = a.chamada_iniciada_em ? parseInstant(a.chamada_iniciada_em) : null;
  return Boolean(entered && (!started || entered.epochMilliseconds > started.epochMilliseconds));
}

/** The lines the doctor's card shows, oldest first; empty when the room was never used. */
export function roomRecordLines(a: RoomRecordRow): string[] {
  const time = (value: string | null) => {
    const instant = value ? parseInstant(value) : null;
    return instant ? formatShortTime(instant) : null;
  };
  const entered = time(a.sala_paciente_entrou_em);
  const started = time(a.chamada_iniciada_em);
  const ended = time(a.chamada_encerrada_em);
  const lines: string[] = [];
  if (entered) {
    lines.push(
      isPatientWaiting(a) ? ROOM_RECORD_TEXTS.waiting(entered) : ROOM_RECORD_TEXTS.entered(entered),
    );
  }
  const endedAfterStart =
    a.chamada_encerrada_em &&
    a.chamada_iniciada_em &&
    a.chamada_encerrada_em >= a.chamada_iniciada_em;
  if (started && ended && endedAfterStart) {
    const seconds =
      a.chamada_duracao_segundos ??
      (parseInstant(a.chamada_encerrada_em!)!.epochMilliseconds -
        parseInstant(a.chamada_iniciada_em!)!.epochMilliseconds) /
        1000;
    lines.push(ROOM_RECORD_TEXTS.call(started, ended, formatCallDuration(seconds)));
  } else if (started) {
    lines.push(ROOM_RECORD_TEXTS.inCall(started));
  }
  if (a.chamada_so_audio) lines.push(ROOM_RECORD_TEXTS.audioOnly);
  return lines;
}
