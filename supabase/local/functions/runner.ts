import type { PlatformContext } from '../context.ts';
import { withEnv, type ServeHandler } from './deno-shim.ts';

/** Hosted Supabase's wall-clock limit for a request to an edge function. */
export const DEFAULT_TIMEOUT_MS = 150_000;

/**
 * The variables a function sees through `Deno.env`, computed per request so a changed
 * `apiExternalUrl` (tests bind a port after start) is what the function reads.
 * `FUNCTION_ENV_<NAME>` in the server's environment becomes `<NAME>`, like a hosted secret;
 * the platform's own names always win, as hosted Supabase reserves `SUPABASE_*`.
 */
export function functionEnv(ctx: PlatformContext): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('FUNCTION_ENV_') && key.length > 13 && value !== undefined)
      env[key.slice(13)] = value;
  }
  const url = ctx.config.apiExternalUrl;
  env.SUPABASE_URL = url;
  env.SUPABASE_ANON_KEY = ctx.keys.anonKey;
  env.SUPABASE_SERVICE_ROLE_KEY = ctx.keys.serviceRoleKey;
  env.MAILBOX_URL = `${url}/mailbox/api/send`;
  env.SITE_URL ??= ctx.config.siteUrl;
  if (ctx.config.databaseUrl) env.SUPABASE_DB_URL = ctx.config.databaseUrl;
  if (ctx.config.setupToken) env.SETUP_TOKEN = ctx.config.setupToken;
  if (ctx.config.turnUrls) env.TURN_URLS = ctx.config.turnUrls;
  if (ctx.config.turnSecret) env.TURN_SECRET = ctx.config.turnSecret;
  if (ctx.config.stunUrls) env.STUN_URLS = ctx.config.stunUrls;
  return env;
}

export type Invocation =
  | { ok: true; response: Response }
  | { ok: false; reason: 'threw' | 'bad_response' | 'timeout'; error?: unknown };

/** Calls the handler with the caller's request, within its env and a wall-clock limit. */
export async function invoke(
  handler: ServeHandler,
  req: Request,
  env: Readonly<Record<string, string>>,
  timeoutMs: number,
): Promise<Invocation> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Invocation>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: 'timeout' }), timeoutMs);
  });
  const run = withEnv(env, async (): Promise<Invocation> => {
    try {
      const response: unknown = await handler(req, {
        remoteAddr: { hostname: '127.0.0.1', port: 0 },
      });
      return response instanceof Response
        ? { ok: true, response }
        : {
            ok: false,
            reason: 'bad_response',
            error: new TypeError('the handler did not return a Response'),
          };
    } catch (error) {
      return { ok: false, reason: 'threw', error };
    }
  });
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
