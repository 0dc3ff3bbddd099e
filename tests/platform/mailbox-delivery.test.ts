import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackHost, mailboxOpen } from '../../supabase/local/config.ts';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';
import { startSmtpSink } from '../support/smtp-sink.ts';

/** Where mail goes: the dev mailbox only on this machine, real SMTP when configured. */
describe('when the dev mailbox is served', () => {
  it('is on for loopback addresses and off for any other unless MAILBOX=on', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]']) {
      expect(isLoopbackHost(host)).toBe(true);
      expect(mailboxOpen({ mailbox: 'auto', host })).toBe(true);
    }
    for (const host of ['0.0.0.0', '::', '192.168.0.10', 'clinica.local']) {
      expect(mailboxOpen({ mailbox: 'auto', host })).toBe(false);
      expect(mailboxOpen({ mailbox: 'on', host })).toBe(true);
    }
    expect(mailboxOpen({ mailbox: 'off', host: '127.0.0.1' })).toBe(false);
  });
});

describe('a mailbox that is off', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({
      migrationsDir: 'tests/platform/sample-migrations',
      config: { mailbox: 'off', bcryptCost: 4 },
    });
  });
  afterAll(() => t.stop());

  it('serves neither the page nor the list, even with the key', async () => {
    for (const path of ['/mailbox', '/mailbox/api']) {
      const res = await fetch(`${t.url}${path}`, { headers: { apikey: t.serviceRoleKey } });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'mailbox_off' });
    }
  });
});

describe('SMTP_URL', () => {
  let t: TestPlatform;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestPlatform({
      migrationsDir: 'tests/platform/sample-migrations',
      config: {
        smtpUrl: smtp.url,
        smtpFrom: 'Clínica <nao-responda@clinica.example>',
        bcryptCost: 4,
      },
    });
  });
  afterAll(async () => {
    await t.stop();
    await smtp.close();
  });

  it('delivers the sign-up confirmation through SMTP, not to the dev mailbox', async () => {
    const email = 'paciente-smtp@example.com';
    const { error } = await t.client().auth.signUp({ email, password: 'senha-forte-123' });
    expect(error).toBeNull();
    const mail = smtp.received.find((m) => m.to.includes(email));
    expect(mail?.from).toBe('nao-responda@clinica.example');
    expect(mail?.raw).toMatch(/Subject: Confirme seu e-mail/);
    expect(mail?.raw.replace(/=\r?\n/g, '')).toContain(`${t.url}/auth/v1/verify?token=`);
    const inbox = await fetch(`${t.url}/mailbox/api`, { headers: { apikey: t.serviceRoleKey } });
    expect(await inbox.json()).toEqual([]);
  });
});
