import { describe, expect, it } from 'vitest';
import { doctorGreeting } from './greeting.ts';

describe('doctorGreeting', () => {
  it("prefixes 'Dr(a).' to the full name", () => {
    expect(doctorGreeting('Ana Ribeiro')).toBe('Dr(a). Ana Ribeiro');
  });

  it('does not double a title the name already has', () => {
    expect(doctorGreeting('Dra. Ana Ribeiro')).toBe('Dr(a). Ana Ribeiro');
    expect(doctorGreeting('Dr. Paulo Mendes')).toBe('Dr(a). Paulo Mendes');
    expect(doctorGreeting('dr paulo')).toBe('Dr(a). paulo');
  });

  it('keeps names that merely start with the same letters', () => {
    expect(doctorGreeting('Drummond Silva')).toBe('Dr(a). Drummond Silva');
  });
});
