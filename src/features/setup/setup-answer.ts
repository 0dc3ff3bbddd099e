import * as v from 'valibot';
import { mapFunctionAnswer, shownMessage } from '@/domain/errors/map-server-error.ts';
import type { FunctionAnswer } from './invoke-function.ts';

/**
 * What the setup, cleanup and application functions answer (supabase/functions/README.md), read
 * into what the pages show. Pure: the page hands in the answer; a failure's words come from the
 * one mapper (src/domain/errors/map-server-error.ts).
 */
export const SETUP_TEXTS = {
  title: 'Configuração de Conta de Médico',
  loading: 'Executando a configuração...',
  exists: 'Nenhuma ação foi necessária.',
  failed: 'Ocorreu um erro ao executar a configuração.',
  unknown: 'Erro desconhecido.',
  unexpected: 'Resposta inesperada da função.',
  unexpectedLink: 'Resposta inesperada da função de vínculo.',
  missingName: 'Nome da função não especificado.',
  toLogin: 'Ir para o Login do Médico',
  home: 'Voltar ao início',
  cleanupTitle: 'Limpeza de Perfis Duplicados',
  cleaning: 'Limpando perfis duplicados...',
  cleanupFailed: 'Ocorreu um erro ao executar a limpeza.',
  cleanupDone: 'Operação concluída com sucesso!',
  toBooking: 'Ir para Agendamentos',
  applicationTitle: 'Solicitação de Cadastro de Médico',
  processing: 'Processando sua decisão...',
  invalidParams: 'Parâmetros inválidos. Ação ou token ausente.',
  applicationFailed: 'Não foi possível processar a decisão. Tente novamente mais tarde.',
  tokenLabel: 'Token de configuração',
  tokenFormLabel: 'Autorizar a configuração',
  tokenHint:
    'Esta operação altera dados existentes e precisa do token de configuração do servidor (SETUP_TOKEN).',
  tokenSubmit: 'Continuar',
  tokenRefused: 'Token de configuração inválido.',
} as const;

export type SetupOutcome =
  | { state: 'success'; message: string; details: string[] }
  | { state: 'exists'; message: string }
  /** The function wants the setup token (none was sent, or the one sent was wrong). */
  | { state: 'needs-token' }
  | { state: 'error'; message: string };

const Body = v.looseObject({
  status: v.optional(v.unknown()),
  message: v.optional(v.unknown()),
  error: v.optional(v.unknown()),
  success: v.optional(v.unknown()),
  details: v.optional(v.unknown()),
});

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** One line per cleaned doctor: 'Dra. Ana Ribeiro: 2 removido(s)'. */
function detailLines(details: unknown): string[] {
  if (!Array.isArray(details)) return [];
  return details.flatMap((entry: unknown) => {
    if (typeof entry === 'string') return [entry];
    const parsed = v.safeParse(
      v.object({ doctor: v.string(), removed: v.optional(v.array(v.unknown()), []) }),
      entry,
    );
    return parsed.success
      ? [`${parsed.output.doctor}: ${parsed.output.removed.length} removido(s)`]
      : [];
  });
}

export type AnswerKind = 'setup' | 'link' | 'cleanup';

/** A failure's detail: the function's own words or the timeout's, else 'Erro desconhecido.'. */
const DETAILED_CODES = ['timeout', 'function-refused'];

/** Reads a setup-style answer: `{status: 'ok' | 'exists', message}` or `{error, message}`. */
export function readSetupAnswer(answer: FunctionAnswer, kind: AnswerKind): SetupOutcome {
  const parsed = v.safeParse(Body, answer.body);
  const fields = parsed.success ? parsed.output : {};
  const message = text(fields.message);
  const error = text(fields.error);
  if (answer.status === 401) return { state: 'needs-token' };
  if (answer.error) {
    const failed = kind === 'cleanup' ? SETUP_TEXTS.cleanupFailed : SETUP_TEXTS.failed;
    const detail = shownMessage(answer.error, SETUP_TEXTS.unknown, DETAILED_CODES);
    return { state: 'error', message: `${failed} ${detail}` };
  }
  if (fields.status === 'exists')
    return { state: 'exists', message: message ?? SETUP_TEXTS.exists };
  if (fields.status === 'ok' || (kind === 'link' && (message || error))) {
    const fallback = kind === 'cleanup' ? SETUP_TEXTS.cleanupDone : '';
    return {
      state: 'success',
      message: message ?? error ?? fallback,
      details: detailLines(fields.details),
    };
  }
  return {
    state: 'error',
    message: kind === 'link' ? SETUP_TEXTS.unexpectedLink : SETUP_TEXTS.unexpected,
  };
}

export type ApplicationOutcome =
  { state: 'success'; message: string } | { state: 'error'; message: string };

/** `process-doctor-application` answers `{success, message}`. */
export function readApplicationAnswer(answer: FunctionAnswer): ApplicationOutcome {
  const parsed = v.safeParse(Body, answer.body);
  const fields = parsed.success ? parsed.output : {};
  if (!answer.error && fields.success === true) {
    const message = text(fields.message) ?? text(fields.error);
    return { state: 'success', message: message ?? SETUP_TEXTS.cleanupDone };
  }
  const failure = answer.error ?? mapFunctionAnswer(answer.status, answer.body);
  return {
    state: 'error',
    message: shownMessage(failure, SETUP_TEXTS.applicationFailed, DETAILED_CODES),
  };
}
