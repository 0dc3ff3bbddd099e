/** One JSON object per line on stdout; levels below the configured one are dropped. */
export type LogLevel = 'silent' | 'error' | 'info' | 'debug';
export type LogEntry = Record<string, unknown> & { msg: string };

export type Logger = {
  error(entry: LogEntry): void;
  info(entry: LogEntry): void;
  debug(entry: LogEntry): void;
};

const RANK: Record<LogLevel, number> = { silent: 0, error: 1, info: 2, debug: 3 };

/**
 * Passes what is written during one turn of the event loop on to `sink` in one piece, at the
 * end of that turn (or at exit): under load the access log would otherwise cost a system call
 * per request on the server's only thread.
 */
export function perTurn(sink: (text: string) => void): (line: string) => void {
  let pending = '';
  const flush = () => {
    if (!pending) return;
    const text = pending;
    pending = '';
    sink(text);
  };
  process.on('exit', flush);
  return (line) => {
    if (!pending) setImmediate(flush);
    pending += line;
  };
}

let stdout: ((line: string) => void) | undefined;

export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (stdout ??= perTurn((text) => process.stdout.write(text))),
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
