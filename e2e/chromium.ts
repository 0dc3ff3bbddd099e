/**
 * How the e2e suite and the browser benchmarks launch Debian's Chromium (no browser download).
 * Without the background-networking flags Chromium keeps dialling Google's hosts, which this
 * machine's closed network refuses. `--lang=pt-BR` makes the browser's own widgets (time fields)
 * speak as a Brazilian's does: 24-hour times, not '08:00 AM'.
 */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--lang=pt-BR',
  ],
};
