/**
 * One line per event on stdout: a JSON object for machines, or a short readable line on a
 * terminal (see `logFormatFrom`). Levels below the configured one are dropped.
 */
export type LogLevel = 'silent' | 'error' | 'info' | 'debug';
export type LogFormat = 'json' | 'pretty';
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

/**
 * `LOG_FORMAT` when set; otherwise readable lines for a person at a terminal and JSON when the
 * output goes to a file, a pipe or a log collector.
 */
export function logFormatFrom(
  setting: LogFormat | undefined,
  isTerminal: boolean = process.stdout.isTTY === true,
): LogFormat {
  return setting ?? (isTerminal ? 'pretty' : 'json');
}

/** `11:45:06 GET /rest/v1/medicos 200 1.5 ms`, or `11:45:06 ERROR msg key=value …`. */
export function prettyLine(
  time: Date,
  level: Exclude<LogLevel, 'silent'>,
  entry: LogEntry,
): string {
  const clock = time.toTimeString().slice(0, 8);
  const { msg, ...rest } = entry;
  if (msg === 'request' && level === 'info') {
    return `${clock} ${String(rest.method)} ${String(rest.path)} ${String(rest.status)} ${String(rest.ms)} ms\n`;
  }
  const fields = Object.entries(rest).map(
    ([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`,
  );
  const tag = level === 'info' ? '' : `${level.toUpperCase()} `;
  return `${clock} ${tag}${[msg, ...fields].join(' ')}\n`;
}

let stdout: ((line: string) => void) | undefined;

/**
 * A logger writing to `write` (stdout, batched per event-loop turn, by default). Lines are JSON
 * unless `format` says otherwise; the default stdout logger follows `logFormatFrom`.
 */
export function createLogger(
  level: LogLevel,
  write?: (line: string) => void,
  format: LogFormat = write ? 'json' : logFormatFrom(undefined),
): Logger {
  const sink = write ?? (stdout ??= perTurn((text) => process.stdout.write(text)));
  const at = (lvl: Exclude<LogLevel, 'silent'>) => (entry: LogEntry) => {
    if (RANK[lvl] > RANK[level]) return;
    const time = new Date();
    sink(
      format === 'pretty'
        ? prettyLine(time, lvl, entry)
        : `${JSON.stringify({ time: time.toISOString(), level: lvl, ...entry })}\n`,
    );
  };
  return { error: at('error'), info: at('info'), debug: at('debug') };
}

/** Resolves once lines written so far have left the per-turn buffer (before printing a banner). */
export function logFlushed(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
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
