import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import * as v from 'valibot';
import type { PlatformConfig } from '../config.ts';
import { authError } from './errors.ts';

/**
 * Reads a JSON body the way GoTrue's `retrieveRequestParams` does: unparseable JSON and values of
 * the wrong type are both `400 bad_json`; unknown fields are ignored.
 */
export async function readBody<S extends v.GenericSchema>(
  c: Context,
  schema: S,
  opts: { allowEmpty?: boolean } = {},
): Promise<v.InferOutput<S>> {
  const text = await c.req.text();
  let json: unknown;
  try {
    json = opts.allowEmpty && text.trim() === '' ? {} : JSON.parse(text);
  } catch (e) {
    throw authError(
      400,
      'bad_json',
      `Could not parse request body as JSON: ${(e as Error).message}`,
    );
  }
  const problem = unstorable(json);
  if (problem) throw authError(400, 'bad_json', `Could not parse request body as JSON: ${problem}`);
  if (json === null) json = {};
  if (typeof json !== 'object' || Array.isArray(json)) {
    throw authError(
      400,
      'bad_json',
      'Could not parse request body as JSON: expected a JSON object',
    );
  }
  const parsed = v.safeParse(schema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const field = v.getDotPath(issue) ?? 'body';
    throw authError(
      400,
      'bad_json',
      `Could not parse request body as JSON: ${field}: ${issue.message}`,
    );
  }
  return parsed.output;
}

const MAX_DEPTH = 64;

/**
 * Why a parsed body cannot be stored: Postgres text cannot hold U+0000, and deeply nested
 * values would exhaust the stack of later (recursive) serialisation. Walks iteratively.
 */
export function unstorable(value: unknown): string | undefined {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v === 'string' && v.includes('\u0000')) return 'strings must not contain NUL';
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_DEPTH) return `nesting deeper than ${MAX_DEPTH} levels`;
    for (const [k, child] of Object.entries(v)) {
      if (k.includes('\u0000')) return 'strings must not contain NUL';
      stack.push([child, depth + 1]);
    }
  }
  return undefined;
}

/** Fields every client body may carry; `null` is what auth-js sends for an absent PKCE challenge. */
export const optionalString = v.nullish(v.string());
const plainObject = v.custom<Record<string, unknown>>(
  (o) => typeof o === 'object' && o !== null && !Array.isArray(o),
  'Invalid type: Expected Object',
);
export const metadata = v.nullish(v.pipe(plainObject, v.record(v.string(), v.unknown())));

export const PkceFields = {
  code_challenge: optionalString,
  code_challenge_method: optionalString,
};

export type Pkce = { challenge: string; method: 's256' | 'plain' } | undefined;

/** Both or neither, like GoTrue's `validatePKCEParams`; the method is case-insensitive. */
export function pkceParams(body: {
  code_challenge?: string | null;
  code_challenge_method?: string | null;
}): Pkce {
  const challenge = body.code_challenge ?? '';
  const method = (body.code_challenge_method ?? '').toLowerCase();
  if (!challenge && !method) return undefined;
  if (!challenge || !method) {
    throw authError(
      400,
      'validation_failed',
      'PKCE flow requires code_challenge_method and code_challenge',
    );
  }
  if (method !== 's256' && method !== 'plain') {
    throw authError(400, 'validation_failed', `code challenge method not supported: ${method}`);
  }
  if (challenge.length < 43 || challenge.length > 128) {
    throw authError(
      400,
      'validation_failed',
      'code challenge has to be between 43 and 128 characters',
    );
  }
  return { challenge, method };
}

/**
 * GoTrue's redirect allow-list, narrowed to what a local server needs: the site itself, the
 * exact `additional_redirect_urls` of config.toml, or any localhost origin; anything else (or
 * garbage) falls back to the site URL.
 */
export function allowedRedirect(
  requested: string | undefined,
  { siteUrl, additionalRedirectUrls }: Pick<PlatformConfig, 'siteUrl' | 'additionalRedirectUrls'>,
): string {
  if (!requested) return siteUrl;
  if (additionalRedirectUrls.includes(requested)) return requested;
  let url: URL;
  try {
    url = new URL(requested);
  } catch {
    return siteUrl;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return siteUrl;
  if (url.origin === new URL(siteUrl).origin) return requested;
  if (url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]')
    return requested;
  return siteUrl;
}

/** The caller's address for rate limiting; in-process requests (app.request) have none. */
export function clientIp(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
