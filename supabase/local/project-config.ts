import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import * as v from 'valibot';
import { unsupportedAction } from './auth/email-template.ts';

/**
 * The keys of the Supabase CLI's `supabase/config.toml` that the local platform emulates,
 * read with smol-toml and checked here. Every other key belongs to the CLI (Docker ports,
 * Studio, …) and is left alone. Absent keys take the CLI's defaults for its version pinned in
 * package.json; a file that does not parse, a value of the wrong type or a template that
 * does not exist is a `ConfigError` naming the file and the key.
 */

/** A configuration problem, in one line that names where it is; `npm start` prints only this. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The auth e-mails the platform sends, by their config.toml template names. */
export const TEMPLATE_NAMES = ['confirmation', 'recovery', 'email_change'] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];
export type EmailTemplate = { subject: string; source: string; path: string };

export type RateLimits = Record<
  'signIn' | 'refresh' | 'verify' | 'email',
  { max: number; windowSeconds: number }
>;

/** What only config.toml sets: no environment variable overrides these. */
export type FileOnlySettings = {
  /** PostgREST's db-max-rows (`[api] max_rows`): the most rows one read returns. */
  maxRows: number;
  /** Exact URLs e-mail links may return to besides the site (`additional_redirect_urls`). */
  additionalRedirectUrls: string[];
  rateLimits: RateLimits;
  /** One e-mail of a kind per address per this many seconds (`[auth.email] max_frequency`). */
  maxFrequencySeconds: number;
  otpExpirySeconds: number;
  /** The auth e-mails, from `supabase/templates/` as config.toml names them. */
  emailTemplates: Record<TemplateName, EmailTemplate>;
  /** `[functions.<name>] verify_jwt`; a function not listed verifies the JWT. */
  functions: Record<string, { verifyJwt: boolean }>;
  /**
   * `[auth] refresh_token_reuse_interval`: seconds after its rotation during which a refresh
   * token other than the live one's parent may still be used (sessions.ts, docs/sessions.md §2).
   */
  refreshTokenReuseSeconds: number;
  /** `[auth] enable_refresh_token_rotation`: a reuse outside the window ends the session. */
  refreshTokenRotation: boolean;
};

/** config.toml's settings; the environment may override the ones outside `FileOnlySettings`. */
export type ProjectSettings = FileOnlySettings & {
  apiPort: number | undefined;
  siteUrl: string | undefined;
  jwtExpiry: number;
  enableConfirmations: boolean;
};

/**
 * The shortest access-token life the platform accepts. supabase-js (unmodified) refreshes a
 * token from its 30 s timer once fewer than 120 s of it are left, and before any request once
 * fewer than 90 s are left: a shorter life is refreshed over and over, by every request. From
 * 240 s on, each token is refreshed once, past the middle of its life (docs/sessions.md §3).
 */
export const MIN_JWT_EXPIRY_SECONDS = 240;
export const JWT_EXPIRY_TOO_SHORT = `must be at least ${MIN_JWT_EXPIRY_SECONDS} seconds: supabase-js refreshes a token once fewer than 120 s of it are left, so a shorter life is refreshed over and over (docs/sessions.md §3)`;

const count = v.pipe(v.number(), v.integer(), v.minValue(1));
/** A Go duration as the CLI writes them: `1s`, `1m0s`, `1h30m`. */
const duration = v.pipe(
  v.string(),
  v.regex(/^(?:\d+h)?(?:\d+m)?(?:\d+s)?$/, 'must be a duration such as "60s" or "1m0s"'),
  v.check((s) => s !== '', 'must be a duration such as "60s" or "1m0s"'),
  v.transform((s) => {
    const part = (unit: string) => Number(new RegExp(`(\\d+)${unit}`).exec(s)?.[1] ?? 0);
    return part('h') * 3600 + part('m') * 60 + part('s');
  }),
);
const url = v.pipe(v.string(), v.url('must be an absolute URL'));

const TemplateSchema = v.object({
  subject: v.pipe(v.string(), v.minLength(1)),
  content_path: v.string(),
});

