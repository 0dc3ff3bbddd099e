import * as v from 'valibot';

export type Validation<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string> };

/**
 * Runs a schema and keeps the first message per field (dotted path; '' for the whole object),
 * which is what a form shows under each input. Errors are values: this never throws.
 */
export function validate<const TSchema extends v.GenericSchema>(
  schema: TSchema,
  input: unknown,
): Validation<v.InferOutput<TSchema>> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return { ok: true, value: result.output };
  const errors: Record<string, string> = {};
  for (const issue of result.issues) {
    const path = v.getDotPath(issue) ?? '';
    errors[path] ??= issue.message;
  }
  return { ok: false, errors };
}
