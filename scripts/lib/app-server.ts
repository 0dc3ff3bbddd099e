import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves the built PWA: hashed assets are immutable, the shell and the service worker are
 * always revalidated (so an update is noticed), and unknown extension-less paths get index.html
 * so deep links work before the service worker is installed.
 */
export function createAppServer(distDir: string): Hono {
  const root = normalize(distDir);
  const app = new Hono();
  app.get('*', async (c) => {
    const path = decodedPath(c.req.url);
    if (path === undefined) return c.text('Bad Request', 400);
    const file = normalize(join(root, path));
    const inside = file === root || file.startsWith(root + sep);
    const isFile =
      inside &&
      (await stat(file)
        .then((s) => s.isFile())
        .catch(() => false));
    // A missing file (favicon.ico, an old hashed asset) is a 404, not the app's HTML under an
    // image or script name; only extension-less paths are routes of the single-page app.
    if (!isFile && extname(path) !== '') return c.text('Not Found', 404);
    const target = isFile ? file : join(root, 'index.html');
    const body = await readFile(target);
    const revalidate =
      !isFile || /(index\.html|sw\.js|registerSW\.js|manifest\.webmanifest)$/.test(target);
    return c.body(body, 200, {
      'Content-Type': TYPES[extname(target)] ?? 'application/octet-stream',
      'Cache-Control': revalidate ? 'no-cache' : 'public, max-age=31536000, immutable',
    });
  });
  return app;
}

/** The request's path, percent-decoded; undefined when malformed (`/%zz`) or carrying NUL. */
function decodedPath(url: string): string | undefined {
  try {
    const path = decodeURIComponent(new URL(url).pathname);
    return path.includes('\0') ? undefined : path;
  } catch {
    return undefined;
  }
}

export function listenApp(app: Hono, port: number, hostname: string): Promise<ServerType> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port, hostname }, () => resolve(server));
  });
}
