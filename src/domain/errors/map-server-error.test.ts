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
  StorageApiError,
  createClient,
} from '@supabase/supabase-js';
import { REQUEST_TIMEOUT_CAUSE } from '../requests/retry-policy.ts';
import { ERROR_MESSAGES } from './messages.ts';
import {
  AUTH_FORM_CODES,
  mapFunctionAnswer,
  mapReplicationMessage,
  mapServerError,
  mapWriteError,
  retriesExhaustedError,
  shownMessage,
} from './map-server-error.ts';

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
      'too many requests',
      new AuthApiError('Request rate limit reached', 429, 'over_request_rate_limit'),
      'over-request-rate-limit',
      'Muitas tentativas. Aguarde alguns minutos e tente novamente.',
    ],
    [
      'too many e-mails',
      new AuthApiError('Email rate limit exceeded', 429, 'over_email_send_rate_limit'),
      'over-email-send-rate-limit',
      'Muitas tentativas de envio de e-mail. Aguarde alguns minutos e tente novamente.',
    ],
    [
      'same password',
      new AuthApiError('New password should be different', 422, 'same_password'),
      'same-password',
      'A nova senha deve ser diferente da senha atual.',
    ],
    [
      'invalid e-mail',
      new AuthApiError('Unable to validate email address', 400, 'email_address_invalid'),
      'email-address-invalid',
      'Endereço de e-mail inválido',
    ],
    [
      'validation failed',
      new AuthApiError('Validation failed', 400, 'validation_failed'),
      'validation-failed',
      'Verifique os dados informados e tente novamente.',
    ],
    [
      'sign-ups disabled',
      new AuthApiError('Signups not allowed', 422, 'signup_disabled'),
      'signup-disabled',
      'Novos cadastros estão temporariamente indisponíveis.',
    ],
    [
      "a recovery link's session is gone",
      new AuthApiError('Session not found', 403, 'session_not_found'),
      'session-expired',
      'Sua sessão expirou. Abra novamente o link recebido por e-mail.',
    ],
    [
      'session expired',
      new AuthApiError('Session expired', 403, 'session_expired'),
      'session-expired',
      'Sua sessão expirou. Abra novamente o link recebido por e-mail.',
    ],
    [
      'other auth code',
      new AuthApiError('Token has invalid claims', 403, 'bad_jwt'),
      'bad-jwt',
      'Ocorreu um erro inesperado. Tente novamente.',
    ],
    [
      "GoTrue's own 500 is an auth error, not an unavailable server",
      new AuthApiError('Unexpected failure', 500, 'unexpected_failure'),
      'unexpected-failure',
      'Ocorreu um erro inesperado. Tente novamente.',
    ],
    [
      'auth offline',
      new AuthRetryableFetchError('Failed to fetch', 0),
      'network',
      'Não foi possível contatar o servidor agora. Verifique a conexão e tente novamente.',
    ],
    [
      // auth-js reports a gateway's 502/503/504 as a retryable fetch: network-type (§8 "Profile").
      'auth 503',
      new AuthRetryableFetchError('Service Unavailable', 503),
      'network',
      'Não foi possível contatar o servidor agora. Verifique a conexão e tente novamente.',
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
    [
      "storage's row-level security refusal (HTTP 400, statusCode '403')",
      new StorageApiError('new row violates row-level security policy', 400, '403'),
      'permission-denied',
      ERROR_MESSAGES.permissionDenied,
    ],
    [
      'storage object not found',
      new StorageApiError('Object not found', 400, '404'),
      'not-found',
      ERROR_MESSAGES.notFound,
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
});

/** What src/lib/request-deadline.ts aborts a request with. */
function deadline() {
  return Object.assign(new Error(REQUEST_TIMEOUT_CAUSE), { name: 'TimeoutError' });
}

describe('mapServerError: the request deadline, through what supabase-js wraps it in', () => {
  it.each([
    ['the error itself', deadline()],
    ["auth-js's message", new AuthRetryableFetchError(REQUEST_TIMEOUT_CAUSE, 0)],
    ["postgrest-js's prefixed message", { message: `TimeoutError: ${REQUEST_TIMEOUT_CAUSE}` }],
    ["functions-js's context", new FunctionsFetchError(deadline())],
    [
      "storage-js's originalError",
      { name: 'StorageUnknownError', message: 'x', originalError: deadline() },
    ],
  ])('%s', (_name, error) => {
    expect(mapServerError(error)).toMatchObject({
      code: 'timeout',
      message: ERROR_MESSAGES.timeout,
    });
  });

  it('a failed fetch or a refusal is no timeout', () => {
    expect(mapServerError(new TypeError('fetch failed')).code).toBe('network');
    expect(mapServerError({ message: 'invalid' }).code).toBe('unknown');
  });
});

