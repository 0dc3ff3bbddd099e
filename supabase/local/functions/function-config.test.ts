import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readFunctionSettings } from './function-config.ts';

describe('readFunctionSettings', () => {
  let root: string | undefined;
  afterEach(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  async function withConfig(toml: string | null): Promise<string> {
    root = await mkdtemp(join(tmpdir(), 'fn-config-'));
    const functionsDir = join(root, 'functions');
    await mkdir(functionsDir);
    if (toml !== null) await writeFile(join(root, 'config.toml'), toml);
    return functionsDir;
  }

  it('reads verify_jwt per function from the Supabase CLI config beside the functions folder', async () => {
    const dir = await withConfig(`
project_id = "saude-ja"

[api]
port = 54321
verify_jwt = false # not a function section

[functions.public-hook]
verify_jwt = false   # webhook called without a JWT

[functions."quoted_name"]
# a comment line
verify_jwt = false

[functions.strict]
verify_jwt = true
import_map = "./functions/deno.json"
`);
    const settings = await readFunctionSettings(dir);
    expect([...settings.entries()]).toEqual([
      ['public-hook', { verifyJwt: false }],
      ['quoted_name', { verifyJwt: false }],
      ['strict', { verifyJwt: true }],
    ]);
  });

  it('treats a missing file as no overrides', async () => {
    expect((await readFunctionSettings(await withConfig(null))).size).toBe(0);
  });

  it('ignores values that are not booleans', async () => {
    const dir = await withConfig('[functions.x]\nverify_jwt = "false"\n');
    expect((await readFunctionSettings(dir)).size).toBe(0);
  });
});
