import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export type FunctionSettings = { verifyJwt: boolean };

/**
 * Reads `[functions.<name>] verify_jwt = false` from the `config.toml` beside the functions
 * directory (`supabase/config.toml`, as the Supabase CLI does). Only this TOML subset is
 * understood — section headers and `key = true|false` lines; everything else is ignored.
 */
export async function readFunctionSettings(
  functionsDir: string,
): Promise<Map<string, FunctionSettings>> {
  const text = await readFile(join(dirname(functionsDir), 'config.toml'), 'utf8').catch(() => '');
  const settings = new Map<string, FunctionSettings>();
  let current: string | undefined;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/\s+#.*$/, '').trim();
    if (line === '' || line.startsWith('#')) continue;
    const section = /^\[\s*functions\.(?:"([^"]+)"|([A-Za-z0-9_-]+))\s*\]$/.exec(line);
    if (section) {
      current = section[1] ?? section[2];
      continue;
    }
    if (line.startsWith('[')) {
      current = undefined;
      continue;
    }
    const entry = /^verify_jwt\s*=\s*(true|false)$/.exec(line);
    if (current && entry) settings.set(current, { verifyJwt: entry[1] === 'true' });
  }
  return settings;
}
