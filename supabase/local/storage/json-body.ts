import * as v from 'valibot';
import { errors, fail } from './errors.ts';
import { readCapped } from './upload-body.ts';

const MAX_JSON_BODY = 1024 * 1024;

/**
 * Parses and validates a JSON request body, answering malformed or mis-shaped input with the
 * service's 400 `InvalidRequest` (fastify's schema wording: `body/<path> …`).
 */
export async function readJson<S extends v.GenericSchema>(
  req: Request,
  schema: S,
): Promise<v.InferOutput<S>> {
  const bytes = await readCapped(req, MAX_JSON_BODY);
  const text = new TextDecoder().decode(bytes);
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return fail(errors.invalidRequest('Body is not valid JSON'));
  }
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = issue ? v.getDotPath(issue) : null;
    return fail(
      errors.invalidRequest(
        `body${path ? `/${path.replaceAll('.', '/')}` : ''} ${issue?.message ?? 'is invalid'}`,
      ),
    );
  }
  return parsed.output;
}
