import type { PlatformContext } from '../context.ts';
import type { AddressGate, RateLimiter } from './rate-limit.ts';

/** What every auth route handler gets: the platform and the auth service's own state. */
export type AuthDeps = { ctx: PlatformContext; limiter: RateLimiter; recoveryGate: AddressGate };
