import * as v from 'valibot';

/**
 * Product configuration (docs/architecture.md §3): names and contacts with their defaults, overridable at build
 * time through VITE_* variables, plus the Supabase endpoint the app talks to. Misconfiguration is
 * a deployment bug, so reading the Supabase settings throws with a message naming every problem.
 */

export type FixedDoctor = { publicName: string; specialty: string };

export type AppConfig = {
  productName: string;
  companyName: string;
  cnpj: string;
  supportEmail: string;
  supportWhatsapp: string;
  /** The two public doctors, identified by public name (docs/product-rules.md §1). */
  fixedDoctors: readonly FixedDoctor[];
};

export const FIXED_DOCTORS: readonly FixedDoctor[] = [
  { publicName: 'Dra. Ana Ribeiro', specialty: 'Clínica Geral' },
  { publicName: 'Dr. Paulo Mendes', specialty: 'Cardiologia' },
];

export const DEFAULT_APP_CONFIG: AppConfig = {
  productName: 'Saúde Já',
  companyName: 'Saúde Já Assistência Médica Ltda.',
  cnpj: '00.000.000/0001-00',
  supportEmail: 'suporte@saudeja.example',
  supportWhatsapp: '(11) 90000-0000',
  fixedDoctors: FIXED_DOCTORS,
};

function override(name: string) {
  return v.optional(
    v.pipe(v.string(`${name} must be text`), v.trim(), v.nonEmpty(`${name} must not be blank`)),
  );
}

const productEnvSchema = v.object({
  VITE_PRODUCT_NAME: override('VITE_PRODUCT_NAME'),
  VITE_COMPANY_NAME: override('VITE_COMPANY_NAME'),
  VITE_COMPANY_CNPJ: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(
        /^\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}$/,
        'VITE_COMPANY_CNPJ must look like 00.000.000/0001-00',
      ),
    ),
  ),
  VITE_SUPPORT_EMAIL: v.optional(
    v.pipe(v.string(), v.trim(), v.email('VITE_SUPPORT_EMAIL must be an e-mail address')),
  ),
  VITE_SUPPORT_WHATSAPP: override('VITE_SUPPORT_WHATSAPP'),
});

const URL_MISSING =
  'VITE_SUPABASE_URL is missing: set it to the Supabase API URL (e.g. http://127.0.0.1:54321)';
const KEY_MISSING = 'VITE_SUPABASE_ANON_KEY is missing: set it to the project anon (public) key';

const supabaseEnvSchema = v.object({
  VITE_SUPABASE_URL: v.pipe(
    v.optional(v.string(URL_MISSING), ''),
    v.trim(),
    v.nonEmpty(URL_MISSING),
    v.url('VITE_SUPABASE_URL must be an absolute URL'),
    v.regex(/^https?:\/\//i, 'VITE_SUPABASE_URL must start with http:// or https://'),
  ),
  VITE_SUPABASE_ANON_KEY: v.pipe(
    v.optional(v.string(KEY_MISSING), ''),
    v.trim(),
    v.nonEmpty(KEY_MISSING),
  ),
});

export type SupabaseEnv = { supabaseUrl: string; supabaseAnonKey: string };

export type ConfigResult<T> = { ok: true; value: T } | { ok: false; problems: string[] };

type EnvInput = Record<string, unknown>;

function problemsOf(issues: readonly v.BaseIssue<unknown>[]): string[] {
  return issues.map((issue) => issue.message);
}

/** Product texts from an env object; unset variables keep docs/architecture.md §3 defaults. */
export function parseAppConfig(env: EnvInput): ConfigResult<AppConfig> {
  const result = v.safeParse(productEnvSchema, env, { abortPipeEarly: true });
  if (!result.success) return { ok: false, problems: problemsOf(result.issues) };
  const o = result.output;
  return {
    ok: true,
    value: {
      productName: o.VITE_PRODUCT_NAME ?? DEFAULT_APP_CONFIG.productName,
      companyName: o.VITE_COMPANY_NAME ?? DEFAULT_APP_CONFIG.companyName,
      cnpj: o.VITE_COMPANY_CNPJ ?? DEFAULT_APP_CONFIG.cnpj,
      supportEmail: o.VITE_SUPPORT_EMAIL ?? DEFAULT_APP_CONFIG.supportEmail,
      supportWhatsapp: o.VITE_SUPPORT_WHATSAPP ?? DEFAULT_APP_CONFIG.supportWhatsapp,
      fixedDoctors: FIXED_DOCTORS,
    },
  };
}

/** The Supabase endpoint and public key from an env object (trailing slashes dropped). */
export function parseSupabaseEnv(env: EnvInput): ConfigResult<SupabaseEnv> {
  const result = v.safeParse(supabaseEnvSchema, env, { abortPipeEarly: true });
  if (!result.success) return { ok: false, problems: problemsOf(result.issues) };
  return {
    ok: true,
    value: {
      supabaseUrl: result.output.VITE_SUPABASE_URL.replace(/\/+$/, ''),
      supabaseAnonKey: result.output.VITE_SUPABASE_ANON_KEY,
    },
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid app configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

function orThrow<T>(result: ConfigResult<T>): T {
  if (!result.ok) throw new ConfigError(result.problems);
  return result.value;
}

const buildEnv: EnvInput = import.meta.env;

export const appConfig: AppConfig = orThrow(parseAppConfig(buildEnv));

let supabaseEnv: SupabaseEnv | undefined;

/**
 * Read on first use, so screens and tests that only need product texts do not require a backend
 * to be configured; the supabase client reads it at startup and fails loudly there.
 */
export const env: SupabaseEnv = {
  get supabaseUrl() {
    supabaseEnv ??= orThrow(parseSupabaseEnv(buildEnv));
    return supabaseEnv.supabaseUrl;
  },
  get supabaseAnonKey() {
    supabaseEnv ??= orThrow(parseSupabaseEnv(buildEnv));
    return supabaseEnv.supabaseAnonKey;
  },
};
