import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../supabase/local/jwt.ts';
import { startTestPlatform, testClient, type TestPlatform } from '../../sync/testing/index.ts';

/**
 * PostgREST conformance of /rest/v1 through the unmodified supabase-js client, over the
 * sample schema in sample-migrations/20260101001000_rest_sample.sql and
 * 20260101040000_rest_views_overloads.sql.
 */
let t: TestPlatform;
let anon: SupabaseClient;
let alice: SupabaseClient;
let bob: SupabaseClient;
let aliceId: string;

async function signedIn(email: string): Promise<{ client: SupabaseClient; id: string }> {
  const password = 'senha-muito-segura-123';
  const created = await t.admin.auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error) throw created.error;
  const client = t.client();
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return { client, id: created.data.user.id };
}

async function seed() {
  const db = t.admin;
  const must = async (p: PromiseLike<{ error: unknown }>) => {
    const { error } = await p;
    if (error) throw new Error(JSON.stringify(error));
  };
  await must(
    db.from('authors').insert([
      { id: 1, name: 'Ana', email: 'ana@example.com' },
      { id: 2, name: 'Bia', email: 'bia@example.com' },
      { id: 3, name: 'Caio', email: null },
    ]),
  );
  await must(db.from('author_profiles').insert({ author_id: 1, bio: 'Clínica geral' }));
  await must(
    db.from('posts').insert([
      {
        id: 1,
        author_id: 1,
        editor_id: 2,
        title: 'Primeiro',
        published: true,
        rating: 4.5,
        views: 10,
        meta: { lang: 'pt', stats: { likes: 3 } },
        labels: ['saude', 'agenda'],
        created_at: '2026-01-01T10:00:00Z',
      },
      {
        id: 2,
        author_id: 1,
        editor_id: null,
        title: 'Segundo',
        published: false,
        rating: null,
        views: 12345678901,
        meta: null,
        labels: ['agenda'],
        created_at: '2026-01-02T10:00:00.123456Z',
      },
      {
        id: 3,
        author_id: 2,
        editor_id: 1,
        title: 'Terceiro com espaço',
        published: true,
        rating: 3,
        views: 5,
        meta: { lang: 'en' },
        labels: null,
        created_at: '2026-01-03T10:00:00Z',
      },
    ]),
  );
  await must(
    db.from('comments').insert([
      { id: 1, post_id: 1, author_id: 2, body: 'ótimo', created_at: '2026-01-05T00:00:00Z' },
      { id: 2, post_id: 1, author_id: 3, body: 'concordo', created_at: '2026-01-04T00:00:00Z' },
      { id: 3, post_id: 3, author_id: 1, body: 'hmm', created_at: '2026-01-06T00:00:00Z' },
    ]),
  );
  await must(
    db.from('tags').insert([
      { id: 1, name: 'saude' },
      { id: 2, name: 'agenda' },
      { id: 3, name: 'vazio' },
    ]),
  );
  await must(
    db.from('post_tags').insert([
      { post_id: 1, tag_id: 1 },
      { post_id: 1, tag_id: 2 },
      { post_id: 2, tag_id: 2 },
    ]),
  );
}

beforeAll(async () => {
  t = await startTestPlatform({ migrationsDir: 'tests/platform/sample-migrations' });
  anon = t.client();
  const a = await signedIn('alice@example.com');
  alice = a.client;
  aliceId = a.id;
  bob = (await signedIn('bob@example.com')).client;
  await seed();
});
afterAll(() => t.stop());

/** Raw HTTP for what supabase-js cannot express (headers it never sends, bad input). */
function rest(path: string, init: RequestInit = {}, key = t.anonKey) {
  return fetch(`${t.url}/rest/v1/${path}`, {
    ...init,
    headers: {
      apikey: key,
      authorization: `Bearer ${key}`,
      ...(init.headers as Record<string, string>),
    },
  });
}

