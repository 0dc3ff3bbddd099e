import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configurePgrst } from '../support/pgrst-config.ts';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';

/**
 * Conformance with PostgREST 12/13 as its documentation describes it, on the fixture in
 * postgrest-fixture/ (after PostgREST's own test schema), through the unmodified supabase-js
 * client wherever it exposes the feature and plain HTTP where it does not.
 */
let t: TestPlatform;
let api: SupabaseClient;

beforeAll(async () => {
  t = await startTestPlatform({
    migrationsDir: 'tests/platform/postgrest-fixture',
    config: { restOverrides: { schemas: ['public', 'extra'] } },
  });
  api = t.client();
});

afterAll(async () => {
  await t.stop();
});

/** A request supabase-js cannot make (raw bodies, profiles, media types). */
function raw(path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('apikey', t.anonKey);
  headers.set('authorization', `Bearer ${t.anonKey}`);
  return fetch(`${t.url}/rest/v1/${path}`, { ...init, headers });
}

describe('range operators', () => {
  it('nxr is "does not extend to the right of" (&<) and nxl "to the left of" (&>)', async () => {
    const nxr = await api.from('reservations').select('id').filter('during', 'nxr', '[0,8)');
    expect(nxr.data).toEqual([{ id: 1 }]);
    const nxl = await api.from('reservations').select('id').filter('during', 'nxl', '[8,30)');
    expect(nxl.data).toEqual([{ id: 2 }]);
    expect(
      (await api.from('reservations').select('id').rangeAdjacent('during', '[5,10)')).data,
    ).toHaveLength(2);
  });
});

describe('RPC overloads', () => {
  it('chooses the overload by the names of the arguments given', async () => {
    expect((await api.rpc('overloaded_args')).data).toBe('none');
    expect((await api.rpc('overloaded_args', { a: 1 })).data).toBe('a');
    expect((await api.rpc('overloaded_args', { a: 1, b: 2 })).data).toBe('a,b');
    expect((await api.rpc('overloaded_args', { c: 'x' })).data).toBe('c');
    expect((await api.rpc('overloaded_args', { a: 1, b: 2 }, { get: true })).data).toBe('a,b');
  });

  it('answers 404 PGRST202 when no overload takes the arguments', async () => {
    const res = await api.rpc('overloaded_args', { a: 1, c: 'x' });
    expect(res.status).toBe(404);
    expect(res.error).toMatchObject({
      code: 'PGRST202',
      message: 'Could not find the function public.overloaded_args(a, c) in the schema cache',
      details:
        'Searched for the function public.overloaded_args with parameters a, c or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
    });
  });

  it('passes the whole JSON body to a single unnamed json parameter', async () => {
    const res = await api.rpc('unnamed_json_param', { '': 'hello', other: [1] });
    expect(res).toMatchObject({ status: 200, data: { '': 'hello', other: [1] } });
  });

  it('passes a text/plain body to a single unnamed text parameter', async () => {
    const res = await raw('rpc/unnamed_text_param', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'unnamed text arg',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toBe('unnamed text arg');
  });

  it('does not call a function whose single unnamed parameter is no body type', async () => {
    const res = await api.rpc('unnamed_int_param', { x: 1, y: 2 });
    expect(res.status).toBe(404);
    expect(res.error).toMatchObject({
      code: 'PGRST202',
      message: 'Could not find the function public.unnamed_int_param(x, y) in the schema cache',
      details:
        'Searched for the function public.unnamed_int_param with parameters x, y or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
    });
    const text = await raw('rpc/unnamed_int_param', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'a simple text',
    });
    expect(text.status).toBe(404);
    expect(await text.json()).toMatchObject({
      code: 'PGRST202',
      message: 'Could not find the function public.unnamed_int_param in the schema cache',
      details:
        'Searched for the function public.unnamed_int_param with a single unnamed text parameter, but no matches were found in the schema cache.',
    });
  });
});

