import sharp from 'sharp';
import * as v from 'valibot';
import { errors, fail, type StorageError } from './errors.ts';
import type { StoredObject } from './objects.ts';

/**
 * Image transformation (`/render/image/...`) as the service does it through imgproxy, done here
 * with sharp (libvips, the library imgproxy itself is built on): `width`/`height` clamped to
 * the service's limits, `resize` cover (crop to fill, the default) / contain (fit inside) /
 * fill (stretch), `quality` 20–100 (80 by default), and the output format chosen from the
 * client's `Accept` (WebP when accepted) unless `format=origin` keeps the source's.
 */
export type Transform = {
  width?: number | undefined;
  height?: number | undefined;
  resize?: 'cover' | 'contain' | 'fill' | undefined;
  format?: 'origin' | 'avif' | undefined;
  quality?: number | undefined;
};

const SIZE = { min: 1, max: 2500 };
const DEFAULT_QUALITY = 80;
/** Larger sources are refused before decoding: a small file may unpack to gigapixels. */
const MAX_INPUT_PIXELS = 40_000_000;
const SOURCE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif'];

const Dimension = v.pipe(v.number(), v.integer(), v.minValue(0));
const TransformSchema = v.object({
  width: v.optional(Dimension),
  height: v.optional(Dimension),
  resize: v.optional(v.picklist(['cover', 'contain', 'fill'])),
  format: v.optional(v.picklist(['origin', 'avif'])),
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

type OutputFormat = 'webp' | 'avif' | 'png' | 'jpeg' | 'gif';

function outputFormat(t: Transform, source: string, accept: string): OutputFormat {
  if (t.format === 'avif') return 'avif';
  const original = source.replace('image/', '') as OutputFormat;
  if (t.format === 'origin') return original;
  return /image\/webp/i.test(accept) ? 'webp' : original;
}

const UNSUPPORTED: StorageError = {
  status: 422,
  code: 'InvalidRequest',
  error: 'ImageProcessingError',
  message: 'Source image type is not supported',
};

/** The transformed image, as a new object to serve (type and size are the output's). */
export async function renderImage(
  object: StoredObject,
  bytes: Uint8Array<ArrayBuffer>,
  t: Transform,
  accept: string,
): Promise<{ object: StoredObject; bytes: Uint8Array<ArrayBuffer> }> {
  const source = object.metadata.mimetype.toLowerCase();
  if (!SOURCE_TYPES.includes(source)) return fail(UNSUPPORTED);
  const format = outputFormat(t, source, accept);
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
  };
}
