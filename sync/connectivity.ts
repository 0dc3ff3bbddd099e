/**
 * Following the connection: the browser's online and focus signals, starting and pausing every
 * replication with them, pulling again on focus and after a token refresh that something
 * waited for (L2, L3, A1, A4).
 */
import { BehaviorSubject, Subject, distinctUntilChanged, take, type Observable } from 'rxjs';
import type { Engine, Running } from './engine-state.ts';
import { subscribeLive } from './realtime.ts';
import { requestPull } from './replication.ts';
import { yieldToMainThread } from './runtime.ts';

/** The browser's word on the connection; outside a browser (Node tests), online. */
function browserOnlineNow(): boolean {
  return typeof navigator === 'undefined' ? true : navigator.onLine;
}

function browserOnline$(): Observable<boolean> {
  const online$ = new BehaviorSubject(browserOnlineNow());
  if (typeof window !== 'undefined') {
    window.addEventListener('online', () => online$.next(true));
    window.addEventListener('offline', () => online$.next(false));
  }
  return online$;
}

function browserFocus$(): Observable<unknown> {
  const focus$ = new Subject<void>();
  if (typeof document !== 'undefined') {
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') focus$.next();
    });
  }
  return focus$;
}

/** Whether the connection is up right now, as `followConnectivity` will first see it. */
export function onlineNow(online$: Observable<boolean> | undefined): boolean {
  if (!online$) return browserOnlineNow();
  // A source that has no value yet counts as offline, as no replication starts before it has.
  let online = false;
  online$
    .pipe(take(1))
    .subscribe((value) => (online = value))
    .unsubscribe();
  return online;
}

/** Pulls every collection now and sends the queue; offline, nothing. */
export function resync(e: Running): void {
  if (!e.online.getValue()) return;
  for (const live of e.lives.values()) requestPull(live);
  e.outbox.wake({ resetBackoff: true });
}

async function goOnline(e: Running): Promise<void> {
  // All at once: each start opens its replication's meta storage first, so starting them one
  // after another held the big collections' first page back by the opens of the ones before.
  // Only their synchronous parts (the channel's join, the start's first steps) take turns, a
  // task each, rather than one long task for all of them.
  const starts: Promise<unknown>[] = [];
  for (const live of e.lives.values()) {
    if (starts.length > 0) await yieldToMainThread();
    if (!live.channel) subscribeLive(e, live);
    const started = live.replication.start();
    // Handled below; marked now so a failure during a later turn is not reported unhandled.
    started.catch(() => undefined);
    starts.push(started);
  }
  await Promise.all(starts);
  e.outbox.wake({ resetBackoff: true });
}

async function goOffline(e: Engine): Promise<void> {
  await Promise.all(
    [...e.lives.values()].map(async (live) => {
      await live.replication.pause();
      // A caught-up page returned before the pause may be the one RxDB drops.
      live.first.caughtUpReturned = false;
    }),
  );
}

/**
 * Follows the connection (start or pause every replication) and the window's focus (pull
 * now), and pulls again after a token refresh. Returns how to stop listening to auth.
 */
export function followConnectivity(e: Running): () => void {
  e.subs.push(
    (e.opts.online$ ?? browserOnline$()).pipe(distinctUntilChanged()).subscribe((isOnline) => {
      e.online.next(isOnline);
      e.transitions = e.transitions
        .then(() => (isOnline ? goOnline(e) : goOffline(e)))
        .catch((error: unknown) => e.status.error('outbox', String(error)));
    }),
    (e.opts.focus$ ?? browserFocus$()).subscribe(() => resync(e)),
  );
  // A refreshed token resumes what waited for one; never sign out here (A1, A2). Only what
  // waited: each request asks supabase-js for the session, which refreshes a token it counts
  // as expiring, so resyncing after every refresh turns a token that is always "expiring" (a
  // short life, a device clock far ahead) into a refresh storm (A4).
  const auth = e.opts.supabase.auth.onAuthStateChange((event) => {
    if (event === 'SIGNED_IN' || (event === 'TOKEN_REFRESHED' && e.session.stalled)) {
      e.session.stalled = false;
      queueMicrotask(() => resync(e));
    }
  });
  return () => auth.data.subscription.unsubscribe();
}
