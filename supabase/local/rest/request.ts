import type { IncomingHttpHeaders } from 'node:http';
import type { Identity } from '../request-auth.ts';
import type { BodySource } from './body.ts';
import { apiError, fail, ok, type ApiError, type Result } from './errors.ts';
import {
  checkProfile,
  negotiate,
  parsePrefer,
  type Preferences,
  type Representation,
} from './negotiate.ts';
import { rollsBack } from './settings.ts';
import type { RestState } from './state.ts';

const TABLE_METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'];
const RPC_METHODS = ['GET', 'HEAD', 'POST'];

/** One request below /rest/v1, as rest/index.ts hands it over from Node. */
export type RestInput = {
  method: string;
  /** Node's parsed headers, by lower-case name. */
  headers: IncomingHttpHeaders;
  /** The query string, without `?`. */
  query: string;
  body: BodySource;
};

/** A request admitted: its caller, schema, representation and preferences known. */
export type RestRequest = {
  method: string;
  headers: IncomingHttpHeaders;
  /** All request headers as one string each, for `request.headers`. */
  settingsHeaders: Record<string, string>;
  body: BodySource;
  query: URLSearchParams;
  name: string;
  rpc: boolean;
  head: boolean;
  identity: Identity;
  representation: Representation;
  prefer: Preferences;
  /** The exposed schema asked for by Accept-Profile / Content-Profile, or the default. */
  schema: string;
  /** Whether the transaction ends in ROLLBACK (db-tx-end, `Prefer: tx=`). */
  rollback: boolean;
};

function authError(reason: string, message: string): ApiError {
  if (reason === 'missing') {
    return apiError(
      401,
      'PGRST301',
      'No API key found in request',
      null,
      'No `apikey` request header or url param was found.',
    );
  }
  const code = reason === 'expired' || reason === 'bad_claims' ? 'PGRST303' : 'PGRST301';
  return {
    ...apiError(401, code, message),
    headers: {
      'www-authenticate': `Bearer error="invalid_token", error_description="${message.replace(/"/g, "'")}"`,
    },
  };
}

/**
 * What PostgREST checks before it plans anything — the method, the schema profile, the
 * caller's key and token, the media type asked for and `Prefer` — in that order, so a request
 * wrong in several ways gets the same error it would get there.
 */
export async function admit(
  s: RestState,
  input: RestInput,
  name: string,
  rpc: boolean,
): Promise<Result<RestRequest>> {
  const { method, headers } = input;
  const head = method === 'HEAD';
  if (!(rpc ? RPC_METHODS : TABLE_METHODS).includes(method)) {
    return fail(apiError(405, 'PGRST117', `Unsupported HTTP method: ${method}`));
  }
  const write = method !== 'GET' && !head;
  const profile = checkProfile(
    one(write ? headers['content-profile'] : headers['accept-profile']),
    s.settings.schemas,
  );
  if (!profile.ok) return profile;
  const who = await s.identifyCached(headers.authorization ?? null, one(headers.apikey));
  if (!who.ok) return fail(authError(who.reason, who.message));
  const representation = negotiate(headers.accept ?? null);
  if (!representation.ok) return representation;
  if (representation.value.kind === 'plan' && ((write && !rpc) || !s.settings.planEnabled)) {
    const offered = one(headers.accept) ?? '';
    return fail(apiError(406, 'PGRST107', `None of these media types are available: ${offered}`));
  }
  const prefer = parsePrefer(one(headers.prefer));
  if (!prefer.ok) return prefer;
  return ok({
    method,
    headers,
    settingsHeaders: settingsHeaders(headers),
    body: input.body,
    query: new URLSearchParams(input.query),
    name,
    rpc,
    head,
    identity: who.identity,
    representation: representation.value,
    prefer: prefer.value,
    schema: profile.value,
    rollback: rollsBack(s.settings.txEnd, prefer.value.tx),
  });
}

/** A header Node may hand over repeated (one it neither joins nor dedupes itself), as one value. */
export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

export const one = (value: string | string[] | undefined) => headerText(value) ?? null;

/** `request.headers` as PostgREST sets it: every header, repeated ones joined. */
function settingsHeaders(parsed: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in parsed) {
    const value = headerText(parsed[name]);
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}