describe('reading rows', () => {
  it('renders values as Postgres to_json does: int8 and numeric as numbers, ISO timestamptz, inline json, arrays', async () => {
    const second = await anon.from('posts').select('*').eq('id', 2).single();
    expect(second.error).toBeNull();
    expect(second.status).toBe(200);
    expect(second.data as unknown).toEqual({
      id: 2,
      author_id: 1,
      editor_id: null,
      title: 'Segundo',
      body: null,
      published: false,
      rating: null,
      views: 12345678901,
      meta: null,
      labels: ['agenda'],
      created_at: '2026-01-02T10:00:00.123456+00:00',
    });
    const first = await anon.from('posts').select('rating, meta').eq('id', 1).single();
    expect(first.data).toEqual({ rating: 4.5, meta: { lang: 'pt', stats: { likes: 3 } } });
  });

  it('supports aliases, casts and json paths in select', async () => {
    const { data } = await anon
      .from('posts')
      .select('id, titulo:title, views::text, lang:meta->>lang, meta->stats->likes')
      .eq('id', 1)
      .single();
    expect(data).toEqual({ id: 1, titulo: 'Primeiro', views: '10', lang: 'pt', likes: 3 });
  });

  it('applies every comparison operator', async () => {
    const ids = async (q: PromiseLike<{ data: { id: number }[] | null; error: unknown }>) => {
      const { data, error } = await q;
      expect(error).toBeNull();
      return (data ?? []).map((r) => r.id).sort();
    };
    const posts = () => anon.from('posts').select('id');
    expect(await ids(posts().eq('title', 'Terceiro com espaço'))).toEqual([3]);
    expect(await ids(posts().neq('author_id', 1))).toEqual([3]);
    expect(await ids(posts().gt('views', 10))).toEqual([2]);
    expect(await ids(posts().gte('views', 10))).toEqual([1, 2]);
    expect(await ids(posts().lt('views', 10))).toEqual([3]);
    expect(await ids(posts().lte('rating', 3))).toEqual([3]);
    expect(await ids(posts().like('title', '%eiro%'))).toEqual([1, 3]);
    expect(await ids(posts().like('title', '*gundo'))).toEqual([2]);
    expect(await ids(posts().ilike('title', 'PRIM%'))).toEqual([1]);
    expect(await ids(posts().in('id', [1, 3]))).toEqual([1, 3]);
    expect(await ids(posts().in('title', ['Segundo', 'a,b', 'Terceiro com espaço']))).toEqual([
      2, 3,
    ]);
    expect(await ids(posts().not('id', 'in', '(1,2)'))).toEqual([3]);
    expect(await ids(posts().is('editor_id', null))).toEqual([2]);
    expect(await ids(posts().not('editor_id', 'is', null))).toEqual([1, 3]);
    expect(await ids(posts().is('published', true))).toEqual([1, 3]);
    expect(await ids(posts().isDistinct('rating', null))).toEqual([1, 3]);
    expect(await ids(posts().match({ author_id: 1, published: false }))).toEqual([2]);
    expect(await ids(posts().regexMatch('title', '^Seg'))).toEqual([2]);
    expect(await ids(posts().regexIMatch('title', '^seg'))).toEqual([2]);
    expect(await ids(posts().contains('labels', ['agenda']))).toEqual([1, 2]);
    expect(await ids(posts().containedBy('labels', ['agenda', 'outra']))).toEqual([2]);
    expect(await ids(posts().overlaps('labels', ['saude', 'x']))).toEqual([1]);
    expect(await ids(posts().contains('meta', { lang: 'pt' }))).toEqual([1]);
    expect(await ids(posts().eq('meta->>lang', 'en'))).toEqual([3]);
    expect(await ids(posts().textSearch('title', 'terceiro', { config: 'simple' }))).toEqual([3]);
    expect(await ids(posts().likeAnyOf('title', ['Prim%', 'Seg%']))).toEqual([1, 2]);
  });

  it('evaluates nested or/and trees with quoted identifiers and values', async () => {
    const { data, error } = await anon
      .from('posts')
      .select('id')
      .or('"id".eq.3,and("author_id".eq.1,title.eq."Segundo")')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 2 }, { id: 3 }]);
    const negated = await rest('posts?select=id&not.or=(id.eq.1,id.eq.2)');
    expect(await negated.json()).toEqual([{ id: 3 }]);
  });

  it('orders with direction and null placement, pages with limit and range', async () => {
    const ordered = await anon
      .from('posts')
      .select('id')
      .order('rating', { ascending: false, nullsFirst: true });
    expect(ordered.data).toEqual([{ id: 2 }, { id: 1 }, { id: 3 }]);
    const last = await anon
      .from('posts')
      .select('id')
      .order('rating', { ascending: true, nullsFirst: false });
    expect(last.data).toEqual([{ id: 3 }, { id: 1 }, { id: 2 }]);
    const page = await anon.from('posts').select('id').order('id').range(1, 2);
    expect(page.data).toEqual([{ id: 2 }, { id: 3 }]);
    const limited = await anon
      .from('posts')
      .select('id')
      .order('id', { ascending: false })
      .limit(1);
    expect(limited.data).toEqual([{ id: 3 }]);
  });

  it('counts exactly, answers 206 for a partial page and 416 beyond the end', async () => {
    const partial = await anon
      .from('posts')
      .select('id', { count: 'exact' })
      .order('id')
      .range(0, 1);
    expect(partial.status).toBe(206);
    expect(partial.count).toBe(3);
    const whole = await anon.from('posts').select('id', { count: 'exact' });
    expect(whole.status).toBe(200);
    expect(whole.count).toBe(3);
    const head = await anon
      .from('posts')
      .select('*', { count: 'exact', head: true })
      .eq('author_id', 1);
    expect(head.data).toBeNull();
    expect(head.count).toBe(2);
    const beyond = await anon.from('posts').select('id', { count: 'exact' }).range(10, 12);
    expect(beyond.status).toBe(416);
    expect(beyond.error).toMatchObject({
      code: 'PGRST103',
      message: 'Requested range not satisfiable',
      details: 'An offset of 10 was requested, but there are only 3 rows.',
    });
  });

  it('reports Content-Range and honours the Range header', async () => {
    const res = await rest('posts?select=id&order=id', {
      headers: { range: '1-1', prefer: 'count=exact' },
    });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('1-1/3');
    expect(await res.json()).toEqual([{ id: 2 }]);
    const empty = await rest('posts?id=eq.999');
    expect(empty.headers.get('content-range')).toBe('*/*');
  });

  it('single() returns one object or PGRST116; maybeSingle() gives null for none', async () => {
    const none = await anon.from('posts').select('id').eq('id', 999).single();
    expect(none.status).toBe(406);
    expect(none.error).toEqual({
      code: 'PGRST116',
      details: 'The result contains 0 rows',
      hint: null,
      message: 'Cannot coerce the result to a single JSON object',
    });
    const many = await anon.from('posts').select('id').single();
    expect(many.error?.details).toBe('The result contains 3 rows');
    const maybe = await anon.from('posts').select('id').eq('id', 999).maybeSingle();
    expect(maybe).toMatchObject({ data: null, error: null });
    const one = await anon.from('posts').select('id').eq('id', 1).maybeSingle();
    expect(one.data).toEqual({ id: 1 });
  });

  it('answers CSV and strips nulls when asked', async () => {
    const csv = await anon.from('authors').select('id,name,email').order('id').csv();
    expect(csv.data).toBe('id,name,email\n1,Ana,ana@example.com\n2,Bia,bia@example.com\n3,Caio,');
    const stripped = await anon.from('authors').select('id,email').eq('id', 3).stripNulls();
    expect(stripped.data).toEqual([{ id: 3 }]);
  });
  it('reads views and orders by a column of a to-one embed', async () => {
    const view = await anon.from('published_posts').select('title').order('id');
    expect(view.data).toEqual([{ title: 'Primeiro' }, { title: 'Terceiro com espaço' }]);
    const byAuthor = await anon
      .from('posts')
      .select('id, author:authors!posts_author_id_fkey(name)')
      .in('id', [1, 3])
      .order('author(name)', { ascending: false });
    expect(byAuthor.data).toEqual([
      { id: 3, author: { name: 'Bia' } },
      { id: 1, author: { name: 'Ana' } },
    ]);
  });
});

