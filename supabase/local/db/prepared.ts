/**
 * Prepared statements for batches, as PostgREST prepares every statement it sends: parsing and
 * planning a REST read costs the server about twice what executing it does, and a client sends
 * the same few statement texts over and over with different bound values.
 *
 * A statement's name comes from its text; each connection remembers which names it has
 * prepared and closes the least recently used beyond a bound, so a stream of one-off texts
 * (distinct ranges, column lists) cannot grow a backend's memory without limit.
 */

/** Texts named so far; oldest forgotten first. A forgotten text gets a new name if it returns. */
const MAX_NAMES = 4096;
/** Prepared statements kept per connection. */
export const MAX_PREPARED_PER_CONNECTION = 256;

const names = new Map<string, string>();
let lastName = 0;

export function statementName(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    name = `pgrst_s${(++lastName).toString(36)}`;
    if (names.size >= MAX_NAMES) names.delete(names.keys().next().value!);
    names.set(sql, name);
  }
  return name;
}

/**
 * The statements prepared on one connection. A name counts as prepared only once a statement
 * using it has completed: until then it is closed before being parsed again, so a batch cut
 * short (a failed Bind, a dropped reply) cannot make the next one trip over "prepared statement
 * already exists".
 */
export class PreparedStatements {
  /** Names in least-recently-used order. */
  private readonly prepared = new Set<string>();

  /** Whether `name` is known prepared; marks it used. */
  use(name: string): boolean {
    if (!this.prepared.delete(name)) return false;
    this.prepared.add(name);
    return true;
  }

  confirm(name: string): void {
    this.prepared.delete(name);
    this.prepared.add(name);
  }

  /** After the statement's plan went stale: it is closed and parsed again on next use. */
  forget(name: string): void {
    this.prepared.delete(name);
  }

  /** Names to close (and now forgotten) so the connection stays within its bound. */
  evict(): string[] {
    const excess = this.prepared.size - MAX_PREPARED_PER_CONNECTION;
    if (excess <= 0) return [];
    const evicted: string[] = [];
    for (const name of this.prepared) {
      if (evicted.length === excess) break;
      evicted.push(name);
    }
    for (const name of evicted) this.prepared.delete(name);
    return evicted;
  }
}

/**
 * A prepared statement whose result columns changed under it (a migration altered what it
 * selects): PostgreSQL refuses to run it again, so it must be parsed anew. The batch failed as a
 * whole and was rolled back, so running it again is safe.
 */
export function isStalePlan(e: unknown): boolean {
  const error = e as { code?: unknown; message?: unknown } | null;
  return (
    error?.code === '0A000' &&
    typeof error.message === 'string' &&
    error.message.includes('cached plan must not change result type')
  );
}
