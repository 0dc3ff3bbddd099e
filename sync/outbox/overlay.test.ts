import { describe, expect, it } from 'vitest';
import type { RoomEvent } from '../../src/domain/rules/consultation-room.ts';
import type { AgendaOcupadaDoc, AgendamentoDoc } from '../schemas.ts';
import { overlayAppointments, overlayOccupied } from './overlay.ts';
import { enqueue, markRejected } from './queue.ts';
import { EMPTY_OUTBOX } from './types.ts';

const AT = '2026-11-21T12:00:00Z';
const ctx = { userId: 'p1', priceInCents: () => 15000 };

const server: AgendamentoDoc = {
  id: 'a1',
  patient_id: 'p1',
  medico_id: 'd1',
  servico_id: 's1',
  appointment_date: '2026-11-23',
  appointment_time: '09:00:00',
  horario_inicio: '2026-11-23T12:00:00Z',
  horario_fim: '2026-11-23T12:30:00Z',
  price_in_cents: 15000,
  status: 'confirmado',
  pagamento_status: 'pendente',
  source: 'site',
  pagamento_confirmado_em: null,
  pagamento_confirmado_por: null,
  meeting_link: null,
  guia_id: null,
  protocolo: null,
  mutation_id: 'm0',
  sala_paciente_entrou_em: null,
  chamada_iniciada_em: null,
  chamada_encerrada_em: null,
  chamada_duracao_segundos: null,
  chamada_so_audio: false,
  created_at: AT,
  server_modified: AT,
};

