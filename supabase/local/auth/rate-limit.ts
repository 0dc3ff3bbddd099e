import type { RateLimits } from '../project-config.ts';
import { authError } from './errors.ts';

/**
 * Per-IP request limits of `[auth.rate_limit]` in config.toml (project-config.ts), counted in
 * fixed windows in memory — a single local process needs nothing more:
 * `signIn` password grant and sign-up (`sign_in_sign_ups`), `refresh` (`token_refresh`),
 * `verify` the e-mail link and code (`token_verifications`), `email` recover and resend
 * (`email_sent`, per hour).
 */
export type LimitName = keyof RateLimits;

const MAX_TRACKED = 10_000;

export type RateLimiter = { hit(name: LimitName, ip: string): void };

/** `limits` is read per request (undefined: no limits): tests may change the config after start. */
export function createRateLimiter(
  limits: () => RateLimits | undefined,
  now: () => number = Date.now,
): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  // Forget finished windows once many addresses were seen, so memory stays bounded.
  const prune = (t: number, current: RateLimits) => {
    for (const [key, w] of windows) {
      const name = key.slice(0, key.indexOf(':')) as LimitName;
      if (t - w.start >= current[name].windowSeconds * 1000) windows.delete(key);
    }
  };
  return {
    hit(name, ip) {
      const current = limits();
      if (!current) return;
      const { max, windowSeconds } = current[name];
      const key = `${name}:${ip}`;
      const t = now();
      const w = windows.get(key);
      if (!w || t - w.start >= windowSeconds * 1000) {
        if (windows.size >= MAX_TRACKED) prune(t, current);
        windows.set(key, { start: t, count: 1 });
        return;
      }
      w.count += 1;
      if (w.count > max)
        throw authError(429, 'over_request_rate_limit', 'Request rate limit reached');
    },
  };
}

/**
 * One e-mail request per address per `windowSeconds` (GoTrue's `SMTP_MAX_FREQUENCY`), counted
 * for every address asked about, registered or not: GoTrue counts only registered ones, so its
 * 429 told which addresses have an account. The answer is GoTrue's 429 either way.
 */
export type AddressGate = { hit(address: string): void };

export function createAddressGate(
  enabled: () => boolean,
  windowSeconds: number,
  now: () => number = Date.now,
): AddressGate {
  const last = new Map<string, number>();
  const prune = (t: number) => {
    for (const [address, at] of last) if (t - at >= windowSeconds * 1000) last.delete(address);
  };
  return {
    hit(address) {
      if (!enabled()) return;
      const key = address.toLowerCase();
      const t = now();
      const at = last.get(key);
      if (at !== undefined && t - at < windowSeconds * 1000) {
        const wait = Math.max(1, Math.ceil(windowSeconds - (t - at) / 1000));
        throw authError(
          429,
          'over_email_send_rate_limit',
          `For security purposes, you can only request this after ${wait} seconds.`,
        );
      }
      if (last.size >= MAX_TRACKED) prune(t);
      last.set(key, t);
    },
  };
}