describe("mapServerError: the sync engine's refusals (sync/errors.ts ServerFailure)", () => {
  it.each([
    [
      'a booking on a taken slot',
      {
        status: 409,
        code: '23505',
        message: 'duplicate key value violates unique constraint "agendamentos_slot_unico"',
        details: 'Este horário já foi reservado.',
        hint: 'slot_taken',
      },
      'slot-taken',
      'Este horário já foi reservado.',
    ],
    [
      'a rule of an RPC',
      {
        status: 400,
        code: 'P0001',
        message: 'Este agendamento já foi cancelado.',
        details: null,
        hint: 'already_cancelled',
      },
      'already-cancelled',
      'Este agendamento já foi cancelado.',
    ],
    [
      'a trigger refusing a profile write',
      { status: 400, code: '23514', message: 'CPF inválido.', details: null, hint: 'invalid_cpf' },
      'invalid-cpf',
      'CPF inválido.',
    ],
    [
      'a row-level security refusal',
      {
        status: 403,
        code: '42501',
        message: 'new row violates row-level security policy for table "medicos"',
        details: null,
        hint: null,
      },
      'permission-denied',
      'Você não tem permissão para realizar esta ação.',
    ],
  ])('%s', (_name, failure, code, message) => {
    expect(mapServerError(failure)).toMatchObject({ code, message });
  });
});

describe("mapFunctionAnswer: an edge function's refusal", () => {
  it.each([
    [
      "a setup function's {error}",
      403,
      { error: 'Alteração desativada: SETUP_TOKEN não configurado no servidor.' },
      'function-refused',
      'Alteração desativada: SETUP_TOKEN não configurado no servidor.',
    ],
    [
      "the application's {success: false, message}",
      200,
      { success: false, message: 'Token inválido ou expirado.' },
      'function-refused',
      'Token inválido ou expirado.',
    ],
    ['no words', 500, null, 'function-failed', ERROR_MESSAGES.unknown],
  ])('%s', (_name, status, body, code, message) => {
    const mapped = mapFunctionAnswer(status, body);
    expect(mapped).toMatchObject({ code, message });
    expect(mapped.cause).toContain(`status ${status}`);
  });
});

describe('mapReplicationMessage: what the replica records for a table it could not fetch', () => {
  it.each([
    [
      "the server's message is kept",
      'Erro de permissão.',
      'replication-failed',
      'Erro de permissão.',
    ],
    ['timed out', 'TimeoutError: signal timed out', 'timeout', ERROR_MESSAGES.timeout],
    ['aborted', 'AbortError: aborted', 'timeout', ERROR_MESSAGES.timeout],
    [
      'no answer',
      'TypeError: fetch failed',
      'server-unavailable',
      ERROR_MESSAGES.serverUnavailable,
    ],
    ['a 5xx without a body', 'HTTP 503', 'server-unavailable', ERROR_MESSAGES.serverUnavailable],
    ['nothing recorded', '', 'replication-failed', ERROR_MESSAGES.unknown],
  ])('%s', (_name, recorded, code, message) => {
    expect(mapReplicationMessage(recorded)).toMatchObject({ code, message });
  });
});

describe("shownMessage: a screen's words for a failure", () => {
  it.each([
    [
      'a timeout, by default',
      new AuthRetryableFetchError(REQUEST_TIMEOUT_CAUSE, 0),
      [],
      ERROR_MESSAGES.timeout,
    ],
    ['any other failure, by default', new TypeError('fetch failed'), [], 'fallback'],
    [
      'an auth form explains a weak password',
      new AuthWeakPasswordError('Password should be at least 6 characters.', 422, ['length']),
      AUTH_FORM_CODES,
      ERROR_MESSAGES.weakPassword,
    ],
    [
      'an auth form explains a network failure',
      new AuthRetryableFetchError('Failed to fetch', 0),
      AUTH_FORM_CODES,
      ERROR_MESSAGES.network,
    ],
    [
      "an auth form keeps its own words for GoTrue's English",
      new AuthApiError('User not allowed', 403, 'not_admin'),
      AUTH_FORM_CODES,
      'fallback',
    ],
    [
      'an auth form does not explain a missing session',
      new AuthSessionMissingError(),
      AUTH_FORM_CODES,
      'fallback',
    ],
  ])('%s', (_name, error, shown, words) => {
    const codes = shown.length > 0 ? shown : undefined;
    expect(shownMessage(mapServerError(error), 'fallback', codes)).toBe(words);
  });
});

describe("mapWriteError: the sync engine's refusal of a local write", () => {
  it.each([
    ['storage-full', 'storage-full', ERROR_MESSAGES.storageFull],
    ['not-allowed', 'permission-denied', ERROR_MESSAGES.permissionDenied],
    ['invalid-input', 'invalid-input', ERROR_MESSAGES.invalidRequest],
    ['not-found', 'not-found', ERROR_MESSAGES.notFound],
    ['something new', 'unknown', ERROR_MESSAGES.unknown],
  ])('%s', (error, code, message) => {
    expect(mapWriteError(error)).toEqual({ code, message, cause: `local write refused: ${error}` });
  });
});
