import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  AuthApiError,
  AuthRetryableFetchError,
  AuthSessionMissingError,
  AuthWeakPasswordError,
  FunctionsFetchError,
  FunctionsHttpError,
  PostgrestError,
  createClient,
} from '@supabase/supabase-js';
import { invalidInputError, mapServerError, retriesExhaustedError } from './map-server-error.ts';

function pg(
  code: string,
  message: string,
  hint: string | null = null,
  details: string | null = null,
) {
  return new PostgrestError({ code, message, hint: hint as string, details: details as string });
}

describe('mapServerError: PostgREST errors', () => {
  it.each([
    [
      'slot taken (hint from paciente_agendar)',
      pg(
        '23505',
        'duplicate key value violates unique constraint "agendamentos_slot_unico"',
        'slot_taken',
        'Este horário já foi reservado.',
      ),
      'slot-taken',
      'Este horário já foi reservado.',
    ],
    [
      'slot taken (index name only, e.g. from a direct insert)',
      pg('23505', 'duplicate key value violates unique constraint "agendamentos_slot_unico"'),
      'slot-taken',
      'Este horário já foi reservado.',
    ],
    [
      'another unique violation is not a taken slot',
      pg('23505', 'duplicate key value violates unique constraint "servicos_nome_key"'),
      'invalid-request',
      'Não foi possível processar os dados enviados.',
    ],
    [
      'business rule with reason in hint keeps the server message',
      pg(
        'P0001',
        'Este horário não está mais disponível. Escolha um horário com mais de 20 minutos de antecedência.',
        'slot_in_past',
      ),
      'slot-in-past',
      'Este horário não está mais disponível. Escolha um horário com mais de 20 minutos de antecedência.',
    ],
    [
      'too many open unpaid bookings (paciente_agendar)',
      pg(
        'P0001',
        'Você já tem reservas não pagas demais. Conclua ou cancele uma delas antes de agendar outra.',
        'unpaid_limit',
      ),
      'unpaid-limit',
      'Você já tem reservas não pagas demais. Conclua ou cancele uma delas antes de agendar outra.',
    ],
    [
      'too many open unpaid bookings, answered without a message',
      pg('P0001', '', 'unpaid_limit'),
      'unpaid-limit',
      'Você já tem reservas não pagas demais. Conclua ou cancele uma delas antes de agendar outra.',
    ],
    [
      "patient's cancel inside the notice (paciente_cancelar_agendamento)",
      pg(
        'P0001',
        'O cancelamento pelo paciente só é possível até 24 horas antes da consulta. Fale com o médico.',
        'cancel_too_late',
      ),
      'cancel-too-late',
      'O cancelamento pelo paciente só é possível até 24 horas antes da consulta. Fale com o médico.',
    ],
    [
      "patient's cancel of an attended appointment",
      pg('P0001', 'Não é possível cancelar um atendimento já realizado.', 'already_attended'),
      'already-attended',
      'Não é possível cancelar um atendimento já realizado.',
    ],
    [
      'not a patient',
      pg(
        'P0001',
        'Acesso negado: Você precisa estar logado como paciente para agendar.',
        'not_patient',
      ),
      'not-patient',
      'Acesso negado: Você precisa estar logado como paciente para agendar.',
    ],
    [
      'permission failure raised with a reason',
      pg('42501', 'O CPF não pode ser alterado.', 'cpf_immutable'),
      'cpf-immutable',
      'O CPF não pode ser alterado.',
    ],
    [
      'plain RLS refusal (English from Postgres) gets our text',
      pg('42501', 'new row violates row-level security policy for table "agendamentos"'),
      'permission-denied',
      'Você não tem permissão para realizar esta ação.',
    ],
    [
      'schedule blocks overlapping (exclusion constraint)',
      pg(
        '23P01',
        'conflicting key value violates exclusion constraint "agenda_medico_sem_sobreposicao"',
      ),
      'schedule-overlap',
      'Verifique os blocos de horário. O horário final deve ser maior que o inicial e não deve haver sobreposição.',
    ],
    [
      'single() found nothing',
      pg(
        'PGRST116',
        'Cannot coerce the result to a single JSON object',
        null,
        'The result contains 0 rows',
      ),
      'not-found',
      'Registro não encontrado.',
    ],
    ['expired JWT', pg('PGRST303', 'JWT expired'), 'not-authenticated', 'Usuário não autenticado.'],
    [
      'P0001 without a reason',
      pg('P0001', 'Dados incompletos.'),
      'rule-violated',
      'Dados incompletos.',
    ],
    [
      'statement timeout',
      pg('57014', 'canceling statement due to statement timeout'),
      'timeout',
      'A requisição demorou muito para responder. Verifique sua conexão.',
    ],
    [
      'database unavailable',
      pg('08006', 'connection failure'),
      'server-unavailable',
      'O servidor está indisponível no momento. Tente novamente em instantes.',
    ],
    [
      'a hint that is prose is not a reason',
      pg('XX000', 'boom', 'Check the logs'),
      'unknown',
      'Ocorreu um erro inesperado. Tente novamente.',
    ],
  ])('%s', (_name, error, code, message) => {
    const mapped = mapServerError(error);
    expect(mapped).toMatchObject({ code, message });
    expect(mapped.cause).toContain(error.message);
  });
});

