import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv } from './config.ts';
import { ConfigError, readProjectSettings } from './project-config.ts';

const REPO_CONFIG = 'supabase/config.toml';

/** A copy of the repository's project (config.toml and templates) in a temp dir, to break. */
function projectCopy(): {
  dir: string;
  config: string;
  edit(from: RegExp | string, to: string): void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'project-config-'));
  cpSync('supabase/config.toml', join(dir, 'supabase/config.toml'));
  cpSync('supabase/templates', join(dir, 'supabase/templates'), { recursive: true });
  const config = join(dir, 'supabase/config.toml');
  return {
    dir,
    config,
    edit(from, to) {
      const before = readFileSync(config, 'utf8');
      const after = before.replace(from, to);
      expect(after).not.toBe(before);
      writeFileSync(config, after);
    },
  };
}

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});
function copy() {
  const p = projectCopy();
  dirs.push(p.dir);
  return p;
}

/** The ConfigError's one line, or a failure when `fn` does not throw one. */
function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('config.toml', () => {
  it('gives the local platform what the repository file says', () => {
    const file = parse(readFileSync(REPO_CONFIG, 'utf8')) as {
      auth: { email: { template: Record<string, { subject: string }> } };
    };
    const s = readProjectSettings(REPO_CONFIG);
    expect(s.rest).toMatchObject({
      schemas: ['public', 'graphql_public'],
      extraSearchPath: ['public', 'extensions'],
      maxRows: 1000,
    });
    expect(s.siteUrl).toBe('http://127.0.0.1:5173');
    expect(s.additionalRedirectUrls).toEqual([
      'http://127.0.0.1:5173/acesso-paciente',
      'http://127.0.0.1:5173/auth/reset-password',
    ]);
    expect(s.enableConfirmations).toBe(true);
    expect(s.maxFrequencySeconds).toBe(60);
    expect(s.otpExpirySeconds).toBe(86400);
    expect(s.refreshTokenReuseSeconds).toBe(10);
    expect(s.refreshTokenRotation).toBe(true);
    expect(s.rateLimits).toEqual({
      signIn: { max: 30, windowSeconds: 300 },
      refresh: { max: 150, windowSeconds: 300 },
      verify: { max: 30, windowSeconds: 300 },
      email: { max: 30, windowSeconds: 3600 },
    });
    for (const name of ['confirmation', 'recovery', 'email_change'] as const) {
      expect(s.emailTemplates[name].subject).toBe(file.auth.email.template[name]?.subject);
      expect(s.emailTemplates[name].source).toBe(
        readFileSync(`supabase/templates/${name}.html`, 'utf8'),
      );
    }
  });

  it('lists every edge function with its verify_jwt, so a deploy never falls back to the default', () => {
    const s = readProjectSettings(REPO_CONFIG);
    const functions = readdirNames('supabase/functions');
    expect(Object.keys(s.functions).sort()).toEqual(functions);
    expect(Object.values(s.functions).every((f) => f.verifyJwt)).toBe(true);
  });

  it('reads [functions.<name>] verify_jwt, quoted names included', () => {
    const p = copy();
    writeFileSync(
      p.config,
      readFileSync(p.config, 'utf8') +
        '\n[functions."public-hook"]\nverify_jwt = false # called without a JWT\n',
    );
    expect(readProjectSettings(p.config).functions['public-hook']).toEqual({ verifyJwt: false });
  });

  it('names file and line key when the file does not parse', () => {
    const p = copy();
    p.edit('max_rows = 1000', 'max_rows = = 1000');
    const line = readFileSync(p.config, 'utf8').split('\n').indexOf('max_rows = = 1000') + 1;
    const message = configError(() => readProjectSettings(p.config));
    expect(message).toMatch(new RegExp(`^${escape(p.config)}:${line}: max_rows: `));
    expect(message).not.toContain('\n');
  });

  it('names file and key when a value has the wrong type', () => {
    const p = copy();
    p.edit('enable_confirmations = true', 'enable_confirmations = "sim"');
    expect(configError(() => readProjectSettings(p.config))).toBe(
      `${p.config}: auth.email.enable_confirmations: Invalid type: Expected boolean but received "sim"`,
    );
  });

  it('refuses an access-token life supabase-js would refresh over and over, in the file and in JWT_EXPIRY', () => {
    const p = copy();
    p.edit('jwt_expiry = 3600', 'jwt_expiry = 40');
    expect(configError(() => readProjectSettings(p.config))).toBe(
      `${p.config}: auth.jwt_expiry: must be at least 240 seconds: supabase-js refreshes a token once fewer than 120 s of it are left, so a shorter life is refreshed over and over (docs/sessions.md §3)`,
    );
    expect(
      configError(() => configFromEnv({ SUPABASE_CONFIG: REPO_CONFIG, JWT_EXPIRY: '40' })),
    ).toBe(
      'environment: JWT_EXPIRY: must be at least 240 seconds: supabase-js refreshes a token once fewer than 120 s of it are left, so a shorter life is refreshed over and over (docs/sessions.md §3)',
    );
    expect(configFromEnv({ SUPABASE_CONFIG: REPO_CONFIG, JWT_EXPIRY: '240' }).jwtExpiry).toBe(240);
  });

  it('names file and key when a template file does not exist', () => {
    const p = copy();
    rmSync(join(p.dir, 'supabase/templates/recovery.html'));
    expect(configError(() => readProjectSettings(p.config))).toBe(
      `${p.config}: auth.email.template.recovery.content_path: ./supabase/templates/recovery.html does not exist`,
    );
  });

  it('refuses a template using Go template syntax the local platform cannot render', () => {
    const p = copy();
    writeFileSync(
      join(p.dir, 'supabase/templates/confirmation.html'),
      '<p>{{ if .Token }}Código: {{ .Token }}{{ end }}</p>',
    );
    expect(configError(() => readProjectSettings(p.config))).toBe(
      `${p.config}: auth.email.template.confirmation.content_path: ./supabase/templates/confirmation.html uses {{ if .Token }}, which the local platform cannot render`,
    );
  });

  it('reads PostgREST settings from [api] and checks schema names', () => {
    const p = copy();
    p.edit('schemas = ["public", "graphql_public"]', 'schemas = ["api", "public"]');
    p.edit('extra_search_path = ["public", "extensions"]', 'extra_search_path = []');
    expect(readProjectSettings(p.config).rest).toMatchObject({
      schemas: ['api', 'public'],
      extraSearchPath: [],
    });
    p.edit('schemas = ["api", "public"]', 'schemas = ["api; drop"]');
    expect(configError(() => readProjectSettings(p.config))).toBe(
      `${p.config}: api.schemas.0: must be a schema name`,
    );
  });

  it('takes REST_DB_* variables over the file and refuses bad ones', () => {
    const p = copy();
    const config = configFromEnv({
      SUPABASE_CONFIG: p.config,
      REST_DB_SCHEMAS: 'public, extra',
      REST_DB_MAX_ROWS: '50',
      REST_DB_AGGREGATES_ENABLED: 'TRUE',
      REST_DB_TX_END: 'rollback-allow-override',
    });
    expect(config.restOverrides).toEqual({
      schemas: ['public', 'extra'],
      maxRows: 50,
      aggregates: true,
      txEnd: 'rollback-allow-override',
    });
    expect(
      configError(() => configFromEnv({ SUPABASE_CONFIG: p.config, REST_DB_MAX_ROWS: 'x' })),
    ).toBe('environment: REST_DB_MAX_ROWS: must be a positive integer');
  });

  it('is overridden by the environment', () => {
    const p = copy();
    const fromFile = configFromEnv({ SUPABASE_CONFIG: p.config });
    expect(fromFile).toMatchObject({
      apiPort: 54321,
      siteUrl: 'http://127.0.0.1:5173',
      jwtExpiry: 3600,
      autoconfirm: false,
    });
    const overridden = configFromEnv({
      SUPABASE_CONFIG: p.config,
      API_PORT: '6000',
      SITE_URL: 'https://clinica.example',
      JWT_EXPIRY: '600',
      AUTH_AUTOCONFIRM: 'true',
    });
    expect(overridden).toMatchObject({
      apiPort: 6000,
      siteUrl: 'https://clinica.example',
      jwtExpiry: 600,
      autoconfirm: true,
    });
    // The app moved to another port: links lead there, not to the file's default address.
    expect(configFromEnv({ SUPABASE_CONFIG: p.config, APP_PORT: '4184' }).siteUrl).toBe(
      'http://127.0.0.1:4184',
    );
  });

  it('takes the consultation relay only as TURN URLs with their secret', () => {
    const turn = {
      TURN_URLS: 'turn:turn.clinica.example:3478?transport=udp, turns:turn.clinica.example:5349',
      TURN_SECRET: 'um-segredo-bem-longo',
      STUN_URLS: 'stun:stun.clinica.example:3478',
    };
    expect(configFromEnv(turn)).toMatchObject({
      turnUrls: turn.TURN_URLS,
      turnSecret: turn.TURN_SECRET,
      stunUrls: turn.STUN_URLS,
    });
    expect(configError(() => configFromEnv({ TURN_URLS: turn.TURN_URLS }))).toBe(
      'environment: TURN_SECRET: required with TURN_URLS',
    );
    expect(configError(() => configFromEnv({ ...turn, TURN_URLS: 'https://turn.example' }))).toBe(
      'environment: TURN_URLS: must be turn: or turns: URLs, comma-separated',
    );
    expect(configError(() => configFromEnv({ ...turn, STUN_URLS: 'turn:x' }))).toBe(
      'environment: STUN_URLS: must be stun: URLs, comma-separated',
    );
  });

  it('names the file when it cannot be read', () => {
    expect(configError(() => configFromEnv({ SUPABASE_CONFIG: 'nowhere/config.toml' }))).toBe(
      'nowhere/config.toml: cannot be read (SUPABASE_CONFIG names the file)',
    );
  });
});

function readdirNames(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
    .map((d) => d.name)
    .sort();
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
