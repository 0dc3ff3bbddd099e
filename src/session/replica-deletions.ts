import * as v from 'valibot';

/**
 * Replicas whose deletion on 'Sair' has started and not yet finished (R1). A replica is several
 * IndexedDB databases deleted one by one; a page that goes away meanwhile (the person signs in
 * again straight away) cuts that short and leaves part of it behind: documents without the
 * replication's record of them, which the next session then treats as edits never sent, and
 * personal data that 'Sair' promised to remove. The deletion is recorded before it starts and
 * cleared once it is done; the next replica to open finishes whatever is still recorded.
 */
const KEY = 'saude-ja:replica-deletions';
const UserIds = v.array(v.pipe(v.string(), v.nonEmpty()));

export function readReplicaDeletions(): string[] {
  try {
    const raw = localStorage.getItem(KEY);
    const parsed = v.safeParse(UserIds, raw ? JSON.parse(raw) : []);
    return parsed.success ? parsed.output : [];
  } catch {
    return [];
  }
}

function write(userIds: readonly string[]): void {
  try {
    if (userIds.length === 0) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, JSON.stringify(userIds));
  } catch {
    // Without storage an interrupted deletion is not resumed; a finished one needs no record.
  }
}

export function recordReplicaDeletion(userId: string): void {
  const ids = readReplicaDeletions();
  if (!ids.includes(userId)) write([...ids, userId]);
}

export function clearReplicaDeletion(userId: string): void {
  write(readReplicaDeletions().filter((id) => id !== userId));
}
