import type { Temporal } from 'temporal-polyfill';
import { SLOT_DURATION_MINUTES } from '@/domain/rules/booking.ts';
import { parseInstant, SAO_PAULO, toSaoPaulo } from '@/domain/time/zone.ts';

/** Minutes before the start at which the calendar reminds the patient. */
export const REMINDER_MINUTES_BEFORE = 60;

export const CALENDAR_TEXTS = {
  addToCalendar: 'Adicionar à agenda (.ics)',
  googleCalendar: 'Google Agenda',
  summary: (name: string) => `Teleconsulta com ${name}`,
  room: (link: string) => `Sala da consulta: ${link}`,
  noRoom: 'Sala da consulta: o link será enviado pelo médico.',
  guide: (url: string) => `Guia: ${url}`,
  protocol: (protocol: string) => `Protocolo: ${protocol}`,
  reminder: 'Sua teleconsulta começa em 1 hora.',
  cancelled: 'Consulta cancelada.',
} as const;

export type CalendarEventInput = {
  appointmentId: string;
  horarioInicio: string;
  horarioFim: string | null;
  /** Who the consultation is with, as the reader knows them: the doctor, or for a doctor the patient. */
  withName: string;
  specialty: string | null;
  meetingLink: string | null;
  /** The guide page's absolute address. */
  guideUrl: string | null;
  protocol: string | null;
  /** Cancelled or expired: the file withdraws the event. */
  cancelled: boolean;
};

export type CalendarEvent = {
  /** The same for every file of one appointment, so a calendar updates instead of duplicating. */
  uid: string;
  start: Temporal.ZonedDateTime;
  end: Temporal.ZonedDateTime;
  summary: string;
  description: string;
  /** The room, where calendars show a location; null until the doctor saves it. */
  location: string | null;
  url: string | null;
  cancelled: boolean;
  alarmMinutesBefore: number;
  reminder: string;
};

export const CALENDAR_UID_DOMAIN = 'saudeja.app';

export function calendarUid(appointmentId: string): string {
  return `agendamento-${appointmentId}@${CALENDAR_UID_DOMAIN}`;
}

/** The calendar entry of one appointment; null when its start cannot be read. */
export function appointmentCalendarEvent(input: CalendarEventInput): CalendarEvent | null {
  const start = parseInstant(input.horarioInicio);
  if (!start) return null;
  const end =
    (input.horarioFim ? parseInstant(input.horarioFim) : null) ??
    start.add({ minutes: SLOT_DURATION_MINUTES });
  const link = input.meetingLink?.trim() || null;
  const lines = [
    input.specialty,
    link ? CALENDAR_TEXTS.room(link) : CALENDAR_TEXTS.noRoom,
    input.guideUrl ? CALENDAR_TEXTS.guide(input.guideUrl) : null,
    input.protocol ? CALENDAR_TEXTS.protocol(input.protocol) : null,
    input.cancelled ? CALENDAR_TEXTS.cancelled : null,
  ];
  return {
    uid: calendarUid(input.appointmentId),
    start: toSaoPaulo(start),
    end: toSaoPaulo(end),
    summary: CALENDAR_TEXTS.summary(input.withName),
    description: lines.filter((l): l is string => Boolean(l)).join('\n'),
    location: link,
    url: input.guideUrl,
    cancelled: input.cancelled,
    alarmMinutesBefore: REMINDER_MINUTES_BEFORE,
    reminder: CALENDAR_TEXTS.reminder,
  };
}

function basicLocal(value: Temporal.ZonedDateTime): string {
  const pad = (n: number, size = 2) => String(n).padStart(size, '0');
  return `${pad(value.year, 4)}${pad(value.month)}${pad(value.day)}T${pad(value.hour)}${pad(value.minute)}${pad(value.second)}`;
}

/** A Google Calendar "create event" link with the same event, in São Paulo time. */
export function googleCalendarUrl(event: CalendarEvent): string {
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: event.summary,
    dates: `${basicLocal(event.start)}/${basicLocal(event.end)}`,
    ctz: SAO_PAULO,
    details: event.description,
  });
  if (event.location) params.set('location', event.location);
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

/**
 * America/Sao_Paulo as a VTIMEZONE: UTC−3 all year since 2019, when Brazil ended daylight
 * saving; earlier events are not written by the app, so one STANDARD block describes the zone.
 */
export function saoPauloVtimezone(): string {
  return [
    'BEGIN:VTIMEZONE',
    `TZID:${SAO_PAULO}`,
    'X-LIC-LOCATION:America/Sao_Paulo',
    'BEGIN:STANDARD',
    'TZOFFSETFROM:-0300',
    'TZOFFSETTO:-0300',
    'TZNAME:-03',
    'DTSTART:19700101T000000',
    'END:STANDARD',
    'END:VTIMEZONE',
  ].join('\r\n');
}
