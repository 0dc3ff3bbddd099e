/**
 * The Chromium leg of bench/sync: builds bench/sync/browser with Vite, serves it on a free
 * port and times the same first sync in Debian's Chromium (real IndexedDB) through
 * playwright-core. Throws when Chromium is missing: a browser figure is never skipped quietly.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type CDPSession } from 'playwright-core';
import { build } from 'vite';
import { CHROMIUM_LAUNCH } from '../../e2e/chromium.ts';
import { chromiumCpuUs, type ChromiumCpu } from '../cpu.ts';
import { PASSWORD } from '../../sync/testing/people.ts';
import type { BrowserSyncResult } from './browser/main.ts';
import type { SyncBenchServer } from './server.ts';

const CHROMIUM = CHROMIUM_LAUNCH.executablePath;
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

function serveStatic(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://bench').pathname;
    const file = join(dir, normalize(path === '/' ? '/index.html' : path));
    readFile(file).then(
      (body) => {
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
        res.end(body);
      },
      () => {
        res.writeHead(404);
        res.end();
      },
    );
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}/` });
    });
  });
}

/**
 * `taskMs`: how long the page's main thread was busy from sign-in to sign-out (CDP
 * TaskDuration), a figure the machine's load disturbs less than the wall clock; `cpuMs`: the
 * CPU time Chromium's renderers and its other processes (IndexedDB's backend runs in the
 * browser process) spent in the same window.
 */
export type ChromiumSync = BrowserSyncResult & {
  version: string;
  taskMs: number;
  cpuMs: ChromiumCpu;
};

async function taskMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? NaN) * 1000;
}

/**
 * Times the first sync in Chromium. With `profile` (a file name), Chromium's CPU profiler
 * records the sync and the profile is written there (open it in DevTools' Performance panel).
 */
export async function chromiumInitialSync(
  s: SyncBenchServer,
  profile?: string,
): Promise<ChromiumSync> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `bench/sync: Chromium not found at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`,
    );
  }
  const outDir = await mkdtemp(join(tmpdir(), 'bench-sync-'));
  try {
    await build({
      configFile: false,
      root: fileURLToPath(new URL('./browser', import.meta.url)),
      base: './',
      logLevel: 'warn',
      // One page with the whole engine: a chunk over 500 kB is expected, not a finding.
      build: {
        outDir,
        emptyOutDir: true,
        reportCompressedSize: false,
        chunkSizeWarningLimit: 4096,
        // A profile names functions as the sources do.
        minify: !profile,
      },
    });
    const { server, url } = await serveStatic(outDir);
    const browser = await chromium.launch(CHROMIUM_LAUNCH);
    try {
      const page = await browser.newPage();
      await page.goto(url);
      await page.waitForFunction(() => typeof window.benchSync === 'function');
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Performance.enable');
      if (profile) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      const taskStart = await taskMs(cdp);
      const cpuStart = chromiumCpuUs();
      const result = await page.evaluate((input) => window.benchSync(input), {
        url: s.url,
        anonKey: s.anonKey,
        email: s.doctor.email,
        password: PASSWORD,
        appointments: s.appointments,
      });
      const busy = (await taskMs(cdp)) - taskStart;
      const cpuEnd = chromiumCpuUs();
      const cpuMs = {
        renderer: (cpuEnd.renderer - cpuStart.renderer) / 1000,
        other: (cpuEnd.other - cpuStart.other) / 1000,
      };
      if (profile) {
        const { profile: recorded } = await cdp.send('Profiler.stop');
        await writeFile(profile, JSON.stringify(recorded));
      }
      return { ...result, version: browser.version(), taskMs: busy, cpuMs };
    } finally {
      await browser.close();
      server.close();
    }
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
