import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createLogger, perTurn } from './log.ts';

describe('log', () => {
  it('writes the lines of one event-loop turn in one piece, after that turn', async () => {
    const writes: string[] = [];
    const log = createLogger(
      'info',
      perTurn((text) => writes.push(text)),
    );
    log.info({ msg: 'a' });
    log.error({ msg: 'b' });
    log.debug({ msg: 'dropped below the level' });
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    const msgs = writes[0]!
      .split('\n')
      .map((l) => (l ? (JSON.parse(l) as { msg: string }).msg : l));
    expect(msgs).toEqual(['a', 'b', '']);
    log.info({ msg: 'c' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(2);
  });

  it('writes what is pending when the process exits in the same turn', () => {
    const script = `
      import { createLogger } from './supabase/local/log.ts';
      createLogger('info').error({ msg: 'fatal' });
      process.exit(3);`;
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
      },
    );
    expect(run.status).toBe(3);
    expect(JSON.parse(run.stdout)).toMatchObject({ level: 'error', msg: 'fatal' });
  });
});
