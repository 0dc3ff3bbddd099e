/**
 * What the server's thread and the embedded engine's thread say to each other
 * (db/pglite-thread.ts ↔ db/pglite-worker.ts). Every call carries an id its answer repeats.
 */
import type { Statement } from './types.ts';

export type Call =
  | { id: number; op: 'query'; sql: string; params: readonly unknown[]; tx?: number }
  | { id: number; op: 'exec'; sql: string; tx?: number }
  | { id: number; op: 'batch'; statements: readonly Statement[] }
  | { id: number; op: 'begin'; prelude?: Statement }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; listener: number }
  | { id: number; op: 'close' };

/** Distributes `Omit` over the union, so each call keeps its own fields. */
export type CallBody = Call extends infer C ? (C extends Call ? Omit<C, 'id'> : never) : never;

export type Event =
  | { kind: 'opened' }
  | { kind: 'answer'; id: number; value: unknown }
  | { kind: 'failure'; id: number; error: WireError }
  /** The calls that just went into the engine: from here their statements run. */
  | { kind: 'entered'; ids: number[] }
  | { kind: 'notification'; listener: number; payload: string };

/**
 * An error as it crosses threads: structured cloning keeps an Error's message but not the
 * SQLSTATE, detail, hint… that the REST and auth layers map from, so those travel as fields.
 */
export type WireError = { name: string; message: string; fields: Record<string, string | number> };

export function toWireError(e: unknown): WireError {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e), fields: {} };
  const fields: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(e)) {
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  return { name: e.name, message: e.message, fields };
}

export function fromWireError(wire: WireError): Error {
  const error = Object.assign(new Error(wire.message), wire.fields);
  error.name = wire.name;
  return error;
}

/** A Postgres-shaped error raised by the thread itself, not by the engine. */
export function engineError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: 'ERROR' });
}

/**
 * Collects what one side says during a turn and posts it as one message at the turn's end:
 * a message between threads costs about as much as a small query, and requests that arrive
 * together are answered together.
 */
export function outbox<T>(post: (items: T[]) => void): (item: T) => void {
  let items: T[] = [];
  return (item) => {
    items.push(item);
    if (items.length > 1) return;
    queueMicrotask(() => {
      const sent = items;
      items = [];
      post(sent);
    });
  };
}
