import * as v from 'valibot';
import type { Queryable } from '../db/index.ts';
import { loadTables, publishedTables, syncCaptureTriggers } from './catalog.ts';
import type { ChangeType, PgBinding } from './change-feed.ts';
import { parseFilter, type FilterTerm } from './filters.ts';

const RawBinding = v.object({
  event: v.string(),
  schema: v.optional(v.nullable(v.string())),
  table: v.optional(v.nullable(v.string())),
  filter: v.optional(v.nullable(v.string())),
});
export type RawBinding = v.InferOutput<typeof RawBinding>;

/** Keeps one join from fanning out into unbounded catalog queries. */
const MAX_BINDINGS = 100;

/** The phx_join payload realtime-js sends (docs/platform-wire.md §4.2); unknown keys are ignored. */
export const JoinPayload = v.object({
  config: v.optional(
    v.object({
      broadcast: v.nullish(
        v.object({ self: v.optional(v.boolean()), ack: v.optional(v.boolean()) }),
      ),
      presence: v.nullish(
        v.object({ key: v.nullish(v.string()), enabled: v.optional(v.boolean()) }),
      ),
      postgres_changes: v.nullish(v.pipe(v.array(RawBinding), v.maxLength(MAX_BINDINGS))),
      private: v.nullish(v.boolean()),
      postgres_changes_options: v.nullish(v.object({ wait: v.optional(v.boolean()) })),
    }),
    {},
  ),
  access_token: v.nullish(v.string()),
});
export type JoinPayload = v.InferOutput<typeof JoinPayload>;

const EVENTS: readonly string[] = ['*', 'INSERT', 'UPDATE', 'DELETE'];

/** The binding as the client sent it plus `id`; the client pairs reply and request by index. */
export function echoBinding(raw: RawBinding, id: number): Record<string, unknown> {
  const echo: Record<string, unknown> = { event: raw.event };
  if (raw.schema !== undefined) echo.schema = raw.schema;
  if (raw.table !== undefined) echo.table = raw.table;
  if (raw.filter !== undefined) echo.filter = raw.filter;
  echo.id = id;
  return echo;
}

/** A stable, non-zero 32-bit id per binding, like the real server's `:erlang.phash2(params)`. */
export function bindingId(raw: RawBinding): number {
  let h = 0x811c9dc5;
  for (const ch of JSON.stringify([raw.event, raw.schema, raw.table, raw.filter])) {
    h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  }
  return h >>> 0 || 1;
}

export type BindingResult = { ok: true; bindings: PgBinding[] } | { ok: false; message: string };

/**
 * Validates every binding against the publication and the table's columns, and attaches the
 * capture trigger to tables published since start. All or nothing, as the real server
 * subscribes a channel's bindings together.
 */
export async function resolveBindings(db: Queryable, raws: RawBinding[]): Promise<BindingResult> {
  const bindings: PgBinding[] = [];
  let needsSync = false;
  for (const raw of raws) {
    const event = raw.event.toUpperCase();
    const schema = raw.schema || 'public';
    const table = raw.table || '*';
    const parsed = parseFilter(raw.filter);
    if (!parsed.ok) return parsed;
    const unable = {
      ok: false as const,
      message:
        'Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given ' +
        `connect parameters: [schema: ${schema}, table: ${table}, filters: [${raw.filter ?? ''}]]`,
    };
    if (!EVENTS.includes(event)) return unable;
    const published = await publishedTables(db, schema, table);
    if (published.length === 0) return unable;
    needsSync ||= published.some((t) => !t.captured);
    const [only] = published;
    if (table !== '*' && only && parsed.terms.length > 0) {
      const problem = await checkTerms(db, only.relid, parsed.terms);
      if (problem) return { ok: false, message: `Error parsing \`filter\` params: ${problem}` };
    }
    bindings.push({
      id: bindingId(raw),
      event: event as '*' | ChangeType,
      schema,
      table,
      terms: parsed.terms,
    });
  }
  if (needsSync) await syncCaptureTriggers(db);
  return { ok: true, bindings };
}

const UNTYPED_OPS = ['like', 'ilike', 'match', 'imatch', 'is'];

async function checkTerms(
  db: Queryable,
  relid: number,
  terms: FilterTerm[],
): Promise<string | undefined> {
  const table = (await loadTables(db, [relid])).get(relid);
  for (const term of terms) {
    const column = table?.columns.find((c) => c.name === term.column);
    if (!column) return `invalid column for filter ${term.column}`;
    if (UNTYPED_OPS.includes(term.op)) continue;
    for (const value of Array.isArray(term.value) ? term.value : [term.value]) {
      try {
        await db.query(`select $1::text::${column.sqlType}`, [value]);
      } catch (e) {
        return e instanceof Error ? e.message : String(e);
      }
    }
  }
  return undefined;
}
