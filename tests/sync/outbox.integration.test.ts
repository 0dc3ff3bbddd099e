import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppointmentView, SyncEvent } from '../../sync/index.ts';
import {
  createDoctor,
  createPatient,
  device,
  expectExactlyOnce,
  rows,
  settled,
  signedInClient,
  slot,
  until,
  platformForFile,
} from '../../sync/testing/index.ts';

const t = platformForFile();
afterEach(() => {
  vi.restoreAllMocks();
});

type Check = (x: AppointmentView) => boolean;

const isRpc = (name: string) => (url: string) => url.includes(`/rest/v1/rpc/${name}`);

describe('outbox', () => {
  it('[O1][O2][O3] an offline queue is applied once, in order, after reconnecting — even when a reply is lost', async () => {
    const doctor = await createDoctor(t);
    const phone = await device(t, { role: 'paciente' });

    phone.offline();
    const a = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(1) });
    const b = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(4) });
    if (!a.ok || !b.ok) throw new Error('booking was not queued');
    // The guide can only be generated after its booking exists: order per appointment matters.
    const guides = [
      await phone.sync.generateGuide(a.value.appointmentId),
      await phone.sync.generateGuide(b.value.appointmentId),
    ];
    if (!guides.every((g) => g.ok)) throw new Error('guide was not queued');

    const optimistic = await until(phone.sync.appointments$, (l) => l.length === 2);
    expect(optimistic.map((x) => x.sync.state)).toEqual(['pending', 'pending']);
    const taken = await until(phone.sync.occupiedSlots$(doctor.medicoId), (s) => s.length === 2);
    expect(taken.every((s) => s.pending)).toBe(true);

    // The server books slot 1, but the answer never reaches the phone: the replay must not
    // book twice (same p_mutation_id).
    phone.net.loseNextReply(isRpc('paciente_agendar'));
    phone.online();
    await settled(phone);

    expect(phone.net.lost).toHaveLength(1);
    for (const m of [a, b, ...guides]) await expectExactlyOnce(t, m.ok ? m.value.mutationId : '');
    const synced = await firstValueFrom(phone.sync.appointments$);
    expect(synced.map((x) => [x.status, x.sync.state, x.guia !== null])).toEqual([
      ['confirmado', 'synced', true],
      ['confirmado', 'synced', true],
    ]);
    // The ids the screens were given keep working after the server assigned its own.
    const viaLocalId = await firstValueFrom(phone.sync.appointment$(a.value.appointmentId));
    expect(viaLocalId?.sync.state).toBe('synced');
    // Back online, nothing is left to report: the queue is empty and every error of the
    // offline stretch (the dropped socket included) clears once the streams are live again.
    await until(phone.sync.status$, (s) => s.pendingMutations === 0 && s.errors.length === 0);
  });

  it("[O3][O4] a doctor's offline actions run in order per appointment once back online", async () => {
    const doctor = await createDoctor(t);
    const patient = await signedInClient(t, await createPatient(t));
    const booked = [];
    for (const n of [2, 6]) {
      const { error, ...result } = await patient.rpc('paciente_agendar', {
        p_medico_id: doctor.medicoId,
        p_horario_inicio: slot(n),
      });
      if (error) throw error;
      booked.push((result.data as { id: string }).id);
    }
    const [first, second] = booked as [string, string];

    const laptop = await device(t, { as: doctor });

    laptop.offline();
    // Check-in needs the payment first; the link must be saved before the cancellation.
    await laptop.sync.confirmPayment(first);
    await laptop.sync.checkIn(first);
    await laptop.sync.saveMeetingLink(second, 'https://meet.example.com/sala-2');
    await laptop.sync.cancel(second);
    const optimistic = await until(laptop.sync.appointments$, (l) =>
      l.every((x) => x.sync.state === 'pending'),
    );
    expect(optimistic.map((x) => [x.id, x.status])).toEqual(
      expect.arrayContaining([
        [first, 'atendido'],
        [second, 'cancelado'],
      ]),
    );

    laptop.net.loseNextReply(isRpc('medico_confirmar_pagamento'));
    laptop.online();
    await settled(laptop);
    const done = new Map((await firstValueFrom(laptop.sync.appointments$)).map((x) => [x.id, x]));
    expect(done.get(first)).toMatchObject({ status: 'atendido', pagamento_status: 'pago' });
    expect(done.get(second)).toMatchObject({
      status: 'cancelado',
      meeting_link: 'https://meet.example.com/sala-2',
    });
    expect(laptop.net.lost).toHaveLength(1);
  });

  it('[O7] each applied action is announced once, after the replica shows it; a cancellation with the server message; a rejection is not', async () => {
    const doctor = await createDoctor(t);
    const patient = await signedInClient(t, await createPatient(t));
    const booked: string[] = [];
    for (const n of [14, 16]) {
      const { error, ...result } = await patient.rpc('paciente_agendar', {
        p_medico_id: doctor.medicoId,
        p_horario_inicio: slot(n),
      });
      if (error) throw error;
      booked.push((result.data as { id: string }).id);
    }
    const [paid, cancelled] = booked as [string, string];
    const laptop = await device(t, { as: doctor });
    const events: SyncEvent[] = [];
    const seenWhenApplied: (string | null | undefined)[] = [];
    let latest: AppointmentView[] = [];
    const list = laptop.sync.appointments$.subscribe((l) => (latest = l));
    const sub = laptop.sync.events$.subscribe((e) => {
      events.push(e);
      if (e.type === 'mutation-applied') {
        const row = latest.find((a) => a.id === e.mutation.appointmentId);
        seenWhenApplied.push(
          row ? `${row.sync.state}:${row.pagamento_status}:${row.status}` : null,
        );
      }
    });

    laptop.offline();
    const pay = await laptop.sync.confirmPayment(paid);
    const cancel = await laptop.sync.cancel(cancelled);
    // Refused by the server: a cancelled appointment cannot be checked in.
    const checkIn = await laptop.sync.checkIn(cancelled);
    if (!pay.ok || !cancel.ok || !checkIn.ok) throw new Error('actions were not queued');
    expect(events).toEqual([]);
    const refused = until(laptop.sync.events$, (e) => e.type === 'mutation-rejected');
    laptop.online();
    // The check-in is sent last (O3): its rejection ends the queue.
    await refused;
    await settled(laptop);
    sub.unsubscribe();
    list.unsubscribe();

    const applied = events.filter((e) => e.type === 'mutation-applied');
    expect(applied.map((e) => [e.mutation.id, e.mutation.kind, e.message])).toEqual([
      [pay.value.mutationId, 'confirm_payment', null],
      [cancel.value.mutationId, 'cancel', 'Agendamento cancelado com sucesso.'],
    ]);
    // The list already held the server's rows: the paid one synced; the cancelled one with the
    // server's cancelled payment, its queued check-in still laid over it.
    expect(seenWhenApplied).toEqual(['synced:pago:confirmado', 'pending:cancelado:atendido']);
    const rejected = events.filter((e) => e.type === 'mutation-rejected');
    expect(rejected.map((e) => e.mutation.id)).toEqual([checkIn.value.mutationId]);
  });

  it("[O5][O6] two patients, one slot: the offline loser's booking is rejected with the server's message, the slot shows taken, and the rest of the queue goes through", async () => {
    const doctor = await createDoctor(t);
    const winner = await device(t, { role: 'paciente' });
    const loser = await device(t, { role: 'paciente' });
    const events: SyncEvent[] = [];
    loser.sync.events$.subscribe((e) => events.push(e));

    loser.offline();
    const lost = await loser.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(8) });
    const kept = await loser.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(10) });
    if (!lost.ok || !kept.ok) throw new Error('booking was not queued');
    await loser.sync.generateGuide(lost.value.appointmentId);

    const won = await winner.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(8) });
    if (!won.ok) throw new Error('booking was not queued');
    await settled(winner);

    loser.online();
    await settled(loser, winner);
    const shown = await firstValueFrom(loser.sync.appointments$);
    expect(shown.find((x) => x.id === lost.value.appointmentId)?.sync).toEqual({
      state: 'rejected',
      mutationId: lost.value.mutationId,
      rejection: { reason: 'slot_taken', message: 'Este horário já foi reservado.' },
    });
    expect(shown.find((x) => x.mutation_id === kept.value.mutationId)?.sync.state).toBe('synced');
    // The guide queued behind the lost booking is rejected with it, not retried forever.
    expect(
      events
        .filter((e) => e.type === 'mutation-rejected')
        .map((e) => e.type === 'mutation-rejected' && e.mutation.kind),
    ).toEqual(['book', 'generate_guide']);
    const slots = await firstValueFrom(loser.sync.occupiedSlots$(doctor.medicoId));
    expect(slots.find((x) => x.horario_inicio === slot(8))).toMatchObject({
      appointment_id: (await firstValueFrom(winner.sync.appointments$))[0]?.id,
      pending: false,
    });
    await expectExactlyOnce(t, won.value.mutationId);

    await loser.sync.dismissRejected(lost.value.mutationId);
    const after = await until(loser.sync.appointments$, (l) => l.length === 1);
    expect(after[0]?.mutation_id).toBe(kept.value.mutationId);
  });

  it('[O2][O6] appointment$(id) follows one appointment by its key as the list shows it: queued, then confirmed under the server id, joined', async () => {
    const doctor = await createDoctor(t);
    const phone = await device(t, { role: 'paciente' });
    const id = phone.person.id;
    /** The single-appointment view, once it matches `pred`, equals the list's entry. */
    async function sameAsList(mutationId: string, appointmentId: string, pred: Check) {
      const list = await until(phone.sync.appointments$, (l) =>
        l.some((x) => x.mutation_id === mutationId && pred(x)),
      );
      const one = await until(phone.sync.appointment$(appointmentId), (x) => x !== null && pred(x));
      expect(one).toEqual(list.find((x) => x.mutation_id === mutationId));
      return one as AppointmentView;
    }

    phone.offline();
    const a = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(3) });
    const b = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(5) });
    if (!a.ok || !b.ok) throw new Error('booking was not queued');
    await phone.sync.generateGuide(a.value.appointmentId);
    const queued = await sameAsList(
      a.value.mutationId,
      a.value.appointmentId,
      (x) => x.sync.state === 'pending',
    );
    expect(queued).toMatchObject({
      id: a.value.appointmentId,
      horario_inicio: slot(3),
      price_in_cents: 15000,
      medico: { id: doctor.medicoId },
      paciente: { id },
      sync: { state: 'pending', kinds: ['book', 'generate_guide'] },
    });

    phone.online();
    const synced = await sameAsList(
      a.value.mutationId,
      a.value.appointmentId,
      (x) => x.sync.state === 'synced' && x.guia !== null && x.servico !== null,
    );
    const [server] = await rows<{ id: string; guia_id: string }>(
      t.admin.from('agendamentos').select('id, guia_id').eq('mutation_id', a.value.mutationId),
    );
    // The optimistic id now leads to the server's appointment (O2).
    expect(synced).toMatchObject({
      id: server?.id,
      guia: { id: server?.guia_id },
      servico: { nome: 'Teleconsulta' },
      paciente: { id },
    });
    expect(server?.id).not.toBe(a.value.appointmentId);
    await sameAsList(b.value.mutationId, b.value.appointmentId, (x) => x.sync.state === 'synced');
    await expect(firstValueFrom(phone.sync.appointment$(slot(3)))).resolves.toBeNull();
  });

  it('[A1] a token that expires offline signs nobody out; nothing is sent as anon while supabase-js has no session; the queue goes through after the refresh', async () => {
    const doctor = await createDoctor(t);
    const phone = await device(t, { role: 'paciente' });
    const authEvents: string[] = [];
    phone.client.auth.onAuthStateChange((event) => void authEvents.push(event));
    // The device's clock, moved on instead of the test waiting: supabase-js retries a failed
    // token refresh for ~30 s, then returns its failure for a 60 s cooldown.
    const realNow = Date.now.bind(Date);
    let elapsedMs = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + elapsedMs);

    phone.offline();
    phone.expireSession();
    const booked = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(12) });
    if (!booked.ok) throw new Error('booking was not queued');
    phone.focus$.next();

    // Back online, but the token endpoint stays unreachable until supabase-js gives up.
    phone.net.requests.length = 0;
    const refreshTried = phone.net.block((url) => url.includes('/auth/v1/token'));
    phone.online();
    await refreshTried;
    elapsedMs += 30_000;
    // supabase-js now has no usable session: every request it makes goes out with the anon
    // key, and a booking sent as anon would be refused for good ('not_patient').
    expect((await phone.client.auth.getSession()).data.session).toBeNull();
    const [waiting] = await until(
      phone.sync.mutations$,
      ([m]) => m !== undefined && (m.attempts > 0 || m.state !== 'pending'),
    );
    expect(waiting).toMatchObject({ id: booked.value.mutationId, state: 'pending' });
    expect(waiting?.lastError).toContain('no usable session');
    expect(phone.net.requests.filter(isRpc('paciente_agendar'))).toEqual([]);
    expect(phone.net.asAnon).toEqual([]);
    expect((await firstValueFrom(phone.sync.status$)).pendingMutations).toBe(1);
    expect(authEvents).not.toContain('SIGNED_OUT');
    // supabase-js reports no session meanwhile, but keeps it (and its refresh token).
    expect(phone.hasStoredSession()).toBe(true);

    // The auth server is back and the cooldown is over: the next request refreshes.
    elapsedMs += 61_000;
    void phone.net.block(null);
    phone.sync.resync();
    const [appointment] = await until(
      phone.sync.appointments$,
      (l) => l[0]?.sync.state === 'synced',
    );
    expect(appointment?.mutation_id).toBe(booked.value.mutationId);
    expect(authEvents).toContain('TOKEN_REFRESHED');
    expect(authEvents).not.toContain('SIGNED_OUT');
    expect(phone.net.asAnon).toEqual([]);
  });

  it('[A1] a session that lapses in the middle of a pull stops it before its next request', async () => {
    const phone = await device(t, { role: 'paciente' });
    const realNow = Date.now.bind(Date);
    let elapsedMs = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + elapsedMs);
    const profiles = `/rest/v1/perfis_usuarios?`;
    const isToken = (url: string) => url.includes('/auth/v1/token');

    // A caught-up pull makes two requests: the page after the checkpoint, then the rows
    // stamped just behind it (R7). The session lapses while the first one is on the wire.
    let sentBefore = 0;
    const refreshTried = new Promise<void>((resolve) => {
      phone.net.afterNextReply(
        (url) => url.includes(profiles) && url.includes('or='),
        () => {
          sentBefore = phone.net.requests.length;
          phone.expireSession();
          resolve(phone.net.block(isToken));
          return Promise.resolve();
        },
      );
    });
    phone.sync.resync();
    await refreshTried;
    elapsedMs += 30_000;
    const { errors } = await until(phone.sync.status$, (s) =>
      s.errors.some((e) => e.source === 'perfis_usuarios'),
    );
    expect(errors.find((e) => e.source === 'perfis_usuarios')?.message).toContain(
      'no usable session',
    );
    const after = phone.net.requests.slice(sentBefore);
    expect(after.filter((r) => r.includes(profiles))).toEqual([]);
    expect(phone.net.asAnon).toEqual([]);
  });
});
