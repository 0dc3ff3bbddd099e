import type { Database, Queryable } from '../db/index.ts';
import { API_ROLES, runAs, type Identity } from '../request-auth.ts';

/** What a caller may do on a private channel, per feature, as Realtime Authorization decides. */
export type ChannelPermissions = {
  broadcast: { read: boolean; write: boolean };
  presence: { read: boolean; write: boolean };
};

const EXTENSIONS = ['broadcast', 'presence'] as const;

export const ALL_PERMISSIONS: ChannelPermissions = {
  broadcast: { read: true, write: true },
  presence: { read: true, write: true },
};

const NO_PERMISSIONS: ChannelPermissions = {
  broadcast: { read: false, write: false },
  presence: { read: false, write: false },
};

/** Undoes the probe's transaction once its answer is known. */
class Probed extends Error {
  constructor(readonly permissions: ChannelPermissions) {
    super('realtime authorization probe');
  }
}

/**
 * Whether the caller's INSERT of a row for `extension` passes the policies; a savepoint keeps a
 * refused insert from ending the probe's transaction.
 */
async function mayWrite(tx: Queryable, topic: string, extension: string): Promise<boolean> {
  await tx.query('savepoint realtime_write');
  try {
    await tx.query(
      'insert into realtime.messages (topic, extension, private) values ($1, $2, true)',
      [topic, extension],
    );
    await tx.query('release savepoint realtime_write');
    return true;
  } catch {
    await tx.query('rollback to savepoint realtime_write');
    return false;
  }
}

/**
 * The permissions of `identity` on private channel `topic`, found as the Realtime server finds
 * them: in one transaction, rolled back afterwards, a `broadcast` and a `presence` row of the
 * topic are written by the server, then — as the caller's role, with its claims and
 * `realtime.topic()` = the channel — the rows the caller can SELECT give read permission and an
 * INSERT that the policies let through gives write permission. The service role bypasses RLS.
 */
export async function channelPermissions(
  db: Database,
  identity: Identity,
  topic: string,
): Promise<ChannelPermissions> {
  if (identity.role === 'service_role') return ALL_PERMISSIONS;
  // The role is spliced into SET ROLE: only the API roles identify() admits get there.
  if (!(API_ROLES as readonly string[]).includes(identity.role)) return NO_PERMISSIONS;
  try {
    await runAs(db, identity, { method: 'POST', path: '/realtime/v1/websocket' }, async (tx) => {
      await tx.query('reset role');
      await tx.query(
        `insert into realtime.messages (topic, extension, private)
         select $1, unnest($2::text[]), true`,
        [topic, EXTENSIONS],
      );
      await tx.query(`set local role ${identity.role}`);
      await tx.query("select set_config('realtime.topic', $1, true)", [topic]);
      const visible = await tx.query<{ extension: string }>(
        'select distinct extension from realtime.messages where topic = $1',
        [topic],
      );
      const readable = new Set(visible.rows.map((r) => r.extension));
      const permissions: ChannelPermissions = {
        broadcast: {
          read: readable.has('broadcast'),
          write: await mayWrite(tx, topic, 'broadcast'),
        },
        presence: { read: readable.has('presence'), write: await mayWrite(tx, topic, 'presence') },
      };
      throw new Probed(permissions);
    });
  } catch (e) {
    // A policy that fails (or a database that does) grants nothing.
    if (e instanceof Probed) return e.permissions;
  }
  return NO_PERMISSIONS;
}
