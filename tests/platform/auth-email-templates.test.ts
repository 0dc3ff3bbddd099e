import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../supabase/local/config.ts';
import type { Database } from '../../supabase/local/db/index.ts';
import { createLogger } from '../../supabase/local/log.ts';
import type { StoredMail } from '../../supabase/local/mailbox/mailer.ts';
import { createPlatform, type Platform } from '../../supabase/local/server.ts';
import { cpfFor } from '../db/support.ts';
import { freshDatabase } from '../../supabase/local/db/fresh-database.ts';
import { testClient } from '../../sync/testing/index.ts';

/**
 * The confirmation e-mail of a sign-up is `supabase/templates/confirmation.html` with the
 * subject of config.toml — the files hosted Auth renders — and a restart picks up an edited
 * template.
 */
let db: Database;
let dispose: () => Promise<void>;
const dirs: string[] = [];
let patients = 0;

beforeAll(async () => {
  ({ db, dispose } = await freshDatabase());
});
afterAll(async () => {
  await dispose();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The platform as `npm start` configures it from `configPath`, on the suite's database. */
async function startWith(configPath: string): Promise<{ platform: Platform; url: string }> {
  const config = {
    ...configFromEnv({ SUPABASE_CONFIG: configPath, AUTH_RATE_LIMIT: 'false' }),
    apiPort: 0,
    migrationsDir: 'supabase/migrations',
    seedFile: undefined,
  };
  const platform = await createPlatform(config, { db, log: createLogger('silent') });
  const url = await platform.listen(0);
  platform.ctx.config.apiExternalUrl = url;
  return { platform, url };
}

async function signUpAndReadMail(p: { platform: Platform; url: string }, email: string) {
  const client = testClient(p.url, p.platform.ctx.keys.anonKey);
  const { error } = await client.auth.signUp({
    email,
    password: 'senha-forte-123',
    options: {
      emailRedirectTo: 'http://127.0.0.1:5173/acesso-paciente',
      data: { full_name: 'Maria Oliveira', cpf: cpfFor(++patients), data_nasc: '1988-03-14' },
    },
  });
  expect(error).toBeNull();
  const res = await fetch(`${p.url}/mailbox/api?to=${encodeURIComponent(email)}`, {
    headers: { apikey: p.platform.ctx.keys.serviceRoleKey },
  });
  const mails = (await res.json()) as StoredMail[];
  expect(mails).toHaveLength(1);
  return mails[0]!;
}

/** The template with GoTrue's variables replaced by this mail's link and code. */
function rendered(template: string, mail: StoredMail): string {
  const link = mail.links[0] ?? '';
  const otp = /código: (\d{6})/.exec(mail.text)?.[1] ?? '';
  return template
    .replace('{{ .ConfirmationURL }}', link.replace(/&/g, '&amp;'))
    .replace('{{ .Token }}', otp);
}

describe('auth e-mails from supabase/templates', () => {
  it('sends the sign-up confirmation rendered from the template, with the subject of config.toml', async () => {
    const file = parse(readFileSync('supabase/config.toml', 'utf8')) as {
      auth: { email: { template: { confirmation: { subject: string } } } };
    };
    const p = await startWith('supabase/config.toml');
    try {
      const mail = await signUpAndReadMail(p, 'maria.template@example.com');
      expect(mail.subject).toBe(file.auth.email.template.confirmation.subject);
      expect(mail.html).toBe(
        rendered(readFileSync('supabase/templates/confirmation.html', 'utf8'), mail),
      );
      expect(mail.links[0]).toMatch(
        new RegExp(`^${p.url}/auth/v1/verify\\?token=\\w+&type=signup&redirect_to=`),
      );
      expect(mail.text).toContain('Falta pouco! Confirme seu e-mail para ativar sua conta.');
      expect(mail.text).toContain(`Confirmar e-mail: ${mail.links[0]}`);
    } finally {
      await p.platform.close();
    }
  });

  it('sends the edited template after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'templates-'));
    dirs.push(dir);
    const configPath = join(dir, 'supabase/config.toml');
    cpSync('supabase/config.toml', configPath);
    cpSync('supabase/templates', join(dir, 'supabase/templates'), { recursive: true });

    const before = await startWith(configPath);
    const first = await signUpAndReadMail(before, 'antes@example.com');
    await before.platform.close();
    expect(first.text).not.toContain('Bem-vindo à Saúde Já');

    const edited =
      '<p>Bem-vindo à Saúde Já, {{ .Email }}!</p>\n<p><a href="{{ .ConfirmationURL }}">Ativar conta</a></p>\n';
    writeFileSync(join(dir, 'supabase/templates/confirmation.html'), edited);
    writeFileSync(
      configPath,
      readFileSync(configPath, 'utf8').replace(
        'subject = "Confirme seu e-mail"',
        'subject = "Ative sua conta"',
      ),
    );
    const after = await startWith(configPath);
    try {
      const mail = await signUpAndReadMail(after, 'depois@example.com');
      expect(mail.subject).toBe('Ative sua conta');
      expect(mail.html).toBe(
        edited
          .replace('{{ .Email }}', 'depois@example.com')
          .replace('{{ .ConfirmationURL }}', (mail.links[0] ?? '').replace(/&/g, '&amp;')),
      );
      expect(mail.text).toBe(
        `Bem-vindo à Saúde Já, depois@example.com!\n\nAtivar conta: ${mail.links[0]}\n`,
      );
    } finally {
      await after.platform.close();
    }
  });
});
