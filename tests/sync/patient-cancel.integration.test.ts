import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { filter, firstValueFrom } from 'rxjs';
import { SELF_CANCEL_NOTICE_HOURS } from '../../src/domain/rules/policy-defaults.ts';
import {
  createDoctor,
  device,
  expectExactlyOnce,
  settled,
  slot,
  until,
  platformForFile,
} from '../../sync/testing/index.ts';

const t = platformForFile();

const isRpc = (name: string) => (url: string) => url.includes(`/rest/v1/rpc/${name}`);

/** A 30-minute grid start about two hours from now: inside the self-cancel notice. */
function soonSlot(): string {
  const now = Temporal.Now.instant().epochMilliseconds;
  const step = 30 * 60_000;
  return Temporal.Instant.fromEpochMilliseconds(Math.ceil(now / step) * step + 4 * step).toString();
}

describe("patient's own cancellation (outbox kind 'patient_cancel')", () => {
  it('[O2][O6] an offline cancel shows at once, is applied once despite a lost reply, and frees the slot for another patient', async () => {
    const doctor = await createDoctor(t);
    const phone = await device(t, { role: 'paciente' });
    const other = await device(t, { role: 'paciente' });
    // Two days ahead: well outside the notice.
    const start = slot(96);
    const booked = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: start });
    if (!booked.ok) throw new Error('booking was not queued');
    await phone.sync.generateGuide(booked.value.appointmentId);
    await settled(phone, other);
    expect(
      (await firstValueFrom(other.sync.occupiedSlots$(doctor.medicoId))).map(
        (s) => s.horario_inicio,
      ),
    ).toContain(start);

    phone.offline();
    const [synced] = await firstValueFrom(phone.sync.appointments$);
    const cancel = await phone.sync.patientCancel(synced!.id);
    if (!cancel.ok) throw new Error('cancellation was not queued');
    const optimistic = await until(phone.sync.appointments$, (l) => l[0]?.status === 'cancelado');
    expect(optimistic[0]).toMatchObject({
      pagamento_status: 'cancelado',
      sync: { state: 'pending', kinds: ['patient_cancel'] },
    });

    phone.net.loseNextReply(isRpc('paciente_cancelar_agendamento'));
    phone.online();
    // Live, without a reload: the other patient's grid gets the slot back.
    await settled(phone, other);
    expect(phone.net.lost).toHaveLength(1);
    await expectExactlyOnce(t, cancel.value.mutationId);
    expect((await firstValueFrom(phone.sync.appointments$))[0]).toMatchObject({
      status: 'cancelado',
      pagamento_status: 'cancelado',
    });
    const slots = await firstValueFrom(other.sync.occupiedSlots$(doctor.medicoId));
    expect(slots.map((s) => s.horario_inicio)).not.toContain(start);
  });

  it("[O5] a cancel inside the notice is refused with the server's message and reason; the appointment shows the server's state again", async () => {
    const doctor = await createDoctor(t);
    const phone = await device(t, { role: 'paciente' });
    const booked = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: soonSlot() });
    if (!booked.ok) throw new Error('booking was not queued');
    await phone.sync.generateGuide(booked.value.appointmentId);
    await settled(phone);
    const [synced] = await firstValueFrom(phone.sync.appointments$);

    const rejection = firstValueFrom(
      phone.sync.events$.pipe(filter((e) => e.type === 'mutation-rejected')),
    );
    await phone.sync.patientCancel(synced!.id);
    const e = await rejection;
    await settled(phone);
    const after = await firstValueFrom(phone.sync.appointments$);
    expect(after[0]).toMatchObject({ status: 'confirmado', pagamento_status: 'pendente' });
    expect(e).toMatchObject({
      reason: 'cancel_too_late',
      message: `O cancelamento pelo paciente só é possível até ${SELF_CANCEL_NOTICE_HOURS} horas antes da consulta. Fale com o médico.`,
    });
  });
});
