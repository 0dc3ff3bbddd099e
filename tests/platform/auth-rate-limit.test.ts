import { describe, expect, it } from 'vitest';
import { AuthApiError } from '../../supabase/local/auth/errors.ts';
import { createRateLimiter } from '../../supabase/local/auth/rate-limit.ts';
import { readProjectSettings } from '../../supabase/local/project-config.ts';

/** The limits of the repository's config.toml (`[auth.rate_limit]`). */
const LIMITS = readProjectSettings('supabase/config.toml').rateLimits;

/** The per-IP limiter on a hand-driven clock: counts in fixed windows, per limit and per address. */
describe('auth rate limiter', () => {
  function limiter(enabled = true) {
    let now = 1_000_000;
    const l = createRateLimiter(
      () => (enabled ? LIMITS : undefined),
      () => now,
    );
    return { l, advance: (seconds: number) => (now += seconds * 1000) };
  }
  const hits = (fn: () => void, n: number) => {
    for (let i = 0; i < n; i++) fn();
  };

  it("allows config.toml's 30 sign-ins per 5 minutes, then answers 429 over_request_rate_limit", () => {
    const { l } = limiter();
    hits(() => l.hit('signIn', '10.0.0.1'), LIMITS.signIn.max);
    expect(() => l.hit('signIn', '10.0.0.1')).toThrowError(
      expect.objectContaining({ status: 429, code: 'over_request_rate_limit' }) as AuthApiError,
    );
  });

  it('counts each address and each limit separately', () => {
    const { l } = limiter();
    hits(() => l.hit('signIn', '10.0.0.1'), LIMITS.signIn.max);
    expect(() => l.hit('signIn', '10.0.0.2')).not.toThrow();
    expect(() => l.hit('refresh', '10.0.0.1')).not.toThrow();
  });

  it('opens a new window once the old one has passed', () => {
    const { l, advance } = limiter();
    hits(() => l.hit('email', '10.0.0.1'), LIMITS.email.max);
    expect(() => l.hit('email', '10.0.0.1')).toThrow(AuthApiError);
    advance(LIMITS.email.windowSeconds);
    expect(() => l.hit('email', '10.0.0.1')).not.toThrow();
  });

  it('never limits when rate limiting is off', () => {
    const { l } = limiter(false);
    expect(() => hits(() => l.hit('signIn', '10.0.0.1'), LIMITS.signIn.max * 3)).not.toThrow();
  });
});
