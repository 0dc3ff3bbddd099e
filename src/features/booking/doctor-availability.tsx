import { useEffect, useMemo, useRef, useState } from 'react';
import { of } from 'rxjs';
import type { WeeklyBlock } from '@/domain/availability/block.ts';
import { heldIntervals, type HeldSlot } from '@/domain/availability/booked.ts';
import type { ListedDoctor } from '@/domain/doctors/fixed-doctors.ts';
import type { OccupiedSlot } from '../../../sync/index.ts';
import { useObservable, useSyncSessionWhen } from '@/session/sync-provider.tsx';
import { showToast } from '@/lib/toast.ts';
import { useSyncErrorToast } from '@/session/sync-error-toast.ts';
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

const NO_BLOCKS: WeeklyBlock[] = [];
const NO_TAKEN: HeldSlot[] = [];

/** A doctor's blocks and taken slots from the booking page's first response. */
type InitialSchedule = { blocks: WeeklyBlock[] | undefined; taken: HeldSlot[] | undefined };

/**
 * A doctor's grid from the local replica; re-renders live as slots are taken or freed. With
 * `initial` (the booking page's first response) the grid is drawn from it until the replica's
 * first sync is done and its rows are read, so the replica takes over without a skeleton in
 * between. Without it, the grid opens the replica.
 */
export function DoctorAvailability({
  doctor,
  initial,
}: {
  doctor: ListedDoctor;
  initial?: InitialSchedule | undefined;
}) {
  const { engine, failed } = useSyncSessionWhen(initial === undefined);
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
  useSyncErrorToast(usable, 'agenda_ocupada');
  useSyncErrorToast(usable, 'agenda_medico');

  const replicaRead =
    blocks !== undefined && occupied !== undefined && status?.initialSync.done === true;
  // Until the replica is read, the first response draws the grid; one grid element either way,
  // so its page and measured width survive the take-over.
  const fromFirst = initial !== undefined && !replicaRead && !failed;
  // The engine's occupied slots already hold their time: no status to filter again.
  const held = fromFirst ? (initial.taken ?? NO_TAKEN) : (occupied ?? NO_TAKEN);
  const booked = useMemo(() => heldIntervals(held), [held]);

  const nothingLocal = !blocks || blocks.length === 0;
  const firstSyncRunning = status !== null && !status.initialSync.done;
  const cannotLoad =
    status !== null && (!status.online || status.errors.some((e) => e.source === 'agenda_medico'));
  const fallback = doctor.is_fallback || failed || (nothingLocal && firstSyncRunning && cannotLoad);
  const loading =
    !fallback &&
    (blocks === undefined || occupied === undefined || (nothingLocal && firstSyncRunning));

  if (fromFirst) {
    return (
      <AvailabilityGrid
        loading={false}
        fallback={doctor.is_fallback}
        blocks={doctor.is_fallback ? NO_BLOCKS : (initial.blocks ?? NO_BLOCKS)}
        booked={booked}
        now={now}
        selectingKey={selectingKey}
        onSelect={(slot) => requestBooking(doctor, slot, doctor.is_fallback)}
        source="first"
      />
    );
  }
  return (
    <AvailabilityGrid
      loading={loading}
      fallback={fallback}
      blocks={blocks ?? NO_BLOCKS}
      booked={booked}
      now={now}
      selectingKey={selectingKey}
      onSelect={(slot) => requestBooking(doctor, slot, fallback)}
      source="replica"
    />
  );
}