describe('RPC overload resolution as PostgREST resolves it', () => {
  const ambiguous = (...candidates: string[]) => ({
    code: 'PGRST203',
    details: null,
    hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    message: `Could not choose the best candidate function between: ${candidates.join(', ')}`,
  });

  it('answers 300 PGRST203 when overloads differ only by type', async () => {
    for (const a of ['test', 1]) {
      const res = await api.rpc('unresolvable', { a });
      expect(res.status).toBe(300);
      expect(res.error).toEqual(
        ambiguous('public.unresolvable(a => integer)', 'public.unresolvable(a => text)'),
      );
    }
  });

  it('chooses by the names given, defaults included', async () => {
    expect(await api.rpc('resolvable')).toMatchObject({ status: 204, data: null });
    expect((await api.rpc('resolvable', { a: 'test' })).data).toBe(1);
    expect((await api.rpc('resolvable', { b: 1 })).data).toBe('foo');
    const bySet = await api.rpc('resolvable', { cid: 1 }).select('id');
    expect(bySet.data).toEqual([{ id: 1 }, { id: 2 }]);
    const withDefault = await api.rpc('resolvable', { cid: 1, search: 'Hello' }).select('id');
    expect(withDefault.data).toEqual([{ id: 1 }]);
  });

  it('passes the whole body to the one callable overload with an unnamed parameter', async () => {
    // Only by_type(text) is callable: the others have an unnamed parameter no body fills.
    expect((await api.rpc('by_type', { '': 'test' })).data).toBe('foo');
    expect((await api.rpc('by_type', { '': true })).data).toBe('foo');
    expect((await api.rpc('none_or_unnamed')).data).toBe(1);
    expect((await api.rpc('none_or_unnamed', { '': '' })).data).toBe('foo');
    expect((await api.rpc('function_with_unnamed_text', { '': 'test' })).data).toBe(1);
  });

  it('finds no function with an unnamed parameter of another type, and hints at the nearest', async () => {
    const res = await api.rpc('function_with_unnamed_integer', { '': 1 });
    expect(res.status).toBe(404);
    expect(res.error).toEqual({
      code: 'PGRST202',
      details:
        'Searched for the function public.function_with_unnamed_integer with parameter  or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
      hint: 'Perhaps you meant to call the function public.function_with_unnamed_text',
      message:
        'Could not find the function public.function_with_unnamed_integer() in the schema cache',
    });
  });

  it('finds a computed field no function: it takes an unnamed row', async () => {
    const res = await api.rpc('blurb_message');
    expect(res.status).toBe(404);
    expect(res.error).toEqual({
      code: 'PGRST202',
      details:
        'Searched for the function public.blurb_message without parameters or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
      hint: null,
      message:
        'Could not find the function public.blurb_message without parameters in the schema cache',
    });
  });

  it('is ambiguous between no parameters and an unnamed one with a default', async () => {
    for (const args of [undefined, {}]) {
      const res = await api.rpc('unnamed_default', args);
      expect(res.status).toBe(300);
      expect(res.error).toEqual(
        ambiguous('public.unnamed_default()', 'public.unnamed_default( => text)'),
      );
    }
    expect((await api.rpc('unnamed_default', { '': 'custom' })).data).toBe('foo');
  });

  it('hints at the overload whose parameter names are nearest', async () => {
    const res = await api.rpc('overloaded_args', { a: 1, bb: 2 });
    expect(res.error).toMatchObject({
      code: 'PGRST202',
      hint: 'Perhaps you meant to call the function public.overloaded_args(a, b)',
    });
  });
});

