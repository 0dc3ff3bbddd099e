import * as v from 'valibot';
import {
  ConfigError,
  JWT_EXPIRY_TOO_SHORT,
  MIN_JWT_EXPIRY_SECONDS,
  readProjectSettings,
  type FileOnlySettings,
} from './project-config.ts';
import { settingsFromEnv, type RestSettings } from './rest/settings.ts';

export { ConfigError } from './project-config.ts';

/** The documented development secret of the Supabase CLI; never use it for a public deployment. */
export const DEV_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

const port = v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(0), v.maxValue(65535));
const flag = v.pipe(
  v.picklist(['true', 'false', '1', '0']),
  v.transform((s) => s === 'true' || s === '1'),
);

/** A comma-separated list of ICE server URLs of one scheme (RFC 7064/7065). */
function iceUrls(scheme: RegExp, message: string) {
  return v.pipe(
    v.string(),
    v.check(
      (s) =>
        s.split(',').every((url) => scheme.test(url.trim()) && /^[a-z]+:\S+$/.test(url.trim())),
      message,
    ),
  );
}

const EnvSchema = v.object({
  SUPABASE_CONFIG: v.optional(v.string(), 'supabase/config.toml'),
  API_PORT: v.optional(port),
  APP_PORT: v.optional(port),
  HOST: v.optional(v.string()),
  DATA_DIR: v.optional(v.string(), '.data'),
  DATABASE_URL: v.optional(v.pipe(v.string(), v.minLength(1))),
  JWT_SECRET: v.optional(v.pipe(v.string(), v.minLength(32)), DEV_JWT_SECRET),
  JWT_SIGNING_KEYS_PATH: v.optional(v.pipe(v.string(), v.minLength(1))),
  JWT_EXPIRY: v.optional(
    v.pipe(
      v.string(),
      v.transform(Number),
      v.integer(),
      v.minValue(MIN_JWT_EXPIRY_SECONDS, JWT_EXPIRY_TOO_SHORT),
    ),
  ),
  API_EXTERNAL_URL: v.optional(v.pipe(v.string(), v.url())),
  SITE_URL: v.optional(v.pipe(v.string(), v.url())),
  AUTH_AUTOCONFIRM: v.optional(flag),
  AUTH_RATE_LIMIT: v.optional(flag, 'true'),
  AUTH_BCRYPT_COST: v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(4), v.maxValue(15)),
    '10',
  ),
  SETUP_TOKEN: v.optional(v.pipe(v.string(), v.minLength(16))),
  TURN_URLS: v.optional(iceUrls(/^turns?:/, 'must be turn: or turns: URLs, comma-separated')),
  TURN_SECRET: v.optional(v.pipe(v.string(), v.minLength(16))),
  STUN_URLS: v.optional(iceUrls(/^stun:/, 'must be stun: URLs, comma-separated')),
  FUNCTIONS_DIR: v.optional(v.string(), 'supabase/functions'),
  MIGRATIONS_DIR: v.optional(v.string(), 'supabase/migrations'),
  SEED_FILE: v.optional(v.string(), 'supabase/seed.sql'),
  LOG_LEVEL: v.optional(v.picklist(['silent', 'error', 'info', 'debug']), 'info'),
  LOG_FORMAT: v.optional(v.picklist(['json', 'pretty'])),
  MAILBOX: v.optional(v.picklist(['auto', 'on', 'off']), 'auto'),
  SMTP_URL: v.optional(
    v.pipe(v.string(), v.url(), v.regex(/^smtps?:\/\//, 'must be smtp:// or smtps://')),
  ),
  SMTP_FROM: v.optional(v.pipe(v.string(), v.minLength(3))),
  REST_MAX_EMBED_DEPTH: v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(0), v.maxValue(32)),
    '2',
  ),
  REST_MAX_RESPONSE_BYTES: v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(1024)),
    String(10 * 1024 * 1024),
  ),
});

