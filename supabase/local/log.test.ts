import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createLogger, logFormatFrom, perTurn, prettyLine } from './log.ts';

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

  it('is JSON when the output is not a terminal, readable lines on one, as LOG_FORMAT overrides', () => {
    expect(logFormatFrom(undefined, false)).toBe('json');
    expect(logFormatFrom(undefined, true)).toBe('pretty');
    expect(logFormatFrom('json', true)).toBe('json');
    expect(logFormatFrom('pretty', false)).toBe('pretty');
  });

  it('prints a request as one short line and other events with their fields', () => {
    const at = new Date(2026, 10, 25, 11, 45, 6);
    expect(
      prettyLine(at, 'info', {
        msg: 'request',
        method: 'GET',
        path: '/rest/v1/medicos',
        status: 200,
        ms: 1.5,
      }),
    ).toBe('11:45:06 GET /rest/v1/medicos 200 1.5 ms\n');
    expect(prettyLine(at, 'info', { msg: 'migration applied', file: 'a.sql' })).toBe(
      '11:45:06 migration applied file=a.sql\n',
    );
    expect(prettyLine(at, 'error', { msg: 'realtime: prune failed', error: 'boom' })).toBe(
      '11:45:06 ERROR realtime: prune failed error=boom\n',
    );
  });

  it('writes pretty lines through a custom sink when asked', () => {
    const lines: string[] = [];
    createLogger('error', (line) => lines.push(line), 'pretty').error({ msg: 'x', n: 1 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d ERROR x n=1\n$/);
  });
});
