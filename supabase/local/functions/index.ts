import { Hono, type Context } from 'hono';
import type { PlatformContext } from '../context.ts';
import { isOpaqueKey } from '../api-keys.ts';
import { verifyJwt } from '../jwt.ts';
import { gatewayToken } from '../request-auth.ts';
import { installDenoShim } from './deno-shim.ts';
import { findFunction, loadHandler } from './loader.ts';
import { DEFAULT_TIMEOUT_MS, functionEnv, invoke } from './runner.ts';

/** Where server.ts mounts this app: the Supabase URL layout. */
const MOUNT = '/functions/v1/';

/** Gateway answers, in the shapes hosted Supabase sends (docs/platform-wire.md §6). */
const gateway = {
  notFound: {
    status: 404,
    body: { code: 'NOT_FOUND', message: 'Requested function was not found' },
  },
  missingAuth: { status: 401, body: { code: 401, message: 'Missing authorization header' } },
  invalidJwt: { status: 401, body: { code: 401, message: 'Invalid JWT' } },
  bootError: {
    status: 503,
    body: { code: 'BOOT_ERROR', message: 'Function failed to start (please check logs)' },
  },
  workerError: {
    status: 500,
    body: { code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' },
  },
  timeLimit: {
    status: 546,
    body: {
      code: 'WORKER_LIMIT',
      message: 'Function failed due to not having enough compute resources (please check logs)',
    },
  },
} as const;

type GatewayAnswer = (typeof gateway)[keyof typeof gateway];

function answer(a: GatewayAnswer, relayError = false): Response {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (relayError) headers['x-relay-error'] = 'true';
  return new Response(JSON.stringify(a.body), { status: a.status, headers });
}

/** Splits `/functions/v1/<name>/<sub…>` (raw, still encoded) into the name and the rest. */
function route(c: Context): { name: string; subpath: string; search: string } {
  const url = new URL(c.req.url);
  const at = url.pathname.indexOf(MOUNT);
  const tail = at < 0 ? '' : url.pathname.slice(at + MOUNT.length);
  const slash = tail.indexOf('/');
  return {
    name: slash < 0 ? tail : tail.slice(0, slash),
    subpath: slash < 0 ? '' : tail.slice(slash),
    search: url.search,
  };
}

/**
 * The gateway's check before a function with `verify_jwt` runs: a bearer JWT, or an opaque key
 * (`sb_publishable_…` / `sb_secret_…`, which supabase-js sends only as `apikey` here) standing
 * for its role's legacy JWT.
 */
async function verifyCaller(c: Context, ctx: PlatformContext): Promise<GatewayAnswer | null> {
  const header = c.req.header('authorization');
  const apikey = c.req.header('apikey');
  if (!header && !(apikey !== undefined && isOpaqueKey(apikey))) return gateway.missingAuth;
  const passed = gatewayToken({ authorization: header, apikey }, ctx.keys);
  if (!passed.ok) return gateway.invalidJwt;
  const verified = await verifyJwt(passed.token, ctx.keyring);
  return verified.ok ? null : gateway.invalidJwt;
}

/**
 * The headers a function receives: as sent, with `Authorization` added when the caller sent
 * none but an opaque key, as the gateway adds its role's legacy JWT.
 */
function forwardedHeaders(incoming: Headers, ctx: PlatformContext): Headers {
  const apikey = incoming.get('apikey');
  if (incoming.has('authorization') || apikey === null || !isOpaqueKey(apikey)) return incoming;
  const passed = gatewayToken({ apikey }, ctx.keys);
  if (!passed.ok) return incoming;
  const headers = new Headers(incoming);
  headers.set('authorization', `Bearer ${passed.token}`);
  return headers;
}

export type FunctionsOptions = { timeoutMs?: number };

/**
 * Edge Functions (`/functions/v1/<name>[/<sub…>][?query]`): runs
 * `<functionsDir>/<name>/index.ts`, written for Supabase's Deno runtime, in this process.
 * The contract a function can rely on is in README.md beside this file.
 */
export function createFunctionsApp(ctx: PlatformContext, opts: FunctionsOptions = {}): Hono {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  installDenoShim((error) =>
    ctx.log.error({ msg: 'edge function background task failed', error: String(error) }),
  );
  const app = new Hono();
  app.all('*', async (c) => {
    const { name, subpath, search } = route(c);
    const file = await findFunction(ctx.config.functionsDir, name);
    if (!file) return answer(gateway.notFound);

    // `[functions.<name>] verify_jwt` in config.toml; on unless the file turns it off.
    const verifyJwtOn = ctx.config.functions[name]?.verifyJwt ?? true;
    if (verifyJwtOn) {
      const refused = await verifyCaller(c, ctx);
      if (refused) return answer(refused);
    }
    const env = functionEnv(ctx);
    const loaded = await loadHandler(file, env);
    if (!loaded.ok) {
      ctx.log.error({
        msg: 'edge function failed to boot',
        function: name,
        error: String(loaded.error),
      });
      return answer(gateway.bootError, true);
    }

    const incoming = c.req.raw;
    const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
    const req = new Request(`${new URL(incoming.url).origin}/${name}${subpath}${search}`, {
      method: incoming.method,
      headers: forwardedHeaders(incoming.headers, ctx),
      body: hasBody ? incoming.body : null,
      signal: incoming.signal,
      ...(hasBody ? { duplex: 'half' } : {}),
    });
    const result = await invoke(loaded.handler, req, env, timeoutMs);
    if (result.ok) return result.response;
    if (result.reason === 'timeout') {
      ctx.log.error({ msg: 'edge function timed out', function: name, timeoutMs });
      return answer(gateway.timeLimit);
    }
    ctx.log.error({
      msg: 'edge function failed',
      function: name,
      error:
        result.error instanceof Error
          ? (result.error.stack ?? result.error.message)
          : String(result.error),
    });
    return answer(gateway.workerError);
  });
  return app;
}
