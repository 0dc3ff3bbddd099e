import * as v from 'valibot';

/** The documented development secret of the Supabase CLI; never use it for a public deployment. */
export const DEV_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

const port = v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(0), v.maxValue(65535));
const flag = v.pipe(
  v.picklist(['true', 'false', '1', '0']),
  v.transform((s) => s === 'true' || s === '1'),
);

const EnvSchema = v.object({
  API_PORT: v.optional(port, '54321'),
  APP_PORT: v.optional(port, '5173'),
  HOST: v.optional(v.string(), '127.0.0.1'),
  DATA_DIR: v.optional(v.string(), '.data'),
  DATABASE_URL: v.optional(v.pipe(v.string(), v.minLength(1))),
  JWT_SECRET: v.optional(v.pipe(v.string(), v.minLength(32)), DEV_JWT_SECRET),
  JWT_EXPIRY: v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(30)),
    '3600',
  ),
  API_EXTERNAL_URL: v.optional(v.pipe(v.string(), v.url())),
  SITE_URL: v.optional(v.pipe(v.string(), v.url())),
  AUTH_AUTOCONFIRM: v.optional(flag, 'false'),
  AUTH_RATE_LIMIT: v.optional(flag, 'true'),
  AUTH_BCRYPT_COST: v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(4), v.maxValue(15)),
    '10',
  ),
  SETUP_TOKEN: v.optional(v.pipe(v.string(), v.minLength(16))),
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
  jwtExpiry: number;
  /** Public base URL of this API, used in e-mail links and the JWT `iss`. */
  apiExternalUrl: string;
  /** Where e-mail links land when the requested redirect is not allowed. */
  siteUrl: string;
  autoconfirm: boolean;
  rateLimit: boolean;
  /** bcrypt cost for password hashes; GoTrue uses 10. Lower only to speed up tests. */
  bcryptCost: number;
  setupToken: string | undefined;
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
};

/** Whether `host` only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Whether the dev mailbox's pages are served with this configuration. */
export function mailboxOpen(config: Pick<PlatformConfig, 'mailbox' | 'host'>): boolean {
  return config.mailbox === 'on' || (config.mailbox === 'auto' && isLoopbackHost(config.host));
}

/** Reads the environment once, failing loudly with every problem listed. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, val]) => val !== undefined && val !== ''),
  );
  const parsed = v.safeParse(EnvSchema, present);
  if (!parsed.success) {
    const problems = parsed.issues.map((i) => `${v.getDotPath(i) ?? '?'}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.output;
  const apiExternalUrl = e.API_EXTERNAL_URL ?? `http://${e.HOST}:${e.API_PORT}`;
  return {
    apiPort: e.API_PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    jwtSecret: e.JWT_SECRET,
    jwtExpiry: e.JWT_EXPIRY,
    apiExternalUrl,
    siteUrl: e.SITE_URL ?? `http://${e.HOST}:${e.APP_PORT}`,
    autoconfirm: e.AUTH_AUTOCONFIRM,
    rateLimit: e.AUTH_RATE_LIMIT,
    bcryptCost: e.AUTH_BCRYPT_COST,
    setupToken: e.SETUP_TOKEN,
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
  };
}
