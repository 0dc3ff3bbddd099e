import { apiError, parseError, type ApiError } from './errors.ts';
import { parseSelect, type SelectItem } from './grammar.ts';

/**
 * Limits that keep one request from monopolising the database (README "Limits"): the
 * embedding depth of `select` and the size of an answer. Both are refused in PostgREST's
 * error shape; the statement timeouts per role are Postgres' own (bootstrap/roles.sql).
 */

/**
 * How many levels of embedding `items` ask for (`a,b(c(d))` is 2). A spread (`...c(d)`) is no
 * level of its own: its columns join the level that spreads it, as in the answer's shape.
 */
export function embedDepth(items: readonly SelectItem[]): number {
  let deepest = 0;
  for (const item of items) {
    if (item.kind === 'embed') {
      deepest = Math.max(deepest, (item.spread ? 0 : 1) + embedDepth(item.items));
    }
  }
  return deepest;
}

/**
 * Refuses a `select` that embeds deeper than `max`: each level multiplies the rows the
 * database builds (five levels of medicos ↔ agenda_medico came to 19 MB), and nothing a
 * client of this API needs goes that deep. Malformed selects are left to the planner's
 * own parse error.
 */
export function checkEmbedDepth(select: string | null, max: number): ApiError | undefined {
  if (select === null || !select.includes('(')) return undefined;
  const parsed = parseSelect(select);
  if (!parsed.ok) return undefined;
  const depth = embedDepth(parsed.value);
  if (depth <= max) return undefined;
  return parseError(
    'select',
    select,
    `embedding nested ${depth} levels deep; at most ${max} are allowed (REST_MAX_EMBED_DEPTH)`,
  );
}

/** Code of the refusal of an answer bigger than REST_MAX_RESPONSE_BYTES (not PostgREST's). */
export const RESPONSE_TOO_LARGE = 'PGRST199';

/** The refusal of a body over `max` bytes, or undefined when it fits. */
export function checkResponseSize(body: string | null, max: number): ApiError | undefined {
  // A UTF-8 string is at most three bytes per UTF-16 unit: most bodies need no measuring.
  if (body === null || body.length * 3 <= max) return undefined;
  const bytes = Buffer.byteLength(body);
  if (bytes <= max) return undefined;
  return apiError(
    400,
    RESPONSE_TOO_LARGE,
    'Response is too large',
    `The response has ${bytes} bytes; at most ${max} are allowed (REST_MAX_RESPONSE_BYTES)`,
    'Ask for fewer rows (limit, Range) or fewer columns and embeds',
  );
}