export type PlatformConfig = {
  apiPort: number;
  host: string;
  /** Where PGlite keeps its files; ignored when `databaseUrl` is set. `undefined` = in memory. */
  dataDir: string | undefined;
  databaseUrl: string | undefined;
  jwtSecret: string;
  /**
   * A JSON file of private JWKs (RS256/ES256, as `npm run keys -- signing-key` prints one):
   * access tokens are then signed with the first and all are published at
   * `/auth/v1/.well-known/jwks.json`. Unset: HS256 with `jwtSecret` only.
   */
  jwtSigningKeysPath: string | undefined;
  jwtExpiry: number;
  /** Public base URL of this API, used in e-mail links and the JWT `iss`. */
  apiExternalUrl: string;
  /** Where e-mail links land when the requested redirect is not allowed. */
  siteUrl: string;
  autoconfirm: boolean;
  /** Whether the rate limits (`rateLimits`) apply at all (`AUTH_RATE_LIMIT`). */
  rateLimit: boolean;
  /** bcrypt cost for password hashes; GoTrue uses 10. Lower only to speed up tests. */
  bcryptCost: number;
  setupToken: string | undefined;
  /**
   * The consultation room's relay (supabase/functions/README.md "turn-credentials"): coturn's
   * REST-API scheme, `TURN_URLS` with the `static-auth-secret` `TURN_SECRET`; `STUN_URLS` adds
   * STUN servers. Handed to the functions as their variables of the same names.
   */
  turnUrls: string | undefined;
  turnSecret: string | undefined;
  stunUrls: string | undefined;
  functionsDir: string;
  migrationsDir: string;
  seedFile: string | undefined;
  logLevel: 'silent' | 'error' | 'info' | 'debug';
  /** Unset: readable lines on a terminal, JSON otherwise (supabase/local/log.ts). */
  logFormat?: 'json' | 'pretty';
  /**
   * The dev mailbox's pages (`/mailbox`): `auto` serves them only while the API listens on a
   * loopback address, `on` always, `off` never (mailbox/README.md).
   */
  mailbox: 'auto' | 'on' | 'off';
  /** Real delivery (`smtp://user:pass@host:port`); the dev mailbox then receives nothing. */
  smtpUrl: string | undefined;
  /** The From address of real mail. */
  smtpFrom: string;
  /** Deepest embedding a REST `select` may ask for (README "Limits"). */
  restMaxEmbedDepth: number;
  /** Largest REST response body, in bytes; bigger answers are refused with PGRST199. */
  restMaxResponseBytes: number;
  /**
   * PostgREST settings the `REST_DB_*` variables set (`REST_DB_SCHEMAS`, `REST_DB_MAX_ROWS`…):
   * they win over the authenticator role's `pgrst.*` settings and config.toml's `rest`.
   */
  restOverrides: Partial<RestSettings>;
} & FileOnlySettings;

/** Whether `host` only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Whether the dev mailbox's pages are served with this configuration. */
export function mailboxOpen(config: Pick<PlatformConfig, 'mailbox' | 'host'>): boolean {
  return config.mailbox === 'on' || (config.mailbox === 'auto' && isLoopbackHost(config.host));
}

/**
 * Reads `supabase/config.toml` (or `SUPABASE_CONFIG`) and the environment once; a variable
 * overrides the file's key (README "Configuration"). Throws a one-line `ConfigError`.
 */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, val]) => val !== undefined && val !== ''),
  );
  const parsed = v.safeParse(EnvSchema, present);
  if (!parsed.success) {
    const problems = parsed.issues.map((i) => `${v.getDotPath(i) ?? '?'}: ${i.message}`);
    throw new ConfigError(`environment: ${problems.join('; ')}`);
  }
  const e = parsed.output;
  const rest = settingsFromEnv(present);
  if (rest.problems.length) throw new ConfigError(`environment: ${rest.problems.join('; ')}`);
  const {
    apiPort: filePort,
    siteUrl: fileSiteUrl,
    jwtExpiry,
    enableConfirmations,
    ...fileOnly
  } = readProjectSettings(e.SUPABASE_CONFIG);
  if (e.TURN_URLS && !e.TURN_SECRET) {
    throw new ConfigError('environment: TURN_SECRET: required with TURN_URLS');
  }
  const host = e.HOST ?? '127.0.0.1';
  const apiPort = e.API_PORT ?? filePort ?? 54321;
  return {
    ...fileOnly,
    apiPort,
    host,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    jwtSecret: e.JWT_SECRET,
    jwtSigningKeysPath: e.JWT_SIGNING_KEYS_PATH,
    jwtExpiry: e.JWT_EXPIRY ?? jwtExpiry,
    apiExternalUrl: e.API_EXTERNAL_URL ?? `http://${host}:${apiPort}`,
    siteUrl: siteUrl(e, fileSiteUrl),
    autoconfirm: e.AUTH_AUTOCONFIRM ?? !enableConfirmations,
    rateLimit: e.AUTH_RATE_LIMIT,
    bcryptCost: e.AUTH_BCRYPT_COST,
    setupToken: e.SETUP_TOKEN,
    turnUrls: e.TURN_URLS,
    turnSecret: e.TURN_SECRET,
    stunUrls: e.STUN_URLS,
    functionsDir: e.FUNCTIONS_DIR,
    migrationsDir: e.MIGRATIONS_DIR,
    seedFile: e.SEED_FILE,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    mailbox: e.MAILBOX,
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM ?? 'Saúde Já <no-reply@saudeja.example>',
    restMaxEmbedDepth: e.REST_MAX_EMBED_DEPTH,
    restMaxResponseBytes: e.REST_MAX_RESPONSE_BYTES,
    restOverrides: rest.values,
  };
}

/**
 * `SITE_URL`; else, when `HOST` or `APP_PORT` moved the app, the address they give it (the
 * file's `site_url` names the default one); else `[auth] site_url`.
 */
function siteUrl(
  e: { SITE_URL?: string | undefined; HOST?: string | undefined; APP_PORT?: number | undefined },
  fromFile: string | undefined,
): string {
  if (e.SITE_URL) return e.SITE_URL;
  const derived = `http://${e.HOST ?? '127.0.0.1'}:${e.APP_PORT ?? 5173}`;
  if (e.HOST !== undefined || e.APP_PORT !== undefined) return derived;
  return fromFile ?? derived;
}

/**
 * The configuration for a command-line entry point (`npm start`, `npm run server`): a
 * configuration problem ends the process with its one line, never a stack trace.
 */
export function configOrExit(): PlatformConfig {
  try {
    return configFromEnv();
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`Configuration error: ${e.message}\n`);
    process.exit(1);
  }
}
