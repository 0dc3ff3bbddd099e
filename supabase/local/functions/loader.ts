import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { takeCapturedHandler, withEnv, type ServeHandler } from './deno-shim.ts';

/** Supabase's function-name rule, narrowed: lowercase, digits, `_` and `-`; `_shared` is not one. */
export const FUNCTION_NAME = /^[a-z0-9][a-z0-9_-]{0,127}$/;

export type Loaded = { ok: true; handler: ServeHandler } | { ok: false; error: unknown };

/**
 * A module is evaluated once per process (Node caches it), so the handler it registered is
 * kept per file for every platform in the process, and imports run one at a time: the handler
 * `Deno.serve` captured during an import belongs to that import alone.
 */
const handlers = new Map<string, Promise<Loaded>>();
let importQueue: Promise<unknown> = Promise.resolve();

/** The entry module of function `name`, if the name is valid and `<name>/index.ts` exists. */
export async function findFunction(
  functionsDir: string,
  name: string,
): Promise<string | undefined> {
  if (!FUNCTION_NAME.test(name)) return undefined;
  const file = resolve(join(functionsDir, name, 'index.ts'));
  const info = await stat(file).catch(() => undefined);
  return info?.isFile() ? file : undefined;
}

function importOnce(file: string, env: Readonly<Record<string, string>>): Promise<Loaded> {
  const run = importQueue.then(() =>
    withEnv(env, async (): Promise<Loaded> => {
      takeCapturedHandler();
      try {
        await import(pathToFileURL(file).href);
      } catch (error) {
        return { ok: false, error };
      }
      const handler = takeCapturedHandler();
      return handler
        ? { ok: true, handler }
        : { ok: false, error: new Error('the module never called Deno.serve') };
    }),
  );
  importQueue = run.catch(() => undefined);
  return run;
}

/** The handler of an entry module, importing it on first use. */
export function loadHandler(file: string, env: Readonly<Record<string, string>>): Promise<Loaded> {
  let loaded = handlers.get(file);
  if (!loaded) {
    loaded = importOnce(file, env);
    handlers.set(file, loaded);
  }
  return loaded;
}
