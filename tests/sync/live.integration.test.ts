import { firstValueFrom } from 'rxjs';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it, vi } from 'vitest';
import type { SyncEvent } from '../../sync/index.ts';
import {
  createDoctor,
  createPatient,
  device,
  settled,
  signedInClient,
  slot,
  until,
  platformForFile,
  type Device,
} from '../../sync/testing/index.ts';

const t = platformForFile();

const pulls = (d: Device, table: string) =>
  d.net.requests.filter((r) => r.startsWith(`GET ${t.url}/rest/v1/${table}?`)).length;

describe('live replication', () => {
  it("[L1] a doctor's action reaches the patient's replica through Realtime, without a pull", async () => {
    const doctor = await createDoctor(t);
    const phone = await device(t, { role: 'paciente' });
    const laptop = await device(t, { as: doctor });

    const booked = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(3) });
    if (!booked.ok) throw new Error('booking was not queued');
    // The doctor's replica learns about the new booking live as well.
    await settled(phone, laptop);
    const [appointment] = await firstValueFrom(phone.sync.appointments$);
    const before = pulls(phone, 'agendamentos');

    await laptop.sync.confirmPayment(appointment!.id);
    await settled(phone, laptop);
    const paid = await firstValueFrom(phone.sync.appointment$(appointment!.id));
    expect(paid).toMatchObject({ pagamento_status: 'pago', sync: { state: 'synced' } });
    expect(pulls(phone, 'agendamentos')).toBe(before);
  });

  it("[L1][R6] a new patient's booking reaches the doctor's open replica with the patient's profile joined", async () => {
    const doctor = await createDoctor(t);
    const laptop = await device(t, { as: doctor });
    // The patient signs up after the doctor's first sync: their profile is older than nothing
    // the doctor has, but it was written before the booking that lets the doctor read it.
    const patient = await createPatient(t);
    const client = await signedInClient(t, patient);
    const { data, error } = await client
      .rpc('paciente_agendar', { p_medico_id: doctor.medicoId, p_horario_inicio: slot(5) })
      .single<{ id: string }>();
    if (error) throw error;
    const [joined] = await until(laptop.sync.appointments$, (l) =>
      l.some((x) => x.id === data.id && x.paciente !== null),
    );
    expect(joined?.paciente).toMatchObject({ id: patient.id, email: patient.email });
  });

  it('[L2][R8] a resync right after an RPC result was stored still pulls that collection', async () => {
    const doctor = await createDoctor(t);
    const phone = await device(t, { role: 'paciente' });
    const booked = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(9) });
    if (!booked.ok) throw new Error('booking was not queued');
    await until(phone.sync.appointments$, (l) => l[0]?.sync.state === 'synced');
    const before = pulls(phone, 'agendamentos');
    // At once, while the stored RPC result and its Realtime row are still being applied.
    phone.sync.resync();
    await vi.waitFor(() => expect(pulls(phone, 'agendamentos')).toBeGreaterThan(before), {
      timeout: 3_000,
    });
  });

  it("[P1][P2][P3][P4][L2] a doctor's offline schedule and link edits arrive after reconnecting; a conflict follows the written rule and is reported", async () => {
    const doctor = await createDoctor(t, {
      blocks: [
        { dia_semana: 1, hora_inicio: '08:00', hora_fim: '12:00', intervalo_em_minutos: 15 },
        { dia_semana: 2, hora_inicio: '08:00', hora_fim: '12:00', intervalo_em_minutos: 30 },
        { dia_semana: 4, hora_inicio: '14:00', hora_fim: '18:00', intervalo_em_minutos: 30 },
      ],
    });
    const patient = await signedInClient(t, await createPatient(t));
    const monday = nextWeekday(1, '09:00');
    const booking = await patient.rpc('paciente_agendar', {
      p_medico_id: doctor.medicoId,
      p_horario_inicio: monday,
    });
    if (booking.error) throw booking.error;
    const appointmentId = (booking.data as { id: string }).id;

    const laptop = await device(t, { as: doctor });
    const events: SyncEvent[] = [];
    laptop.sync.events$.subscribe((e) => events.push(e));
    const blocks = await until(laptop.sync.availability$(doctor.medicoId), (b) => b.length === 3);
    const [mon, tue] = blocks as [(typeof blocks)[0], (typeof blocks)[0]];
    await until(laptop.sync.appointments$, (l) => l.length === 1);

    laptop.offline();
    const edit = await laptop.sync.saveAvailabilityBlock({
      id: mon.id,
      dia_semana: 1,
      hora_inicio: '08:00',
      hora_fim: '13:00',
      intervalo_em_minutos: 30,
    });
    expect(edit.ok).toBe(true);
    expect((await laptop.sync.removeAvailabilityBlock(tue.id)).ok).toBe(true);
    const added = await laptop.sync.saveAvailabilityBlock({
      dia_semana: 3,
      hora_inicio: '08:00',
      hora_fim: '12:00',
      intervalo_em_minutos: 30,
    });
    // Overlaps Thursday's block: the server refuses it for good (exclusion constraint).
    const overlapping = await laptop.sync.saveAvailabilityBlock({
      dia_semana: 4,
      hora_inicio: '15:00',
      hora_fim: '16:00',
      intervalo_em_minutos: 30,
    });
    const later = await laptop.sync.saveAvailabilityBlock({
      dia_semana: 5,
      hora_inicio: '08:00',
      hora_fim: '09:00',
      intervalo_em_minutos: 30,
    });
    if (!added.ok || !overlapping.ok || !later.ok) throw new Error('blocks were not saved locally');
    await laptop.sync.saveMeetingLink(appointmentId, 'https://meet.example.com/consulta');

    // Meanwhile the same doctor, on another device, moves Monday's block.
    const other = await signedInClient(t, doctor);
    const moved = await other
      .from('agenda_medico')
      .update({ hora_inicio: '07:00', hora_fim: '12:30' })
      .eq('id', mon.id);
    if (moved.error) throw moved.error;

    laptop.online();
    // Settled: the replica holds exactly the doctor's schedule as the server has it.
    await settled(laptop);
    const schedule = await firstValueFrom(laptop.sync.availability$(doctor.medicoId));
    expect(
      schedule.map((b) => [b.dia_semana, b.hora_inicio, b.hora_fim, b.intervalo_em_minutos]),
    ).toEqual([
      [1, '07:00:00', '12:30:00', 30],
      [3, '08:00:00', '12:00:00', 30],
      [4, '14:00:00', '18:00:00', 30],
      [5, '08:00:00', '09:00:00', 30],
    ]);

    expect(events).toContainEqual({
      type: 'write-conflict',
      report: {
        table: 'agenda_medico',
        id: mon.id,
        outcome: 'merged',
        dropped: [{ field: 'hora_fim', local: '13:00:00', server: '12:30:00' }],
      },
    });
    expect(events).toContainEqual({
      type: 'write-rejected',
      rejection: expect.objectContaining({
        table: 'agenda_medico',
        id: overlapping.value.id,
      }) as unknown,
    });

    const link = await firstValueFrom(laptop.sync.appointment$(appointmentId));
    expect(link).toMatchObject({
      meeting_link: 'https://meet.example.com/consulta',
      sync: { state: 'synced' },
    });
  });
});

/** The next given weekday (0 = Sunday) at least two days ahead, at a São Paulo wall time. */
function nextWeekday(day: number, time: string): string {
  const today = Temporal.Now.plainDateISO('America/Sao_Paulo').add({ days: 2 });
  const date = today.add({ days: (day - (today.dayOfWeek % 7) + 7) % 7 });
  return date
    .toZonedDateTime({ timeZone: 'America/Sao_Paulo', plainTime: Temporal.PlainTime.from(time) })
    .toInstant()
    .toString();
}