describe('embedding related rows', () => {
  it('embeds to-one as an object, to-many as an array, many-to-many through the junction', async () => {
    const { data, error } = await anon
      .from('posts')
      .select('id, author:authors!posts_author_id_fkey(name), comments(body), tags(name)')
      .eq('id', 1)
      .order('created_at', { referencedTable: 'comments' })
      .order('name', { referencedTable: 'tags' })
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({
      id: 1,
      author: { name: 'Ana' },
      comments: [{ body: 'concordo' }, { body: 'ótimo' }],
      tags: [{ name: 'agenda' }, { name: 'saude' }],
    });
  });

  it('embeds one-to-one as an object and null when missing, by column hint too', async () => {
    const { data } = await anon
      .from('authors')
      .select('id, author_profiles(bio), edited:posts!editor_id(id)')
      .order('id');
    expect(data).toEqual([
      { id: 1, author_profiles: { bio: 'Clínica geral' }, edited: [{ id: 3 }] },
      { id: 2, author_profiles: null, edited: [{ id: 1 }] },
      { id: 3, author_profiles: null, edited: [] },
    ]);
  });

  it('nests embeds, counts, spreads and limits embedded rows', async () => {
    const { data } = await anon
      .from('posts')
      .select(
        'id, ...authors!author_id(author_name:name), comments(count), latest:comments(body, authors(name))',
      )
      .order('id')
      .order('created_at', { referencedTable: 'latest', ascending: false })
      .limit(1, { referencedTable: 'latest' });
    expect(data).toEqual([
      {
        id: 1,
        author_name: 'Ana',
        comments: [{ count: 2 }],
        latest: [{ body: 'ótimo', authors: { name: 'Bia' } }],
      },
      { id: 2, author_name: 'Ana', comments: [{ count: 0 }], latest: [] },
      {
        id: 3,
        author_name: 'Bia',
        comments: [{ count: 1 }],
        latest: [{ body: 'hmm', authors: { name: 'Ana' } }],
      },
    ]);
  });

  it('filters embedded rows, and parents too with !inner or rel=not.is.null', async () => {
    const filteredChildren = await anon
      .from('posts')
      .select('id, comments(body)')
      .eq('comments.body', 'hmm')
      .order('id');
    expect(filteredChildren.data).toEqual([
      { id: 1, comments: [] },
      { id: 2, comments: [] },
      { id: 3, comments: [{ body: 'hmm' }] },
    ]);
    const inner = await anon
      .from('posts')
      .select('id, comments!inner(body)')
      .eq('comments.body', 'ótimo');
    expect(inner.data).toEqual([{ id: 1, comments: [{ body: 'ótimo' }] }]);
    const withTags = await anon
      .from('posts')
      .select('id, tags()')
      .not('tags', 'is', null)
      .order('id');
    expect(withTags.data).toEqual([{ id: 1 }, { id: 2 }]);
    const orEmbedded = await anon
      .from('posts')
      .select('id, comments(id)')
      .or('id.eq.1,id.eq.2', { referencedTable: 'comments' })
      .eq('id', 1);
    expect(orEmbedded.data).toEqual([{ id: 1, comments: [{ id: 1 }, { id: 2 }] }]);
  });

  it('reports ambiguous (300 PGRST201) and missing (400 PGRST200) relationships', async () => {
    const ambiguous = await anon.from('posts').select('id, authors(name)');
    expect(ambiguous.status).toBe(300);
    expect(ambiguous.error).toMatchObject({
      code: 'PGRST201',
      message:
        "Could not embed because more than one relationship was found for 'posts' and 'authors'",
      hint: "Try changing 'authors' to one of the following: 'authors!posts_author_id_fkey', 'authors!posts_editor_id_fkey'. Find the desired relationship in the 'details' key.",
    });
    const missing = await anon.from('tags').select('id, comments(id)');
    expect(missing.status).toBe(400);
    expect(missing.error).toMatchObject({
      code: 'PGRST200',
      message: "Could not find a relationship between 'tags' and 'comments' in the schema cache",
      // PostgREST's fuzzy hint: the related table most like the name (here barely alike).
      hint: "Perhaps you meant 'posts' instead of 'comments'.",
    });
  });
});

