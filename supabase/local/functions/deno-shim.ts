import { AsyncLocalStorage } from 'node:async_hooks';
import WebSocket from 'ws';

/** The handler an edge function hands to `Deno.serve`. */
export type ServeHandler = (
  req: Request,
  info: { remoteAddr: { hostname: string; port: number } },
) => Response | Promise<Response>;

type ServeOptions = { handler?: ServeHandler; [option: string]: unknown };

/**
 * The environment of the function currently running. Deno.env is one global, but several
 * platforms may live in one process (tests), so each call and each module import runs inside
 * `withEnv` and reads its own values.
 */
const currentEnv = new AsyncLocalStorage<Readonly<Record<string, string>>>();

export function withEnv<T>(env: Readonly<Record<string, string>>, fn: () => T): T {
  return currentEnv.run(env, fn);
}

let captured: ServeHandler | undefined;

/** Takes the handler the last evaluated module passed to `Deno.serve` (see loader.ts). */
export function takeCapturedHandler(): ServeHandler | undefined {
  const handler = captured;
  captured = undefined;
  return handler;
}

function serve(a: ServeHandler | ServeOptions, b?: ServeHandler) {
  const handler = typeof a === 'function' ? a : (b ?? a.handler);
  if (typeof handler !== 'function')
    throw new TypeError('Deno.serve: a handler function is required');
  captured = handler;
  return {
    finished: new Promise<void>(() => {}),
    addr: { transport: 'tcp', hostname: '0.0.0.0', port: 0 },
    ref() {},
    unref() {},
    shutdown: () => Promise.resolve(),
  };
}

const env = {
  get: (name: string): string | undefined => currentEnv.getStore()?.[name],
  has: (name: string): boolean => currentEnv.getStore()?.[name] !== undefined,
  toObject: (): Record<string, string> => ({ ...currentEnv.getStore() }),
};

/**
 * Installs the minimal Deno surface Supabase edge functions use — `Deno.serve`, `Deno.env` and
 * `EdgeRuntime.waitUntil` (plus the global `WebSocket` Deno has). Everything else about Deno is deliberately absent: a function that
 * needs more does not run here. Re-installing is harmless and keeps the globals bound to this
 * module instance (a test runner may load it more than once per process).
 */
export function installDenoShim(onBackgroundError: (error: unknown) => void): void {
  const g = globalThis as { Deno?: unknown; EdgeRuntime?: unknown; WebSocket?: unknown };
  g.Deno = { serve, env };
  // Deno has a global WebSocket; supabase-js refuses to construct a client without one (Node 20).
  g.WebSocket ??= WebSocket;
  g.EdgeRuntime = {
    waitUntil: (promise: Promise<unknown>) => {
      promise.catch(onBackgroundError);
    },
  };
}
