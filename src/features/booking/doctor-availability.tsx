import { useCallback, useMemo } from 'react';
import type { WeeklyBlock } from '@/domain/availability/block.ts';
import { heldIntervals, type HeldSlot } from '@/domain/availability/booked.ts';
import type { Slot } from '@/domain/availability/slots.ts';
import type { ListedDoctor } from '@/domain/doctors/fixed-doctors.ts';
import { useObservable, useSyncSessionWhen } from '@/session/sync-provider.tsx';
import { useSyncErrorToast } from '@/session/sync-error-toast.ts';
import { AvailabilityGrid } from './availability-grid.tsx';
import { useReplicaFacts } from './replica-facts.ts';
import { useBookingFlow } from './booking-flow.tsx';
import { useNow } from '@/lib/use-now.ts';
import {
  useLiveAvailabilityToast,
  useLiveChangesShown,
  useLiveDoctorToast,
  useLiveSlotsToast,
} from './live-toasts.ts';

const NO_BLOCKS: WeeklyBlock[] = [];
const NO_TAKEN: HeldSlot[] = [];

/** A doctor's blocks and taken slots from the booking page's first response. */
type InitialSchedule = { blocks: WeeklyBlock[] | undefined; taken: HeldSlot[] | undefined };

/**
 * A doctor's grid from the local replica; re-renders live as slots are taken or freed, and
 * toasts a live change of the slots, the availability or the doctor's profile. With
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
  const profile$ = useMemo(() => usable?.doctor$(doctor.id) ?? null, [usable, doctor.id]);
  const blocks = useObservable(blocks$, undefined);
  const occupied = useObservable(occupied$, undefined);
  const profile = useObservable(profile$, undefined);
  const status = useReplicaFacts(usable, 'agenda_medico');
  const live = useLiveChangesShown(status);
  useLiveSlotsToast(occupied, live);
  useLiveAvailabilityToast(blocks, live);
  // The card around this grid shows the profile: its live changes are told here, where the
  // replica is read (docs/product-rules.md §4 "Live updates").
  useLiveDoctorToast(profile, live);
  useSyncErrorToast(usable, 'agenda_ocupada');
  useSyncErrorToast(usable, 'agenda_medico');

  const replicaRead = blocks !== undefined && occupied !== undefined && status?.synced === true;
  // Until the replica is read, the first response draws the grid; one grid element either way,
  // so its page and measured width survive the take-over.
  const fromFirst = initial !== undefined && !replicaRead && !failed;
  // The engine's occupied slots already hold their time: no status to filter again.
  const held = fromFirst ? (initial.taken ?? NO_TAKEN) : (occupied ?? NO_TAKEN);
  const booked = useMemo(() => heldIntervals(held), [held]);

  const nothingLocal = !blocks || blocks.length === 0;
  const firstSyncRunning = status !== null && !status.synced;
  const cannotLoad = status !== null && (!status.online || status.failing);
  const fallback = doctor.is_fallback || failed || (nothingLocal && firstSyncRunning && cannotLoad);
  const loading =
    !fallback &&
    (blocks === undefined || occupied === undefined || (nothingLocal && firstSyncRunning));
  // Stable while nothing it books with changes: the grid (memoised) then skips the redraws
  // every sync status change brings this component.
  const bookFallback = fromFirst ? doctor.is_fallback : fallback;
  const onSelect = useCallback(
    (slot: Slot) => requestBooking(doctor, slot, bookFallback),
    [requestBooking, doctor, bookFallback],
  );

  if (fromFirst) {
    return (
      <AvailabilityGrid
        loading={false}
        fallback={doctor.is_fallback}
        blocks={doctor.is_fallback ? NO_BLOCKS : (initial.blocks ?? NO_BLOCKS)}
        booked={booked}
        now={now}
        selectingKey={selectingKey}
        onSelect={onSelect}
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
      onSelect={onSelect}
      source="replica"
    />
  );
}