describe('writing rows', () => {
  it('inserts with return=minimal (201, no body) and with a representation', async () => {
    const minimal = await t.admin.from('tags').insert({ id: 10, name: 'dez' });
    expect(minimal).toMatchObject({ status: 201, data: null, error: null });
    const rep = await t.admin
      .from('tags')
      .insert([
        { id: 11, name: 'onze' },
        { id: 12, name: 'doze' },
      ])
      .select('id, name');
    expect(rep.status).toBe(201);
    expect(rep.data).toEqual([
      { id: 11, name: 'onze' },
      { id: 12, name: 'doze' },
    ]);
  });

  it('gives missing keys their DEFAULT with defaultToNull: false, NULL otherwise', async () => {
    const withDefault = await t.admin
      .from('posts')
      .insert(
        [
          { id: 20, author_id: 1, title: 'A', views: 7 },
          { id: 21, author_id: 1, title: 'B' },
        ],
        {
          defaultToNull: false,
        },
      )
      .select('id, views');
    expect(withDefault.data).toEqual([
      { id: 20, views: 7 },
      { id: 21, views: 0 },
    ]);
    const withNull = await t.admin.from('posts').insert([
      { id: 22, author_id: 1, title: 'C', views: 1 },
      { id: 23, author_id: 1, title: 'D' },
    ]);
    expect(withNull.error).toMatchObject({ code: '23502' });
    expect(withNull.status).toBe(400);
  });

  it('maps constraint violations: 409 for unique and foreign keys, 400 for checks', async () => {
    const dup = await t.admin.from('tags').insert({ id: 1, name: 'outra' });
    expect(dup.status).toBe(409);
    expect(dup.error).toEqual({
      code: '23505',
      details: 'Key (id)=(1) already exists.',
      hint: null,
      message: 'duplicate key value violates unique constraint "tags_pkey"',
    });
    const fk = await t.admin.from('comments').insert({ id: 70, post_id: 999, body: 'x' });
    expect(fk.status).toBe(409);
    expect(fk.error?.code).toBe('23503');
    const check = await t.admin.from('posts').insert({ author_id: 1, title: '' });
    expect(check.status).toBe(400);
    expect(check.error?.code).toBe('23514');
  });

  it('refuses unknown columns with PGRST204', async () => {
    const res = await t.admin.from('tags').insert({ id: 30, nome: 'x' });
    expect(res.status).toBe(400);
    expect(res.error).toEqual({
      code: 'PGRST204',
      details: null,
      hint: null,
      message: "Could not find the 'nome' column of 'tags' in the schema cache",
    });
  });

  it('upserts: merge-duplicates updates (200 when nothing new), ignore-duplicates skips, on_conflict picks the key', async () => {
    const merged = await t.admin.from('tags').upsert({ id: 2, name: 'agenda-2' }).select();
    expect(merged.status).toBe(200);
    expect(merged.data).toEqual([{ id: 2, name: 'agenda-2' }]);
    const created = await t.admin.from('tags').upsert({ id: 40, name: 'quarenta' }).select();
    expect(created.status).toBe(201);
    const ignored = await t.admin
      .from('tags')
      .upsert(
        [
          { id: 2, name: 'ignorado' },
          { id: 41, name: 'quarenta e um' },
        ],
        { ignoreDuplicates: true },
      )
      .select();
    expect(ignored.data).toEqual([{ id: 41, name: 'quarenta e um' }]);
    const byEmail = await t.admin
      .from('authors')
      .upsert({ name: 'Ana Souza', email: 'ana@example.com' }, { onConflict: 'email' })
      .select('id, name');
    expect(byEmail.data).toEqual([{ id: 1, name: 'Ana Souza' }]);
  });

  it('updates and deletes by filter: 204 without select, rows with select', async () => {
    const silent = await t.admin.from('tags').update({ name: 'dez!' }).eq('id', 10);
    expect(silent).toMatchObject({ status: 204, data: null, error: null });
    const updated = await t.admin.from('tags').update({ name: 'DEZ' }).eq('id', 10).select();
    expect(updated).toMatchObject({ status: 200, data: [{ id: 10, name: 'DEZ' }] });
    const nothing = await t.admin.from('tags').update({ name: 'x' }).eq('id', 999).select();
    expect(nothing.data).toEqual([]);
    const deleted = await t.admin
      .from('tags')
      .delete({ count: 'exact' })
      .in('id', [11, 12])
      .select('id');
    expect(deleted.data).toEqual([{ id: 11 }, { id: 12 }]);
    expect(deleted.count).toBe(2);
  });

  it('rolls back a write that breaks single() or max-affected', async () => {
    const single = await t.admin
      .from('tags')
      .insert([
        { id: 50, name: 'a' },
        { id: 51, name: 'b' },
      ])
      .select()
      .single();
    expect(single.status).toBe(406);
    expect(single.error?.details).toBe('The result contains 2 rows');
    // What .maxAffected(1) sends (the typed builder only offers it to PostgREST 13 clients).
    const capped = await rest(
      'posts?id=gte.1',
      {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', prefer: 'handling=strict, max-affected=1' },
        body: JSON.stringify({ published: true }),
      },
      t.serviceRoleKey,
    );
    expect(capped.status).toBe(400);
    expect(await capped.json()).toEqual({
      code: 'PGRST124',
      details: 'The query affects 5 rows',
      hint: null,
      message: 'Query result exceeds max-affected preference constraint',
    });
    const { data } = await t.admin.from('tags').select('id, name').in('id', [50, 51]);
    expect(data).toEqual([]);
    const untouched = await t.admin.from('posts').select('published').eq('id', 2).single();
    expect(untouched.data).toEqual({ published: false });
  });

  it('returns embeds in a write representation', async () => {
    const { data } = await t.admin
      .from('comments')
      .insert({ id: 60, post_id: 3, author_id: 2, body: 'novo' })
      .select('id, posts(title), authors(name)')
      .single();
    expect(data).toEqual({
      id: 60,
      posts: { title: 'Terceiro com espaço' },
      authors: { name: 'Bia' },
    });
  });
});

