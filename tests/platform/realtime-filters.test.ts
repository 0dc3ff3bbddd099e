import { postgresChangesFilter } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../supabase/local/realtime/filters.ts';

describe('postgres_changes filter parser', () => {
  it.each([
    { filter: undefined, terms: [] },
    { filter: '', terms: [] },
    { filter: 'id=eq.7', terms: [{ column: 'id', op: 'eq', negate: false, value: '7' }] },
    {
      filter: 'user_id=eq.u1,status=in.(a,"b,c"),title=not.like.%x%,deleted_at=is.null',
      terms: [
        { column: 'user_id', op: 'eq', negate: false, value: 'u1' },
        { column: 'status', op: 'in', negate: false, value: ['a', 'b,c'] },
        { column: 'title', op: 'like', negate: true, value: '%x%' },
        { column: 'deleted_at', op: 'is', negate: false, value: 'null' },
      ],
    },
    {
      filter: 'note=eq." padded, \\"quoted\\" \\\\ "',
      terms: [{ column: 'note', op: 'eq', negate: false, value: ' padded, "quoted" \\ ' }],
    },
    { filter: 'flag=is.TRUE', terms: [{ column: 'flag', op: 'is', negate: false, value: 'true' }] },
    { filter: 'a=eq.x=y', terms: [{ column: 'a', op: 'eq', negate: false, value: 'x=y' }] },
  ])('parses $filter', ({ filter, terms }) => {
    expect(parseFilter(filter)).toEqual({ ok: true, terms });
  });

  it('reads back what the client filter builder writes, quoting included', () => {
    const built = postgresChangesFilter()
      .eq('title', 'a, b')
      .in('status', ['x', 'y (z)'])
      .not('note', 'ilike', '"q"')
      .isDistinct('owner', null)
      .build();
    expect(parseFilter(built)).toEqual({
      ok: true,
      terms: [
        { column: 'title', op: 'eq', negate: false, value: 'a, b' },
        { column: 'status', op: 'in', negate: false, value: ['x', 'y (z)'] },
        { column: 'note', op: 'ilike', negate: true, value: '"q"' },
        { column: 'owner', op: 'isdistinct', negate: false, value: 'null' },
      ],
    });
  });

  it.each([
    'id',
    'id=',
    '=eq.1',
    'id=foo.1',
    'id=eq',
    'id=in.a,b',
    'id=in.(a,"b)',
    'id=eq."unterminated',
    'id=is.maybe',
    'id=eq.(1',
  ])('rejects %s with the server message', (filter) => {
    const r = parseFilter(filter);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.message).toMatch(/^Error parsing `filter` params: /);
  });
});
