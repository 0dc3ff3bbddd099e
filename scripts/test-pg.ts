import { execFileSync, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { databaseTests } from './lib/database-tests.ts';

/**
 * `npm run test:pg`: the suites on real PostgreSQL. Each test file creates (and drops) its own
 * database on the server named by DATABASE_URL — the machine's local PostgreSQL by default.
 * Without arguments it runs the test files whose outcome can depend on the database
 * (scripts/lib/database-tests.ts); the rest gives the same answer on the embedded default,
 * where `npm test` runs them. Arguments go to vitest as they are.
 */
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const args = process.argv.slice(2);
let files = args;
if (args.length === 0) {
  const all = execFileSync('npx', ['vitest', 'list', '--filesOnly'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  const selected = databaseTests(process.cwd(), all);
  console.log(`test:pg: ${selected.length} of ${all.length} test files depend on the database`);
  // vitest takes each argument as part of a path: an absolute one names its file alone.
  files = selected.map((file) => resolve(file));
}
const result = spawnSync('npx', ['vitest', 'run', ...files], {
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: databaseUrl },
});
process.exit(result.status ?? 1);
