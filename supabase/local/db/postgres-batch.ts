import type pg from 'pg';
import { commandRowCount } from './command-tag.ts';
import { batchMessages } from './protocol.ts';
import { isStalePlan, PreparedStatements, statementName } from './prepared.ts';
import type { QueryResult, Row, Statement } from './types.ts';

type Parser = (text: string) => unknown;
type RowDescription = { fields: { name: string; dataTypeID: number }[] };
type DataRow = { fields: (string | null)[] };
type CommandComplete = { text: string };

const preparedOn = new WeakMap<pg.Connection, PreparedStatements>();

/**
 * `statements` as one extended-protocol sequence closed by a single Sync, written in one go:
 * PostgreSQL runs everything before a Sync as one implicit transaction (the first error skips
 * the rest and rolls it all back), so the batch needs no BEGIN/COMMIT and costs one round trip
 * and three or four messages per statement (each is prepared once per connection). A node-pg Submittable: the client hands it the backend's
 * replies until ReadyForQuery.
 */
class BatchQuery implements pg.Submittable {
  private readonly results: QueryResult[] = [];
  private fields: string[] = [];
  private parsers: Parser[] = [];
  private rows: Row[] = [];
  private settled = false;
  /** This connection's prepared statements, known once `submit` ran. */
  private prepared: PreparedStatements | undefined;
  private readonly names: string[];

  constructor(
    private readonly statements: readonly Statement[],
    private readonly types: pg.CustomTypesConfig,
    private readonly done: (error: Error | null, results: QueryResult[]) => void,
  ) {
    this.names = statements.map((s) => statementName(s.sql));
  }

  submit(connection: pg.Connection): void {
    let prepared = preparedOn.get(connection);
    if (!prepared) preparedOn.set(connection, (prepared = new PreparedStatements()));
    this.prepared = prepared;
    connection.stream.write(batchMessages(this.statements, this.names, prepared));
  }

  handleRowDescription(msg: RowDescription): void {
    this.fields = msg.fields.map((f) => f.name);
    this.parsers = msg.fields.map((f) => this.types.getTypeParser(f.dataTypeID, 'text') as Parser);
  }

  handleDataRow(msg: DataRow): void {
    const row: Row = {};
    for (let i = 0; i < this.fields.length; i++) {
      const value = msg.fields[i] ?? null;
      row[this.fields[i]!] = value === null ? null : this.parsers[i]!(value);
    }
    this.rows.push(row);
  }

  handleCommandComplete(msg: CommandComplete): void {
    const name = this.names[this.results.length];
    if (name) this.prepared?.confirm(name);
    this.results.push({
      rows: this.rows,
      rowCount: commandRowCount(msg.text) ?? this.rows.length,
    });
    this.fields = [];
    this.parsers = [];
    this.rows = [];
  }

  handleEmptyQuery(): void {
    this.results.push({ rows: [], rowCount: 0 });
  }

  /** A server error (the rest of the batch was skipped) or a dead connection. */
  handleError(error: Error): void {
    const failed = this.names[this.results.length];
    if (failed && isStalePlan(error)) this.prepared?.forget(failed);
    this.settle(error);
  }

  handleReadyForQuery(): void {
    this.settle(null);
  }

  private settle(error: Error | null): void {
    if (this.settled) return;
    this.settled = true;
    this.done(error, this.results);
  }
}

/**
 * Runs `statements` on `client` as one implicit transaction; resolves to each one's result. A
 * statement whose prepared plan went stale is prepared again and the batch run once more.
 */
export async function runBatch(
  client: pg.ClientBase,
  statements: readonly Statement[],
  types: pg.CustomTypesConfig,
): Promise<QueryResult[]> {
  try {
    return await submitBatch(client, statements, types);
  } catch (e) {
    if (!isStalePlan(e)) throw e;
    return submitBatch(client, statements, types);
  }
}

function submitBatch(
  client: pg.ClientBase,
  statements: readonly Statement[],
  types: pg.CustomTypesConfig,
): Promise<QueryResult[]> {
  return new Promise((resolve, reject) => {
    client.query(
      new BatchQuery(statements, types, (error, results) =>
        error ? reject(error) : resolve(results),
      ),
    );
  });
}
