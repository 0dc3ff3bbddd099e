import { describe, expect, it } from 'vitest';
import { appointmentCalendarEvent, calendarUid, googleCalendarUrl } from './appointment-event.ts';

const base = {
  appointmentId: 'b0000000-0000-4000-8000-000000000001',
  horarioInicio: '2026-11-30T11:00:00Z',
  horarioFim: null,
  withName: 'Dra. Ana Ribeiro',
  specialty: 'Clínica Geral',
  meetingLink: null,
  guideUrl: 'https://app.example/guia/g1',
  protocol: 'SJ-2026-ABCD-EFGH',
  cancelled: false,
};

describe('appointmentCalendarEvent', () => {
  it('is the consultation in São Paulo time, 30 minutes, reminded 1 h before', () => {
    const e = appointmentCalendarEvent(base);
    expect(e?.start.toString()).toBe('2026-11-30T08:00:00-03:00[America/Sao_Paulo]');
    expect(e?.end.toString()).toBe('2026-11-30T08:30:00-03:00[America/Sao_Paulo]');
    expect(e?.alarmMinutesBefore).toBe(60);
    expect(e?.summary).toBe('Teleconsulta com Dra. Ana Ribeiro');
  });

  it('names the room and the guide in the description', () => {
    expect(appointmentCalendarEvent(base)?.description).toContain(
      'Sala da consulta: o link será enviado pelo médico.',
    );
    const withRoom = appointmentCalendarEvent({ ...base, meetingLink: 'https://meet.example/x' });
    expect(withRoom?.description).toContain('Sala da consulta: https://meet.example/x');
    expect(withRoom?.description).toContain('Guia: https://app.example/guia/g1');
    expect(withRoom?.location).toBe('https://meet.example/x');
  });

  it('keeps the same UID when the appointment is cancelled', () => {
    const booked = appointmentCalendarEvent(base);
    const cancelled = appointmentCalendarEvent({ ...base, cancelled: true });
    expect(cancelled?.uid).toBe(booked?.uid);
    expect(booked?.uid).toBe(calendarUid(base.appointmentId));
    expect(cancelled?.cancelled).toBe(true);
  });

  it('is null for an unreadable start', () => {
    expect(appointmentCalendarEvent({ ...base, horarioInicio: 'x' })).toBeNull();
  });

  it('links Google Calendar with São Paulo wall times', () => {
    const url = new URL(googleCalendarUrl(appointmentCalendarEvent(base)!));
    expect(url.searchParams.get('dates')).toBe('20261130T080000/20261130T083000');
    expect(url.searchParams.get('ctz')).toBe('America/Sao_Paulo');
    expect(url.searchParams.get('text')).toBe('Teleconsulta com Dra. Ana Ribeiro');
  });
});
