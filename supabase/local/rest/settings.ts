import type { Queryable } from '../db/index.ts';

/**
 * PostgREST's configuration as the REST API uses it, from three places (README
 * "Configuration"): `[api]` of supabase/config.toml (the Supabase CLI's keys) and the defaults
 * under it; over them the `pgrst.*` settings of the `authenticator` role, read at start and on
 * `NOTIFY pgrst, 'reload config'` as PostgREST's in-database configuration; over everything the
 * `REST_DB_*` variables, so an operator's environment always wins. (PostgREST ranks its own
 * environment below the database; here the variables are the platform's, not PostgREST's.)
 */
export type RestSettings = {
  /** db-aggregates-enabled: `col.sum()`, `count()`… in `select` (off: PGRST123). */
  aggregates: boolean;
  /** db-plan-enabled: `Accept: application/vnd.pgrst.plan+json` answers EXPLAIN. */
  planEnabled: boolean;
  /** db-schemas: the schemas REST exposes, the first the default profile. */
  schemas: string[];
  /** db-max-rows: the most rows one read returns. */
  maxRows: number;
  /** db-extra-search-path: the `search_path` of a request after its schema. */
  extraSearchPath: string[];
  /** db-tx-end: whether a request's transaction commits, and whether `Prefer: tx=` may choose. */
  txEnd: TxEnd;
};

export const TX_ENDS = [
  'commit',
  'commit-allow-override',
  'rollback',
  'rollback-allow-override',
] as const;
export type TxEnd = (typeof TX_ENDS)[number];

/** Without config.toml, environment or database: PostgREST's defaults, the CLI's schemas. */
export const DEFAULT_REST_SETTINGS: RestSettings = {
  aggregates: false,
  planEnabled: false,
  schemas: ['public', 'graphql_public'],
  maxRows: 1000,
  extraSearchPath: ['public', 'extensions'],
  txEnd: 'commit',
};

type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };
const good = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = (reason: string): Parsed<never> => ({ ok: false, reason });

/** A schema name PostgREST and the CLI accept unquoted. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_$]*$/i;

/** PostgREST's boolean: `true`/`false` in any case, or a number (> 0 is true). */
function parseFlag(text: string): Parsed<boolean> {
  const word = text.replace(/[^a-z]/gi, '').toLowerCase();
  if (word === 'true' || word === 'false') return good(word === 'true');
  if (/^\s*-?\d+\s*$/.test(text)) return good(Number(text) > 0);
  return bad('must be true or false');
}

/** A comma list of schema names, as PostgREST splits it (blanks around commas ignored). */
function parseSchemaList(text: string, emptyAllowed: boolean): Parsed<string[]> {
  const names = text.trim() === '' ? [] : text.split(',').map((s) => s.trim());
  if (!emptyAllowed && names.length === 0) return bad('must name at least one schema');
  const wrong = names.find((n) => !SCHEMA_NAME.test(n));
  return wrong === undefined ? good(names) : bad(`'${wrong}' is not a schema name`);
}

function parseMaxRows(text: string): Parsed<number> {
  return /^\s*\d+\s*$/.test(text) && Number(text) > 0
    ? good(Number(text))
    : bad('must be a positive integer');
}

function parseTxEnd(text: string): Parsed<TxEnd> {
  const value = text.trim() as TxEnd;
  return TX_ENDS.includes(value) ? good(value) : bad(`must be one of ${TX_ENDS.join(', ')}`);
}

/** How each setting is read from text, by its PostgREST name (`db-…`). */
const PARSERS: {
  [K in keyof RestSettings]: [name: string, parse: (t: string) => Parsed<RestSettings[K]>];
} = {
  aggregates: ['db-aggregates-enabled', parseFlag],
  planEnabled: ['db-plan-enabled', parseFlag],
  schemas: ['db-schemas', (t) => parseSchemaList(t, false)],
  maxRows: ['db-max-rows', parseMaxRows],
  extraSearchPath: ['db-extra-search-path', (t) => parseSchemaList(t, true)],
  txEnd: ['db-tx-end', parseTxEnd],
};

const KEYS = Object.keys(PARSERS) as (keyof RestSettings)[];

