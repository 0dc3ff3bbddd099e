import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { COMPRESSIBLE, ENCODINGS, type Encoding } from './precompress.ts';

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
  const tags: EntityTags = new Map();
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
    const revalidate =
      !isFile || /(index\.html|sw\.js|registerSW\.js|manifest\.webmanifest)$/.test(target);
    const compressible = COMPRESSIBLE.has(extname(target));
    const sent =
      (compressible ? await precompressed(target, c.req.header('accept-encoding')) : undefined) ??
      ({ path: target, stats: await stat(target) } satisfies Representation);
    const { etag, body } = await tagged(tags, sent);
    const headers: Record<string, string> = {
      'Content-Type': TYPES[extname(target)] ?? 'application/octet-stream',
      'Cache-Control': revalidate ? 'no-cache' : 'public, max-age=31536000, immutable',
      ETag: etag,
    };
    // Every response of a compressible file depends on Accept-Encoding, the plain one too:
    // a shared cache must not hand plain bytes to a browser that asked for brotli, or back.
    if (compressible) headers['Vary'] = 'Accept-Encoding';
    if (sent.encoding) headers['Content-Encoding'] = sent.encoding;
    if (matches(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
    return c.body(body ?? (await readFile(sent.path)), 200, headers);
  });
  return app;
}

/** The file a response sends: the requested one or a precompressed copy of it. */
type Representation = { path: string; stats: Stats; encoding?: Encoding };

/**
 * The build's precompressed copy (`<file>.br`, `<file>.gz`, see precompress.ts) that the
 * browser accepts, best first; undefined when it accepts none of them or none was built.
 */
async function precompressed(
  file: string,
  acceptEncoding: string | undefined,
): Promise<Representation | undefined> {
  const accepted = acceptedEncodings(acceptEncoding);
  for (const { name, suffix } of ENCODINGS) {
    if (!accepted.has(name)) continue;
    const stats = await stat(file + suffix).catch(() => undefined);
    if (stats?.isFile()) return { path: file + suffix, stats, encoding: name };
  }
  return undefined;
}

/** Each served file's ETag, for the version of it (size and mtime) that was hashed. */
type EntityTags = Map<string, { version: string; etag: string }>;

/**
 * The representation's ETag, hashed once per version of the file rather than per request (the
 * build's files change only with a new build); the bytes come along when they had to be read.
 */
async function tagged(
  tags: EntityTags,
  sent: Representation,
): Promise<{ etag: string; body?: Buffer<ArrayBuffer> }> {
  const version = `${sent.stats.size}:${sent.stats.mtimeMs}`;
  const known = tags.get(sent.path);
  if (known?.version === version) return { etag: known.etag };
  const body = await readFile(sent.path);
  const etag = entityTag(body, sent.encoding);
  tags.set(sent.path, { version, etag });
  return { etag, body };
}

/**
 * The codings an Accept-Encoding header allows (RFC 9110 §12.5.3): listed with q > 0, or
 * covered by `*` without being refused by name. No header means no coding is wanted.
 */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const allowed = new Set<string>();
  const refused = new Set<string>();
  let wildcard = false;
  for (const part of (header ?? '').split(',')) {
    const [token = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (!token) continue;
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    const wanted = Number.isFinite(weight) && weight > 0;
    if (token === '*') wildcard = wanted;
    else if (wanted) allowed.add(token);
    else refused.add(token);
  }
  if (wildcard) {
    for (const { name } of ENCODINGS) if (!refused.has(name)) allowed.add(name);
  }
  return allowed;
}

/** A strong validator of the bytes sent: each encoding of a file is its own representation. */
function entityTag(body: Buffer, encoding: Encoding | undefined): string {
  const digest = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  return `"${digest}${encoding ? `-${encoding}` : ''}"`;
}

/** If-None-Match (RFC 9110 §13.1.2): `*` or any listed tag, weak or strong, names this one. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
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
