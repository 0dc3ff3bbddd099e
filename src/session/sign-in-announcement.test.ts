import { describe, expect, it } from 'vitest';
import type { User } from '@supabase/supabase-js';
import { confirmedWithinWindow } from './sign-in-announcement.ts';

const confirmedAt = '2026-11-21T12:00:00.000Z';
const at = (iso: string) => Date.parse(iso);
const user = (email_confirmed_at?: string) => ({ id: 'u', email_confirmed_at }) as User;

describe('confirmation-toast window (docs/product-rules.md §9: 60 s)', () => {
  it.each([
    ['signed in as the link is followed', '2026-11-21T12:00:00.000Z', true],
    ['exactly 60 s later', '2026-11-21T12:01:00.000Z', true],
    ['61 s later', '2026-11-21T12:01:01.000Z', false],
    ['a day later', '2026-11-22T12:00:00.000Z', false],
    ['device clock a little behind the server', '2026-11-21T11:59:50.000Z', true],
  ])('%s', (_name, now, expected) => {
    expect(confirmedWithinWindow(user(confirmedAt), at(now))).toBe(expected);
  });

  it('never greets an unconfirmed or unreadable confirmation', () => {
    expect(confirmedWithinWindow(user(undefined), at(confirmedAt))).toBe(false);
    expect(confirmedWithinWindow(user('not a date'), at(confirmedAt))).toBe(false);
  });
});
