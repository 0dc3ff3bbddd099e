import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The migrations table (here and in the Supabase CLI) keys each file by the version before its
 * first underscore: two files with one version would leave the second unapplied, or fail.
 */
describe('supabase/migrations', () => {
  const files = readdirSync('supabase/migrations').filter((f) => f.endsWith('.sql'));

  it('names every migration <14-digit version>_<name>.sql', () => {
    expect(files.filter((f) => !/^\d{14}_[a-z0-9_]+\.sql$/.test(f))).toEqual([]);
  });

  it('gives every migration its own version', () => {
    const versions = files.map((f) => f.slice(0, 14));
    const repeated = versions.filter((v, i) => versions.indexOf(v) !== i);
    expect(repeated).toEqual([]);
  });
});
