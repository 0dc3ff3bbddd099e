import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';

type Mail = {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  created_at: string;
};

describe('dev mailbox', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({
      migrationsDir: 'tests/platform/sample-migrations',
      config: { bcryptCost: 4 },
    });
  });
  afterAll(() => t.stop());

  const send = (key: string | undefined, body: unknown) =>
    fetch(`${t.url}/mailbox/api/send`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(key ? { Authorization: `Bearer ${key}` } : {}),
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const list = async (query = '') =>
    (await (
      await fetch(`${t.url}/mailbox/api${query}`, { headers: { apikey: t.serviceRoleKey } })
    ).json()) as Mail[];

  it('accepts mail from the service role and lists it newest first with its links', async () => {
    const first = await send(t.serviceRoleKey, {
      to: 'paciente@example.com',
      subject: 'Consulta confirmada',
      text: 'Sua consulta está confirmada: https://app.example/consultas/1',
      html: '<p><a href="https://app.example/consultas/1?a=1&amp;b=2">Ver consulta</a></p>',
    });
    expect(first.status).toBe(200);
    const stored = (await first.json()) as Mail;
    expect(stored).toMatchObject({ to: 'paciente@example.com', subject: 'Consulta confirmada' });
    expect(stored.links).toEqual([
      'https://app.example/consultas/1?a=1&b=2',
      'https://app.example/consultas/1',
    ]);
    expect(stored.created_at).toMatch(/Z$/);

    await send(t.serviceRoleKey, {
      to: 'medico@example.com',
      subject: 'Nova consulta',
      text: 'Olá',
    });
    const all = await list();
    expect(all.map((m) => m.subject)).toEqual(['Nova consulta', 'Consulta confirmada']);
    expect((await list('?to=PACIENTE@example.com')).map((m) => m.subject)).toEqual([
      'Consulta confirmada',
    ]);
  });

  it('collects the confirmation mail of a sign-up', async () => {
    const email = 'novo-paciente@example.com';
    await t.client().auth.signUp({ email, password: 'senha-forte-123' });
    const [mail] = await list(`?to=${email}`);
    expect(mail?.subject).toBe('Confirme seu e-mail');
    expect(mail?.links.some((l) => l.startsWith(`${t.url}/auth/v1/verify?token=`))).toBe(true);
  });

  it('serves a page that carries no mail: its script asks for the service-role key', async () => {
    const res = await fetch(`${t.url}/mailbox`);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await res.text();
    expect(html).toContain('Chave service_role');
    expect(html).not.toContain('Consulta confirmada');
  });

  it("keeps a recovery link from anyone without the service-role key (a doctor's takeover)", async () => {
    const email = 'medica@example.com';
    await t.admin.auth.admin.createUser({
      email,
      password: 'senha-forte-123',
      email_confirm: true,
    });
    // The anon key is public (it ships in the app): anyone can ask for the reset mail.
    expect((await t.client().auth.resetPasswordForEmail(email)).error).toBeNull();
    for (const key of [undefined, t.anonKey]) {
      const res = await fetch(`${t.url}/mailbox/api?to=${email}`, {
        headers: key ? { apikey: key } : {},
      });
      expect(res.status).toBe(403);
      const body = await res.text();
      expect(JSON.parse(body)).toMatchObject({ code: 'not_admin' });
      expect(body).not.toContain('/auth/v1/verify');
    }
    const [mail] = await list(`?to=${email}`);
    expect(mail?.subject).toBe('Redefinir senha');
  });

  it('answers no other origin, not even with the key', async () => {
    const foreign = { origin: 'http://pagina-qualquer.example' };
    const read = await fetch(`${t.url}/mailbox/api`, {
      headers: { ...foreign, apikey: t.serviceRoleKey },
    });
    expect(read.status).toBe(403);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    expect(await read.json()).toMatchObject({ code: 'forbidden_origin' });
    const preflight = await fetch(`${t.url}/mailbox/api`, {
      method: 'OPTIONS',
      headers: { ...foreign, 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    // The API itself keeps Supabase's CORS.
    const api = await fetch(`${t.url}/health`, { headers: foreign });
    expect(api.headers.get('access-control-allow-origin')).toBe(foreign.origin);
  });

  it('refuses send and clear without the service-role key', async () => {
    for (const key of [undefined, t.anonKey]) {
      const res = await send(key, { to: 'x@example.com', subject: 's', text: 't' });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'not_admin' });
      const del = await fetch(`${t.url}/mailbox/api`, {
        method: 'DELETE',
        headers: key ? { Authorization: `Bearer ${key}` } : {},
      });
      expect(del.status).toBe(403);
    }
    expect((await list()).length).toBeGreaterThan(0);
  });

  it.each([
    ['malformed JSON', '{"to":', 'bad_json'],
    ['missing subject', { to: 'x@example.com', text: 't' }, 'validation_failed'],
    ['bad address', { to: 'nope', subject: 's', text: 't' }, 'validation_failed'],
    ['text is a number', { to: 'x@example.com', subject: 's', text: 5 }, 'validation_failed'],
    ['a NUL byte', { to: 'x@example.com', subject: 'a\u0000', text: 't' }, 'validation_failed'],
  ])('rejects a send with %s (400 %s)', async (_name, body, code) => {
    const res = await send(t.serviceRoleKey, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code });
  });

  it('rejects a NUL byte in the address filter', async () => {
    const res = await fetch(`${t.url}/mailbox/api?to=a%00b`, {
      headers: { apikey: t.serviceRoleKey },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'validation_failed' });
  });

  it('clears with the service-role key', async () => {
    const res = await fetch(`${t.url}/mailbox/api`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${t.serviceRoleKey}` },
    });
    expect(res.status).toBe(204);
    expect(await list()).toEqual([]);
  });
});
