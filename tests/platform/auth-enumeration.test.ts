import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';

/** Password recovery answers the same for an address with an account and one without. */
let t: TestPlatform;

beforeAll(async () => {
  t = await startTestPlatform({
    migrationsDir: 'tests/platform/sample-migrations',
    config: { rateLimit: true, bcryptCost: 4 },
  });
  await t.admin.auth.admin.createUser({
    email: 'tem-conta@example.com',
    password: 'senha-forte-123',
    email_confirm: true,
  });
});
afterAll(() => t.stop());

async function recover(email: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${t.url}/auth/v1/recover`, {
    method: 'POST',
    headers: { apikey: t.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('password recovery', () => {
  it('limits a second request within a minute alike, whether the address has an account or not', async () => {
    const answers = [];
    for (const email of ['tem-conta@example.com', 'sem-conta@example.com']) {
      const first = await recover(email);
      const second = await recover(email);
      answers.push({ first, second: { status: second.status, code: second.body.error_code } });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toEqual({
      first: { status: 200, body: {} },
      second: { status: 429, code: 'over_email_send_rate_limit' },
    });
  });
});
