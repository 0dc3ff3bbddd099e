import { readdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text formats worth compressing; images and fonts are compressed already. */
export const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.webmanifest',
  '.svg',
  '.txt',
  '.ico',
]);

/** The encodings written beside each file, best first, with the suffix of their file. */
export const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

export type Encoding = (typeof ENCODINGS)[number]['name'];

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/** Both encodings of one file at their best level: the work is done once, at build time. */
async function encode(body: Buffer): Promise<Record<Encoding, Buffer>> {
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzipAsync(body, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  return { br, gzip: gz };
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of a built app, so the
 * server sends the compressed bytes without compressing per request. An encoding that would
 * not save bytes is left out; the server then sends the file as it is.
 */
export async function precompress(dir: string): Promise<{ files: number; written: number }> {
  let count = 0;
  let written = 0;
  for await (const path of files(dir)) {
    if (!COMPRESSIBLE.has(extname(path))) continue;
    count++;
    const body = await readFile(path);
    const encoded = await encode(body);
    for (const { name, suffix } of ENCODINGS) {
      if (encoded[name].length >= body.length) continue;
      await writeFile(path + suffix, encoded[name]);
      written++;
    }
  }
  return { files: count, written };
}
