import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `npm start` with a broken supabase/config.toml stops before opening anything, with one line
 * naming the file and the key — no stack trace, no start on defaults.
 */
const dir = mkdtempSync(join(tmpdir(), 'start-config-'));
const config = join(dir, 'supabase/config.toml');
cpSync('supabase/config.toml', config);
cpSync('supabase/templates', join(dir, 'supabase/templates'), { recursive: true });
const original = readFileSync(config, 'utf8');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function start(toml: string) {
  writeFileSync(config, toml);
  const run = spawnSync('node_modules/.bin/tsx', ['scripts/start.ts'], {
    env: {
      ...process.env,
      SUPABASE_CONFIG: config,
      DATA_DIR: join(dir, 'data'),
      DATABASE_URL: '',
      API_PORT: '0',
      APP_PORT: '0',
      APP_DIST_DIR: join(dir, 'dist'),
    },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Our lines on stderr (a dependency may warn about the Node version on its own line). */
const ownLines = (stderr: string) =>
  stderr.split('\n').filter((l) => l !== '' && !l.includes('Node.js 20 and below'));

describe('npm start with a broken config.toml', () => {
  it('stops with one line naming the file, line and key when the TOML does not parse', () => {
    const broken = original.replace('max_rows = 1000', 'max_rows = = 1000');
    const line = broken.split('\n').indexOf('max_rows = = 1000') + 1;
    const run = start(broken);
    expect(run.status).toBe(1);
    expect(ownLines(run.stderr)).toEqual([
      `Configuration error: ${config}:${line}: max_rows: Invalid TOML document: invalid value`,
    ]);
    expect(run.stdout).not.toContain('Saúde Já is running');
  }, 120_000);

  it('stops with one line naming the file and key when a template file is missing', () => {
    const run = start(
      original.replace('./supabase/templates/recovery.html', './supabase/templates/recuperar.html'),
    );
    expect(run.status).toBe(1);
    expect(ownLines(run.stderr)).toEqual([
      `Configuration error: ${config}: auth.email.template.recovery.content_path: ./supabase/templates/recuperar.html does not exist`,
    ]);
  }, 120_000);
});
