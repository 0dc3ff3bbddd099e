import type { PlatformContext } from '../context.ts';
import { createIdentityCache } from './identity-cache.ts';
import { createSchemaCacheHolder } from './schema-cache.ts';
import { PGRST_CHANNEL, settingsFromDatabase, type RestSettings } from './settings.ts';

/** What every request reads: the platform, settings, schema caches and the identity cache. */
export type RestState = {
  readonly ctx: PlatformContext;
  /** PostgREST's settings in force, replaced on `NOTIFY pgrst, 'reload config'`. */
  settings: RestSettings;
  /** One schema cache per exposed schema asked for, the default (first) one loaded at start. */
  readonly caches: Map<string, ReturnType<typeof createSchemaCacheHolder>>;
  readonly identifyCached: ReturnType<typeof createIdentityCache>;
};

/**
 * What the REST API keeps between requests: its settings read and its default schema's cache
 * loading. It listens on PostgREST's channel: `NOTIFY pgrst, 'reload schema'` (or no payload)
 * reloads the schema caches, `'reload config'` the settings and then the caches. Resolves with
 * the state and how to stop listening.
 */
export async function openRestState(
  ctx: PlatformContext,
): Promise<{ state: RestState; close: () => Promise<void> }> {
  const state: RestState = {
    ctx,
    settings: await readRestSettings(ctx),
    caches: new Map(),
    identifyCached: createIdentityCache(ctx),
  };
  warmDefaultSchema(state);
  const close = await ctx.db.listen(PGRST_CHANNEL, (payload) => void onPgrst(state, payload));
  return { state, close };
}

function warmDefaultSchema(s: RestState): void {
  cacheOf(s, s.settings.schemas[0] ?? 'public')
    .get()
    .catch((e: unknown) => s.ctx.log.error({ msg: 'rest schema cache failed', error: String(e) }));
}

async function onPgrst(s: RestState, payload: string): Promise<void> {
  const what = payload.trim().toLowerCase();
  try {
    if (what === 'reload config') {
      s.settings = await readRestSettings(s.ctx);
      s.ctx.log.info({ msg: 'rest config reloaded' });
    } else if (what !== '' && what !== 'reload schema') {
      return;
    }
    s.caches.clear();
    warmDefaultSchema(s);
  } catch (e) {
    s.ctx.log.error({ msg: 'rest reload failed', payload, error: String(e) });
  }
}

/** The cache of an exposed schema (handle() lets only those through), made when first asked. */
export function cacheOf(s: RestState, schema: string) {
  let cache = s.caches.get(schema);
  if (!cache) {
    cache = createSchemaCacheHolder(s.ctx.db, schema);
    s.caches.set(schema, cache);
  }
  return cache;
}

/**
 * The settings in force: config.toml's (or the defaults) under the authenticator role's under
 * the variables'. A role setting that does not parse is logged and left out, as PostgREST
 * keeps serving when a reload finds a bad value.
 */
export async function readRestSettings(ctx: PlatformContext): Promise<RestSettings> {
  const inDatabase = await settingsFromDatabase(ctx.db);
  for (const problem of inDatabase.problems) {
    ctx.log.error({ msg: 'rest setting ignored', problem });
  }
  return { ...ctx.config.rest, ...inDatabase.values, ...ctx.config.restOverrides };
}
