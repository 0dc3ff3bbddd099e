import { describe, expect, it } from 'vitest';
import { hasError, parsePix, PixElementType } from 'pix-utils';
import { crc16, staticBrCode, txidFromProtocol } from './br-code.ts';

/** TLV fields of an EMV payload, read independently of the builder. */
function fields(payload: string): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < payload.length;) {
    const id = payload.slice(i, i + 2);
    const len = Number(payload.slice(i + 2, i + 4));
    out.set(id, payload.slice(i + 4, i + 4 + len));
    i += 4 + len;
  }
  return out;
}

const input = {
  key: 'medica@clinica.example',
  name: 'Dra. Ana Ribeiro',
  city: 'São Paulo',
  amountCents: 15000,
  protocol: 'SJ-2026-ABCD-EFGH',
};

describe('staticBrCode: a PIX copia-e-cola another implementation reads back', () => {
  it('decodes (pix-utils) to the amount, key, txid, name and city', () => {
    const code = staticBrCode(input);
    const pix = parsePix(code);
    expect(hasError(pix)).toBe(false);
    if (hasError(pix) || pix.type !== PixElementType.STATIC) throw new Error('not a static pix');
    expect(pix.pixKey).toBe('medica@clinica.example');
    expect(pix.transactionAmount).toBe(150);
    expect(pix.txid).toBe('SJ2026ABCDEFGH');
    expect(pix.merchantName).toBe('DRA. ANA RIBEIRO');
    expect(pix.merchantCity).toBe('SAO PAULO');
  });

  it('ends with the CRC16/CCITT-FALSE of everything before it', () => {
    const code = staticBrCode(input);
    expect(code.slice(-8, -4)).toBe('6304');
    expect(code.slice(-4)).toBe(crc16(code.slice(0, -4)));
    // The reference check value of CRC-16/CCITT-FALSE.
    expect(crc16('123456789')).toBe('29B1');
    const tampered = code.replace('150.00', '015.00');
    expect(crc16(tampered.slice(0, -4))).not.toBe(tampered.slice(-4));
  });

  it.each([
    [15000, '150.00'],
    [13050, '130.50'],
    [5, '0.05'],
  ])('%i cents → field 54 %s', (amountCents, amount) => {
    expect(fields(staticBrCode({ ...input, amountCents })).get('54')).toBe(amount);
  });

  it('keeps name and city to 25 and 15 ASCII characters', () => {
    const f = fields(
      staticBrCode({
        ...input,
        name: 'Dra. Maria da Conceição Albuquerque',
        city: 'Campos dos Goytacazes',
      }),
    );
    expect(f.get('59')).toBe('DRA. MARIA DA CONCEICAO A');
    expect(f.get('60')).toBe('CAMPOS DOS GOYT');
  });

  it.each([
    ['SJ-2026-ABCD-EFGH', 'SJ2026ABCDEFGH'],
    ['', '***'],
    ['a'.repeat(30), 'a'.repeat(25)],
  ])('txid of %s is %s', (protocol, txid) => {
    expect(txidFromProtocol(protocol)).toBe(txid);
  });
});
