/**
 * A static PIX BR Code ("copia e cola"): EMV® QRCPS fields as the Banco Central's BR Code
 * manual lays them out, closed by a CRC16/CCITT-FALSE. Written here rather than taken from an
 * npm package: the ones that exist pull HTTP clients and Node's Buffer into the browser bundle
 * for their dynamic-QR features; the tests decode our codes with one of them (pix-utils).
 */

/** The merchant name and city fields hold at most 25 and 15 characters. */
const NAME_MAX = 25;
const CITY_MAX = 15;
/** A static code's transaction id: up to 25 letters and digits. */
const TXID_MAX = 25;

export type BrCodeInput = {
  /** The key in its stored form (`medicos.pix_chave`). */
  key: string;
  /** Who receives: the doctor's name. */
  name: string;
  city: string;
  amountCents: number;
  /** The guide's protocol; kept to its letters and digits. */
  protocol: string;
};

function field(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** The name and city fields take plain upper-case ASCII: accents dropped, the rest removed. */
export function brCodeText(value: string, max: number): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 .,'-]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase()
    .slice(0, max)
    .trim();
}

/** 'SJ-2026-ABCD-EFGH' → 'SJ2026ABCDEFGH': the txid of a static code is alphanumeric. */
export function txidFromProtocol(protocol: string): string {
  const txid = protocol.replace(/[^A-Za-z0-9]/g, '').slice(0, TXID_MAX);
  return txid || '***';
}

/** CRC16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over the payload, as 4 upper-case hex digits. */
export function crc16(payload: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(payload)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** 15000 → '150.00': the amount field is reais with a dot and two decimals. */
function amountField(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

export function staticBrCode(input: BrCodeInput): string {
  const account = field('00', 'br.gov.bcb.pix') + field('01', input.key);
  const payload =
    field('00', '01') +
    field('26', account) +
    field('52', '0000') +
    field('53', '986') +
    (input.amountCents > 0 ? field('54', amountField(input.amountCents)) : '') +
    field('58', 'BR') +
    field('59', brCodeText(input.name, NAME_MAX) || 'N') +
    field('60', brCodeText(input.city, CITY_MAX) || 'BRASIL') +
    field('62', field('05', txidFromProtocol(input.protocol))) +
    '6304';
  return payload + crc16(payload);
}
