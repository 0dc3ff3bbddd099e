/** Browsers call functions cross-origin through supabase-js; hosted Supabase leaves CORS to us. */
export const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers':
    'authorization, x-client-info, apikey, content-type, x-setup-token',
  'Access-Control-Allow-Methods': 'POST, GET, OPTIONS',
};

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...CORS_HEADERS, 'Content-Type': 'application/json' },
  });
}

export function preflight(req: Request): Response | undefined {
  return req.method === 'OPTIONS' ? new Response('ok', { headers: CORS_HEADERS }) : undefined;
}

/** The JSON object a request carries; an empty body is `{}`, anything else unusable is undefined. */
export async function readJsonObject(req: Request): Promise<Record<string, unknown> | undefined> {
  const text = await req.text().catch(() => undefined);
  if (text === undefined) return undefined;
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A failure carries the HTTP status to answer with when it is the caller's fault. */
export type Result<T> = { ok: true; value: T } | { ok: false; message: string; status?: number };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T>(message: string, status?: number): Result<T> =>
  status === undefined ? { ok: false, message } : { ok: false, message, status };

/** Reads a required variable of the function's environment. */
export function requireEnv(name: string): Result<string> {
  const value = Deno.env.get(name);
  return value ? ok(value) : fail(`Variável de ambiente ${name} não configurada.`);
}

/** A uuid as the database writes it (ids in bodies and tokens are checked against it). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
