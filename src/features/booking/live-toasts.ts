import { useEffect, useRef, useState } from 'react';
import type { WeeklyBlock } from '@/domain/availability/block.ts';
import type { MedicoDoc, OccupiedSlot } from '../../../sync/index.ts';
import { LIVE_TEXTS } from '@/domain/appointments/live-texts.ts';
import { showToast, type ToastInput } from '@/lib/toast.ts';
import { toPublicDoctor } from './public-doctor.ts';
import type { ReplicaFacts } from './replica-facts.ts';

/**
 * How long after a first sync that finishes on screen the rows count as settled: the replica's
 * first rows can reach a query a moment after the status says "synced", and they are no news.
 */
const SETTLE_MS = 2000;

/**
 * Whether what the replica shows from now on is a live change. A replica already synced when
 * the screen first read its status is settled at once (its queries read whole tables); one
 * whose first sync ends on screen is settled SETTLE_MS later.
 */
export function useLiveChangesShown(status: ReplicaFacts | null): boolean {
  const synced = status?.synced === true;
  const [syncedAtFirstLook, setSyncedAtFirstLook] = useState<boolean | null>(null);
  if (status !== null && syncedAtFirstLook === null) setSyncedAtFirstLook(synced);
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    if (!synced || settled || syncedAtFirstLook !== false) return;
    const id = setTimeout(() => setSettled(true), SETTLE_MS);
    return () => clearTimeout(id);
  }, [synced, settled, syncedAtFirstLook]);
  return synced && (settled || syncedAtFirstLook === true);
}

/** Toasts `texts` when `key` changes while `live`; the first key, and any seen before, is the baseline. */
function useKeyChangeToast(key: string | null, live: boolean, texts: ToastInput): void {
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (key === null) {
      seen.current = null;
      return;
    }
    const previous = seen.current;
    seen.current = key;
    if (live && previous !== null && previous !== key) showToast(texts);
  }, [key, live, texts]);
}

/** A doctor's weekly blocks as one comparable text (the order the replica returns them in). */
function blocksKey(blocks: readonly WeeklyBlock[] | undefined): string | null {
  if (!blocks) return null;
  return blocks
    .map((b) => `${b.dia_semana} ${b.hora_inicio}-${b.hora_fim}/${b.intervalo_em_minutos}`)
    .sort()
    .join(',');
}

/** A change to the doctor's availability: 'Agenda atualizada!'. */
export function useLiveAvailabilityToast(
  blocks: readonly WeeklyBlock[] | undefined,
  live: boolean,
): void {
  useKeyChangeToast(blocksKey(blocks), live, LIVE_TEXTS.availability);
}

/** A change to what the doctor's card shows (the public profile), as the replica has it. */
export function useLiveDoctorToast(doctor: MedicoDoc | null | undefined, live: boolean): void {
  useKeyChangeToast(
    doctor ? JSON.stringify(toPublicDoctor(doctor)) : null,
    live,
    LIVE_TEXTS.doctor,
  );
}

/** The starts in `slots` that are taken, leaving out `own`. */
function othersStarts(slots: readonly OccupiedSlot[], own: ReadonlySet<string>): Set<string> {
  return new Set(
    slots.filter((s) => !s.pending && !own.has(s.horario_inicio)).map((s) => s.horario_inicio),
  );
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}

/**
 * Another booking changes the grid: 'Agenda atualizada em tempo real!'. The person's own
 * bookings are left out: each start they queued here moves from pending to taken, possibly
 * through a moment when the outbox has delivered it and the taken slot is not pulled yet.
 */
export function useLiveSlotsToast(occupied: readonly OccupiedSlot[] | undefined, live: boolean) {
  const seen = useRef<Set<string> | null>(null);
  const own = useRef(new Set<string>());
  useEffect(() => {
    if (!occupied) {
      seen.current = null;
      return;
    }
    for (const s of occupied) if (s.pending) own.current.add(s.horario_inicio);
    const starts = othersStarts(occupied, own.current);
    const previous = seen.current;
    seen.current = starts;
    if (!previous || !live) return;
    const before = new Set([...previous].filter((start) => !own.current.has(start)));
    if (!sameSet(before, starts)) showToast(LIVE_TEXTS.slots);
  }, [occupied, live]);
}
