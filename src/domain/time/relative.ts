import type { Temporal } from 'temporal-polyfill';

/**
 * How long ago `then` was, in words and coarse on purpose ('há 5 min', 'há 3 h', 'há 2 dias');
 * null under a minute, where callers choose their own word ('agora'). A `then` after `now`
 * (clock skew) counts as just now.
 */
export function timeAgo(then: Temporal.Instant, now: Temporal.Instant): string | null {
  const minutes = Math.max(0, Math.floor(now.since(then).total('minutes')));
  if (minutes < 1) return null;
  if (minutes < 60) return `há ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `há ${hours} h`;
  const days = Math.floor(hours / 24);
  return days === 1 ? 'há 1 dia' : `há ${days} dias`;
}
