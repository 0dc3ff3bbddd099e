import { interval, map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  chaos,
  createDoctor,
  device,
  expectExactlyOnce,
  expectReplicaEqualsServer,
  rows,
  settled,
  slot,
  until,
  platformForFile,
} from './index.ts';

/** The kit's own tests: each piece against the real platform, engine and IndexedDB. */
const platform = platformForFile();

const isBooking = (url: string) => url.includes('/rest/v1/rpc/paciente_agendar');

describe('settled()', () => {
  it('waits for a queue sent through a lost reply, on two devices, and the server applied it once', async () => {
    const doctor = await createDoctor(platform);
    const phone = await device(platform, { role: 'paciente' });
    const laptop = await device(platform, { as: doctor });

    phone.net.loseNextReply(isBooking);
    const booked = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(2) });
    if (!booked.ok) throw new Error('booking was not queued');
    await settled(phone, laptop);

    expect(phone.net.lost).toHaveLength(1);
    await expectExactlyOnce(platform, booked.value.mutationId);
    await expectReplicaEqualsServer(laptop);
  });

  it('fails with a diff when a replica differs from what the server lets its user read', async () => {
    const phone = await device(platform, { role: 'paciente' });
    const id = phone.person?.id ?? '';
    // The phone hears nothing more; the server's copy of the profile changes meanwhile.
    phone.offline();
    const changed = await platform.admin
      .from('perfis_usuarios')
      .update({ full_name: 'Nome Novo' })
      .eq('id', id);
    if (changed.error) throw changed.error;

    const failure = await settled(phone, { timeoutMs: 500 }).then(
      () => 'settled',
      (error: Error) => error.message,
    );
    expect(failure).toContain('settled() gave up after 0.5 s');
    expect(failure).toContain("perfis_usuarios not pulled past the server's latest change");
    expect(failure).toMatch(
      new RegExp(`perfis_usuarios ${id}\\.full_name: replica "Paciente \\d+", server "Nome Novo"`),
    );
    await expect(expectReplicaEqualsServer(phone)).rejects.toThrow(/full_name/);

    phone.online();
    await settled(phone);
  });

  it('reports a queued mutation that cannot leave the device', async () => {
    const doctor = await createDoctor(platform);
    const phone = await device(platform, { role: 'paciente' });
    void phone.net.block(isBooking);
    const booked = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(4) });
    if (!booked.ok) throw new Error('booking was not queued');
    await expect(settled(phone, { timeoutMs: 300 })).rejects.toThrow(
      `1 mutation(s) still queued: book ${booked.value.mutationId}`,
    );
    void phone.net.block(null);
    await settled(phone);
  });
});

describe('devices', () => {
  it('reload() reopens the same replica with its queue; restart() keeps the server data', async () => {
    const doctor = await createDoctor(platform);
    const phone = await device(platform, { role: 'paciente' });
    phone.offline();
    const booked = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(6) });
    if (!booked.ok) throw new Error('booking was not queued');

    await phone.reload();
    expect((await until(phone.sync.mutations$, (m) => m.length === 1))[0]?.id).toBe(
      booked.value.mutationId,
    );
    await platform.restart();
    phone.online();
    await settled(phone);
    await expectExactlyOnce(platform, booked.value.mutationId);
  });

  it('tab() opens a second tab: changes reach it through the shared IndexedDB, only the leader sends', async () => {
    const doctor = await createDoctor(platform);
    const first = await device(platform, { role: 'paciente' });
    const second = await first.tab();
    first.offline();
    const booked = await second.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(8) });
    if (!booked.ok) throw new Error('booking was not queued');
    // Queued in one tab, seen in the other, with no server in between.
    await until(first.sync.mutations$, (m) => m.some((x) => x.id === booked.value.mutationId));

    first.online();
    await settled(first, second);
    expect(first.net.requests.filter(isBooking)).toHaveLength(1);
    expect(second.net.requests.filter(isBooking)).toEqual([]);
  });

  it('cutNext() fails a request before the server sees it', async () => {
    const doctor = await createDoctor(platform);
    const phone = await device(platform, { role: 'paciente' });
    phone.net.cutNext(isBooking);
    const booked = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(10) });
    if (!booked.ok) throw new Error('booking was not queued');
    await settled(phone);
    expect(phone.net.cut).toHaveLength(1);
    expect(phone.net.requests.filter(isBooking)).toHaveLength(1);
    await expectExactlyOnce(platform, booked.value.mutationId);
  });

  it('hold() keeps a request unanswered until released, then sends it once', async () => {
    const doctor = await createDoctor(platform);
    const phone = await device(platform, { role: 'paciente' });
    const attempted = phone.net.hold(isBooking);
    const booked = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(11) });
    if (!booked.ok) throw new Error('booking was not queued');
    await attempted;
    expect(phone.net.requests.filter(isBooking)).toEqual([]);
    const stored = platform.admin
      .from('agendamentos')
      .select('id')
      .eq('mutation_id', booked.value.mutationId);
    expect(await rows(stored)).toEqual([]);
    void phone.net.hold(null);
    await settled(phone);
    expect(phone.net.requests.filter(isBooking)).toHaveLength(1);
    await expectExactlyOnce(platform, booked.value.mutationId);
  });

  it('online() straight after offline() brings Realtime back, though the old socket was still closing', async () => {
    const phone = await device(platform, { role: 'paciente' });
    phone.offline();
    phone.online();
    await until(interval(20).pipe(map(() => phone.client.realtime.isConnected())), Boolean);
  });
});

describe('chaos()', () => {
  it('a seeded storm of cut requests, lost replies and outages ends settled, every action applied once', async () => {
    const doctor = await createDoctor(platform);
    const phone = await device(platform, { role: 'paciente' });
    const laptop = await device(platform, { as: doctor });
    const storm = chaos([phone, laptop], { lost: 0.3, cut: 0.2, outages: 1, seconds: 2, seed: 7 });
    const booked = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(12) });
    if (!booked.ok) throw new Error('booking was not queued');
    const report = await storm;
    await settled(phone, laptop);

    expect(report.seed).toBe(7);
    expect(report.devices.map((d) => d.outages)).toEqual([1, 1]);
    await expectExactlyOnce(platform, booked.value.mutationId);
    const server = await rows(
      platform.admin.from('agendamentos').select('id').eq('medico_id', doctor.medicoId),
    );
    expect(server).toHaveLength(1);
  });
});