describe('missing relations', () => {
  it('hint at the table most like the name, as PostgREST does (at least 0.75 alike)', async () => {
    const near = await api.from('userz').select();
    expect(near.status).toBe(404);
    expect(near.error).toEqual({
      code: 'PGRST205',
      details: null,
      hint: "Perhaps you meant the table 'public.users'",
      message: "Could not find the table 'public.userz' in the schema cache",
    });
    const far = await api.from('completely_else').select();
    expect(far.error).toMatchObject({ code: 'PGRST205', hint: null });
  });

  it('hint at the related table most like an embed that matches none', async () => {
    const res = await api.from('messages').select('id,channelz(*)');
    expect(res.status).toBe(400);
    expect(res.error).toEqual({
      code: 'PGRST200',
      details:
        "Searched for a foreign key relationship between 'messages' and 'channelz' in the schema 'public', but no matches were found.",
      hint: "Perhaps you meant 'channels' instead of 'channelz'.",
      message:
        "Could not find a relationship between 'messages' and 'channelz' in the schema cache",
    });
  });

  it('name an embedded column that does not exist by the embed alias PostgREST gives it', async () => {
    const res = await api.from('channels').select('slug,messages(sum)');
    expect(res.status).toBe(400);
    expect(res.error).toEqual({
      code: '42703',
      details: null,
      hint: null,
      message: 'column messages_1.sum does not exist',
    });
  });

  it('answer a missing relationship before the embedding depth limit', async () => {
    const res = await api.from('channels').select('id,messages(users!sender_id(nowhere(id)))');
    expect(res.error).toMatchObject({ code: 'PGRST200' });
  });
});

