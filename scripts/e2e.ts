import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';

/** `npm run e2e`: Playwright against a freshly seeded product (playwright.config.ts starts it). */
rmSync('.data/e2e', { recursive: true, force: true });
const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
