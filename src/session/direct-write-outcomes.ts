import { useEffect, useRef } from 'react';
import type { SyncEngine, TableName } from '../../sync/index.ts';
import { showToast } from '@/lib/toast.ts';

/**
 * What the person is told when a change they saved on a screen that writes its table directly
 * (sync/SPEC.md P3, P4) did not end up on the server as they left it.
 */
export const DIRECT_WRITE_TEXTS = {
  conflictTitle: 'Alteração não aplicada',
  conflictDescription:
    'Outro dispositivo alterou os mesmos dados antes. A versão já salva foi mantida: confira e altere de novo se precisar.',
} as const;

export type DirectWriteOutcomes = {
  /** The screen's own error title for a refused write; the server's message is its description. */
  rejectedTitle: string;
  /**
   * The stored row changed under the screen's form (refused and reverted, or merged with the
   * server's version): the form starts again from it.
   */
  onServerState?: () => void;
};

/**
 * Toasts the outcomes of `table`'s direct writes that arrive after the local save: a refusal
 * with the server's message (P4), and a change dropped by the conflict rule because another
 * device wrote the same fields first (P3), which would otherwise be lost without a word.
 */
export function useDirectWriteOutcomes(
  engine: SyncEngine | null,
  table: TableName,
  outcomes: DirectWriteOutcomes,
): void {
  const latest = useRef(outcomes);
  latest.current = outcomes;
  useEffect(() => {
    if (!engine) return;
    const sub = engine.events$.subscribe((event) => {
      const { rejectedTitle, onServerState } = latest.current;
      if (event.type === 'write-rejected' && event.rejection.table === table) {
        showToast({ tone: 'error', title: rejectedTitle, description: event.rejection.message });
        onServerState?.();
      } else if (event.type === 'write-conflict' && event.report.table === table) {
        showToast({
          tone: 'info',
          title: DIRECT_WRITE_TEXTS.conflictTitle,
          description: DIRECT_WRITE_TEXTS.conflictDescription,
        });
        onServerState?.();
      }
    });
    return () => sub.unsubscribe();
  }, [engine, table]);
}
