import { randomBytes } from 'node:crypto';
import type { UserBroadcast } from './protocol.ts';

/** What the hub needs of a joined channel to fan broadcast and presence out to it. */
export type Member = {
  /** `realtime:<name>`; private and public channels of one name are different rooms. */
  topic: string;
  isPrivate: boolean;
  presenceKey: string;
  presenceEnabled: boolean;
  push(event: string, payload: unknown): void;
  /** Delivers a user broadcast in whatever frame this member's protocol version allows. */
  sendBroadcast(msg: UserBroadcast): void;
};

export type Room = { topic: string; isPrivate: boolean };

type Tracked = { key: string; meta: Record<string, unknown> };
type PresenceState = Record<string, { metas: Record<string, unknown>[] }>;

/**
 * Rooms of joined channels, for broadcast fan-out and Phoenix Presence: `presence_state` is a
 * map key → {metas}, `presence_diff` is {joins, leaves} of the same shape, and every meta carries
 * a unique `phx_ref` (plus `phx_ref_prev` when a track replaces an earlier one).
 */
export function createHub() {
  const rooms = new Map<string, Set<Member>>();
  const tracked = new Map<Member, Tracked>();
  const roomOf = (r: Room) => `${r.isPrivate ? 'private' : 'public'}:${r.topic}`;

  function stateOf(room: Set<Member>): PresenceState {
    const state: PresenceState = {};
    for (const m of room) {
      const t = tracked.get(m);
      if (t) (state[t.key] ??= { metas: [] }).metas.push(t.meta);
    }
    return state;
  }

  function pushDiff(member: Member, joins: PresenceState, leaves: PresenceState) {
    for (const m of rooms.get(roomOf(member)) ?? []) {
      if (m.presenceEnabled) m.push('presence_diff', { joins, leaves });
    }
  }

  return {
    join(member: Member) {
      const key = roomOf(member);
      const room = rooms.get(key) ?? new Set<Member>();
      room.add(member);
      rooms.set(key, room);
      if (member.presenceEnabled) member.push('presence_state', stateOf(room));
    },

    leave(member: Member) {
      this.untrack(member);
      const key = roomOf(member);
      const room = rooms.get(key);
      room?.delete(member);
      if (room?.size === 0) rooms.delete(key);
    },

    /** Fans a user broadcast out to a room; `except` is the sender when it did not ask for self. */
    broadcast(room: Room, msg: UserBroadcast, except?: Member) {
      for (const m of rooms.get(roomOf(room)) ?? []) {
        if (m !== except) m.sendBroadcast(msg);
      }
    },

    track(member: Member, payload: Record<string, unknown>) {
      const previous = tracked.get(member);
      const meta: Record<string, unknown> = { ...payload, phx_ref: newRef() };
      if (previous) meta.phx_ref_prev = previous.meta.phx_ref;
      tracked.set(member, { key: member.presenceKey, meta });
      pushDiff(
        member,
        { [member.presenceKey]: { metas: [meta] } },
        previous ? { [previous.key]: { metas: [previous.meta] } } : {},
      );
    },

    untrack(member: Member) {
      const previous = tracked.get(member);
      if (!previous) return;
      tracked.delete(member);
      pushDiff(member, {}, { [previous.key]: { metas: [previous.meta] } });
    },
  };
}

export type Hub = ReturnType<typeof createHub>;

function newRef(): string {
  return randomBytes(9).toString('base64url');
}
