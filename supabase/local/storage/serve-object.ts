import type { Context } from 'hono';
import { errors, fail } from './errors.ts';
import type { StoredObject } from './objects.ts';

/** `?download` / `?download=<name>`: ask the browser to save the file (under that name). */
export function downloadParam(c: Context): string | undefined {
  const value = c.req.query('download');
  if (value !== undefined && value.length > 255) fail(errors.invalidParameter('download'));
  return value;
}

/**
 * The download response the service's asset renderer sends. HTML is served as text/plain,
 * as upstream does, so an uploaded page can never run in the API's origin.
 */
export function objectResponse(
  object: StoredObject,
  bytes: Uint8Array<ArrayBuffer>,
  opts: {
    download?: string | undefined;
    expires?: string;
    transformations?: string | undefined;
  } = {},
): Response {
  const mime = object.metadata.mimetype.toLowerCase().includes('text/html')
    ? 'text/plain'
    : object.metadata.mimetype;
  const headers = new Headers({
    'Content-Type': mime,
    'Content-Length': String(bytes.byteLength),
    'Cache-Control': object.metadata.cacheControl,
    ETag: object.metadata.eTag,
    'Last-Modified': object.lastModified,
    'X-Content-Type-Options': 'nosniff',
  });
  if (opts.expires) headers.set('Expires', opts.expires);
  if (opts.transformations) headers.set('X-Transformations', opts.transformations);
  if (opts.download !== undefined) {
    const name = encodeURIComponent(opts.download);
    headers.set(
      'Content-Disposition',
      name === '' ? 'attachment;' : `attachment; filename=${name}; filename*=UTF-8''${name};`,
    );
  }
  return new Response(bytes, { status: 200, headers });
}