const FileSchema = v.object({
  api: v.optional(
    v.object({
      port: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65535))),
      max_rows: v.optional(count, 1000),
    }),
    {},
  ),
  auth: v.optional(
    v.object({
      site_url: v.optional(url),
      additional_redirect_urls: v.optional(v.array(url), []),
      jwt_expiry: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(MIN_JWT_EXPIRY_SECONDS, JWT_EXPIRY_TOO_SHORT),
          v.maxValue(604800),
        ),
        3600,
      ),
      enable_refresh_token_rotation: v.optional(v.boolean(), true),
      refresh_token_reuse_interval: v.optional(
        v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(86400)),
        10,
      ),
      rate_limit: v.optional(
        v.object({
          email_sent: v.optional(count, 2),
          token_refresh: v.optional(count, 150),
          sign_in_sign_ups: v.optional(count, 30),
          token_verifications: v.optional(count, 30),
        }),
        {},
      ),
      email: v.optional(
        v.object({
          enable_confirmations: v.optional(v.boolean(), false),
          max_frequency: v.optional(duration, '1s'),
          otp_expiry: v.optional(
            v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(86400)),
            3600,
          ),
          template: v.optional(v.record(v.string(), TemplateSchema), {}),
        }),
        {},
      ),
    }),
    {},
  ),
  functions: v.optional(
    v.record(v.string(), v.object({ verify_jwt: v.optional(v.boolean(), true) })),
    {},
  ),
});
type FileConfig = v.InferOutput<typeof FileSchema>;

/** Reads, checks and resolves `path`; templates are read now, so a missing one stops the start. */
export function readProjectSettings(path: string): ProjectSettings {
  const file = parseFile(path);
  const { api, auth, functions } = file;
  return {
    apiPort: api.port,
    maxRows: api.max_rows,
    siteUrl: auth.site_url,
    additionalRedirectUrls: auth.additional_redirect_urls,
    jwtExpiry: auth.jwt_expiry,
    refreshTokenReuseSeconds: auth.refresh_token_reuse_interval,
    refreshTokenRotation: auth.enable_refresh_token_rotation,
    enableConfirmations: auth.email.enable_confirmations,
    rateLimits: {
      signIn: { max: auth.rate_limit.sign_in_sign_ups, windowSeconds: 300 },
      refresh: { max: auth.rate_limit.token_refresh, windowSeconds: 300 },
      verify: { max: auth.rate_limit.token_verifications, windowSeconds: 300 },
      email: { max: auth.rate_limit.email_sent, windowSeconds: 3600 },
    },
    maxFrequencySeconds: auth.email.max_frequency,
    otpExpirySeconds: auth.email.otp_expiry,
    emailTemplates: readTemplates(path, file),
    functions: Object.fromEntries(
      Object.entries(functions).map(([name, f]) => [name, { verifyJwt: f.verify_jwt }]),
    ),
  };
}

function parseFile(path: string): FileConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new ConfigError(`${path}: cannot be read (SUPABASE_CONFIG names the file)`);
  }
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (e) {
    if (!(e instanceof TomlError)) throw e;
    const reason = e.message.split('\n')[0] ?? 'invalid TOML';
    throw new ConfigError(`${path}:${e.line}: ${keyAtLine(text, e.line)}: ${reason}`);
  }
  const parsed = v.safeParse(FileSchema, raw);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new ConfigError(`${path}: ${v.getDotPath(issue) ?? '(top level)'}: ${issue.message}`);
  }
  return parsed.output;
}

/** The key (or table) written on a line, to name it when the line does not parse. */
function keyAtLine(text: string, line: number): string {
  const source = text.split(/\r?\n/)[line - 1]?.trim() ?? '';
  const table = /^\[+\s*([^\]]+?)\s*\]/.exec(source)?.[1];
  if (table) return `[${table}]`;
  return /^([\w."-]+)\s*=/.exec(source)?.[1] ?? `line ${line}`;
}

/**
 * The three auth e-mails' templates. `content_path` is relative to the project directory (the
 * one holding `supabase/`), as the CLI resolves it.
 */
function readTemplates(path: string, file: FileConfig): Record<TemplateName, EmailTemplate> {
  const projectDir = dirname(dirname(resolve(path)));
  const entries = TEMPLATE_NAMES.map((name) => {
    const key = `auth.email.template.${name}`;
    const t = file.auth.email.template[name];
    if (!t) {
      throw new ConfigError(
        `${path}: ${key}: missing; the local platform sends this e-mail only from a template`,
      );
    }
    let source: string;
    try {
      source = readFileSync(resolve(projectDir, t.content_path), 'utf8');
    } catch {
      throw new ConfigError(`${path}: ${key}.content_path: ${t.content_path} does not exist`);
    }
    const unsupported = unsupportedAction(source);
    if (unsupported) {
      throw new ConfigError(
        `${path}: ${key}.content_path: ${t.content_path} uses ${unsupported}, which the local platform cannot render`,
      );
    }
    return [name, { subject: t.subject, source, path: t.content_path }] as const;
  });
  return Object.fromEntries(entries) as Record<TemplateName, EmailTemplate>;
}
