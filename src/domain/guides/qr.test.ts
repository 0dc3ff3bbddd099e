import { describe, expect, it } from 'vitest';
import { guideQrValue } from './qr.ts';

describe('guideQrValue', () => {
  it.each([
    [
      'qr text present',
      'SAUDEJA:GUIA:SJ-2026-AB23-CD45:9b2d',
      'SAUDEJA:GUIA:SJ-2026-AB23-CD45:9b2d',
    ],
    ['qr text missing', null, 'protocolo:SJ-2026-AB23-CD45'],
    ['qr text blank', '  ', 'protocolo:SJ-2026-AB23-CD45'],
  ])('%s', (_name, qr_text, expected) => {
    expect(guideQrValue({ qr_text, protocolo: 'SJ-2026-AB23-CD45' })).toBe(expected);
  });
});
