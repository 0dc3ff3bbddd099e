import pg from 'pg';
import { batchMessages } from './protocol.ts';
import { isStalePlan, PreparedStatements, statementName } from './prepared.ts';
import { ResultCollector } from './results.ts';
import type { QueryResult, Statement } from './types.ts';

type RowDescription = { fields: { name: string; dataTypeID: number }[] };
type DataRow = { fields: (string | null)[] };
type CommandComplete = { text: string };

const preparedOn = new WeakMap<pg.Connection, PreparedStatements>();

/**
 * `statements` as one extended-protocol sequence closed by a single Sync, written in one go:
 * PostgreSQL runs everything before a Sync as one implicit transaction (the first error skips
 * the rest and rolls it all back), so the batch needs no BEGIN/COMMIT and costs one round trip
 * and three or four messages per statement (each is prepared once per connection). The client
 * hands it the backend's replies until ReadyForQuery.
 *
 * It extends node-pg's `Query` only because a pipelining client (batch-lanes.ts) refuses other
 * submittables, for fear of queries that keep a portal open across round trips; a batch runs
 * every portal to completion before its Sync, so it is safe to pipeline.
 */
class BatchQuery extends pg.Query {
  private readonly collected: ResultCollector;
  private settled = false;
  /** This connection's prepared statements, known once `submit` ran. */
  private prepared: PreparedStatements | undefined;
  private readonly names: string[];

  constructor(
    private readonly statements: readonly Statement[],
    types: pg.CustomTypesConfig,
    private readonly done: (error: Error | null, results: QueryResult[]) => void,
  ) {
    super('');
    this.names = statements.map((s) => statementName(s.sql));
    this.collected = new ResultCollector(
      (oid) => types.getTypeParser(oid, 'text') as (text: string) => unknown,
    );
  }

  /** What node-pg calls as `submit` when the batch's turn comes: writes the whole batch. */
  private write(connection: pg.Connection): void {
    let prepared = preparedOn.get(connection);
    if (!prepared) preparedOn.set(connection, (prepared = new PreparedStatements()));
    this.prepared = prepared;
    connection.stream.write(batchMessages(this.statements, this.names, prepared));
  }

  static {
    // @types/pg declares `Query.submit` as a property, and TypeScript refuses a method
    // overriding one; an arrow property would cost every batch a closure of its own.
    // eslint-disable-next-line @typescript-eslint/unbound-method -- node-pg calls it on the query
    this.prototype.submit = this.prototype.write;
  }

  handleRowDescription(msg: RowDescription): void {
    this.collected.rowDescription(msg.fields);
  }

  handleDataRow(msg: DataRow): void {
    this.collected.dataRow(msg.fields);
  }

  handleCommandComplete(msg: CommandComplete): void {
    const name = this.names[this.collected.results.length];
    if (name) this.prepared?.confirm(name);
    this.collected.commandComplete(msg.text);
  }

  handleEmptyQuery(): void {
    this.collected.emptyQuery();
  }

  /** A server error (the rest of the batch was skipped) or a dead connection. */
  handleError(error: Error): void {
    const failed = this.names[this.collected.results.length];
    if (failed && isStalePlan(error)) this.prepared?.forget(failed);
    this.settle(error);
  }

  handleReadyForQuery(): void {
    this.settle(null);
  }

  private settle(error: Error | null): void {
    if (this.settled) return;
    this.settled = true;
    this.done(error, this.collected.results);
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
