import { changesCount, type KeptQueue } from '@/session/kept-queue.ts';
import { Alert } from '@/ui/alert.tsx';

/** Whose unsent changes wait on this device, and what signing in does to them. */
export function keptQueueText(kept: KeptQueue): string {
  const who = kept.email ?? 'A pessoa que usava este aparelho';
  const one = kept.pending === 1;
  return (
    `${who} tem ${changesCount(kept.pending)} ainda não ${one ? 'enviada' : 'enviadas'} neste aparelho. ` +
    `Entre com essa conta para ${one ? 'enviá-la' : 'enviá-las'}; ` +
    `ao entrar com outra conta, ${one ? 'ela será descartada' : 'elas serão descartadas'}.`
  );
}

/** Entering as someone else: how many of the previous person's changes that discards. */
export function discardWarningText(kept: KeptQueue): string {
  const one = kept.pending === 1;
  return (
    `Entrar com outra conta descartará ${changesCount(kept.pending)} ainda não ` +
    `${one ? 'enviada' : 'enviadas'} de ${kept.email ?? 'outra pessoa'}. ` +
    `Clique em Entrar novamente para continuar.`
  );
}

/** Above the sign-in form: the unsent changes a refused session left on the device. */
export function KeptQueueNotice({ kept }: { kept: KeptQueue | null }) {
  if (!kept || kept.pending === 0) return null;
  return <Alert tone="info">{keptQueueText(kept)}</Alert>;
}
