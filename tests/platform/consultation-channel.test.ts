import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consultation, type Consultation, type Person } from '../support/consultation.ts';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';
import { Inbox, subscribed } from './realtime-support.ts';

/**
 * The consultation room's signalling channel (CONTRACT.md "Consultation room"): private topic
 * `consulta:<agendamento id>`, authorised by the RLS policies of the migration on
 * realtime.messages. Through the real Realtime API with unmodified supabase-js, in both
 * protocol versions: the appointment's patient and doctor join, exchange broadcast and see each
 * other in presence; another patient, another doctor and a visitor are refused by the server.
 */
let t: TestPlatform;
let c: Consultation;
let current: string;
let later: string;
let cancelled: string;
const clients: SupabaseClient[] = [];

beforeAll(async () => {
  t = await startTestPlatform({ seedFile: 'supabase/seed.sql' });
  c = await consultation(t);
  current = await c.appointment();
  later = await c.appointment({ startsIn: '5 hours' });
  cancelled = await c.appointment({ status: 'cancelado' });
});

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.removeAllChannels()));
  await t?.stop();
});

const topic = (id: string) => `consulta:${id}`;

describe.each(['1.0.0', '2.0.0'])('the consultation channel (vsn %s)', (vsn) => {
  /** A channel of the room as the client would open it, for `who` (undefined: a visitor). */
  async function room(who: Person | undefined, id = current): Promise<RealtimeChannel> {
    const client = createClient(t.url, t.anonKey, {
      ...(who ? { accessToken: () => Promise.resolve(who.token) } : {}),
      realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket, vsn },
    });
    clients.push(client);
    if (who) await client.realtime.setAuth(who.token);
    return client.channel(topic(id), {
      config: { private: true, broadcast: { self: false }, presence: { key: who?.id ?? 'anon' } },
    });
  }

  const refusal = (id: string) =>
    new RegExp(
      `^Unauthorized: You do not have permissions to read from this Channel topic: ${topic(id)}$`,
    );

  it('lets the patient and the doctor exchange signalling and see each other', async () => {
    const toDoctor = new Inbox<unknown>();
    const toPatient = new Inbox<unknown>();
    const doctorSees = new Inbox<string[]>();
    const doctorRoom = await room(c.doctor);
    doctorRoom.on('broadcast', { event: 'signal' }, ({ payload }) => toDoctor.push(payload));
    doctorRoom.on('presence', { event: 'sync' }, () =>
      doctorSees.push(Object.keys(doctorRoom.presenceState()).sort()),
    );
    await subscribed(doctorRoom);
    const patientRoom = await room(c.patient);
    patientRoom.on('broadcast', { event: 'signal' }, ({ payload }) => toPatient.push(payload));
    await subscribed(patientRoom);

    expect(await patientRoom.track({ papel: 'paciente' })).toBe('ok');
    expect(await doctorRoom.track({ papel: 'medico' })).toBe('ok');
    const both = [c.patient.id, c.doctor.id].sort();
    await doctorSees.next((keys) => keys.join() === both.join(), 'both people in presence');

    const offer = { description: { type: 'offer', sdp: 'v=0…' } };
    await patientRoom.send({ type: 'broadcast', event: 'signal', payload: offer });
    expect(await toDoctor.next()).toEqual(offer);
    const answer = { description: { type: 'answer', sdp: 'v=0…' } };
    await doctorRoom.send({ type: 'broadcast', event: 'signal', payload: answer });
    expect(await toPatient.next()).toEqual(answer);
  });

  it('refuses another patient, another doctor and a visitor with the server’s words', async () => {
    for (const who of [c.otherPatient, c.otherDoctor, undefined]) {
      await expect(subscribed(await room(who))).rejects.toThrow(refusal(current));
    }
  });

  it('refuses the two people themselves when the room is not open', async () => {
    for (const id of [later, cancelled]) {
      for (const who of [c.patient, c.doctor]) {
        await expect(subscribed(await room(who, id))).rejects.toThrow(refusal(id));
      }
    }
  });
});

describe('the channel policies', () => {
  it('let nobody send to a room they cannot read, over HTTP broadcast either', async () => {
    const post = (token: string) =>
      fetch(`${t.url}/realtime/v1/api/broadcast`, {
        method: 'POST',
        headers: {
          apikey: t.anonKey,
          Authorization: `Bearer ${token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          messages: [{ topic: topic(current), event: 'signal', payload: {}, private: true }],
        }),
      });
    expect((await post(c.patient.token)).status).toBe(202);
    expect((await post(c.doctor.token)).status).toBe(202);
    expect((await post(c.otherPatient.token)).status).toBe(403);
    expect((await post(c.otherDoctor.token)).status).toBe(403);
  });

  it('ignore topics that are not a consultation room', async () => {
    const { rows } = await t.platform.ctx.db.query<{ ok: boolean }>(
      `select app_private.pode_usar_canal_da_consulta(x) as ok
       from unnest(array['consulta:nao-e-uuid', 'sala:' || $1, null]) x`,
      [current],
    );
    expect(rows.map((r) => r.ok)).toEqual([false, false, false]);
  });
});
