import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';

/**
 * Malformed or hostile input to /rest/v1: every case must get a 4xx in PostgREST's error shape
 * (never a 5xx), and the server must keep answering normal requests afterwards.
 */
let t: TestPlatform;

beforeAll(async () => {
  t = await startTestPlatform({ migrationsDir: 'tests/platform/sample-migrations' });
  const { error } = await t.admin.from('authors').insert({ id: 1, name: 'Ana' });
  if (error) throw new Error(error.message);
  await t.admin.from('posts').insert({ id: 1, author_id: 1, title: 'Primeiro' });
});
afterAll(() => t.stop());

type Case = {
  name: string;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
  code: string;
};

const json = { 'content-type': 'application/json' };
const post = (path: string, body: string, extra: Record<string, string> = {}) => ({
  path,
  method: 'POST',
  headers: { ...json, ...extra },
  body,
});

const cases: Case[] = [
  // Query grammar
  { name: 'unbalanced select', path: 'posts?select=id,(', status: 400, code: 'PGRST100' },
  {
    name: 'empty embed hint',
    path: 'posts?select=id,authors!(name)',
    status: 400,
    code: 'PGRST100',
  },
  {
    name: 'cast carrying SQL',
    path: 'posts?select=title::text;drop table posts',
    status: 400,
    code: 'PGRST100',
  },
  { name: 'unknown operator', path: 'posts?id=eqq.1', status: 400, code: 'PGRST100' },
  { name: 'operator without value separator', path: 'posts?id=eq', status: 400, code: 'PGRST100' },
  { name: 'unclosed logic tree', path: 'posts?or=(id.eq.1', status: 400, code: 'PGRST100' },
  {
    name: 'logic tree without parentheses',
    path: 'posts?or=id.eq.1',
    status: 400,
    code: 'PGRST100',
  },
  { name: 'bad order direction', path: 'posts?order=id.sideways', status: 400, code: 'PGRST100' },
  { name: 'negative limit', path: 'posts?limit=-1', status: 400, code: 'PGRST100' },
  { name: 'non-numeric offset', path: 'posts?offset=1e3', status: 400, code: 'PGRST100' },
  { name: 'unclosed in list', path: 'posts?id=in.(1,2', status: 400, code: 'PGRST100' },
  { name: 'bad is value', path: 'posts?id=is.maybe', status: 400, code: 'PGRST100' },
  { name: 'bad quantifier', path: 'posts?title=like(some).x', status: 400, code: 'PGRST100' },
  { name: 'bad text search config', path: 'posts?title=fts(a b).x', status: 400, code: 'PGRST100' },
  {
    name: 'statement in order',
    path: 'posts?order=id;delete from posts',
    status: 400,
    code: 'PGRST100',
  },
  { name: 'value of the wrong type', path: 'posts?id=eq.abc', status: 400, code: '22P02' },
  {
    name: 'statement in a value',
    path: 'posts?id=eq.1;select pg_sleep(10)',
    status: 400,
    code: '22P02',
  },
  { name: 'unknown filter column', path: 'posts?nope=eq.1', status: 400, code: '42703' },
  { name: 'unknown select column', path: 'posts?select=nope', status: 400, code: '42703' },
  {
    name: 'doubled quote in a select name',
    path: 'posts?select="id"";drop table posts;--"',
    status: 400,
    code: 'PGRST100',
  },
  {
    name: 'quoted identifier injection',
    path: 'posts?select="id;drop table posts;--"',
    status: 400,
    code: '42703',
  },
  {
    name: 'injection in a filter key',
    path: 'posts?%22id%3Bdrop%20table%20posts%22=eq.1',
    status: 400,
    code: '42703',
  },
  { name: 'unknown order column', path: 'posts?order=nope.asc', status: 400, code: '42703' },
  {
    name: 'unknown relationship hint',
    path: 'posts?select=id,authors!nofk(name)',
    status: 400,
    code: 'PGRST200',
  },
  {
    name: 'filter on a resource not embedded',
    path: 'posts?comments.body=eq.x',
    status: 400,
    code: 'PGRST108',
  },
  {
    name: 'unknown text search config',
    path: 'posts?title=fts(nope_config).x',
    status: 400,
    code: '42704',
  },
  {
    name: 'logic tree nested too deep',
    path: `posts?or=(${'or('.repeat(500)}id.eq.1${')'.repeat(500)})`,
    status: 400,
    code: 'PGRST100',
  },
  {
    name: 'embeds nested too deep',
    path: `posts?select=id,${'comments(posts('.repeat(40)}id${'))'.repeat(40)}`,
    status: 400,
    code: 'PGRST100',
  },
  {
    name: 'offset out of range',
    path: 'posts?offset=99999999999999999999',
    status: 400,
    code: '22003',
  },
  // Names in the path
  {
    name: 'table name carrying SQL',
    path: 'posts;drop table posts',
    status: 404,
    code: 'PGRST205',
  },
  { name: 'catalog table', path: 'pg_class', status: 404, code: 'PGRST205' },
  { name: 'quoted table name', path: '%22posts%22', status: 404, code: 'PGRST205' },
  {
    name: 'function name carrying SQL',
    path: 'rpc/add_numbers);drop table posts;--',
    status: 404,
    code: 'PGRST202',
  },
  {
    name: 'unknown function argument',
    ...post('rpc/add_numbers', '{"a":1,"c":2}'),
    status: 404,
    code: 'PGRST202',
  },
  {
    name: 'function argument of the wrong type',
    ...post('rpc/add_numbers', '{"a":"x","b":1}'),
    status: 400,
    code: '22P02',
  },
  {
    name: 'invalid JSON to a function',
    ...post('rpc/add_numbers', '{"a":'),
    status: 400,
    code: 'PGRST102',
  },
  // Bodies
  { name: 'truncated JSON', ...post('posts', '{'), status: 400, code: 'PGRST102' },
  { name: 'empty body', ...post('posts', ''), status: 400, code: 'PGRST102' },
  { name: 'JSON string body', ...post('posts', '"posts"'), status: 400, code: 'PGRST102' },
  { name: 'array of scalars', ...post('posts', '[1,2]'), status: 400, code: 'PGRST102' },
  {
    name: 'null inside the array',
    ...post('posts', '[{"title":"x","author_id":1},null]'),
    status: 400,
    code: 'PGRST102',
  },
  {
    name: 'deeply nested JSON',
    ...post('posts', '['.repeat(200_000)),
    status: 400,
    code: 'PGRST102',
  },
  {
    name: 'array body to PATCH',
    path: 'posts?id=eq.1',
    method: 'PATCH',
    headers: json,
    body: '[{"title":"x"}]',
    status: 400,
    code: 'PGRST102',
  },
  {
    name: 'text/plain body',
    ...post('posts', '{"title":"x"}', { 'content-type': 'text/plain' }),
    status: 415,
    code: 'PGRST107',
  },
  { name: 'unknown body column', ...post('posts', '{"titel":"x"}'), status: 400, code: 'PGRST204' },
  {
    name: 'injection as a body key',
    ...post('posts', '{"title\\") values (1); --":"x"}'),
    status: 400,
    code: 'PGRST204',
  },
  {
    name: 'malformed columns',
    ...post('posts?columns="title', '[{"title":"x"}]'),
    status: 400,
    code: 'PGRST100',
  },
  {
    name: 'unknown columns entry',
    ...post('posts?columns=nope', '[{"title":"x"}]'),
    status: 400,
    code: 'PGRST204',
  },
  {
    name: 'unknown on_conflict column',
    ...post('posts?on_conflict=nope', '{"title":"x"}', { prefer: 'resolution=merge-duplicates' }),
    status: 400,
    code: 'PGRST204',
  },
  {
    name: 'body value of the wrong type',
    ...post('posts', '{"author_id":"abc","title":"x"}'),
    status: 400,
    code: '22P02',
  },
  {
    name: 'oversized body',
    ...post('posts', `{"title":"${'x'.repeat(1_100_000)}"}`),
    status: 413,
    code: 'PGRST102',
  },
  // Headers
  {
    name: 'unsupported Accept',
    path: 'posts',
    headers: { accept: 'text/xml' },
    status: 406,
    code: 'PGRST107',
  },
  {
    name: 'hidden schema to read',
    path: 'posts',
    headers: { 'accept-profile': 'auth' },
    status: 406,
    code: 'PGRST106',
  },
  {
    name: 'hidden schema to write',
    ...post('posts', '{"title":"x"}', { 'content-profile': 'storage' }),
    status: 406,
    code: 'PGRST106',
  },
  {
    name: 'invalid preference under handling=strict',
    path: 'posts',
    headers: { prefer: 'handling=strict, return=everything' },
    status: 400,
    code: 'PGRST122',
  },
  {
    name: 'garbage bearer token',
    path: 'posts',
    headers: { authorization: 'Bearer garbage' },
    status: 401,
    code: 'PGRST301',
  },
  {
    name: 'unsupported method',
    path: 'posts',
    method: 'PUT',
    headers: json,
    body: '{}',
    status: 405,
    code: 'PGRST117',
  },
];

