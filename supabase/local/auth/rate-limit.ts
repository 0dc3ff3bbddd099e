import { authError } from './errors.ts';

/**
 * Per-IP request limits with the Supabase CLI's defaults (`[auth.rate_limit]` in config.toml),
 * counted in fixed windows in memory — a single local process needs nothing more.
 */
export const LIMITS = {
  /** sign_in_sign_ups: password grant, sign-up, verify. */
  signIn: { max: 30, windowSeconds: 300 },
  /** token_refresh. */
  refresh: { max: 150, windowSeconds: 300 },
  /** Endpoints that send e-mail: recover, resend. */
  email: { max: 30, windowSeconds: 300 },
} as const;

export type LimitName = keyof typeof LIMITS;

export type RateLimiter = { hit(name: LimitName, ip: string): void };

/** `enabled` is read per request: tests and the CLI may change the config after start. */
export function createRateLimiter(
  enabled: () => boolean,
  now: () => number = Date.now,
): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(name, ip) {
      if (!enabled()) return;
      const { max, windowSeconds } = LIMITS[name];
      const key = `${name}:${ip}`;
      const t = now();
      const w = windows.get(key);
      if (!w || t - w.start >= windowSeconds * 1000) {
        windows.set(key, { start: t, count: 1 });
        return;
      }
      w.count += 1;
      if (w.count > max)
        throw authError(429, 'over_request_rate_limit', 'Request rate limit reached');
    },
  };
}
