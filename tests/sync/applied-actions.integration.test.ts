import { describe, expect, it, vi } from 'vitest';
import { firstValueFrom } from 'rxjs';
import type { AppointmentView, SyncEvent } from '../../sync/index.ts';
import {
  createDoctor,
  createPatient,
  device,
  expectExactlyOnce,
  platformForFile,
  settled,
  signedInClient,
  slot,
  until,
  type Device,
} from '../../sync/testing/index.ts';

/**
 * An action the server applied never shows undone (sync/SPEC.md O6): it leaves the queue only
 * once the row it produced is stored, whatever happens to the replies on the way.
 */
const t = platformForFile();

const isRpc = (name: string) => (url: string) => url.includes(`/rest/v1/rpc/${name}`);
/** The engine's read of one appointment after an RPC that does not return it. */
const isAppointmentRead = (url: string) =>
  url.includes('/rest/v1/agendamentos?') && url.includes('id=eq.');

/**
 * Nothing about appointments reaches the device any more but RPC replies: every read of
 * `agendamentos` fails (the read after an RPC and the pulls) and the Realtime socket is down,
 * as when the server restarted in between. Returns the reads attempted, and how to end it.
 */
function cutAppointments(device: Device): { reads: string[]; restore(): void } {
  const reads: string[] = [];
  device.realtimeDown();
  void device.net.block((url) => {
    const cut = url.includes('/rest/v1/agendamentos?');
    if (cut) reads.push(url);
    return cut;
  });
  return {
    reads,
    restore() {
      void device.net.block(null);
      device.realtimeUp();
    },
  };
}

/**
 * Resolves once the action was sent a second time: the read after the first (applied) send
 * failed, so the action stayed queued and is replayed (O2) — the server answers without
 * acting twice.
 */
async function sentTwice(device: Device, rpc: string): Promise<void> {
  await vi.waitFor(() => expect(device.net.requests.filter(isRpc(rpc)).length).toBeGreaterThan(1), {
    timeout: 15_000,
  });
}

/** A paid appointment of a new doctor, and that doctor's synced laptop. */
async function paidAppointment(n: number): Promise<{ laptop: Device; id: string }> {
  const doctor = await createDoctor(t);
  const patient = await signedInClient(t, await createPatient(t));
  const booked = await patient.rpc('paciente_agendar', {
    p_medico_id: doctor.medicoId,
    p_horario_inicio: slot(n),
  });
  if (booked.error) throw booked.error;
  const id = (booked.data as { id: string }).id;
  const laptop = await device(t, { as: doctor });
  const paid = await laptop.sync.confirmPayment(id);
  if (!paid.ok) throw new Error('payment was not queued');
  // Read through the view the test then watches, so its first value is this one.
  await until(
    laptop.sync.appointment$(id),
    (x) => x?.pagamento_status === 'pago' && x.sync.state === 'synced',
  );
  return { laptop, id };
}

/** Every status the appointment showed, and the mutations announced as applied, from now on. */
function watch(laptop: Device, id: string) {
  const statuses: string[] = [];
  const applied: string[] = [];
  const subs = [
    laptop.sync.appointment$(id).subscribe((x: AppointmentView | null) => {
      if (x?.status && statuses.at(-1) !== x.status) statuses.push(x.status);
    }),
    laptop.sync.events$.subscribe((e: SyncEvent) => {
      if (e.type === 'mutation-applied') applied.push(e.mutation.id);
    }),
  ];
  return { statuses, applied, stop: () => subs.forEach((s) => s.unsubscribe()) };
}

describe('an applied action never reverts on screen', () => {
  it('[O6] a check-in whose reply is lost while the server restarts: the card goes from confirmado to atendido once', async () => {
    const { laptop, id } = await paidAppointment(40);
    const seen = watch(laptop, id);
    let restarted: Promise<void> = Promise.resolve();
    laptop.net.loseNextReply(isRpc('medico_confirmar_atendimento'), () => {
      restarted = t.restart();
    });
    const checkIn = await laptop.sync.checkIn(id);
    if (!checkIn.ok) throw new Error('check-in was not queued');
    await until(laptop.sync.appointment$(id), (x) => x?.sync.state === 'synced');
    await restarted;
    await vi.waitFor(() => expect(seen.applied).toContain(checkIn.value.mutationId));
    seen.stop();
    expect(laptop.net.lost).toEqual([expect.stringContaining('medico_confirmar_atendimento')]);
    expect(seen.statuses).toEqual(['confirmado', 'atendido']);
    expect(seen.applied.filter((m) => m === checkIn.value.mutationId)).toHaveLength(1);
    await expectExactlyOnce(t, checkIn.value.mutationId);
    await settled(laptop);
  });

  it('[O6] a check-in stores the row its answer carries: one request, no read after it, even while reads fail', async () => {
    const { laptop, id } = await paidAppointment(42);
    const seen = watch(laptop, id);
    const cut = cutAppointments(laptop);
    const checkIn = await laptop.sync.checkIn(id);
    if (!checkIn.ok) throw new Error('check-in was not queued');
    await vi.waitFor(() => expect(seen.applied).toContain(checkIn.value.mutationId));
    const done = await firstValueFrom(laptop.sync.appointment$(id));
    expect(done).toMatchObject({ status: 'atendido', sync: { state: 'synced' } });
    expect(laptop.net.requests.filter(isRpc('medico_confirmar_atendimento'))).toHaveLength(1);
    expect(cut.reads.filter(isAppointmentRead)).toEqual([]);
    seen.stop();
    cut.restore();
  });

  it('[O6] a guide whose appointment cannot be read afterwards stays queued until the appointment shows its protocol', async () => {
    const doctor = await createDoctor(t);
    const phone = await device(t, { role: 'paciente' });
    const booked = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(44) });
    if (!booked.ok) throw new Error('booking was not queued');
    await settled(phone);
    const [synced] = await firstValueFrom(phone.sync.appointments$);
    const id = synced!.id;

    const cut = cutAppointments(phone);
    await phone.sync.generateGuide(id);
    await sentTwice(phone, 'paciente_gerar_guia');
    expect(cut.reads.some(isAppointmentRead)).toBe(true);
    const waiting = await firstValueFrom(phone.sync.appointment$(id));
    expect(waiting?.sync).toMatchObject({ state: 'pending', kinds: ['generate_guide'] });

    cut.restore();
    await settled(phone);
    const done = await firstValueFrom(phone.sync.appointment$(id));
    expect(done?.protocolo).toMatch(/^SJ-/);
    expect(done?.guia).not.toBeNull();
  });
});
