import { REQUEST_TIMEOUT_MS } from '@/domain/requests/retry-policy.ts';

/**
 * A plain `fetch` of PostgREST rows, for a screen's first read before supabase-js and the
 * replica engine are loaded (the booking page's schedule, the doctor's first consultas). It
 * imports nothing but a constant: it is also compiled into the script inlined in index.html
 * (src/app/early-reads.ts).
 */

/** Where the REST API is and the public key it takes (PostgREST behind `rest/v1`). */
export type RestEndpoint = { url: string; key: string };

export type RestReadOptions = {
  /** A signed-in person's access token (RLS then decides the rows); the public key without. */
  token?: string;
  /** Ask for the number of rows matching, whatever the limit (`Prefer: count=exact`). */
  count?: boolean;
};

/** The rows as the server sent them, and how many match when `count` was asked for. */
export type RestRows = { body: unknown; total: number | null };

/** PostgREST's `Content-Range: 0-9/5000` (or `*\/0`): the total after the slash. */
function totalOf(range: string | null): number | null {
  const total = range?.split('/')[1];
  return total === undefined || total === '*' ? null : Number(total);
}

/** Rows of `table` matching PostgREST `query`; rejects on an error answer. */
export async function readRest(
  endpoint: RestEndpoint,
  table: string,
  query: Record<string, string>,
  options: RestReadOptions = {},
): Promise<RestRows> {
  const base = endpoint.url.endsWith('/') ? endpoint.url : `${endpoint.url}/`;
  const url = new URL(`rest/v1/${table}?${new URLSearchParams(query).toString()}`, base);
  const headers: Record<string, string> = {
    apikey: endpoint.key,
    Authorization: `Bearer ${options.token ?? endpoint.key}`,
  };
  if (options.count) headers.Prefer = 'count=exact';
  const response = await fetch(url, {
    headers,
    // The screen stops waiting sooner and shows the replica; this frees the connection of a
    // read that would never answer.
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`${table}: HTTP ${response.status}`);
  return { body: await response.json(), total: totalOf(response.headers.get('content-range')) };
}
