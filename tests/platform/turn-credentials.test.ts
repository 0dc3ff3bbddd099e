import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOM_NOT_OPEN_TEXT } from '../../src/domain/rules/consultation-room.ts';
import {
  TURN_CREDENTIAL_TTL_SECONDS,
  turnCredential,
  type IceServer,
} from '../../supabase/functions/_shared/turn.ts';
import { consultation, type Consultation } from '../support/consultation.ts';
import { startCoturn, type Coturn } from '../support/coturn.ts';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';
import { turnAllocate } from '../support/turn-client.ts';

/**
 * The turn-credentials function (supabase/functions/README.md) against Debian's real coturn
 * on loopback: the credentials it hands the two people of a current appointment open a TURN
 * allocation; expired or forged ones, and everyone else, are refused.
 */
let t: TestPlatform;
let turn: Coturn;
let c: Consultation;
let current: string;

type Answer = { status: number; body: Record<string, unknown> };

async function ask(token: string | null, body: unknown, method = 'POST'): Promise<Answer> {
  const res = await fetch(`${t.url}/functions/v1/turn-credentials`, {
    method,
    headers: {
      apikey: t.anonKey,
      authorization: `Bearer ${token ?? t.anonKey}`,
      'content-type': 'application/json',
    },
    ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const relayOf = (body: Record<string, unknown>) =>
  (body.iceServers as IceServer[]).find((s) => s.urls.some((u) => u.startsWith('turn:')))!;

beforeAll(async () => {
  turn = await startCoturn();
  t = await startTestPlatform({
    seedFile: 'supabase/seed.sql',
    config: { turnUrls: turn.urls.join(','), turnSecret: turn.secret },
  });
  c = await consultation(t);
  current = await c.appointment();
});

afterAll(async () => {
  await t?.stop();
  await turn?.stop();
});

describe('turn-credentials', () => {
  it('gives the patient and the doctor coturn REST credentials that open an allocation', async () => {
    for (const person of [c.patient, c.doctor]) {
      const { status, body } = await ask(person.token, { agendamentoId: current });
      expect(status).toBe(200);
      expect(body.ttlSeconds).toBe(TURN_CREDENTIAL_TTL_SECONDS);
      const relay = relayOf(body);
      expect(relay.urls).toEqual(turn.urls);
      const [expiry, user] = relay.username!.split(':');
      expect(user).toBe(person.id);
      const nowSeconds = Math.floor(Date.now() / 1000);
      expect(Number(expiry) - nowSeconds).toBeGreaterThan(TURN_CREDENTIAL_TTL_SECONDS - 60);
      expect(relay.credential).toBe(
        createHmac('sha1', turn.secret).update(relay.username!).digest('base64'),
      );
      const allocation = await turnAllocate(turn.host, turn.port, {
        username: relay.username!,
        credential: relay.credential!,
      });
      expect(allocation).toMatchObject({ ok: true, relayed: { address: '127.0.0.1' } });
    }
  });

  it('is refused by coturn once expired, or when forged', async () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const expired = await turnCredential(turn.secret, c.patient.id, nowSeconds - 1);
    const otherSecret = await turnCredential(
      'outro-segredo-qualquer',
      c.patient.id,
      nowSeconds + 600,
    );
    const { body } = await ask(c.patient.token, { agendamentoId: current });
    const issued = relayOf(body);
    // Someone else's name, or a later expiry, on the issued password.
    const renamed = {
      username: issued.username!.replace(c.patient.id, c.otherPatient.id),
      credential: issued.credential!,
    };
    const extended = {
      username: issued.username!.replace(/^\d+/, String(nowSeconds + 86_400)),
      credential: issued.credential!,
    };
    for (const credentials of [expired, otherSecret, renamed, extended]) {
      expect(await turnAllocate(turn.host, turn.port, credentials)).toEqual({
        ok: false,
        code: 401,
        reason: 'Unauthorized',
      });
    }
  });

  it('answers strangers as if the appointment did not exist', async () => {
    for (const person of [c.otherPatient, c.otherDoctor]) {
      expect(await ask(person.token, { agendamentoId: current })).toEqual({
        status: 404,
        body: { success: false, message: 'Agendamento não encontrado.', reason: 'not_found' },
      });
    }
    expect(await ask(null, { agendamentoId: current })).toEqual({
      status: 401,
      body: { success: false, message: 'Usuário não autenticado.' },
    });
  });

  it('refuses rooms that are not open now', async () => {
    const cancelled = await c.appointment({ status: 'cancelado' });
    expect(await ask(c.patient.token, { agendamentoId: cancelled })).toEqual({
      status: 403,
      body: {
        success: false,
        message: 'Esta consulta foi cancelada ou expirou.',
        reason: 'invalid_state',
      },
    });
    const later = await c.appointment({ startsIn: '3 hours' });
    expect(await ask(c.doctor.token, { agendamentoId: later })).toEqual({
      status: 403,
      body: { success: false, message: ROOM_NOT_OPEN_TEXT, reason: 'room_not_open' },
    });
  });

  it('validates its input', async () => {
    const invalid = {
      status: 400,
      body: { success: false, message: 'Parâmetros inválidos. agendamentoId ausente.' },
    };
    expect(await ask(c.patient.token, {})).toEqual(invalid);
    expect(await ask(c.patient.token, { agendamentoId: 'abc' })).toEqual(invalid);
    expect(await ask(c.patient.token, [current])).toEqual(invalid);
    expect((await ask(c.patient.token, null, 'GET')).status).toBe(405);
  });

  it('hands out STUN only, or no server, when no relay is configured', async () => {
    const config = t.platform.ctx.config;
    const saved = { turnUrls: config.turnUrls, turnSecret: config.turnSecret };
    try {
      config.turnUrls = undefined;
      config.turnSecret = undefined;
      expect((await ask(c.patient.token, { agendamentoId: current })).body.iceServers).toEqual([]);
      config.stunUrls = 'stun:stun.clinica.example:3478';
      expect((await ask(c.patient.token, { agendamentoId: current })).body.iceServers).toEqual([
        { urls: ['stun:stun.clinica.example:3478'] },
      ]);
    } finally {
      Object.assign(config, saved, { stunUrls: undefined });
    }
  });

  it('works through supabase-js functions.invoke with the person’s session', async () => {
    const res: { data: { iceServers: IceServer[] } | null; error: unknown } =
      await c.patient.client.functions.invoke('turn-credentials', {
        body: { agendamentoId: current },
      });
    expect(res.error).toBeNull();
    expect(res.data?.iceServers.map((s) => s.urls)).toEqual([turn.urls]);
  });
});
