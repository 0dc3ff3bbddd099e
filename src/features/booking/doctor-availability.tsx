import { useEffect, useMemo, useRef, useState } from 'react';
import { of } from 'rxjs';
import { heldIntervals } from '@/domain/availability/booked.ts';
import type { ListedDoctor } from '@/domain/doctors/fixed-doctors.ts';
import type { OccupiedSlot } from '../../../sync/index.ts';
import { useObservable, useSyncSession } from '@/session/sync-provider.tsx';
import { showToast } from '@/lib/toast.ts';
import { AvailabilityGrid } from './availability-grid.tsx';
import { useBookingFlow } from './booking-flow.tsx';
import { useNow } from '@/lib/use-now.ts';

export const LIVE_TEXTS = {
  title: 'Agenda atualizada em tempo real!',
  description: 'Um horário foi agendado ou cancelado.',
} as const;

/** Starts taken by someone else: this person's queued bookings are left out. */
function othersStarts(slots: readonly OccupiedSlot[]): Set<string> {
  return new Set(slots.filter((s) => !s.pending).map((s) => s.horario_inicio));
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}

/**
 * How long after the first sync the grid counts as settled: the replica's first rows can reach
 * the query a moment after the status says "synced", and they are no news to the person.
 */
const SETTLE_MS = 2000;

/**
 * docs/product-rules.md §4 "Live updates": tells the person when another booking changes the grid they look
 * at. A booking of their own only moves its start from pending to taken, which is no change.
 */
function useLiveChangeToast(occupied: readonly OccupiedSlot[] | undefined, synced: boolean) {
  const seen = useRef<Set<string> | null>(null);
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    if (!synced) return;
    const id = setTimeout(() => setSettled(true), SETTLE_MS);
    return () => clearTimeout(id);
  }, [synced]);
  useEffect(() => {
    if (!occupied) {
      seen.current = null;
      return;
    }
    const pendingStarts = new Set(occupied.filter((s) => s.pending).map((s) => s.horario_inicio));
    const starts = othersStarts(occupied);
    const previous = seen.current;
    seen.current = new Set([...starts, ...pendingStarts]);
    if (!previous || !settled) return;
    const changed = !sameSet(
      new Set([...previous].filter((s) => !pendingStarts.has(s))),
      new Set([...starts].filter((s) => !pendingStarts.has(s))),
    );
    if (changed) showToast({ title: LIVE_TEXTS.title, description: LIVE_TEXTS.description });
  }, [occupied, settled]);
}

/** A doctor's grid from the local replica; re-renders live as slots are taken or freed. */
export function DoctorAvailability({ doctor }: { doctor: ListedDoctor }) {
  const { engine, failed } = useSyncSession();
  const { requestBooking, selectingKey } = useBookingFlow();
  const now = useNow();
  const usable = engine && !doctor.is_fallback ? engine : null;
  const blocks$ = useMemo(() => usable?.availability$(doctor.id) ?? null, [usable, doctor.id]);
  const occupied$ = useMemo(() => usable?.occupiedSlots$(doctor.id) ?? null, [usable, doctor.id]);
  const status$ = useMemo(() => usable?.status$ ?? of(null), [usable]);
  const blocks = useObservable(blocks$, undefined);
  const occupied = useObservable(occupied$, undefined);
  const status = useObservable(status$, null);
  useLiveChangeToast(occupied, status?.initialSync.done === true);

  // The engine's occupied slots already hold their time: no status to filter again.
  const booked = useMemo(() => heldIntervals(occupied ?? []), [occupied]);

  const nothingLocal = !blocks || blocks.length === 0;
  const firstSyncRunning = status !== null && !status.initialSync.done;
  const cannotLoad =
    status !== null && (!status.online || status.errors.some((e) => e.source === 'agenda_medico'));
  const fallback = doctor.is_fallback || failed || (nothingLocal && firstSyncRunning && cannotLoad);
  const loading =
    !fallback &&
    (blocks === undefined || occupied === undefined || (nothingLocal && firstSyncRunning));

  return (
    <AvailabilityGrid
      loading={loading}
      fallback={fallback}
      blocks={blocks ?? []}
      booked={booked}
      now={now}
      selectingKey={selectingKey}
      onSelect={(slot) => requestBooking(doctor, slot, fallback)}
    />
  );
}