async function call(c: Pick<Case, 'path' | 'method' | 'headers' | 'body'>) {
  return fetch(`${t.url}/rest/v1/${c.path}`, {
    method: c.method ?? 'GET',
    headers: { apikey: t.anonKey, authorization: `Bearer ${t.serviceRoleKey}`, ...c.headers },
    ...(c.body === undefined ? {} : { body: c.body }),
  });
}

describe('bad input to /rest/v1', () => {
  it.each(cases)('$name → $status $code', async (c) => {
    const res = await call(c);
    const text = await res.text();
    const body = JSON.parse(text) as Record<string, unknown>;
    expect({ status: res.status, code: body.code }).toEqual({ status: c.status, code: c.code });
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(Object.keys(body).sort()).toEqual(['code', 'details', 'hint', 'message']);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const after = await call({ path: 'posts?select=id,title' });
    expect(after.status).toBe(200);
    const afterText = await after.text();
    expect(after.headers.get('content-length')).toBe(String(Buffer.byteLength(afterText)));
    expect(JSON.parse(afterText)).toEqual([{ id: 1, title: 'Primeiro' }]);
  });

  it('treats quotes and SQL in values as plain data', async () => {
    const res = await call({ path: `posts?title=eq.${encodeURIComponent("x' or '1'='1")}` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
    const inTree = await call({
      path: `posts?or=(title.eq."');drop table posts;--",id.eq.1)&select=id`,
    });
    expect(await inTree.json()).toEqual([{ id: 1 }]);
  });

  it('ignores unknown preferences and malformed Range when not strict', async () => {
    const res = await call({
      path: 'posts?select=id',
      headers: { prefer: 'return=everything, foo', range: 'bytes=zz' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ id: 1 }]);
  });

  it('answers a request without any key with 401 in PostgREST shape', async () => {
    const res = await fetch(`${t.url}/rest/v1/posts`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      message: 'No API key found in request',
      details: null,
    });
  });

  it('refuses an oversized body sent without a length, and serves the next request', async () => {
    const chunk = new TextEncoder().encode(`"${'x'.repeat(64 * 1024)}",`);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 40) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await fetch(`${t.url}/rest/v1/posts`, {
      method: 'POST',
      headers: { apikey: t.anonKey, authorization: `Bearer ${t.serviceRoleKey}` },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'PGRST102' });
    const after = await call({ path: 'posts?select=id,title' });
    expect(await after.json()).toEqual([{ id: 1, title: 'Primeiro' }]);
  });
});
