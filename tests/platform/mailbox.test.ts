import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';

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
    (await (await fetch(`${t.url}/mailbox/api${query}`)).json()) as Mail[];

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

  it('renders an HTML page with the subjects and links', async () => {
    const res = await fetch(`${t.url}/mailbox`);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain('Consulta confirmada');
    expect(html).toContain('href="https://app.example/consultas/1?a=1&amp;b=2"');
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
    const res = await fetch(`${t.url}/mailbox/api?to=a%00b`);
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
