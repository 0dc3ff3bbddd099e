/**
 * A bound parameter in Postgres' text format, as node-pg sends it: the server infers the type
 * from the statement, so both drivers treat a value alike. Arrays become array literals,
 * objects JSON, bytes `\x` hex.
 */
export function paramText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return String(value);
  }
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`;
  if (Array.isArray(value)) return arrayLiteral(value);
  return JSON.stringify(value);
}

function arrayLiteral(items: readonly unknown[]): string {
  const elements = items.map((item) => {
    if (Array.isArray(item)) return arrayLiteral(item);
    const text = paramText(item);
    return text === null ? 'NULL' : `"${text.replace(/[\\"]/g, '\\$&')}"`;
  });
  return `{${elements.join(',')}}`;
}
