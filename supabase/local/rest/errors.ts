import { isPgError } from '../db/index.ts';

/** An error answer in PostgREST's shape: all four keys, `null` when empty. */
export type ApiError = {
  status: number;
  code: string;
  message: string;
  details: string | null | readonly unknown[];
  hint: string | null;
  headers?: Record<string, string>;
};

export type Result<T> = { ok: true; value: T } | { ok: false; error: ApiError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(error: ApiError): Result<T> => ({ ok: false, error });

export function apiError(
  status: number,
  code: string,
  message: string,
  details: ApiError['details'] = null,
  hint: string | null = null,
): ApiError {
  return { status, code, message, details, hint };
}

/**
 * Thrown only inside a database transaction to make it roll back while carrying an answer;
 * caught at the request boundary and turned back into a value.
 */
export class Abort extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

export const parseError = (param: string, value: string, details: string): ApiError =>
  apiError(400, 'PGRST100', `"failed to parse ${param} parameter (${value})"`, details);

export const columnNotFound = (table: string, column: string): ApiError =>
  apiError(400, '42703', `column ${table}.${column} does not exist`);

/** PostgREST's `mapSQLtoHTTP` (docs/platform-wire.md §3.7). */
export function statusForSqlState(code: string, message: string, role: string): number {
  if (code === '42501') return role === 'anon' ? 401 : 403;
  if (code === '23503' || code === '23505') return 409;
  if (code === '25006') return 405;
  if (code === '21000') return message.includes('requires a WHERE clause') ? 400 : 500;
  if (code === '22023') return /role .* does not exist/.test(message) ? 401 : 400;
  if (code === '42883') return 404;
  if (code === '42P01') return 404;
  if (code === '42P17' || code === '53400') return 500;
  if (code === '57P01') return 503;
  if (code === 'P0001') return 400;
  const custom = /^PT(\d{3})$/.exec(code);
  if (custom) return Number(custom[1]);
  const cls = code.slice(0, 2);
  if (cls === '08' || cls === '53') return 503;
  if (cls === '0L' || cls === '0P' || cls === '28') return 403;
  if (
    [
      '09',
      '25',
      '2D',
      '38',
      '39',
      '3B',
      '40',
      '54',
      '55',
      '57',
      '58',
      'F0',
      'HV',
      'XX',
      'P0',
    ].includes(cls)
  ) {
    return 500;
  }
  return 400;
}

/** Postgres errors pass through with their SQLSTATE, as PostgREST forwards them. */
export function fromDatabaseError(e: unknown, role: string): ApiError | undefined {
  if (e instanceof Abort) return e.error;
  if (!isPgError(e) || !e.code) return undefined;
  return apiError(
    statusForSqlState(e.code, e.message, role),
    e.code,
    e.message,
    e.detail ?? null,
    e.hint ?? null,
  );
}

export function errorBody(e: ApiError): string {
  return JSON.stringify({ code: e.code, details: e.details, hint: e.hint, message: e.message });
}