describe('calling functions', () => {
  it('returns scalars, honours defaults, and takes GET query arguments', async () => {
    expect(await anon.rpc('add_numbers', { a: 2, b: 3 })).toMatchObject({ data: 5, status: 200 });
    expect((await anon.rpc('greet', { name: 'Ana' })).data).toBe('Olá, Ana');
    expect((await anon.rpc('greet', { name: 'Ana', greeting: 'Oi' }, { get: true })).data).toBe(
      'Oi, Ana',
    );
    expect((await anon.rpc('sum_array', { vals: [1, 2, 3] })).data).toBe(6);
    expect((await anon.rpc('sum_array', { vals: [4, 5] }, { get: true })).data).toBe(9);
    expect((await anon.rpc('echo_json', { any: ['thing'] })).data).toEqual({ any: ['thing'] });
  });

  it('returns a row as an object and sets as arrays that accept filters, order, select and embeds', async () => {
    expect((await anon.rpc('author_by_id', { p_id: 2 })).data).toEqual({
      id: 2,
      name: 'Bia',
      email: 'bia@example.com',
      created_at: '2026-01-01T00:00:00+00:00',
    });
    const posts = await anon
      .rpc('posts_by_author', { p_author: 1 })
      .select('id, title, comments(count)')
      .in('id', [1, 2])
      .order('id', { ascending: false });
    expect(posts.data).toEqual([
      { id: 2, title: 'Segundo', comments: [{ count: 0 }] },
      { id: 1, title: 'Primeiro', comments: [{ count: 2 }] },
    ]);
    const stats = await anon.rpc('author_stats').gt('post_count', 0).order('author_id');
    expect((stats.data as unknown[])[0]).toMatchObject({ author_id: 1 });
    expect((await anon.rpc('small_numbers', { up_to: 3 })).data).toEqual([1, 2, 3]);
    const counted = await anon.rpc(
      'posts_by_author',
      { p_author: 1 },
      { count: 'exact', head: true },
    );
    expect(counted.count).toBeGreaterThanOrEqual(2);
  });

  it('reports an ambiguous overload with 300 PGRST203', async () => {
    const res = await anon.rpc('overloaded', { x: 1 });
    expect(res.status).toBe(300);
    expect(res.error).toMatchObject({
      code: 'PGRST203',
      message:
        'Could not choose the best candidate function between: public.overloaded(x => integer), public.overloaded(x => text)',
    });
  });

  it('runs GET and HEAD read-only, as PostgREST does: a function that writes needs POST', async () => {
    expect(await anon.rpc('scratch_write')).toMatchObject({ status: 200, data: 1, error: null });
    const viaGet = await anon.rpc('scratch_write', {}, { get: true });
    expect(viaGet.status).toBe(405);
    expect(viaGet.error).toMatchObject({
      code: '25006',
      message: 'cannot execute CREATE TABLE in a read-only transaction',
    });
    expect((await anon.rpc('scratch_write', {}, { head: true })).status).toBe(405);
    // Read-only ends with the request: the next POST on the same connections writes again.
    expect(await anon.rpc('scratch_write')).toMatchObject({ status: 200, data: 1 });
  });

  it('answers 204 for void, 400 with hint and details for RAISE, 404 PGRST202 for unknown functions', async () => {
    expect(await anon.rpc('do_nothing')).toMatchObject({ status: 204, data: null, error: null });
    const raised = await anon.rpc('reject', { reason: 'horário ocupado' });
    expect(raised.status).toBe(400);
    expect(raised.error).toEqual({
      code: 'P0001',
      details: 'sample detail',
      hint: 'business_rule',
      message: 'Operação recusada: horário ocupado',
    });
    const unknown = await anon.rpc('no_such_fn', { b: 1, a: 2 });
    expect(unknown.status).toBe(404);
    expect(unknown.error).toEqual({
      code: 'PGRST202',
      details:
        'Searched for the function public.no_such_fn with parameters a, b or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
      hint: null,
      message: 'Could not find the function public.no_such_fn(a, b) in the schema cache',
    });
  });
});

