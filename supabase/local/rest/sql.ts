import { columnNotFound, fail, ok, type Result } from './errors.ts';
import type { Field } from './grammar.ts';
import type { Column } from './schema-cache.ts';

/** The columns a level of the request reads from: a table, a view or a function's rows. */
export type Source = {
  /** The exposed schema it lives in. */
  schema: string;
  name: string;
  columns: Map<string, Column>;
  table: boolean;
  /** Computed fields of a table or view, by function name (schema-cache.ts). */
  computed?: ReadonlyMap<string, Column>;
  /**
   * The name PostgREST's SQL gives it, which PostgreSQL's errors then use: an embedded
   * relation is `<name>_<depth>` (`column messages_1.sum does not exist`).
   */
  alias?: string;
};

export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Bound parameters of one statement; values never enter the SQL text. */
export class Params {
  private aliases = 0;
  /** `values`: parameters already bound, which the statement's text refers to. */
  constructor(readonly values: unknown[] = []) {}
  /** Table aliases unique within the statement, so self-joins and nesting never collide. */
  alias(): string {
    return `pgrst_${++this.aliases}`;
  }
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const TEXT_TYPES = /^(text|character varying|character|citext|name)(\(|$)/;

export function columnExpr(
  alias: string,
  source: Source,
  field: Field,
  params: Params,
): Result<{ sql: string; text: boolean }> {
  let column = source.columns.get(field.name);
  let sql = `${alias}.${ident(field.name)}`;
  if (!column) {
    // A computed field is called with the row: `blurb_message(pgrst_0)`.
    column = source.computed?.get(field.name);
    if (!column) return fail(columnNotFound(source.alias ?? source.name, field.name));
    sql = `${ident(source.schema)}.${ident(field.name)}(${alias})`;
  }
  for (const step of field.path) {
    const key = /^-?\d+$/.test(step.key)
      ? `${params.add(Number(step.key))}::int`
      : `${params.add(step.key)}::text`;
    sql = `(${sql}${step.arrow}${key})`;
  }
  const lastArrow = field.path.at(-1)?.arrow;
  return ok({ sql, text: lastArrow ? lastArrow === '->>' : TEXT_TYPES.test(column.type) });
}
