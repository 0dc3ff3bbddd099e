/**
 * Integer cents everywhere (docs/architecture.md §3). The scaled rounding first snaps to 1e-6 so binary
 * float noise (1.005 * 100 = 100.49999…) rounds the way a person reading "1,005" expects.
 */
export function reaisToCents(reais: number): number {
  return Math.round(Math.round(reais * 1_000_000) / 10_000);
}

export function centsToReais(cents: number): number {
  return cents / 100;
}

/**
 * '130,00', '1.234,50', '-5,00': pt-BR digits without the currency (spreadsheet cells, CSV).
 * Missing or unreadable → '0,00'.
 */
export function formatAmount(cents: number | null | undefined): string {
  const value = typeof cents === 'number' && Number.isFinite(cents) ? Math.round(cents) : 0;
  const sign = value < 0 ? '-' : '';
  const absolute = Math.abs(value);
  const reais = Math.floor(absolute / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const centavos = String(absolute % 100).padStart(2, '0');
  return `${sign}${reais},${centavos}`;
}

/**
 * 'R$ 130,00', 'R$ 1.234,50'. A plain space after R$ (Intl puts a no-break space, which differs
 * between engines); dot for thousands and comma for decimals. Missing or unreadable → 'R$ 0,00'.
 */
export function formatCents(cents: number | null | undefined): string {
  const amount = formatAmount(cents);
  return amount.startsWith('-') ? `-R$ ${amount.slice(1)}` : `R$ ${amount}`;
}

export const PRICE_REQUIRED = 'Preço é obrigatório';
export const PRICE_NEGATIVE = 'O preço não pode ser negativo.';
export const PRICE_INVALID = 'Preço inválido. Use números (ex.: 130 ou 130.00).';
/** The input's step is 0.01: a third decimal is refused, never rounded away. */
export const PRICE_TOO_PRECISE = 'O preço aceita no máximo duas casas decimais (ex.: 130,50).';

export type PriceParse = { ok: true; cents: number } | { ok: false; message: string };

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * The doctor-profile price field: '130', '130,50', '130.5'. The comma becomes a dot (docs/product-rules.md §5);
 * anything else that is not a plain decimal (thousand separators, '1e3', '0x10') is invalid, and
 * so is a value between two cents ('10,005'; trailing zeros as in '10,500' are whole cents).
 */
export function parsePriceInput(input: string): PriceParse {
  const text = input.trim().replace(',', '.');
  if (text === '') return { ok: false, message: PRICE_REQUIRED };
  if (!DECIMAL.test(text)) return { ok: false, message: PRICE_INVALID };
  const reais = Number(text);
  if (!Number.isFinite(reais)) return { ok: false, message: PRICE_INVALID };
  if (reais < 0) return { ok: false, message: PRICE_NEGATIVE };
  const decimals = (text.split('.')[1] ?? '').replace(/0+$/, '');
  if (decimals.length > 2) return { ok: false, message: PRICE_TOO_PRECISE };
  return { ok: true, cents: reaisToCents(reais) };
}

/** The value a price input starts with for stored cents: '130.00' (the product-rules example form). */
export function centsToPriceInput(cents: number | null | undefined): string {
  const value = typeof cents === 'number' && Number.isFinite(cents) ? cents : 0;
  return (value / 100).toFixed(2);
}
