import { useSyncExternalStore } from 'react';
import * as v from 'valibot';

/**
 * The replica of a person whose session the server refused, kept on the device with its
 * unsent changes: signing in again as that person sends them; signing in as someone else
 * deletes the replica (R1), after the sign-in form has said how many changes that discards.
 */
const KeptQueueSchema = v.object({
  userId: v.pipe(v.string(), v.nonEmpty()),
  email: v.nullable(v.string()),
  pending: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
export type KeptQueue = v.InferOutput<typeof KeptQueueSchema>;

const KEY = 'saude-ja:kept-queue';
const listeners = new Set<() => void>();
let cached: { raw: string | null; value: KeptQueue | null } = { raw: null, value: null };

function readRaw(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function readKeptQueue(): KeptQueue | null {
  const raw = readRaw();
  if (raw === cached.raw) return cached.value;
  let value: KeptQueue | null;
  try {
    const parsed = v.safeParse(KeptQueueSchema, raw ? JSON.parse(raw) : null);
    value = parsed.success ? parsed.output : null;
  } catch {
    value = null;
  }
  cached = { raw, value };
  return value;
}

function notify(): void {
  for (const listener of listeners) listener();
}

export function writeKeptQueue(kept: KeptQueue): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // Without storage the notice is lost; the replica itself stays in IndexedDB.
  }
  notify();
}

export function clearKeptQueue(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing was stored then.
  }
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab's sign-out or sign-in changes the record too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The kept replica, re-rendering when it is recorded or cleared. */
export function useKeptQueue(): KeptQueue | null {
  return useSyncExternalStore(subscribe, readKeptQueue, () => null);
}

/** 'N alterações' with the right number agreement, for the notices about unsent changes. */
export function changesCount(n: number): string {
  return n === 1 ? '1 alteração' : `${n} alterações`;
}
