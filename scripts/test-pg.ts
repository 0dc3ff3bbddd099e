import { spawnSync } from 'node:child_process';

/**
 * `npm run test:pg`: the same suites as `npm test`, on real PostgreSQL. Each test file creates
 * (and drops) its own database on the server named by DATABASE_URL — the machine's local
 * PostgreSQL by default.
 */
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const result = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: databaseUrl },
});
process.exit(result.status ?? 1);
