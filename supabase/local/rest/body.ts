import { apiError, fail, ok, type Result } from './errors.ts';

/** Bodies above this are refused with 413 before any parsing. */
export const MAX_BODY_BYTES = 1024 * 1024;

async function readBody(req: Request): Promise<Result<string>> {
  const tooLarge = () =>
    fail<string>(
      apiError(413, 'PGRST102', `Request body exceeds the limit of ${MAX_BODY_BYTES} bytes`),
    );
  if (Number(req.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) return tooLarge();
  if (!req.body) return ok('');
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      return tooLarge();
    }
    chunks.push(value);
  }
  return ok(Buffer.concat(chunks).toString('utf8'));
}

const invalidJson = () => apiError(400, 'PGRST102', 'Empty or invalid json');

/** The JSON body of a write or RPC call; only JSON content types are accepted. */
export async function readJson(req: Request, allowEmpty: boolean): Promise<Result<unknown>> {
  const type = (req.headers.get('content-type') ?? 'application/json')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  if (type !== 'application/json' && type !== 'application/vnd.pgrst.object+json' && type !== '') {
    return fail(apiError(415, 'PGRST107', `Content-Type not acceptable: ${type}`));
  }
  const text = await readBody(req);
  if (!text.ok) return text;
  if (!text.value.trim()) return allowEmpty ? ok({}) : fail(invalidJson());
  try {
    return ok(JSON.parse(text.value) as unknown);
  } catch {
    return fail(invalidJson());
  }
}