describe('optimistic overlay', () => {
  it('[O6] a payment confirmed on an attended appointment keeps it atendido, as the server does', () => {
    const attended = { ...server, status: 'atendido' };
    const outbox = enqueue(
      EMPTY_OUTBOX,
      { kind: 'confirm_payment', args: {} },
      { id: 'm1', appointmentId: 'a1', createdAt: AT },
    );
    const [shown] = overlayAppointments([attended], outbox, { ...ctx, userId: 'd1-user' });
    expect(shown).toMatchObject({
      status: 'atendido',
      pagamento_status: 'pago',
      pagamento_confirmado_em: AT,
      pagamento_confirmado_por: 'd1-user',
    });
  });

  it('[O6] a queued booking shows as the confirmed appointment the server will create, in São Paulo time', () => {
    const outbox = enqueue(
      EMPTY_OUTBOX,
      { kind: 'book', args: { medicoId: 'd1', horarioInicio: '2026-11-24T17:30:00.000Z' } },
      { id: 'm1', appointmentId: 'm1', createdAt: AT },
    );
    const [shown] = overlayAppointments([], outbox, ctx);
    expect(shown).toMatchObject({
      id: 'm1',
      patient_id: 'p1',
      appointment_date: '2026-11-24',
      appointment_time: '14:30:00',
      horario_inicio: '2026-11-24T17:30:00Z',
      horario_fim: '2026-11-24T18:00:00Z',
      price_in_cents: 15000,
      status: 'confirmado',
      pagamento_status: 'pendente',
      sync: { state: 'pending', kinds: ['book'] },
    });
  });

  it('[O6] a queued booking whose row arrived before its answer shows once, with the actions queued after it', () => {
    let outbox = enqueue(
      EMPTY_OUTBOX,
      { kind: 'book', args: { medicoId: 'd1', horarioInicio: server.horario_inicio } },
      { id: 'm0', appointmentId: 'local-1', createdAt: AT },
    );
    outbox = enqueue(
      outbox,
      { kind: 'patient_cancel', args: {} },
      { id: 'm9', appointmentId: 'local-1', createdAt: AT },
    );
    // Realtime brought the server's row (mutation_id m0); the RPC's answer has not come yet.
    const shown = overlayAppointments([server], outbox, ctx);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({
      id: 'a1',
      status: 'cancelado',
      sync: { state: 'pending', kinds: ['book', 'patient_cancel'] },
    });
  });

  it('[O6] queued actions apply in order; a rejected booking stays visible with the message', () => {
    let outbox = enqueue(
      EMPTY_OUTBOX,
      { kind: 'confirm_payment', args: {} },
      { id: 'm1', appointmentId: 'a1', createdAt: AT },
    );
    outbox = enqueue(
      outbox,
      { kind: 'check_in', args: {} },
      { id: 'm2', appointmentId: 'a1', createdAt: AT },
    );
    outbox = enqueue(
      outbox,
      { kind: 'book', args: { medicoId: 'd1', horarioInicio: '2026-11-25T12:00:00Z' } },
      { id: 'm3', appointmentId: 'm3', createdAt: AT },
    );
    const rejection = { reason: 'slot_taken', message: 'Este horário já foi reservado.' };
    outbox = markRejected(outbox, 'm3', rejection).state;
    const shown = overlayAppointments([server], outbox, ctx);
    expect(shown.find((a) => a.id === 'a1')).toMatchObject({
      status: 'atendido',
      pagamento_status: 'pago',
      sync: { state: 'pending', kinds: ['confirm_payment', 'check_in'] },
    });
    expect(shown.find((a) => a.id === 'm3')?.sync).toEqual({
      state: 'rejected',
      mutationId: 'm3',
      rejection,
    });
  });

  it('[O6] queued room events show the record the server will make, stamped when the person acted', () => {
    const room = (evento: RoomEvent, id: string, createdAt: string) =>
      [
        { kind: 'room_event', args: { evento } },
        { id, appointmentId: 'a1', createdAt },
      ] as const;
    let outbox = enqueue(EMPTY_OUTBOX, ...room('paciente_entrou', 'r1', '2026-11-23T11:58:00Z'));
    outbox = enqueue(outbox, ...room('chamada_iniciada', 'r2', '2026-11-23T12:01:00Z'));
    outbox = enqueue(outbox, ...room('so_audio', 'r3', '2026-11-23T12:05:00Z'));
    outbox = enqueue(outbox, ...room('chamada_encerrada', 'r4', '2026-11-23T12:21:30Z'));
    // The other person's end, a moment later, changes nothing.
    outbox = enqueue(outbox, ...room('chamada_encerrada', 'r5', '2026-11-23T12:22:00Z'));
    expect(overlayAppointments([server], outbox, ctx)[0]).toMatchObject({
      sala_paciente_entrou_em: '2026-11-23T11:58:00Z',
      chamada_iniciada_em: '2026-11-23T12:01:00Z',
      chamada_encerrada_em: '2026-11-23T12:21:30Z',
      chamada_duracao_segundos: 1230,
      chamada_so_audio: true,
      sync: { state: 'pending', kinds: ['room_event'] },
    });
    // Starting again after an end resumes the consultation: its first start stays.
    outbox = enqueue(outbox, ...room('chamada_iniciada', 'r6', '2026-11-23T12:23:00Z'));
    expect(overlayAppointments([server], outbox, ctx)[0]).toMatchObject({
      chamada_iniciada_em: '2026-11-23T12:01:00Z',
      chamada_encerrada_em: null,
      chamada_duracao_segundos: null,
    });
  });

  it("[O6] taken slots are the server's live ones plus this person's queued bookings", () => {
    const slots: AgendaOcupadaDoc[] = [
      {
        id: 'a1',
        medico_id: 'd1',
        horario_inicio: '2026-11-23T12:00:00Z',
        horario_fim: '2026-11-23T12:30:00Z',
        status: 'confirmado',
        server_modified: AT,
      },
      {
        id: 'a2',
        medico_id: 'd1',
        horario_inicio: '2026-11-23T13:00:00Z',
        horario_fim: '2026-11-23T13:30:00Z',
        status: 'cancelado',
        server_modified: AT,
      },
    ];
    const outbox = enqueue(
      EMPTY_OUTBOX,
      { kind: 'book', args: { medicoId: 'd1', horarioInicio: '2026-11-23T14:00:00+00:00' } },
      { id: 'm1', appointmentId: 'm1', createdAt: AT },
    );
    expect(overlayOccupied(slots, outbox, 'd1')).toEqual([
      {
        horario_inicio: '2026-11-23T12:00:00Z',
        horario_fim: '2026-11-23T12:30:00Z',
        appointment_id: 'a1',
        pending: false,
      },
      {
        horario_inicio: '2026-11-23T14:00:00Z',
        horario_fim: '2026-11-23T14:30:00Z',
        appointment_id: 'm1',
        pending: true,
      },
    ]);
  });
});