describe('Prefer: params=single-object', () => {
  const call = (fn: string, body: unknown, prefer = 'params=single-object') =>
    raw(`rpc/${fn}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', prefer },
      body: JSON.stringify(body),
    });

  it('passes the whole body to the one json/jsonb parameter, whatever its name', async () => {
    const res = await call('single_object_param', { a: 1, nested: { b: [2] } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ a: 1, nested: { b: [2] } });
    const unnamed = await call('unnamed_json_param', { x: 'y' });
    expect(await unnamed.json()).toEqual({ x: 'y' });
  });

  it('without the preference the body names the arguments, as before', async () => {
    const res = await call('single_object_param', { payload: { a: 1 } }, 'return=representation');
    expect(await res.json()).toEqual({ a: 1 });
    const unknown = await call('single_object_param', { a: 1 }, 'return=representation');
    expect(unknown.status).toBe(404);
  });

  it('answers 404 PGRST202 for a function without a single json parameter', async () => {
    const res = await call('overloaded_args', { a: 1 });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      code: 'PGRST202',
      message: 'Could not find the function public.overloaded_args in the schema cache',
      details:
        'Searched for the function public.overloaded_args with a single json/jsonb parameter, but no matches were found in the schema cache.',
    });
  });
});

describe('functions as computed fields and relationships', () => {
  it('selects, filters and orders by a computed field', async () => {
    const res = await api
      .from('messages')
      .select('id,blurb_message')
      .eq('blurb_message', 'Hello')
      .order('blurb_message');
    expect(res.data).toEqual([{ id: 1, blurb_message: 'Hello' }]);
    const star = await api.from('messages').select('*').eq('id', 1).single();
    expect(star.data).not.toHaveProperty('blurb_message');
  });

  it('selects, filters and orders by a computed field on the rows an RPC returns', async () => {
    const res = await api
      .rpc('list_messages')
      .select('id,blurb_message')
      .neq('blurb_message', 'Secon')
      .order('blurb_message', { ascending: false });
    expect(res.error).toBeNull();
    expect(res.data).toEqual([
      { id: 3, blurb_message: 'Third' },
      { id: 1, blurb_message: 'Hello' },
    ]);
    const one = await api
      .rpc('first_message')
      .select('blurb_message,sender:users!sender_id(username)');
    expect(one.error).toBeNull();
    expect(one.data).toEqual({ blurb_message: 'Hello', sender: { username: 'ana' } });
  });

  it('embeds a set-returning function over the row', async () => {
    const res = await api.from('channels').select('id,get_messages(id,message)').order('id');
    expect(res.error).toBeNull();
    expect(res.data).toEqual([
      {
        id: 1,
        get_messages: [
          { id: 1, message: 'Hello world' },
          { id: 2, message: 'Second, "quoted"' },
        ],
      },
      { id: 2, get_messages: [{ id: 3, message: 'Third message' }] },
    ]);
  });

  it('embeds a set-returning function declared rows 1 as one object, !inner too', async () => {
    await t.admin.from('channels').insert({ id: 3, slug: 'vazio' });
    try {
      const res = await api.from('channels').select('id,last:latest_message(id)').order('id');
      expect(res.data).toEqual([
        { id: 1, last: { id: 2 } },
        { id: 2, last: { id: 3 } },
        { id: 3, last: null },
      ]);
      const inner = await api.from('channels').select('id,last:latest_message!inner(id)');
      expect(inner.data).toEqual([
        { id: 1, last: { id: 2 } },
        { id: 2, last: { id: 3 } },
      ]);
    } finally {
      await t.admin.from('channels').delete().eq('id', 3);
    }
  });
});

describe('resource embedding', () => {
  it('embeds by foreign-key constraint name', async () => {
    const res = await api
      .from('users')
      .select('username,best_friends_first_user_fkey(id)')
      .order('id');
    expect(res.data).toEqual([
      { username: 'ana', best_friends_first_user_fkey: [{ id: 1 }] },
      { username: 'bia', best_friends_first_user_fkey: [{ id: 2 }] },
      { username: 'caio', best_friends_first_user_fkey: [] },
    ]);
    const m2o = await api
      .from('messages')
      .select('id,messages_sender_fkey(username)')
      .eq('id', 3)
      .single();
    expect(m2o.data).toEqual({ id: 3, messages_sender_fkey: { username: 'ana' } });
  });

  it('disambiguates by constraint or column hint', async () => {
    const res = await api
      .from('messages')
      .select('id,sender:users!messages_sender_fkey(username),reviewer:users!reviewer_id(username)')
      .eq('id', 1)
      .single();
    expect(res.data).toEqual({ id: 1, sender: { username: 'ana' }, reviewer: { username: 'bia' } });
  });

  it('answers 300 PGRST201 with the candidates in PostgREST words and order', async () => {
    const res = await api.from('users').select('*,best_friends(*)');
    expect(res.status).toBe(300);
    expect(res.error).toEqual({
      code: 'PGRST201',
      message:
        "Could not embed because more than one relationship was found for 'users' and 'best_friends'",
      details: [
        {
          cardinality: 'one-to-many',
          embedding: 'users with best_friends',
          relationship: 'best_friends_first_user_fkey using users(id) and best_friends(first_user)',
        },
        {
          cardinality: 'one-to-many',
          embedding: 'users with best_friends',
          relationship:
            'best_friends_second_user_fkey using users(id) and best_friends(second_user)',
        },
      ],
      hint: "Try changing 'best_friends' to one of the following: 'best_friends!best_friends_first_user_fkey', 'best_friends!best_friends_second_user_fkey'. Find the desired relationship in the 'details' key.",
    });
    const m2o = await api.from('messages').select('*,users(*)');
    expect(m2o.error?.details).toEqual([
      {
        cardinality: 'many-to-one',
        embedding: 'messages with users',
        relationship: 'messages_reviewer_fkey using messages(reviewer_id) and users(id)',
      },
      {
        cardinality: 'many-to-one',
        embedding: 'messages with users',
        relationship: 'messages_sender_fkey using messages(sender_id) and users(id)',
      },
    ]);
  });

  it('embeds a self-reference: children by table name, parent by column, hint by column', async () => {
    const children = await api
      .from('employees')
      .select('name,employees(name)')
      .eq('id', 1)
      .single();
    expect(children.data).toEqual({ name: 'Chefe', employees: [{ name: 'Ana' }, { name: 'Bia' }] });
    const parent = await api.from('employees').select('name,manager_id(name)').eq('id', 2).single();
    expect(parent.data).toEqual({ name: 'Ana', manager_id: { name: 'Chefe' } });
    const hinted = await api
      .from('employees')
      .select('name,reports:employees!manager_id(name)')
      .eq('id', 1)
      .single();
    expect(hinted.data).toEqual({ name: 'Chefe', reports: [{ name: 'Ana' }, { name: 'Bia' }] });
  });
});

describe('Prefer', () => {
  it('count=planned and count=estimated report a total in Content-Range (206 for a part)', async () => {
    for (const count of ['planned', 'estimated'] as const) {
      const res = await api.from('messages').select('id', { count }).order('id').limit(1);
      expect(res.error).toBeNull();
      expect(res.status).toBe(206);
      expect(res.count).toBeGreaterThan(1);
    }
    const exactish = await api.from('messages').select('id', { count: 'estimated' });
    expect(exactish.count).toBe(3);
    const head = await api.from('messages').select('*', { count: 'planned', head: true });
    expect(head.count).toBeGreaterThan(0);
  });

  it('count=exact on a set-returning RPC', async () => {
    const res = await api.rpc('list_messages', undefined, { count: 'exact' }).range(0, 1);
    expect(res).toMatchObject({ status: 206, count: 3 });
    expect(res.data).toHaveLength(2);
  });

  it('count=exact on an RPC returning one value counts it as one row', async () => {
    const args = { a: 1, b: 2 };
    const post = await api.rpc('overloaded_args', args, { count: 'exact' });
    expect(post).toMatchObject({ status: 200, data: 'a,b', count: 1 });
    const get = await api.rpc('overloaded_args', args, { count: 'exact', get: true });
    expect(get).toMatchObject({ status: 200, data: 'a,b', count: 1 });
    const head = await api.rpc('overloaded_args', args, { count: 'exact', head: true });
    expect(head).toMatchObject({ status: 200, data: null, count: 1 });
    const uncounted = await raw('rpc/overloaded_args?a=1');
    expect(uncounted.headers.get('content-range')).toBe('0-0/*');
  });

  it('handling=strict with max-affected refuses an RPC over the limit and commits nothing', async () => {
    const over = await raw('rpc/rename_messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', prefer: 'handling=strict, max-affected=2' },
      body: JSON.stringify({ prefix: 'X ' }),
    });
    expect(over.status).toBe(400);
    expect(await over.json()).toEqual({
      code: 'PGRST124',
      message: 'Query result exceeds max-affected preference constraint',
      details: 'The query affects 3 rows',
      hint: null,
    });
    const after = await api.from('messages').select('message').eq('id', 1).single();
    expect(after.data).toEqual({ message: 'Hello world' });
    const single = await raw('rpc/first_message', {
      method: 'POST',
      headers: { 'content-type': 'application/json', prefer: 'handling=strict, max-affected=1' },
      body: '{}',
    });
    expect(single.status).toBe(400);
    expect(await single.json()).toMatchObject({ code: 'PGRST128' });
  });

  it('missing=default fills absent columns of an upsert with their defaults', async () => {
    const res = await api
      .from('profiles')
      .upsert(
        [
          { id: 1, note: 'again' },
          { id: 2, note: 'new' },
        ],
        { defaultToNull: false },
      )
      .select('id,status,note')
      .order('id');
    expect(res.error).toBeNull();
    expect(res.data).toEqual([
      { id: 1, status: 'blocked', note: 'again' },
      { id: 2, status: 'active', note: 'new' },
    ]);
  });

  it('missing=default on a bulk insert and upsert evaluates every default for every row, as PostgREST', async () => {
    const inserted = await t.admin
      .from('tickets')
      .insert([{ id: 100 }, { slug: 'a' }, { slug: 'b', created: null }], { defaultToNull: false })
      .select();
    // Row 1's own id wins over the identity's value it still draws: the next row gets 2.
    expect(inserted).toMatchObject({ status: 201 });
    expect(inserted.data).toEqual([
      { id: 100, slug: null, created: '2026-01-01' },
      { id: 2, slug: 'a', created: '2026-01-01' },
      { id: 3, slug: 'b', created: null },
    ]);
    const upserted = await t.admin
      .from('tickets')
      .upsert([{ id: 2 }, { slug: 'c' }], { defaultToNull: false })
      .select();
    expect(upserted.data).toEqual([
      { id: 2, slug: null, created: '2026-01-01' },
      { id: 5, slug: 'c', created: '2026-01-01' },
    ]);
  });
});

describe('aggregates', () => {
  /** db-aggregates-enabled as Supabase's docs turn it on: a setting of the authenticator role. */
  const setAggregates = (on: boolean) =>
    configurePgrst(t.platform.ctx.db, { db_aggregates_enabled: String(on) }, async () => {
      const probe = await api.from('messages').select('id.sum()');
      return (probe.status === 200) === on;
    });

  it('are refused as PostgREST refuses them while db-aggregates-enabled is off', async () => {
    await setAggregates(false);
    const res = await api.from('messages').select('id.sum()');
    expect(res.status).toBe(400);
    expect(res.error).toEqual({
      code: 'PGRST123',
      message: 'Use of aggregate functions is not allowed',
      details: null,
      hint: null,
    });
    const embedded = await api.from('channels').select('slug,messages(count)').order('id');
    expect(embedded.data).toEqual([
      { slug: 'geral', messages: [{ count: 2 }] },
      { slug: 'avisos', messages: [{ count: 1 }] },
    ]);
  });

  it('sum, avg, min, max and count(), grouped by the other columns, also when embedded', async () => {
    await setAggregates(true);
    try {
      expect((await api.from('messages').select('id.sum()')).data).toEqual([{ sum: 6 }]);
      const grouped = await api
        .from('messages')
        .select('channel_id,count(),top:id.max(),first:id.min(),mean:id.avg()::int')
        .order('channel_id');
      expect(grouped.data).toEqual([
        { channel_id: 1, count: 2, top: 2, first: 1, mean: 2 },
        { channel_id: 2, count: 1, top: 3, first: 3, mean: 3 },
      ]);
      const embedded = await api.from('channels').select('slug,messages(id.sum())').order('id');
      expect(embedded.data).toEqual([
        { slug: 'geral', messages: [{ sum: 3 }] },
        { slug: 'avisos', messages: [{ sum: 3 }] },
      ]);
    } finally {
      await setAggregates(false);
    }
  });

  /** Groups come back in no defined order (ordering by an aggregate is not supported). */
  const sorted = <T>(rows: T[] | null) =>
    [...(rows ?? [])].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

  it('group by an embedded resource beside an aggregate, to-one and to-many', async () => {
    await setAggregates(true);
    try {
      const toOne = await api.from('messages').select('count(),channels(slug)');
      expect(toOne.error).toBeNull();
      expect(sorted(toOne.data)).toEqual([
        { count: 1, channels: { slug: 'avisos' } },
        { count: 2, channels: { slug: 'geral' } },
      ]);
      const toMany = await api.from('users').select('count(),messages!sender_id(channel_id)');
      expect(toMany.error).toBeNull();
      expect(sorted(toMany.data)).toEqual([
        { count: 1, messages: [] },
        { count: 1, messages: [{ channel_id: 1 }, { channel_id: 2 }] },
        { count: 1, messages: [{ channel_id: 1 }] },
      ]);
      const nested = await api
        .from('channels')
        .select('slug,messages(count(),users!sender_id(username))')
        .eq('id', 1)
        .single();
      expect(nested.error).toBeNull();
      expect(sorted(nested.data?.messages as unknown[])).toEqual([
        { count: 1, users: { username: 'ana' } },
        { count: 1, users: { username: 'bia' } },
      ]);
    } finally {
      await setAggregates(false);
    }
  });

  it('treat the columns of a spread as the parent level: grouped, or aggregated there', async () => {
    await setAggregates(true);
    try {
      const grouped = await api.from('messages').select('total:id.sum(),count(),...channels(slug)');
      expect(grouped.error).toBeNull();
      expect(sorted(grouped.data)).toEqual([
        { total: 3, count: 1, slug: 'avisos' },
        { total: 3, count: 2, slug: 'geral' },
      ]);
      const hoisted = await api
        .from('messages')
        .select('channel_id,...users!sender_id(top:id.max(),first:id.min())')
        .order('channel_id');
      expect(hoisted.error).toBeNull();
      expect(hoisted.data).toEqual([
        { channel_id: 1, top: 2, first: 1 },
        { channel_id: 2, top: 1, first: 1 },
      ]);
      const alone = await api.from('messages').select('...users!sender_id(username.max())');
      expect(alone.data).toEqual([{ max: 'bia' }]);
      const toMany = await api.from('channels').select('id.count(),...messages(id)');
      expect(toMany.error).toBeNull();
      expect(sorted(toMany.data)).toEqual([
        { count: 1, id: [1, 2] },
        { count: 1, id: [3] },
      ]);
    } finally {
      await setAggregates(false);
    }
  });
});

describe('output formats', () => {
  it('CSV quotes and prints values as PostgreSQL does', async () => {
    const res = await api.from('messages').select('id,message,data,sender_id').order('id').csv();
    expect(res.error).toBeNull();
    expect(res.data).toBe(
      'id,message,data,sender_id\n' +
        '1,"Hello world","{""a"": 1}",1\n' +
        '2,"Second, ""quoted""","{""b"": [1, 2]}",2\n' +
        '3,"Third message",,1',
    );
  });

  it('answers EXPLAIN for application/vnd.pgrst.plan only when enabled', async () => {
    const off = await api.from('messages').select('id').explain({ format: 'json' });
    expect(off.status).toBe(406);
    expect(off.error).toMatchObject({ code: 'PGRST107' });
    const planWorks = async () =>
      (await api.from('messages').select('id').explain({ format: 'json' })).status === 200;
    await configurePgrst(t.platform.ctx.db, { db_plan_enabled: 'true' }, planWorks);
    try {
      const json = await api.from('messages').select('id').eq('id', 1).explain({ format: 'json' });
      expect(json.status).toBe(200);
      const [top] = json.data as unknown as { Plan: { 'Node Type': string } }[];
      expect(top?.Plan['Node Type']).toBe('Aggregate');
      const text = await api.from('messages').select('id').explain({ analyze: true });
      expect(text.data).toMatch(/Aggregate .*actual time/);
    } finally {
      await configurePgrst(
        t.platform.ctx.db,
        { db_plan_enabled: null },
        async () => !(await planWorks()),
      );
    }
  });
});

describe('exposed schemas', () => {
  it('reads and writes another configured schema through Accept-Profile / Content-Profile', async () => {
    const extra = api.schema('extra');
    expect((await extra.from('notes').select('id,body')).data).toEqual([
      { id: 1, body: 'nota extra' },
    ]);
    const inserted = await extra.from('notes').insert({ id: 2, body: 'outra' }).select('id');
    expect(inserted).toMatchObject({ status: 201, data: [{ id: 2 }] });
    expect((await api.from('notes').select('id')).error).toMatchObject({ code: 'PGRST205' });
  });

  it('refuses a schema not in the list with 406 PGRST106', async () => {
    const res = await api.schema('auth').from('users').select('id');
    expect(res.status).toBe(406);
    expect(res.error).toEqual({
      code: 'PGRST106',
      message: 'Invalid schema: auth',
      details: null,
      hint: 'Only the following schemas are exposed: public, extra',
    });
  });
});

describe('more embedding', () => {
  it('embeds through a view as through its table', async () => {
    const res = await api
      .from('channel_names')
      .select('slug,messages(id)')
      .order('id')
      .order('id', { referencedTable: 'messages' });
    expect(res.error).toBeNull();
    expect(res.data).toEqual([
      { slug: 'geral', messages: [{ id: 1 }, { id: 2 }] },
      { slug: 'avisos', messages: [{ id: 3 }] },
    ]);
    const back = await api.from('messages').select('id,channel_names(slug)').eq('id', 3).single();
    expect(back.data).toEqual({ id: 3, channel_names: { slug: 'avisos' } });
  });

  it("follows renamed columns through a view's definition, both ways", async () => {
    const toOne = await api.from('message_authors').select('vid,users(username)').order('vid');
    expect(toOne.error).toBeNull();
    expect(toOne.data).toEqual([
      { vid: 1, users: { username: 'ana' } },
      { vid: 2, users: { username: 'bia' } },
      { vid: 3, users: { username: 'ana' } },
    ]);
    const toMany = await api
      .from('users')
      .select('username,message_authors(vid,body)')
      .eq('id', 1)
      .order('vid', { referencedTable: 'message_authors' })
      .single();
    expect(toMany.data).toEqual({
      username: 'ana',
      message_authors: [
        { vid: 1, body: 'Hello world' },
        { vid: 3, body: 'Third message' },
      ],
    });
  });

  it('hints a view relationship by its renamed column or by the constraint', async () => {
    const byColumn = await api
      .from('users')
      .select('username,posts:message_authors!author(vid)')
      .eq('id', 2)
      .single();
    expect(byColumn.data).toEqual({ username: 'bia', posts: [{ vid: 2 }] });
    const byConstraint = await api
      .from('message_authors')
      .select('vid,writer:users!messages_sender_fkey(username)')
      .eq('vid', 3)
      .single();
    expect(byConstraint.data).toEqual({ vid: 3, writer: { username: 'ana' } });
    const byKeyColumn = await api
      .from('message_authors')
      .select('vid,author(username)')
      .eq('vid', 2);
    expect(byKeyColumn.data).toEqual([{ vid: 2, author: { username: 'bia' } }]);
  });

  it("names the view's columns when a view relationship is ambiguous or missing", async () => {
    const missing = await api.from('author_ids').select('mid,channels(slug)');
    expect(missing.status).toBe(400);
    expect(missing.error?.code).toBe('PGRST200');
    const res = await api.from('messages').select('id,people(handle)');
    expect(res.status).toBe(300);
    expect(res.error?.details).toEqual([
      {
        cardinality: 'many-to-one',
        embedding: 'messages with people',
        relationship: 'messages_reviewer_fkey using messages(reviewer_id) and people(pid)',
      },
      {
        cardinality: 'many-to-one',
        embedding: 'messages with people',
        relationship: 'messages_sender_fkey using messages(sender_id) and people(pid)',
      },
    ]);
  });

  it('relates two views over the tables of a foreign key', async () => {
    const res = await api
      .from('message_authors')
      .select('vid,people(handle)')
      .order('vid')
      .limit(2);
    expect(res.error).toBeNull();
    expect(res.data).toEqual([
      { vid: 1, people: { handle: 'ana' } },
      { vid: 2, people: { handle: 'bia' } },
    ]);
    const back = await api
      .from('people')
      .select('handle,message_authors(vid)')
      .eq('pid', 2)
      .single();
    expect(back.data).toEqual({ handle: 'bia', message_authors: [{ vid: 2 }] });
  });

  it('follows a view over a view down to the table', async () => {
    const res = await api.from('author_ids').select('mid,users(username)').eq('mid', 2).single();
    expect(res.error).toBeNull();
    expect(res.data).toEqual({ mid: 2, users: { username: 'bia' } });
  });

  it('spreads a to-many relation into arrays of its columns', async () => {
    const res = await api
      .from('channels')
      .select('slug,...messages(id,message)')
      .eq('id', 1)
      .order('id', { referencedTable: 'messages' })
      .single();
    expect(res.error).toBeNull();
    expect(res.data).toEqual({
      slug: 'geral',
      id: [1, 2],
      message: ['Hello world', 'Second, "quoted"'],
    });
  });

  it('counts no embedding level for a spread (REST_MAX_EMBED_DEPTH is 2)', async () => {
    const res = await api
      .from('best_friends')
      .select('id,users!first_user(username,messages!sender_id(id,...channels(slug)))')
      .eq('id', 1)
      .order('id', { referencedTable: 'users.messages' })
      .single();
    expect(res.error).toBeNull();
    expect(res.data).toEqual({
      id: 1,
      users: {
        username: 'ana',
        messages: [
          { id: 1, slug: 'geral' },
          { id: 3, slug: 'avisos' },
        ],
      },
    });
    const deeper = await api
      .from('best_friends')
      .select('id,users!first_user(messages!sender_id(channels(slug)))');
    expect(deeper.error).toMatchObject({ code: 'PGRST100' });
  });
});
