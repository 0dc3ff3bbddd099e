import { paramText } from './param-text.ts';
import type { PreparedStatements } from './prepared.ts';
import type { Statement } from './types.ts';

/*
 * A batch's frontend messages (PostgreSQL's extended query protocol), written into one buffer
 * for both drivers. The drivers' own serialisers allocate a writer per message; a REST request
 * sends about ten messages, so this was a visible share of every request.
 */

/** Describe the unnamed portal, Execute it without a row limit, Sync: the same bytes always. */
const DESCRIBE_PORTAL = Buffer.from([0x44, 0, 0, 0, 6, 0x50, 0]);
const EXECUTE = Buffer.from([0x45, 0, 0, 0, 9, 0, 0, 0, 0, 0]);
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

/** Close a prepared statement (closing one that does not exist is not an error). */
function close(name: string): Buffer {
  const size = 4 + 1 + Buffer.byteLength(name) + 1;
  const out = Buffer.allocUnsafe(1 + size);
  out[0] = 0x43;
  out.writeInt32BE(size, 1);
  out[5] = 0x53;
  out[6 + out.write(name, 6)] = 0;
  return out;
}

/** Parse `text` as prepared statement `name`, parameter types left to the server. */
function parse(name: string, text: string): Buffer {
  const nameBytes = Buffer.byteLength(name);
  const textBytes = Buffer.byteLength(text);
  const size = 4 + nameBytes + 1 + textBytes + 1 + 2;
  const out = Buffer.allocUnsafe(1 + size);
  out[0] = 0x50;
  out.writeInt32BE(size, 1);
  let at = 5 + out.write(name, 5);
  out[at++] = 0;
  at += out.write(text, at);
  out[at++] = 0;
  out.writeInt16BE(0, at);
  return out;
}

/** Bind text-format values to statement `name` in the unnamed portal; text-format results. */
function bind(name: string, values: readonly (string | null)[]): Buffer {
  const nameBytes = Buffer.byteLength(name);
  let size = 4 + 1 + nameBytes + 1 + 2 + 2 + 2;
  const lengths = values.map((v) => (v === null ? -1 : Buffer.byteLength(v)));
  for (const length of lengths) size += 4 + Math.max(length, 0);
  const out = Buffer.allocUnsafe(1 + size);
  out[0] = 0x42;
  out.writeInt32BE(size, 1);
  out[5] = 0;
  let at = 6 + out.write(name, 6);
  out[at++] = 0;
  out.writeInt16BE(0, at);
  out.writeInt16BE(values.length, at + 2);
  at += 4;
  values.forEach((value, i) => {
    out.writeInt32BE(lengths[i]!, at);
    at += 4;
    if (value !== null) at += out.write(value, at);
  });
  out.writeInt16BE(0, at);
  return out;
}

/**
 * The whole batch — statements prepared on first use under `names` (tracked in `prepared`),
 * each bound, described and executed — closed by one Sync, which makes it one implicit
 * transaction. Names beyond the connection's bound are closed first.
 */
export function batchMessages(
  statements: readonly Statement[],
  names: readonly string[],
  prepared: PreparedStatements,
): Buffer {
  const parts = prepared.evict().map(close);
  const parsedHere = new Set<string>();
  statements.forEach((s, i) => {
    const name = names[i]!;
    if (!prepared.use(name) && !parsedHere.has(name)) {
      // Unknown here, but a batch cut short may have left it on the server.
      parts.push(close(name), parse(name, s.sql));
      parsedHere.add(name);
    }
    parts.push(bind(name, (s.params ?? []).map(paramText)), DESCRIBE_PORTAL, EXECUTE);
  });
  parts.push(SYNC);
  return Buffer.concat(parts);
}
