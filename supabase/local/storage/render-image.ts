import sharp from 'sharp';
import * as v from 'valibot';
import { errors, fail, type StorageError } from './errors.ts';
import type { StoredObject } from './objects.ts';

/**
 * Image transformation (`/render/image/...`) as the service does it through imgproxy, done here
 * with sharp (libvips, the library imgproxy itself is built on): `width`/`height` clamped to
 * the service's limits, `resize` cover (crop to fill, the default) / contain (fit inside) /
 * fill (stretch), `quality` 20–100 (80 by default), and the output format `avif` or `webp` when
 * asked, else WebP when the client's `Accept` has it (imgproxy's WebP detection, which the
 * Supabase CLI turns on), else the source's own; `format=origin` always keeps the source's.
 * The source's format is read from its bytes, as imgproxy reads it, whatever type the upload
 * declared.
 */
export type Transform = {
  width?: number | undefined;
  height?: number | undefined;
  resize?: 'cover' | 'contain' | 'fill' | undefined;
  format?: 'origin' | 'avif' | 'webp' | undefined;
  quality?: number | undefined;
};

const SIZE = { min: 1, max: 2500 };
const DEFAULT_QUALITY = 80;
/**
 * Larger sources are refused before decoding (a small file may unpack to gigapixels): the
 * CLI's imgproxy limit, IMGPROXY_MAX_SRC_RESOLUTION=50 megapixels.
 */
const MAX_INPUT_PIXELS = 50_000_000;

type OutputFormat = 'webp' | 'avif' | 'png' | 'jpeg' | 'gif' | 'tiff';

/** The source formats transformed, by the name sharp reads from the bytes (AVIF is HEIF). */
const SOURCE_FORMATS: Partial<Record<string, OutputFormat>> = {
  jpeg: 'jpeg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
  heif: 'avif',
  tiff: 'tiff',
};

const Dimension = v.pipe(v.number(), v.integer(), v.minValue(0));
const TransformSchema = v.object({
  width: v.optional(Dimension),
  height: v.optional(Dimension),
  resize: v.optional(v.picklist(['cover', 'contain', 'fill'])),
  format: v.optional(v.picklist(['origin', 'avif', 'webp'])),
  quality: v.optional(v.pipe(v.number(), v.integer(), v.minValue(20), v.maxValue(100))),
});

const digits = (value: string | undefined) =>
  value === undefined || value === '' ? undefined : /^\d{1,6}$/.test(value) ? Number(value) : NaN;

/** The transform of a `/render/image/public|authenticated/...` URL's query. */
export function transformFromQuery(query: Record<string, string>): Transform {
  const parsed = v.safeParse(TransformSchema, {
    width: digits(query.width),
    height: digits(query.height),
    resize: query.resize || undefined,
    format: query.format || undefined,
    quality: digits(query.quality),
  });
  if (!parsed.success) return fail(errors.invalidRequest(v.summarize(parsed.issues)));
  return parsed.output;
}

/** The transform of a signing request's body (`createSignedUrl(path, s, {transform})`). */
export function transformFromBody(body: unknown): Transform {
  const parsed = v.safeParse(TransformSchema, body ?? {});
  if (!parsed.success) return fail(errors.invalidRequest(v.summarize(parsed.issues)));
  return parsed.output;
}

const clamp = (n: number) => Math.min(Math.max(n, SIZE.min), SIZE.max);

/**
 * The `transformations` claim of a signed render URL, in the service's own notation
 * (`height:100,width:200,resize:cover,quality:70,format:avif`); empty when nothing transforms.
 */
export function transformClaim(t: Transform): string {
  const segments: string[] = [];
  if (t.height) segments.push(`height:${clamp(t.height)}`);
  if (t.width) segments.push(`width:${clamp(t.width)}`);
  if (t.width || t.height) segments.push(`resize:${t.resize ?? 'cover'}`);
  if (t.quality) segments.push(`quality:${t.quality}`);
  if (t.format && t.format !== 'origin') segments.push(`format:${t.format}`);
  return segments.join(',');
}

