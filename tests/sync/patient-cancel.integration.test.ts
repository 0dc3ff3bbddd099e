import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { filter, firstValueFrom } from 'rxjs';
import { SELF_CANCEL_NOTICE_HOURS } from '../../src/domain/rules/policy-defaults.ts';
import { createDoctor, rows, slot, until } from './support.ts';
import { syncTestBed } from './bed.ts';

const bed = syncTestBed();

const isRpc = (name: string) => (url: string) => url.includes(`/rest/v1/rpc/${name}`);

/** A 30-minute grid start about two hours from now: inside the self-cancel notice. */
function soonSlot(): string {
  const now = Temporal.Now.instant().epochMilliseconds;
  const step = 30 * 60_000;
  return Temporal.Instant.fromEpochMilliseconds(Math.ceil(now / step) * step + 4 * step).toString();
}

describe("patient's own cancellation (outbox kind 'patient_cancel')", () => {
  it('[O2][O6] an offline cancel shows at once, is applied once despite a lost reply, and frees the slot for another patient', async () => {
    const doctor = await createDoctor(bed.t);
    const { device: phone, id } = await bed.patientDevice();
    const { device: other } = await bed.patientDevice();
    // Two days ahead: well outside the notice.
    const start = slot(96);
    const booked = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: start });
    if (!booked.ok) throw new Error('booking was not queued');
    await phone.sync.generateGuide(booked.value.appointmentId);
    const [synced] = await until(
      phone.sync.appointments$,
      (l) => l[0]?.sync.state === 'synced' && l[0].guia !== null,
    );
    await until(other.sync.occupiedSlots$(doctor.medicoId), (s) =>
      s.some((x) => x.horario_inicio === start),
    );

    phone.offline();
    expect((await phone.sync.patientCancel(synced!.id)).ok).toBe(true);
    const optimistic = await until(phone.sync.appointments$, (l) => l[0]?.status === 'cancelado');
    expect(optimistic[0]).toMatchObject({
      pagamento_status: 'cancelado',
      sync: { state: 'pending', kinds: ['patient_cancel'] },
    });

    phone.net.loseNextReply(isRpc('paciente_cancelar_agendamento'));
    phone.online();
    const done = await until(phone.sync.appointments$, (l) => l[0]?.sync.state === 'synced');
    expect(done[0]).toMatchObject({ status: 'cancelado', pagamento_status: 'cancelado' });
    expect(phone.net.lost).toHaveLength(1);
    const server = await rows<{ status: string }>(
      bed.t.admin.from('agendamentos').select('status').eq('patient_id', id),
    );
    expect(server).toEqual([{ status: 'cancelado' }]);
    // Live, without a reload: the other patient's grid gets the slot back.
    await until(other.sync.occupiedSlots$(doctor.medicoId), (s) =>
      s.every((x) => x.horario_inicio !== start),
    );
  });

  it("[O5] a cancel inside the notice is refused with the server's message and reason; the appointment shows the server's state again", async () => {
    const doctor = await createDoctor(bed.t);
    const { device: phone } = await bed.patientDevice();
    const booked = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: soonSlot() });
    if (!booked.ok) throw new Error('booking was not queued');
    await phone.sync.generateGuide(booked.value.appointmentId);
    const [synced] = await until(
      phone.sync.appointments$,
      (l) => l[0]?.sync.state === 'synced' && l[0].guia !== null,
    );

    const rejection = firstValueFrom(
      phone.sync.events$.pipe(filter((e) => e.type === 'mutation-rejected')),
    );
    await phone.sync.patientCancel(synced!.id);
    const e = await rejection;
    const after = await until(phone.sync.appointments$, (l) => l[0]?.sync.state === 'synced');
    expect(after[0]).toMatchObject({ status: 'confirmado', pagamento_status: 'pendente' });
    expect(e).toMatchObject({
      reason: 'cancel_too_late',
      message: `O cancelamento pelo paciente só é possível até ${SELF_CANCEL_NOTICE_HOURS} horas antes da consulta. Fale com o médico.`,
    });
  });
});