describe('mapServerError: auth and functions errors', () => {
  it.each([
    [
      'wrong password',
      new AuthApiError('Invalid login credentials', 400, 'invalid_credentials'),
      'invalid-credentials',
      'Email ou senha inválidos.',
    ],
    [
      'unconfirmed e-mail',
      new AuthApiError('Email not confirmed', 400, 'email_not_confirmed'),
      'email-not-confirmed',
      'Seu e-mail ainda não foi confirmado. Por favor, verifique sua caixa de entrada e clique no link de confirmação.',
    ],
    [
      'user exists',
      new AuthApiError('User already registered', 422, 'user_already_exists'),
      'user-already-exists',
      'Este e-mail já está cadastrado.',
    ],
    [
      'weak password',
      new AuthWeakPasswordError('Password should be at least 6 characters.', 422, ['length']),
      'weak-password',
      'A senha deve ter no mínimo 8 caracteres',
    ],
    ['no session', new AuthSessionMissingError(), 'not-authenticated', 'Usuário não autenticado.'],
    [
      'other auth code',
      new AuthApiError('Request rate limit reached', 429, 'over_request_rate_limit'),
      'over-request-rate-limit',
      'Ocorreu um erro inesperado. Tente novamente.',
    ],
    [
      'auth offline',
      new AuthRetryableFetchError('Failed to fetch', 0),
      'network',
      'Não foi possível contatar o servidor agora. Verifique a conexão e tente novamente.',
    ],
    [
      'auth 503',
      new AuthRetryableFetchError('Service Unavailable', 503),
      'server-unavailable',
      'O servidor está indisponível no momento. Tente novamente em instantes.',
    ],
    [
      'function unreachable',
      new FunctionsFetchError(new TypeError('fetch failed')),
      'network',
      'Não foi possível contatar o servidor agora. Verifique a conexão e tente novamente.',
    ],
    [
      'function answered non-2xx',
      new FunctionsHttpError({ status: 400 }),
      'function-failed',
      'Ocorreu um erro inesperado. Tente novamente.',
    ],
  ])('%s', (_name, error, code, message) => {
    expect(mapServerError(error)).toMatchObject({ code, message });
  });
});

describe('mapServerError: odd inputs never throw', () => {
  it.each([
    ['undefined', undefined, 'unknown'],
    ['null', null, 'unknown'],
    ['a string', 'something broke', 'unknown'],
    [
      'an aborted fetch (DOMException)',
      new DOMException('The operation was aborted.', 'AbortError'),
      'timeout',
    ],
    ['a timed-out signal', new DOMException('The operation timed out.', 'TimeoutError'), 'timeout'],
    ['a fetch TypeError', new TypeError('Failed to fetch'), 'network'],
  ])('%s', (_name, error, code) => {
    expect(mapServerError(error).code).toBe(code);
  });
});

/** The real supabase-js client; Node 20 has no global WebSocket, so Realtime gets `ws`. */
function unmodifiedClient(url: string) {
  return createClient(url, 'anon-key', {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
}

describe('mapServerError: real transport failures from supabase-js', () => {
  // A server that accepts connections and never answers, and a port nobody listens on.
  const silent = createServer(() => undefined);
  let silentUrl = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('maps a refused connection to network', async () => {
    const client = unmodifiedClient('http://127.0.0.1:9');
    // No automatic retries: the app's own policy (docs/product-rules.md §9) retries, not this one call.
    const { error } = await client.from('medicos').select('id').retry(false);
    expect(mapServerError(error)).toMatchObject({
      code: 'network',
      message: 'Não foi possível contatar o servidor agora. Verifique a conexão e tente novamente.',
    });
  });

  it('maps an aborted request (the 6 s request timeout) to timeout', async () => {
    const client = unmodifiedClient(silentUrl);
    const controller = new AbortController();
    const pending = client.from('medicos').select('id').retry(false).abortSignal(controller.signal);
    controller.abort();
    const { error } = await pending;
    expect(mapServerError(error)).toMatchObject({
      code: 'timeout',
      message: 'A requisição demorou muito para responder. Verifique sua conexão.',
    });
  });
});

describe('helpers', () => {
  it('retriesExhaustedError keeps the last cause', () => {
    const last = mapServerError(new TypeError('Failed to fetch'));
    expect(retriesExhaustedError(last)).toEqual({
      code: 'retries-exhausted',
      message: 'Não foi possível carregar os dados após várias tentativas.',
      cause: last.cause,
    });
  });

  it.each([
    [
      'first field message is shown',
      { cpf: 'CPF inválido.', email: 'E-mail é obrigatório' },
      'CPF inválido.',
      'invalid input at cpf',
    ],
    ['no details', {}, 'Não foi possível processar os dados enviados.', 'invalid input'],
  ])('invalidInputError: %s', (_name, errors, message, cause) => {
    expect(invalidInputError(errors)).toEqual({ code: 'invalid-input', message, cause });
  });
});