describe('security', () => {
  it('runs as the JWT role so RLS decides: owners see their rows, others and anon see none', async () => {
    const created = await alice
      .from('notes')
      .insert({ body: 'minha nota' })
      .select('body, owner_id')
      .single();
    expect(created.data).toEqual({ body: 'minha nota', owner_id: aliceId });
    expect((await alice.from('notes').select('body')).data).toEqual([{ body: 'minha nota' }]);
    expect((await bob.from('notes').select('body')).data).toEqual([]);
    expect((await anon.from('notes').select('body')).data).toEqual([]);
    expect((await alice.rpc('whoami')).data).toBe(aliceId);
    const bobEdit = await bob
      .from('notes')
      .update({ body: 'hack' })
      .eq('owner_id', aliceId)
      .select();
    expect(bobEdit.data).toEqual([]);
  });

  it('denies with 42501: 401 for anon, 403 for an authenticated user', async () => {
    const anonInsert = await anon.from('notes').insert({ body: 'x', owner_id: aliceId });
    expect(anonInsert.status).toBe(401);
    expect(anonInsert.error?.code).toBe('42501');
    const forged = await bob.from('notes').insert({ body: 'x', owner_id: aliceId });
    expect(forged.status).toBe(403);
    expect(forged.error).toMatchObject({
      code: '42501',
      message: 'new row violates row-level security policy for table "notes"',
    });
    expect((await anon.from('vault').select()).status).toBe(401);
    const denied = await alice.from('vault').select();
    expect(denied.status).toBe(403);
    expect(denied.error).toMatchObject({
      code: '42501',
      message: 'permission denied for table vault',
    });
  });

  it('rejects expired, forged and unsigned JWTs with 401 and WWW-Authenticate', async () => {
    const secret = t.platform.ctx.config.jwtSecret;
    const past = Math.floor(Date.now() / 1000) - 60;
    const expired = await signJwt({ role: 'authenticated', sub: aliceId, exp: past }, secret);
    const res = await rest('posts', { headers: { authorization: `Bearer ${expired}` } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer error="invalid_token", error_description="JWT expired"',
    );
    expect(await res.json()).toEqual({
      code: 'PGRST303',
      details: null,
      hint: null,
      message: 'JWT expired',
    });

    const forged = await signJwt(
      { role: 'service_role' },
      'another-secret-that-is-long-enough-000000',
    );
    const viaClient = await testClient(t.url, forged).from('posts').select();
    expect(viaClient.status).toBe(401);
    expect(viaClient.error?.code).toBe('PGRST301');

    const header = Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url');
    const payload = Buffer.from('{"role":"service_role"}').toString('base64url');
    const unsigned = await rest('vault', {
      headers: { authorization: `Bearer ${header}.${payload}.` },
    });
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toMatchObject({ code: 'PGRST301' });
  });

  it("exposes only config.toml's schemas (406 PGRST106)", async () => {
    const { error, status } = await anon.schema('auth').from('users').select();
    expect(status).toBe(406);
    expect(error).toEqual({
      code: 'PGRST106',
      details: null,
      hint: 'Only the following schemas are exposed: public, graphql_public',
      message: 'Invalid schema: auth',
    });
  });

  it('answers 404 PGRST205 for unknown tables and sees tables created after start', async () => {
    const missing = await anon.from('late_table').select();
    expect(missing.status).toBe(404);
    expect(missing.error).toMatchObject({
      code: 'PGRST205',
      message: "Could not find the table 'public.late_table' in the schema cache",
    });
    await t.platform.ctx.db.exec(
      `create table public.late_table (id int primary key, label text); insert into public.late_table values (1, 'tarde');`,
    );
    expect((await anon.from('late_table').select()).data).toEqual([{ id: 1, label: 'tarde' }]);
  });
});