/** Reads a `transformations` claim back; unknown segments are ignored, as upstream does. */
export function transformFromClaim(claim: string): Transform {
  const t: Record<string, string | number> = {};
  for (const segment of claim.split(',')) {
    const [name = '', value = ''] = segment.split(':');
    if (name === 'width' || name === 'height' || name === 'quality') t[name] = Number(value);
    else if (name === 'resize' || name === 'format') t[name] = value;
  }
  return v.parse(TransformSchema, t);
}

const FIT = { cover: 'cover', contain: 'inside', fill: 'fill' } as const;

/** imgproxy's names for the resize modes, as storage-api translates them. */
const RESIZING_TYPE = { cover: 'fill', contain: 'fit', fill: 'force' } as const;

/**
 * The transformations as storage-api sends them to imgproxy and echoes them in the
 * `X-Transformations` header (`height:200,width:200,resizing_type:fill,quality:60`).
 */
export function imgproxyTransformations(t: Transform): string {
  const segments: string[] = [];
  if (t.height) segments.push(`height:${clamp(t.height)}`);
  if (t.width) segments.push(`width:${clamp(t.width)}`);
  if (t.width || t.height) segments.push(`resizing_type:${RESIZING_TYPE[t.resize ?? 'cover']}`);
  if (t.quality) segments.push(`quality:${t.quality}`);
  if (t.format && t.format !== 'origin') segments.push(`format:${t.format}`);
  return segments.join(',');
}

function outputFormat(t: Transform, source: OutputFormat, accept: string): OutputFormat {
  if (t.format === 'avif' || t.format === 'webp') return t.format;
  if (t.format === 'origin') return source;
  return /image\/webp/i.test(accept) ? 'webp' : source;
}

/** storage-api's answer when imgproxy cannot read the source (ImageProcessingError, 400). */
const UNSUPPORTED: StorageError = {
  status: 400,
  code: 'InvalidRequest',
  message: 'The source image is invalid or unsupported for rendering',
};

const TOO_LARGE: StorageError = {
  status: 400,
  code: 'InvalidRequest',
  message: 'The source image resolution is too large to process',
};

/** The source's format, read from its bytes; what sharp cannot read or write is unsupported. */
async function sourceFormat(bytes: Uint8Array): Promise<OutputFormat> {
  const meta = await sharp(bytes)
    .metadata()
    .catch(() => undefined);
  if (!meta) return fail(UNSUPPORTED);
  const known = meta.format === undefined ? undefined : SOURCE_FORMATS[meta.format];
  if (!known) return fail(UNSUPPORTED);
  if (meta.width * meta.height > MAX_INPUT_PIXELS) return fail(TOO_LARGE);
  return known;
}

export type Rendered = {
  object: StoredObject;
  bytes: Uint8Array<ArrayBuffer>;
  /** For the `X-Transformations` header; empty when nothing was asked. */
  transformations: string;
};

/** The transformed image, as a new object to serve (type and size are the output's). */
export async function renderImage(
  object: StoredObject,
  bytes: Uint8Array<ArrayBuffer>,
  t: Transform,
  accept: string,
): Promise<Rendered> {
  const format = outputFormat(t, await sourceFormat(bytes), accept);
  let out: Buffer;
  try {
    let image = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, animated: false });
    if (t.width || t.height) {
      image = image.resize({
        width: t.width ? clamp(t.width) : undefined,
        height: t.height ? clamp(t.height) : undefined,
        fit: FIT[t.resize ?? 'cover'],
      });
    }
    out = await image.toFormat(format, { quality: t.quality ?? DEFAULT_QUALITY }).toBuffer();
  } catch {
    return fail(UNSUPPORTED);
  }
  const rendered = new Uint8Array(out.buffer, out.byteOffset, out.byteLength).slice();
  return {
    object: {
      ...object,
      metadata: {
        ...object.metadata,
        mimetype: `image/${format}`,
        size: rendered.byteLength,
        contentLength: rendered.byteLength,
      },
    },
    bytes: rendered,
    transformations: imgproxyTransformations(t),
  };
}