/** The environment variable that overrides a setting: `REST_DB_MAX_ROWS` for db-max-rows. */
export const envName = (key: keyof RestSettings) =>
  `REST_${PARSERS[key][0].replace(/-/g, '_').toUpperCase()}`;

export type SettingsRead = { values: Partial<RestSettings>; problems: string[] };

/** Settings given as text by PostgREST name; the names this platform does not use are ignored. */
function readTexts(
  texts: ReadonlyMap<string, string>,
  where: (name: string) => string,
): SettingsRead {
  const values: Partial<Record<keyof RestSettings, unknown>> = {};
  const problems: string[] = [];
  for (const key of KEYS) {
    const [name, parse] = PARSERS[key];
    const text = texts.get(name);
    if (text === undefined) continue;
    const parsed = parse(text);
    if (parsed.ok) values[key] = parsed.value;
    else problems.push(`${where(name)}: ${parsed.reason}`);
  }
  return { values: values as Partial<RestSettings>, problems };
}

/** The `REST_DB_*` variables that are set. */
export function settingsFromEnv(env: Readonly<Record<string, string | undefined>>): SettingsRead {
  const texts = new Map<string, string>();
  for (const key of KEYS) {
    const value = env[envName(key)];
    if (value !== undefined && value !== '') texts.set(PARSERS[key][0], value);
  }
  return readTexts(texts, (name) => `REST_${name.replace(/-/g, '_').toUpperCase()}`);
}

/** The role whose `pgrst.*` settings configure PostgREST on hosted Supabase. */
export const AUTHENTICATOR = 'authenticator';

/**
 * PostgREST's in-database configuration query, for the authenticator role rather than the
 * connected user (the platform connects as the database owner): this database's settings of
 * the role (`alter role authenticator in database … set`) over its cluster-wide ones.
 */
const IN_DB_SQL = `
  select distinct on (key) replace(k, 'pgrst.', '') as key, v as value
  from (
    select s.setdatabase as database,
           substr(c, 1, strpos(c, '=') - 1) as k,
           substr(c, strpos(c, '=') + 1) as v
    from pg_catalog.pg_db_role_setting s
    join pg_catalog.pg_roles r on r.oid = s.setrole
    cross join unnest(s.setconfig) as c
    where r.rolname = $1
      and s.setdatabase in (0, (select oid from pg_catalog.pg_database where datname = current_catalog))
  ) kv
  where k like 'pgrst.%' and v is not null
  order by key, database desc`;

/** The authenticator role's `pgrst.*` settings, `db_max_rows` read as db-max-rows. */
export async function settingsFromDatabase(db: Queryable): Promise<SettingsRead> {
  const { rows } = await db.query<{ key: string; value: string }>(IN_DB_SQL, [AUTHENTICATOR]);
  const texts = new Map(rows.map((r) => [r.key.replace(/_/g, '-'), r.value]));
  return readTexts(texts, (name) => `pgrst.${name.replace(/-/g, '_')} of role ${AUTHENTICATOR}`);
}

/** PostgREST's channel (its db-channel): `NOTIFY pgrst, 'reload config'`. */
export const PGRST_CHANNEL = 'pgrst';

/** `search_path` of a request to `schema`: the schema, then db-extra-search-path (PostgREST's). */
export function searchPathOf(schema: string, settings: RestSettings): string {
  let bySchema = searchPaths.get(settings);
  if (!bySchema) searchPaths.set(settings, (bySchema = new Map<string, string>()));
  let path = bySchema.get(schema);
  if (path === undefined) {
    path = [schema, ...settings.extraSearchPath]
      .map((s) => `"${s.replace(/"/g, '""')}"`)
      .join(', ');
    bySchema.set(schema, path);
  }
  return path;
}

/**
 * Search paths built so far, per settings in force (a reload replaces the object) and exposed
 * schema: every request needs one, and building it anew cost a visible share of a REST insert.
 */
const searchPaths = new WeakMap<RestSettings, Map<string, string>>();

/** Whether a request's transaction ends in ROLLBACK: db-tx-end, and `Prefer: tx=` where allowed. */
export function rollsBack(txEnd: TxEnd, preferred: 'commit' | 'rollback' | undefined): boolean {
  if (txEnd === 'commit-allow-override') return preferred === 'rollback';
  if (txEnd === 'rollback-allow-override') return preferred !== 'commit';
  return txEnd === 'rollback';
}
