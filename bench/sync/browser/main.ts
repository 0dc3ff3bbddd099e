/**
 * The browser leg of bench/sync: the app's own supabase-js and sync engine, on the browser's
 * IndexedDB (the engine's default). bench/sync/chromium.ts builds this page, opens it and
 * calls `window.benchSync`.
 */
import { createClient } from '@supabase/supabase-js';
import { filter, firstValueFrom } from 'rxjs';
import { createSyncEngine } from '../../../sync/index.ts';
import { countIdbRequests, type IdbRequestCounts } from './idb-requests.ts';

export type BrowserSyncInput = {
  url: string;
  anonKey: string;
  email: string;
  password: string;
  appointments: number;
};

export type BrowserSyncResult = {
  syncMs: number;
  appointments: number;
  rows: number;
  collections: number;
  /** The IndexedDB requests and transactions from the engine's start to its first sync's end. */
  idb: IdbRequestCounts;
};

declare global {
  interface Window {
    benchSync: (input: BrowserSyncInput) => Promise<BrowserSyncResult>;
  }
}

/** Signs in as the doctor, then times a first sync into a fresh replica, as the Node leg does. */
window.benchSync = async (input) => {
  const supabase = createClient(input.url, input.anonKey);
  const { data, error } = await supabase.auth.signInWithPassword({
    email: input.email,
    password: input.password,
  });
  if (error) throw error;
  const counted = countIdbRequests();
  const start = performance.now();
  const engine = await createSyncEngine({
    supabase,
    serverUrl: input.url,
    user: { id: data.user.id, role: 'medico' },
  });
  await engine.awaitInitialSync();
  const syncMs = performance.now() - start;
  const idb = counted();
  const status = await firstValueFrom(engine.status$);
  const list = await firstValueFrom(
    engine.appointments$.pipe(filter((l) => l.length === input.appointments)),
  );
  await engine.signOut();
  await supabase.auth.signOut();
  return {
    syncMs,
    appointments: list.length,
    rows: status.initialSync.rowsReceived,
    collections: status.initialSync.total,
    idb,
  };
};
