import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_APP_CONFIG,
  appConfig,
  parseAppConfig,
  parseSupabaseEnv,
} from './config.ts';

describe('parseSupabaseEnv', () => {
  it.each([
    [
      'local server',
      { VITE_SUPABASE_URL: 'http://127.0.0.1:54321', VITE_SUPABASE_ANON_KEY: 'eyJ.a.b' },
      'http://127.0.0.1:54321',
    ],
    [
      'hosted, trailing slash dropped',
      { VITE_SUPABASE_URL: 'https://xyz.supabase.co/', VITE_SUPABASE_ANON_KEY: ' key ' },
      'https://xyz.supabase.co',
    ],
  ])('accepts %s', (_name, env, url) => {
    const result = parseSupabaseEnv(env);
    expect(result.ok && result.value.supabaseUrl).toBe(url);
    expect(result.ok && result.value.supabaseAnonKey).toBe(env.VITE_SUPABASE_ANON_KEY.trim());
  });

  it.each([
    [
      'nothing set',
      {},
      [
        'VITE_SUPABASE_URL is missing: set it to the Supabase API URL (e.g. http://127.0.0.1:54321)',
        'VITE_SUPABASE_ANON_KEY is missing: set it to the project anon (public) key',
      ],
    ],
    [
      'relative URL',
      { VITE_SUPABASE_URL: '/api', VITE_SUPABASE_ANON_KEY: 'k' },
      ['VITE_SUPABASE_URL must be an absolute URL'],
    ],
    [
      'websocket URL',
      { VITE_SUPABASE_URL: 'ws://127.0.0.1:54321', VITE_SUPABASE_ANON_KEY: 'k' },
      ['VITE_SUPABASE_URL must start with http:// or https://'],
    ],
    [
      'blank key',
      { VITE_SUPABASE_URL: 'http://localhost:54321', VITE_SUPABASE_ANON_KEY: '  ' },
      ['VITE_SUPABASE_ANON_KEY is missing: set it to the project anon (public) key'],
    ],
  ])('rejects %s, naming every problem', (_name, env, problems) => {
    expect(parseSupabaseEnv(env)).toEqual({ ok: false, problems });
  });

  it('ConfigError lists the problems in its message', () => {
    const error = new ConfigError(['A is missing', 'B is empty']);
    expect(error.message).toBe('Invalid app configuration:\n  - A is missing\n  - B is empty');
  });
});

describe('parseAppConfig', () => {
  it('defaults to docs/architecture.md §3', () => {
    expect(parseAppConfig({})).toEqual({
      ok: true,
      value: {
        productName: 'Saúde Já',
        companyName: 'Saúde Já Assistência Médica Ltda.',
        cnpj: '00.000.000/0001-00',
        supportEmail: 'suporte@saudeja.example',
        supportWhatsapp: '(11) 90000-0000',
        fixedDoctors: [
          { publicName: 'Dra. Ana Ribeiro', specialty: 'Clínica Geral' },
          { publicName: 'Dr. Paulo Mendes', specialty: 'Cardiologia' },
        ],
      },
    });
  });

  it.each([
    ['product name', { VITE_PRODUCT_NAME: 'Clínica X' }, 'productName', 'Clínica X'],
    [
      'support e-mail',
      { VITE_SUPPORT_EMAIL: 'ajuda@clinica.example' },
      'supportEmail',
      'ajuda@clinica.example',
    ],
    ['CNPJ', { VITE_COMPANY_CNPJ: '12.345.678/0001-90' }, 'cnpj', '12.345.678/0001-90'],
  ] as const)('overrides %s', (_name, env, key, value) => {
    const result = parseAppConfig(env);
    expect(result.ok && result.value[key]).toBe(value);
  });

  it.each([
    ['blank product name', { VITE_PRODUCT_NAME: ' ' }, 'VITE_PRODUCT_NAME must not be blank'],
    [
      'malformed CNPJ',
      { VITE_COMPANY_CNPJ: '123' },
      'VITE_COMPANY_CNPJ must look like 00.000.000/0001-00',
    ],
    [
      'bad e-mail',
      { VITE_SUPPORT_EMAIL: 'suporte' },
      'VITE_SUPPORT_EMAIL must be an e-mail address',
    ],
  ])('rejects %s', (_name, env, problem) => {
    expect(parseAppConfig(env)).toEqual({ ok: false, problems: [problem] });
  });

  it('the resolved config of the test build uses the defaults', () => {
    expect(appConfig).toEqual(DEFAULT_APP_CONFIG);
  });
});
