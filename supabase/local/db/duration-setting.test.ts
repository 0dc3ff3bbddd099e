import { describe, expect, it } from 'vitest';
import { durationSettingMs } from './duration-setting.ts';

describe('durationSettingMs', () => {
  it('reads the units Postgres accepts for statement_timeout, a bare number as milliseconds', () => {
    expect(durationSettingMs('3s')).toBe(3000);
    expect(durationSettingMs('8000')).toBe(8000);
    expect(durationSettingMs('250ms')).toBe(250);
    expect(durationSettingMs('1min')).toBe(60_000);
    expect(durationSettingMs('1.5s')).toBe(1500);
    expect(durationSettingMs('2h')).toBe(7_200_000);
  });

  it('is undefined when the timeout is off or absent', () => {
    expect(durationSettingMs('0')).toBeUndefined();
    expect(durationSettingMs(undefined)).toBeUndefined();
    expect(durationSettingMs('soon')).toBeUndefined();
  });
});
