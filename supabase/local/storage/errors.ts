import type { Context } from 'hono';
import { isPgError } from '../db/index.ts';
import type { Logger } from '../log.ts';

/**
 * A storage failure as supabase/storage reports it (`src/internal/errors/codes.ts`). The wire
 * body is frozen: `{statusCode, code, error, message}` with the real status as a string, sent
 * with HTTP 400 for every client error and 500 for server errors (docs/platform-wire.md §5).
 */
export type StorageError = {
  /** The status the real service puts in the body; the HTTP status is 400 unless this is 5xx. */
  status: number;
  code: string;
  /** The legacy `error` field; defaults to `code`, as the service renders it. */
  error?: string;
  message: string;
};

export const errors = {
  noSuchBucket: (): StorageError => ({
    status: 404,
    code: 'NoSuchBucket',
    error: 'Bucket not found',
    message: 'Bucket not found',
  }),
  noSuchKey: (): StorageError => ({
    status: 404,
    code: 'NoSuchKey',
    error: 'not_found',
    message: 'Object not found',
  }),
  duplicate: (): StorageError => ({
    status: 409,
    code: 'Duplicate',
    error: 'Duplicate',
    message: 'The resource already exists',
  }),
  accessDenied: (message = 'Access denied'): StorageError => ({
    status: 403,
    code: 'AccessDenied',
    error: 'Unauthorized',
    message,
  }),
  invalidJwt: (message: string): StorageError => ({ status: 400, code: 'InvalidJWT', message }),
  invalidSignature: (message = 'The url do not match the signature'): StorageError => ({
    status: 400,
    code: 'InvalidSignature',
    message,
  }),
  entityTooLarge: (): StorageError => ({
    status: 413,
    code: 'EntityTooLarge',
    error: 'Payload too large',
    message: 'The object exceeded the maximum allowed size',
  }),
  invalidMimeType: (mimeType: string): StorageError => ({
    status: 415,
    code: 'InvalidMimeType',
    error: 'invalid_mime_type',
    message: `mime type ${mimeType} is not supported`,
  }),
  invalidKey: (key: string): StorageError => ({
    status: 400,
    code: 'InvalidKey',
    message: `Invalid key: ${key}`,
  }),
  invalidBucketName: (): StorageError => ({
    status: 400,
    code: 'InvalidBucketName',
    error: 'Invalid Input',
    message: 'Bucket name invalid',
  }),
  invalidParameter: (parameter: string, message?: string): StorageError => ({
    status: 400,
    code: 'InvalidParameter',
    message: message ?? `Invalid Parameter ${parameter}`,
  }),
  invalidRequest: (message: string): StorageError => ({
    status: 400,
    code: 'InvalidRequest',
    message,
  }),
  bucketNotEmpty: (): StorageError => ({
    status: 409,
    code: 'ResourceNotEmpty',
    message: 'The bucket you tried to delete is not empty',
  }),
  notFound: (): StorageError => ({
    status: 404,
    code: 'NotFound',
    error: 'Not Found',
    message: 'Route not found',
  }),
  internal: (): StorageError => ({
    status: 500,
    code: 'InternalError',
    message: 'Internal server error',
  }),
};

/** Thrown inside a request to abort it (and roll back its transaction) with a storage error. */
export class StorageFailure extends Error {
  override readonly name = 'StorageFailure';
  constructor(readonly failure: StorageError) {
    super(failure.message);
  }
}

export function fail(failure: StorageError): never {
  throw new StorageFailure(failure);
}

export function errorResponse(c: Context, e: StorageError): Response {
  const body = {
    statusCode: String(e.status),
    code: e.code,
    error: e.error ?? e.code,
    message: e.message,
  };
  return c.json(body, e.status >= 500 ? 500 : 400);
}

/**
 * Maps what a request threw to the service's answer. Postgres errors the caller caused (RLS,
 * uniqueness, a missing bucket) become their storage codes; anything else is logged and
 * answered with a bare 500 — never a stack or an internal message.
 */
export function toStorageError(e: unknown, log: Logger): StorageError {
  if (e instanceof StorageFailure) return e.failure;
  if (isPgError(e)) {
    if (e.code === '42501') return errors.accessDenied(e.message);
    if (e.code === '23505') return errors.duplicate();
    if (e.code === '23503') return errors.noSuchBucket();
    if (e.code === '22P02' || e.code === '22023' || e.code === '54000') {
      return errors.invalidRequest('Invalid input');
    }
  }
  log.error({ msg: 'storage request failed', error: String(e) });
  return errors.internal();
}
