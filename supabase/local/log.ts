/** One JSON object per line on stdout; levels below the configured one are dropped. */
export type LogLevel = 'silent' | 'error' | 'info' | 'debug';
export type LogEntry = Record<string, unknown> & { msg: string };

export type Logger = {
  error(entry: LogEntry): void;
  info(entry: LogEntry): void;
  debug(entry: LogEntry): void;
};

const RANK: Record<LogLevel, number> = { silent: 0, error: 1, info: 2, debug: 3 };

export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (l) => process.stdout.write(l),
): Logger {
  const at = (lvl: Exclude<LogLevel, 'silent'>) => (entry: LogEntry) => {
    if (RANK[lvl] <= RANK[level])
      write(`${JSON.stringify({ time: new Date().toISOString(), level: lvl, ...entry })}\n`);
  };
  return { error: at('error'), info: at('info'), debug: at('debug') };
}

/** The access log's line for one answered request; `start` is its `performance.now()`. */
export function logRequest(
  log: Logger,
  method: string,
  path: string,
  status: number,
  start: number,
): void {
  log.info({
    msg: 'request',
    method,
    path,
    status,
    ms: Math.round((performance.now() - start) * 10) / 10,
  });
}
