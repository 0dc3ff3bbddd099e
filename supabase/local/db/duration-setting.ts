/** Postgres' time units for settings such as `statement_timeout`, in milliseconds. */
const UNIT_MS: Record<string, number> = {
  us: 0.001,
  ms: 1,
  s: 1000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

const known = new Map<string, number | undefined>();

/**
 * Milliseconds of a `statement_timeout` as a role's settings store it ('3s', '1min', '8000' —
 * a bare number is milliseconds), or undefined when it is off ('0') or not understood.
 * Remembered per text: REST asks on every request, with one or two distinct values.
 */
export function durationSettingMs(setting: string | undefined): number | undefined {
  if (setting === undefined) return undefined;
  if (known.has(setting)) return known.get(setting);
  const match = /^\s*(\d+(?:\.\d+)?)\s*(us|ms|s|min|h|d)?\s*$/.exec(setting);
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] ?? 'ms']! : undefined;
  const value = ms ? ms : undefined;
  known.set(setting, value);
  return value;
}
