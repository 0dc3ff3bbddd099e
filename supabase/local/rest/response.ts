import { apiError, errorBody, type ApiError } from './errors.ts';
import type { Representation } from './negotiate.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';
const OBJECT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';
const CSV_TYPE = 'text/csv; charset=utf-8';

/** A REST answer, written to Node's response by rest/index.ts (no Fetch `Response` per request). */
export type Reply = { status: number; headers: Record<string, string>; body: string | null };

export const reply = (
  status: number,
  body: string | null,
  headers: Record<string, string> = {},
): Reply => ({ status, headers, body });

export function errorReply(e: ApiError, head = false): Reply {
  return reply(e.status, head ? null : errorBody(e), { 'content-type': JSON_TYPE, ...e.headers });
}

export function contentType(rep: Representation): string {
  return rep.kind === 'object' ? OBJECT_TYPE : rep.kind === 'csv' ? CSV_TYPE : JSON_TYPE;
}

/** `first-last/total` as PostgREST writes it; `*` where unknown. */
export function contentRange(offset: number, page: number, total: number | undefined): string {
  const size = total === undefined ? '*' : String(total);
  return page > 0 ? `${offset}-${offset + page - 1}/${size}` : `*/${size}`;
}

export const singularError = (rows: number): ApiError =>
  apiError(
    406,
    'PGRST116',
    'Cannot coerce the result to a single JSON object',
    `The result contains ${rows} rows`,
  );
