import type { ConflictReport } from './conflict.ts';
import type { Mutation } from './outbox/types.ts';
import type { WriteRejection } from './push.ts';

/** Something the UI may want to tell the person about (O5, O7, P3, P4). */
export type SyncEvent =
  | { type: 'mutation-rejected'; mutation: Mutation; reason: string; message: string }
  | { type: 'mutation-applied'; mutation: Mutation; message: string | null }
  | { type: 'write-conflict'; report: ConflictReport }
  | { type: 'write-rejected'; rejection: WriteRejection };
