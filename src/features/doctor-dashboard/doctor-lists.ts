import { isDoctorUpcoming } from '@/domain/appointments/lists.ts';
import { foldForSearch, keyMatches, searchKeyOf } from '@/domain/appointments/search.ts';
import { appointmentStateOf } from '@/domain/appointments/status.ts';
import type { AppointmentView } from '../../../sync/index.ts';

/** An appointment with its search key folded once per list change, not per keystroke. */
export type Indexed = { view: AppointmentView; key: string };

export type DoctorLists = { upcoming: Indexed[]; history: Indexed[] };

function protocolOf(a: AppointmentView): string | null {
  return a.guia?.protocolo ?? a.protocolo;
}

/**
 * docs/product-rules.md §4 lists for the doctor: upcoming soonest first, history newest first (the replica
 * lists newest first). A status this version does not know goes to history, never hidden.
 */
export function doctorLists(all: readonly AppointmentView[]): DoctorLists {
  const upcoming: Indexed[] = [];
  const history: Indexed[] = [];
  for (const view of all) {
    const state = appointmentStateOf(view);
    const item = {
      view,
      key: searchKeyOf({ patientName: view.paciente?.full_name, protocol: protocolOf(view) }),
    };
    (state && isDoctorUpcoming(state) ? upcoming : history).push(item);
  }
  upcoming.reverse();
  return { upcoming, history };
}

export function filterIndexed(items: readonly Indexed[], query: string): readonly Indexed[] {
  const needle = foldForSearch(query);
  return needle === '' ? items : items.filter((item) => keyMatches(item.key, needle));
}
