import { describe, expect, it } from 'vitest';
import { whatsappReminderLink, whatsappReminderText } from './whatsapp-reminder.ts';

const base = {
  patientName: 'Maria Souza',
  doctorName: 'Dra. Ana Ribeiro',
  time: '14:30',
  meetingLink: null,
};

describe('whatsappReminderLink', () => {
  it.each([
    ['(11) 98765-4321', 'https://wa.me/5511987654321'],
    ['11987654321', 'https://wa.me/5511987654321'],
    ['+55 (21) 3456-7890', 'https://wa.me/552134567890'],
    ['5511987654321', 'https://wa.me/5511987654321'],
    ['+351 912 345 678', 'https://wa.me/351912345678'],
  ])('%s opens a chat with %s', (phone, prefix) => {
    const link = whatsappReminderLink({ ...base, phone });
    expect(link?.split('?')[0]).toBe(prefix);
  });

  it.each([[null], [''], ['(11) 9876'], ['00 00000-0000']])('%s gives no link', (phone) => {
    expect(whatsappReminderLink({ ...base, phone })).toBeNull();
  });

  it('fills in the message with the time, the doctor and the room', () => {
    const link = whatsappReminderLink({
      ...base,
      phone: '(11) 98765-4321',
      meetingLink: 'https://meet.example/sala',
    })!;
    expect(new URL(link).searchParams.get('text')).toBe(
      'Olá, Maria Souza! Lembrete da sua teleconsulta com Dra. Ana Ribeiro hoje às 14:30 ' +
        '(horário de Brasília). Sala da consulta: https://meet.example/sala',
    );
  });

  it('says the doctor will send the link when there is none yet', () => {
    expect(whatsappReminderText({ ...base, phone: null, patientName: '' })).toBe(
      'Olá! Lembrete da sua teleconsulta com Dra. Ana Ribeiro hoje às 14:30 ' +
        '(horário de Brasília). Sala da consulta: o link será enviado pelo médico',
    );
  });
});
