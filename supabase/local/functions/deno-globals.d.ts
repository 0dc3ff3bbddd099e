/**
 * The part of Supabase's Deno edge runtime that functions may use, both on hosted Supabase and
 * in supabase/local (see README.md): `Deno.serve`, `Deno.env` and `EdgeRuntime.waitUntil`.
 * Ambient, so `supabase/functions/**` type-checks without importing anything from here.
 */
declare namespace Deno {
  type ServeHandlerInfo = { remoteAddr: { hostname: string; port: number } };
  type ServeHandler = (req: Request, info: ServeHandlerInfo) => Response | Promise<Response>;
  type HttpServer = {
    finished: Promise<void>;
    shutdown(): Promise<void>;
    ref(): void;
    unref(): void;
  };

  function serve(handler: ServeHandler): HttpServer;
  function serve(options: Record<string, unknown>, handler: ServeHandler): HttpServer;
  function serve(options: { handler: ServeHandler } & Record<string, unknown>): HttpServer;

  const env: {
    get(name: string): string | undefined;
    has(name: string): boolean;
    toObject(): Record<string, string>;
  };
}

declare const EdgeRuntime: { waitUntil(promise: Promise<unknown>): void };
