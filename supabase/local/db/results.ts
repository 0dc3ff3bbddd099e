import type { QueryResult, Row } from './types.ts';

type Parser = (text: string) => unknown;
type Field = { name: string; dataTypeID: number };

/** `SELECT 1`, `INSERT 0 3`, `UPDATE 2`: the row count is the tag's last number, if any. */
function commandRowCount(tag: string): number | undefined {
  const count = /(\d+)$/.exec(tag)?.[1];
  return count === undefined ? undefined : Number(count);
}

/**
 * Builds one result per statement of a batch from the backend's replies, in the order they
 * arrive, with each column typed by `parserFor` — the same for both drivers, whichever way
 * they hand the replies over.
 */
export class ResultCollector {
  readonly results: QueryResult[] = [];
  private names: string[] = [];
  private parsers: Parser[] = [];
  private rows: Row[] = [];

  constructor(private readonly parserFor: (oid: number) => Parser) {}

  rowDescription(fields: readonly Field[]): void {
    this.names = fields.map((f) => f.name);
    this.parsers = fields.map((f) => this.parserFor(f.dataTypeID));
  }

  dataRow(values: readonly (string | null)[]): void {
    const row: Row = {};
    for (let i = 0; i < this.names.length; i++) {
      const value = values[i] ?? null;
      row[this.names[i]!] = value === null ? null : this.parsers[i]!(value);
    }
    this.rows.push(row);
  }

  commandComplete(tag: string): void {
    this.results.push({ rows: this.rows, rowCount: commandRowCount(tag) ?? this.rows.length });
    this.names = [];
    this.parsers = [];
    this.rows = [];
  }

  emptyQuery(): void {
    this.results.push({ rows: [], rowCount: 0 });
  }
}
